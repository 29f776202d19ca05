"""The torch2cuda guards that decide before anything is built (issue 24): the flag allowlist, the
C++/CUDA source rules and the default-deny Python rules. Standard library only (no torch, no GPU).
Every dataset implementation must pass them (no false positives); each attack form must be refused."""
import glob
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from cudaperf import torch_cpp_rules, torch_static  # noqa: E402

GOOD = os.path.join(ROOT, "tests", "data", "torch_tasks", "torch2cuda", "elementwise", "leaky_relu", "impls",
                    "vectorized.py")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def rules(text):
    return {f["rule"] for f in torch_static.check_candidate(text)["findings"]}


def flag_rules(key, values):
    return {r for r, _ in torch_cpp_rules.check_flags(key, values)}


def source_rules(cu, cpp=""):
    return {r for r, _ in torch_cpp_rules.check_sources([cu], [cpp])}


class Flags(unittest.TestCase):
    def test_allowed(self):
        for f in (["-O3"], ["-O2", "-lineinfo"], ["-std=c++17"], ["-DBLOCK=256", "-DUSE_X"], ["-Xptxas", "-v"],
                  ["-Xptxas=-v"], ["-arch=sm_90"], ["-gencode=arch=compute_90,code=sm_90"], ["--expt-relaxed-constexpr"],
                  ["-O3 -lineinfo"], ["--maxrregcount=64"], ["-Xcompiler", "-O3"], ["-Xcompiler=-O3,-funroll-loops"]):
            self.assertEqual(flag_rules("extra_cuda_cflags", f), set(), f)

    def test_shell_and_unknown_refused(self):
        for f in (["-O3 `id`"], ["-DX=$(id)"], ["-O3;id"], ["-O3", "|", "id"], ["-DX='a b'"], ["-O3 && id"],
                  ["-D X"], ["-Xptxas", "`id`"], ["-Xcompiler", "-fplugin=/tmp/x.so"], ["-include", "/etc/passwd"],
                  ["-I/tmp"], ["-DTORCH_EXTENSION_NAME=other"], ["-arch=sm_80"], ["--compiler-bindir=/tmp"],
                  ["-ccbin", "/tmp/gcc"], ["-Xcompiler=-fplugin=x"], ["-O3\nid"], ["-O3\tid"], ["-DA=b>c"]):
            self.assertIn("build_flags", flag_rules("extra_cuda_cflags", f) | flag_rules("extra_cflags", f), f)

    def test_links_and_paths_refused(self):
        self.assertTrue(flag_rules("extra_ldflags", ["-lcublas"]))
        self.assertTrue(flag_rules("extra_include_paths", ["/usr/include"]))
        self.assertEqual(flag_rules("extra_cuda_cflags", ["-lcublas"]), {"library_call"})

    def test_precision(self):
        self.assertEqual(flag_rules("extra_cuda_cflags", ["--use_fast_math"]), {"precision"})
        self.assertEqual(flag_rules("extra_cflags", ["-Xcompiler=-ffast-math"]), {"precision"})

    def test_functions_are_identifiers(self):
        good = read(GOOD)
        bad = good.replace('functions=["leaky_relu_vec"]', 'functions=["leaky_relu_vec); int x(0"]')
        self.assertNotEqual(bad, good)
        self.assertIn("build_flags", rules(bad))
        bad = good.replace('functions=["leaky_relu_vec"]', 'functions={"leaky_relu_vec": "doc\\"); system(\\"id"}')
        self.assertIn("build_flags", rules(bad))


class Sources(unittest.TestCase):
    KERNEL = "__global__ void k(float* y) { y[0] = 1.f; }\n"

    def test_clean(self):
        cu = ("#include <torch/extension.h>\n#include <ATen/cuda/CUDAContext.h>\n" + self.KERNEL +
              'torch::Tensor f(torch::Tensor x) { TORCH_CHECK(x.is_cuda(), "PyTorch: write() exit"); '
              "auto y = torch::empty_like(x); k<<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(y.data_ptr<float>()); "
              "return y; }  // Py_Initialize write(3) in a comment\n")
        self.assertEqual(source_rules(cu), set())

    def test_each_way_refused(self):
        cases = {
            "python_api": ['extern int PyRun_SimpleString(const char*);', "pybind11::module_::import(\"__main__\");",
                           "py::module_::import(\"sys\");", "Py\\\nRun_SimpleString(0);", "_PyObject_Call(0);"],
            "preprocessor_trick": ["#define C(a,b) a##b\nint C(P,y)(void);", "int \\u0050yRun(void);"],
            "process_or_file": ["void f() { write(3, 0, 0); }", "void f() { _exit(0); }", "long f() { return syscall(1); }",
                                "void f() { ::write(3, 0, 0); }", "auto p = &write;", "void f() { mprotect(0, 0, 7); }",
                                "void f() { exit(0); }", "void f() { open(\"/x\", 1); }"],
            "inline_asm": ['void f() { asm volatile("nop"); }', 'void f() { __asm__("nop"); }'],
            "namespace_alias": ["namespace A = at;", "namespace T = ::torch;", "using namespace at;",
                                "using at::matmul;", "#define NS at\n"],
            "native_access": ['extern "C" int foo(void);'],
            "torch_fallback": ["torch::Tensor f(torch::Tensor a) { return at::matmul(a, a); }",
                               "torch::Tensor f(torch::Tensor a) { return torch::nn::functional::relu(a); }",
                               "torch::Tensor f(torch::Tensor a) { return matmul(a, a); }",
                               "torch::Tensor f(torch::Tensor a) { return a.matmul(a); }",
                               "bool f() { return torch::autograd::profiler::profilerEnabled(); }",
                               "torch::Tensor f(torch::Tensor a) { return at::native::relu(a); }"],
            "include_rule": ['#include "x.h"', "#include <unistd.h>", "#include </etc/passwd>", "#define H <x.h>\n#include H"],
            "library_call": ["#include <cublas_v2.h>", "void f() { cublasCreate(0); }"],
            "stream_or_thread": ["void f() { cudaStream_t s; cudaStreamCreate(&s); }", "void f() { cudaEventRecord(0); }"],
            "device_state": ["void f() { cudaDeviceSynchronize(); }", "void f() { void* p; cudaMalloc(&p, 4); }"],
        }
        for rule, srcs in cases.items():
            for src in srcs:
                self.assertIn(rule, source_rules(self.KERNEL + src), src)

    def test_own_helper_named_like_an_op_is_allowed(self):
        cu = self.KERNEL + "__device__ float relu(float v) { return v > 0.f ? v : 0.f; }\n" \
                           "__global__ void g(float* y) { y[0] = relu(y[0]); }\n"
        self.assertEqual(source_rules(cu), set())

    def test_written_bindings_form(self):
        cpp = 'torch::Tensor f(torch::Tensor x);\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("f", &f, "f"); }\n'
        self.assertEqual(source_rules(self.KERNEL, cpp), set())
        cpp2 = cpp.replace('m.def("f", &f, "f");', 'm.def("f", &f); pybind11::module_::import("os");')
        self.assertIn("python_api", source_rules(self.KERNEL, cpp2))


class PythonDefaultDeny(unittest.TestCase):
    def setUp(self):
        self.good = read(GOOD)
        self.body = self.good.replace("return leaky_relu_vec_ext.leaky_relu_vec(x, self.negative_slope)", "@@STMT@@")
        self.assertNotEqual(self.body, self.good)

    def stmt(self, s, imports=""):
        return rules(imports + self.body.replace("@@STMT@@", s))

    def test_module_attributes_refused(self):
        for s, imp in (("return typing.sys.modules", "import typing\n"), ("return os.path.sys", "import os\n"),
                       ("return torch.sys.modules", ""), ("return torch.ops.aten.relu(x)", ""),
                       ("return torch.nn.modules.module.sys", ""), ("return F.torch", "import torch.nn.functional as F\n"),
                       ("return math.sys", "import math\n"), ("return torch.autograd.profiler", ""),
                       ("return torch._C", ""), ("return torch.cuda.memory", ""), ("return os.system('id')", "import os\n")):
            got = self.stmt(s, imp)
            self.assertTrue(got & {"module_attribute", "private_torch", "torch_fallback", "process_or_file",
                                   "profiler_access"}, (s, got))
        self.assertIn("module_attribute", rules("from torch import sys\n" + self.good))
        self.assertIn("module_attribute", rules("import torch.autograd\n" + self.good))

    def test_module_objects_as_values_refused(self):
        self.assertIn("module_object", rules("import os\n" + self.good + "\nm = os.path\n"))
        self.assertIn("module_object", rules("import typing\n" + self.good + "\nprint(typing)\n"))
        self.assertIn("module_object", rules(self.good + "\nT = torch\n"))
        self.assertIn("monkey_patch", rules(self.good + "\ntorch = None\n"))

    def test_every_function_checked(self):
        helper = "\n\ndef helper(a):\n    return torch.matmul(a, a)\n"
        self.assertIn("torch_fallback", rules(self.good + helper))
        self.assertIn("torch_fallback", rules(self.good + "\nmm = torch.matmul\n"))
        self.assertIn("torch_fallback", rules(self.good + "\nf = lambda a: a @ a\n"))
        self.assertIn("torch_fallback", rules(self.good + "\n\ndef h(a):\n    return a.sum()\n"))
        self.assertIn("torch_fallback", rules("import torch.nn.functional as F\n" + self.good +
                                              "\n\nclass H:\n    def run(self, a):\n        return F.relu(a)\n"))

    def test_builtins(self):
        for s in ("return type(x)", "return dir(x)", "return memoryview(b'')"):
            self.assertIn("forbidden_builtin", self.stmt(s), s)


class DatasetIsClean(unittest.TestCase):
    def test_no_false_positive(self):
        files = glob.glob(os.path.join(ROOT, "data", "tasks", "torch2cuda", "**", "impls", "*.py"), recursive=True) + \
            glob.glob(os.path.join(ROOT, "tests", "data", "torch_tasks", "**", "impls", "*.py"), recursive=True)
        self.assertGreater(len(files), 100)
        for f in files:  # read as Python will import it (a stray "coding: x" in lines 1-2 is an encoding)
            r = torch_static.check_candidate_file(f)
            self.assertNotIn("syntax_error", r, f)
            self.assertEqual(r["findings"], [], f)


if __name__ == "__main__":
    unittest.main()

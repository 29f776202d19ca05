# size: the default-deny guards are one AST visitor whose rules share its scope and alias tracking.
"""Static checks for PyTorch-to-CUDA (torch2cuda) tasks and candidates. Standard library only.

Used by the C++ engine through `python3 -m cudaperf.torch_static ...` (no torch needed):

    candidate FILE            static guards of a candidate (ModelNew + load_inline), JSON
    tasks REQUEST.json        reference/impl checks of task folders (config keys are module globals), JSON
    kb FILE                   a KernelBench problem file: module-level constants and the names it defines, JSON

Every finding names the rule that fired (docs/torch2cuda.md lists them). The guards are a first
line only: the worker's dynamic checks (profiler, output types, every timed output checked) and
the process split (the candidate never sees expected outputs) are what the verdict rests on.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
import json
import re
import sys
import tokenize

from cudaperf import rule_files, torch_cpp_rules

# The candidate's imports, builtins and forbidden torch APIs: config/candidate_policy.toml's
# [torch_python] (what each list means is there).
_POLICY_FILE = "candidate_policy.toml"
_POLICY = rule_files.value(rule_files.load(_POLICY_FILE), "torch_python", dict, _POLICY_FILE)
# Modules a candidate may import (and the only ones). Everything else names its rule.
ALLOWED_IMPORTS = set(rule_files.strings(_POLICY, "allowed_imports", _POLICY_FILE))
IMPORT_RULES = {module: rule for rule in rule_files.value(_POLICY, "import_rules", dict, _POLICY_FILE)
                for module in rule_files.strings(_POLICY, f"import_rules.{rule}", _POLICY_FILE)}
FORBIDDEN_BUILTINS = set(rule_files.strings(_POLICY, "forbidden_builtins", _POLICY_FILE))
FRAME_ATTRS = {"f_back", "f_globals", "f_locals", "f_builtins", "f_code", "f_trace", "gi_frame", "gi_code", "tb_frame",
               "cr_frame", "cr_code", "ag_frame", "ag_code", "tb_next", "co_code", "co_consts", "co_names"}
# Default-deny over module objects: a module may only be the base of an attribute chain that ends on
# an allowed name (a function, class, dtype or constant); never a value of its own (`m = os.path`,
# `f(typing)`), and no attribute outside the allowlist below (`typing.sys`, `os.path.sys`, `torch.ops`).
MODULE_PATHS = {"torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.cuda", "torch.utils",
                "torch.utils.cpp_extension", "os", "os.path", "math", "typing", "__future__"}
MATH_OK = {"pi", "e", "tau", "inf", "nan", "sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "pow", "ceil",
           "floor", "trunc", "fabs", "isqrt", "gcd", "lcm", "prod", "fsum", "sin", "cos", "tan", "asin", "acos",
           "atan", "atan2", "sinh", "cosh", "tanh", "erf", "erfc", "gamma", "lgamma", "isnan", "isinf", "isfinite",
           "copysign", "hypot", "radians", "degrees", "comb", "perm", "factorial", "fmod", "modf", "frexp", "ldexp"}
TYPING_OK = {"Any", "Optional", "List", "Tuple", "Dict", "Union", "Sequence", "Callable", "Iterable", "Mapping",
             "Set", "FrozenSet", "Literal", "Final", "TYPE_CHECKING", "NamedTuple"}
OS_OK = {"os.environ", "os.environ.get", "os.environ.setdefault", "os.getenv", "os.getcwd", "os.sep", "os.cpu_count",
         "os.path.join", "os.path.dirname", "os.path.basename", "os.path.abspath", "os.path.exists",
         "os.path.isfile", "os.path.splitext"}
TORCH_DTYPES = {"float32", "float", "float16", "half", "bfloat16", "float64", "double", "int8", "int16", "int32", "int",
                "int64", "long", "uint8", "bool", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2"}
# torch.<name> a candidate may name (compute functions among them are torch_fallback outside __init__).
TORCH_TOP_OK = TORCH_DTYPES | {
    "Tensor", "Size", "device", "dtype", "finfo", "iinfo", "Generator", "empty", "empty_like", "empty_strided",
    "zeros", "zeros_like", "ones", "ones_like", "full", "full_like", "tensor", "as_tensor", "arange", "linspace",
    "rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "normal", "eye", "no_grad",
    "inference_mode", "is_tensor", "numel", "get_default_dtype", "is_floating_point", "manual_seed", "cat", "stack",
    "contiguous_format", "channels_last", "strided", "float_power"}
TORCH_CLASSES = {"Tensor", "Size", "device", "dtype", "finfo", "iinfo", "Generator"}
TORCH_CUDA_OK = {"current_stream", "current_device", "is_available", "synchronize", "get_device_properties",
                 "device_count", "get_device_name", "get_device_capability"}
NN_CONTAINERS = {"Module", "Parameter", "ParameterList", "ParameterDict", "ModuleList", "ModuleDict", "Sequential",
                 "Identity", "Buffer"}
OS_ALLOWED = {"environ", "path", "getcwd", "sep", "cpu_count", "getenv"}
# torch.* prefixes a candidate may not touch at all, with their rule (None: allowed), longest first:
# the first prefix that matches decides.
TORCH_FORBIDDEN = sorted(((prefix, None if rule == "allowed" else rule)
                          for rule in rule_files.value(_POLICY, "forbidden", dict, _POLICY_FILE)
                          for prefix in rule_files.strings(_POLICY, f"forbidden.{rule}", _POLICY_FILE)),
                         key=lambda p: -len(p[0]))
# Calls allowed inside ModelNew's methods (allocation, metadata, the current stream): any other
# torch.* / F.* call there is a torch fallback.
TORCH_CALL_OK = {"torch.empty", "torch.empty_like", "torch.empty_strided", "torch.zeros", "torch.zeros_like",
                 "torch.ones", "torch.ones_like", "torch.full", "torch.full_like", "torch.tensor", "torch.as_tensor",
                 "torch.device", "torch.Size", "torch.is_tensor", "torch.numel", "torch.no_grad",
                 "torch.inference_mode", "torch.cuda.current_stream", "torch.cuda.current_device",
                 "torch.cuda.is_available", "torch.cuda.synchronize", "torch.cuda.get_device_properties",
                 "torch.nn.Parameter", "torch.nn.ParameterList", "torch.nn.ModuleList", "torch.nn.init",
                 "torch.get_default_dtype", "torch.finfo", "torch.iinfo", "torch.is_floating_point"}
# Tensor methods that compute (a call `.name(` in any function but __init__ is a torch fallback).
COMPUTE_METHODS = {
    "matmul", "mm", "bmm", "addmm", "baddbmm", "addmv", "mv", "dot", "einsum", "relu", "relu_", "sigmoid",
    "sigmoid_", "tanh", "tanh_", "softmax", "log_softmax", "sum", "mean", "amax", "amin", "argmax", "argmin", "prod",
    "cumsum", "cumprod", "exp", "exp_", "log", "log_", "sqrt", "rsqrt", "pow", "pow_", "abs", "clamp", "clamp_",
    "clip", "norm", "var", "std", "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_", "addcmul",
    "addcdiv", "topk", "sort", "gelu", "silu", "logsumexp", "where", "masked_fill", "masked_fill_", "max", "min",
    "maximum", "minimum", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "linear", "layer_norm", "group_norm", "batch_norm", "instance_norm", "leaky_relu",
    "hardtanh", "elu", "selu", "softplus", "erf", "neg", "reciprocal", "square", "cross_entropy", "kl_div",
    "mse_loss", "triu", "tril", "diag", "outer", "cross", "scatter", "scatter_add", "gather", "index_select",
    "floor", "ceil", "round", "sign", "t_", "lerp", "hardsigmoid", "hardswish", "mish", "logaddexp", "median",
    "mode", "any", "all", "count_nonzero", "bincount", "histc", "unfold", "fold", "pad", "interpolate",
    "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool3d",
}
# torch.<name> / torch.nn.functional.<name> functions a candidate may name (compute: torch_fallback
# outside __init__).
TORCH_COMPUTE = COMPUTE_METHODS | {"cat", "stack", "float_power", "normal", "dropout", "embedding", "one_hot",
                                   "normalize", "scaled_dot_product_attention", "cosine_similarity", "nll_loss",
                                   "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "l1_loss", "glu",
                                   "relu6", "logsigmoid", "softsign", "tanhshrink", "threshold", "hinge_embedding_loss",
                                   "triplet_margin_loss", "margin_ranking_loss", "adaptive_avg_pool1d",
                                   "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool2d", "pixel_shuffle",
                                   "cumsum", "flip", "roll", "argsort", "rms_norm", "local_response_norm"}
TORCH_TOP_OK |= TORCH_COMPUTE
# Rules over the CUDA / C++ sources and the flags handed to load_inline: torch_cpp_rules.
LOAD_INLINE_POSITIONAL = ["name", "cpp_sources", "cuda_sources"]
LOAD_INLINE_KEYS = ["name", "cpp_sources", "cuda_sources", "functions", "extra_cflags", "extra_cuda_cflags",
                    "extra_ldflags", "extra_include_paths", "with_cuda", "with_pytorch_error_handling"]
IGNORED_KEYS = {"verbose", "build_directory", "keep_intermediates", "is_python_module", "use_pch",
                "no_implicit_headers", "is_standalone"}

KERNEL_RE = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(?:static\s+|inline\s+)*void\s+"
                       r"(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)")


def finding(rule, line, message):
    return {"rule": rule, "line": line, "message": message}


def kernel_names(sources):
    """`__global__` function names defined in the given CUDA source texts."""
    names = []
    for s in sources:
        for m in KERNEL_RE.finditer(s):
            if m.group(1) not in names:
                names.append(m.group(1))
    return names


def _as_list(v):
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    return list(v)


def canonical_extension(args):
    """The canonical form of one load_inline call (what the build cache is keyed on)."""
    functions = args.get("functions")
    if isinstance(functions, str):
        functions = [functions]
    elif isinstance(functions, (list, tuple)):
        functions = list(functions)
    elif isinstance(functions, dict):
        functions = {str(k): str(v) for k, v in functions.items()}
    return {
        "name": args.get("name"),
        "cpp_sources": _as_list(args.get("cpp_sources")),
        "cuda_sources": _as_list(args.get("cuda_sources")),
        "functions": functions,
        "extra_cflags": _as_list(args.get("extra_cflags")),
        "extra_cuda_cflags": _as_list(args.get("extra_cuda_cflags")),
        "extra_ldflags": _as_list(args.get("extra_ldflags")),
        "extra_include_paths": _as_list(args.get("extra_include_paths")),
        "with_cuda": args.get("with_cuda"),
        "with_pytorch_error_handling": args.get("with_pytorch_error_handling", True),
    }


def extension_key(canonical, salt=""):
    """Content hash of a canonical extension (plus the toolchain salt: torch and CUDA versions)."""
    blob = json.dumps([canonical, salt, "cudaperf-ext-v1"], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def ext_module_name(canonical, key):
    """The Python module name of a built extension (its .so file is <cache>/torch_ext/<key>/<name>.so)."""
    return f"{canonical['name']}_{key[:16]}"


def load_inline_kwargs(canonical):
    """The keyword arguments that rebuild a canonical extension with load_inline (name, build folder
    and verbosity are the caller's); empty extra_* lists go back to None, as load_inline's defaults."""
    kw = {k: canonical[k] for k in ("cpp_sources", "cuda_sources", "functions", "extra_cflags", "extra_cuda_cflags",
                                    "extra_ldflags", "extra_include_paths", "with_cuda", "with_pytorch_error_handling")}
    for k in ("extra_cflags", "extra_cuda_cflags", "extra_ldflags", "extra_include_paths"):
        kw[k] = kw[k] or None
    return kw


def module_path_problem(path):
    """'' when a dotted path rooted at an imported module is allowed as the end of an attribute chain,
    else why not (default-deny: see MODULE_PATHS)."""
    parts = path.split(".")
    if path in MODULE_PATHS:
        return f"uses the module object '{path}' as a value (a module may only be the base of an allowed name)"
    root, rest = parts[0], parts[1:]
    why = f"'{path}' is not on the allowlist of names a candidate may use"
    if root == "math":
        return "" if len(rest) == 1 and rest[0] in MATH_OK else why
    if root == "typing":
        return "" if len(rest) == 1 and rest[0] in TYPING_OK else why
    if root == "os":
        return "" if path in OS_OK else why
    if root == "__future__":
        return ""
    if root != "torch" or not rest:
        return why
    head = rest[0]
    if head in TORCH_TOP_OK:
        return "" if len(rest) == 1 or (head in TORCH_CLASSES and not rest[1].startswith("_")) else why
    if head == "nn" and len(rest) >= 2:
        x = rest[1]
        if x == "functional":
            return "" if len(rest) == 3 and rest[2] in TORCH_COMPUTE else why
        if x == "init":
            return "" if len(rest) == 3 and (re.fullmatch(r"[a-z][a-z0-9_]*_", rest[2]) or
                                             rest[2] == "calculate_gain") else why
        if x in NN_CONTAINERS or (re.fullmatch(r"[A-Z][A-Za-z0-9]*", x) and
                                  not x.startswith(("Lazy", "Uninitialized"))):
            return "" if all(not p.startswith("_") for p in rest[2:]) else why
        return why
    if head == "cuda":
        return "" if len(rest) == 2 and rest[1] in TORCH_CUDA_OK else why
    if head == "utils":
        return "" if rest[1:] == ["cpp_extension", "load_inline"] else why
    return why


def is_torch_compute(path):
    """torch.<f> / torch.nn.functional.<f> that computes (not allocation, a class or a dtype)."""
    parts = path.split(".")
    if len(parts) == 2 and parts[0] == "torch":
        return parts[1] in TORCH_COMPUTE and path not in TORCH_CALL_OK
    return len(parts) == 4 and parts[:3] == ["torch", "nn", "functional"]


class _Env:
    """Module-level constants a static evaluator can see (strings, numbers, lists of them)."""

    UNKNOWN = object()

    def __init__(self):
        self.values = {}

    def eval(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.values.get(node.id, self.UNKNOWN)
        if isinstance(node, (ast.List, ast.Tuple)):
            out = [self.eval(e) for e in node.elts]
            return self.UNKNOWN if any(o is self.UNKNOWN for o in out) else out
        if isinstance(node, ast.Dict):
            ks = [self.eval(k) if k is not None else self.UNKNOWN for k in node.keys]
            vs = [self.eval(v) for v in node.values]
            if any(x is self.UNKNOWN for x in ks + vs):
                return self.UNKNOWN
            return dict(zip(ks, vs))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.eval(node.left), self.eval(node.right)
            if a is self.UNKNOWN or b is self.UNKNOWN:
                return self.UNKNOWN
            try:
                return a + b
            except TypeError:
                return self.UNKNOWN
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(str(v.value))
                elif isinstance(v, ast.FormattedValue) and v.conversion == -1 and v.format_spec is None:
                    x = self.eval(v.value)
                    if x is self.UNKNOWN:
                        return self.UNKNOWN
                    parts.append(str(x))
                else:
                    return self.UNKNOWN
            return "".join(parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            x = self.eval(node.operand)
            return -x if isinstance(x, (int, float)) else self.UNKNOWN
        return self.UNKNOWN


class CandidateChecker(ast.NodeVisitor):
    """Walks a candidate module once: imports, names, attributes, patches, ModelNew's methods."""

    def __init__(self, text):
        self.text = text
        self.findings = []
        self.aliases = {}          # local name -> dotted module path ("F" -> "torch.nn.functional")
        self.env = _Env()
        self.extensions = []       # resolved load_inline calls (canonical) or {"unresolved": why}
        self.model_new = None
        self.in_model_new_method = None
        self.functions = []        # names of the enclosing functions / lambdas, innermost last
        self.torch_layers = set()  # self.<attr> names assigned torch.nn layers in ModelNew.__init__
        self.load_inline_names = set()  # module-level names bound to a load_inline result
        self.ext_attrs = set()          # self.<attr> bound to one of them in ModelNew.__init__

    def add(self, rule, node, msg):
        self.findings.append(finding(rule, getattr(node, "lineno", 0), msg))

    # -- names and dotted paths
    def dotted(self, node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            base = self.aliases.get(node.id)
            if base is None:
                return None
            return ".".join([base] + list(reversed(parts)))
        return None

    def visit_Import(self, node):
        for a in node.names:
            self.check_import(node, a.name)
            if a.name.split(".")[0] in ("torch", "os", "math", "typing") and a.name not in MODULE_PATHS:
                n = len(self.findings)
                self.check_dotted(node, a.name)
                if len(self.findings) == n:
                    self.add("module_attribute", node, f"imports '{a.name}' (only torch, torch.nn, "
                                                       f"torch.nn.functional, torch.cuda, torch.utils.cpp_extension, "
                                                       f"math, typing, os)")
            if a.asname:
                self.aliases[a.asname] = a.name
            else:
                self.aliases[a.name.split(".")[0]] = a.name.split(".")[0]

    def visit_ImportFrom(self, node):
        mod = "." * node.level + (node.module or "")
        if node.level:
            self.add("forbidden_import", node,
                     f"relative import 'from {mod} import ...' (only torch, math, typing, os)")
            return
        for a in node.names:
            full = f"{mod}.{a.name}"
            if a.name == "*":
                self.add("forbidden_import", node, f"'from {mod} import *' hides what is used")
                continue
            if full in ALLOWED_IMPORTS or mod in ("torch", "torch.nn") and full not in dict(TORCH_FORBIDDEN):
                self.check_import(node, mod)
            elif mod == "torch.utils.cpp_extension":
                if a.name != "load_inline":
                    self.add("build_api", node, f"torch.utils.cpp_extension.{a.name}: only load_inline is allowed")
            elif mod == "typing" or mod == "math" or mod == "__future__":
                pass
            else:
                self.check_import(node, mod)
            self.aliases[a.asname or a.name] = full
            n = len(self.findings)
            self.check_dotted(node, full)
            if len(self.findings) == n and full not in MODULE_PATHS and (why := module_path_problem(full)):
                self.add("module_attribute", node, why)

    def check_import(self, node, name):
        top = name.split(".")[0]
        if name in ALLOWED_IMPORTS or (top == "torch" and name.startswith(("torch.nn", "torch.utils.cpp_extension"))):
            self.check_dotted(node, name)
            return
        if top == "torch":
            self.check_dotted(node, name)
            return
        rule = IMPORT_RULES.get(top) or IMPORT_RULES.get(name) or "forbidden_import"
        self.add(rule, node, f"imports '{name}' (a candidate may import only torch, torch.nn, "
                             f"torch.nn.functional, torch.utils.cpp_extension.load_inline, math, typing, os)")

    def check_dotted(self, node, path, import_default=None):
        if not path:
            return
        parts = path.split(".")
        if parts[0] == "torch" and any(p.startswith("_") and not (p.startswith("__") and p.endswith("__"))
                                       for p in parts[1:]):
            self.add("private_torch", node, f"uses the private torch API '{path}'")
            return
        if parts[0] == "os" and len(parts) > 1 and parts[1] not in OS_ALLOWED:
            self.add("process_or_file", node, f"uses '{path}' (os: only environ, path, getcwd, cpu_count)")
            return
        for prefix, rule in TORCH_FORBIDDEN:
            if path == prefix or path.startswith(prefix + "."):
                if rule is None:
                    return
                self.add(rule, node, f"uses '{path}'")
                return
        if import_default:
            self.add(import_default, node, f"imports '{path}'")

    def compute_scope(self):
        """Inside a function or lambda that is not (inside) an __init__: where a candidate's forward
        computation may run, so torch compute there is a fallback (every function, not only ModelNew's)."""
        return bool(self.functions) and "__init__" not in self.functions

    def where(self):
        return f"{self.functions[-1]}()" if self.functions else "module level"

    def leaf_check(self, node, path):
        """The end of an attribute chain (or a bare name) that resolves to `path` under an import."""
        n = len(self.findings)
        self.check_dotted(node, path)
        if len(self.findings) != n:
            return
        why = module_path_problem(path)
        if why:
            self.add("module_object" if path in MODULE_PATHS else "module_attribute", node, why)
            return
        parent = getattr(node, "_parent", None)
        called = isinstance(parent, ast.Call) and parent.func is node
        if not called and is_torch_compute(path) and "__init__" not in self.functions:
            self.add("torch_fallback", node, f"{self.where()} names the PyTorch function '{path}' (kept or passed "
                                             f"around, it would run in place of the candidate's kernels)")

    def visit_Name(self, node):
        if node.id in FORBIDDEN_BUILTINS:
            self.add("forbidden_builtin", node, f"uses the builtin '{node.id}'")
        if node.id in ("Model",) and isinstance(node.ctx, ast.Load):
            self.add("reference_access", node, "refers to 'Model' (the reference class is not the candidate's)")
        if node.id in self.aliases:
            if not isinstance(node.ctx, ast.Load):
                self.add("monkey_patch", node, f"rebinds the imported name '{node.id}'")
            else:
                parent = getattr(node, "_parent", None)
                if not (isinstance(parent, ast.Attribute) and parent.value is node):
                    self.leaf_check(node, self.aliases[node.id])
        self.generic_visit(node)

    def visit_arg(self, node):
        if node.arg in self.aliases:
            self.add("monkey_patch", node, f"a parameter shadows the imported name '{node.arg}'")
        self.generic_visit(node)

    def visit_Attribute(self, node):
        a = node.attr
        if a.startswith("__") and a.endswith("__") and a != "__init__":
            self.add("introspection", node, f"accesses the dunder attribute '{a}'")
        elif a in FRAME_ATTRS:
            self.add("introspection", node, f"accesses the frame/code attribute '{a}'")
        elif a in ("_make_subclass", "_make_wrapper_subclass", "__torch_function__", "__torch_dispatch__"):
            self.add("tensor_subclass", node, f"uses '{a}'")
        path = self.dotted(node)
        if path and not isinstance(getattr(node, "_parent", None), ast.Attribute):
            self.leaf_check(node, path)
        self.generic_visit(node)

    def visit_Try(self, node):
        self.add("silent_fallback", node, "try/except: a candidate may not catch errors (a fallback path hides "
                                          "kernels that fail)")
        self.generic_visit(node)

    visit_TryStar = visit_Try

    def visit_Global(self, node):
        self.add("introspection", node, "'global' statement")

    def check_target(self, t):
        if isinstance(t, ast.Attribute):
            path = self.dotted(t)
            if path:
                self.add("monkey_patch", t, f"assigns to '{path}' (patching a module)")
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                self.check_target(e)

    def is_load_inline_call(self, node):
        if not isinstance(node, ast.Call):
            return False
        path = self.dotted(node.func)
        return path == "torch.utils.cpp_extension.load_inline"

    def visit_Assign(self, node):
        for t in node.targets:
            self.check_target(t)
        if self.is_load_inline_call(node.value) and self.in_model_new_method is None:
            for t in node.targets:
                if isinstance(t, ast.Name):
                    self.load_inline_names.add(t.id)
        if self.in_model_new_method == "__init__" and isinstance(node.value, ast.Name) and \
                node.value.id in self.load_inline_names:
            for t in node.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    self.ext_attrs.add(t.attr)
        if self.model_new is None and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
                self.in_model_new_method is None:
            v = self.env.eval(node.value)
            if v is not _Env.UNKNOWN:
                self.env.values[node.targets[0].id] = v
        if self.in_model_new_method == "__init__":
            for t in node.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" and \
                        isinstance(node.value, ast.Call):
                    path = self.dotted(node.value.func) or ""
                    if path.startswith("torch.nn.") and path not in TORCH_CALL_OK and \
                            not path.startswith("torch.nn.init") and not path.startswith("torch.nn.functional"):
                        self.torch_layers.add(t.attr)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self.check_target(node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        self.check_target(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node):
        for t in node.targets:
            self.check_target(t)
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        self.functions.append(node.name)
        try:
            self._visit_function(node)
        finally:
            self.functions.pop()

    def _visit_function(self, node):
        if node.name in ("__torch_function__", "__torch_dispatch__"):
            self.add("tensor_subclass", node, f"defines {node.name}")
        elif node.name.startswith("__") and node.name.endswith("__") and node.name not in ("__init__",):
            self.add("introspection", node, f"defines the special method {node.name}")
        for d in node.decorator_list:
            self.visit(d)
        self.visit(node.args)
        if node.returns:
            self.visit(node.returns)
        for s in node.body:
            self.visit(s)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self.functions.append("<lambda>")
        try:
            self.generic_visit(node)
        finally:
            self.functions.pop()

    def visit_ClassDef(self, node):
        for b in node.bases:
            path = self.dotted(b) or ""
            if path in ("torch.Tensor", "torch.nn.Parameter") or path.startswith("torch._subclasses"):
                self.add("tensor_subclass", node, f"class {node.name} subclasses {path} (fake/lazy tensors)")
            if isinstance(b, ast.Name) and b.id == "Model":
                self.add("reference_access", node, f"class {node.name} derives from Model (the reference)")
        for k in node.keywords:
            if k.arg == "metaclass":
                self.add("introspection", node, f"class {node.name} sets a metaclass")
        if node.name == "ModelNew":
            self.model_new = node
            for s in node.body:
                if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    prev = self.in_model_new_method
                    self.in_model_new_method = s.name
                    self.visit(s)
                    self.in_model_new_method = prev
                else:
                    self.visit(s)
            for b in node.bases:
                self.visit(b)
            for d in node.decorator_list:
                self.visit(d)
            return
        self.generic_visit(node)

    def visit_BinOp(self, node):
        if isinstance(node.op, ast.MatMult) and self.compute_scope():
            self.add("torch_fallback", node, f"{self.where()} uses '@' (a torch matmul)")
        self.generic_visit(node)

    def visit_Call(self, node):
        path = self.dotted(node.func)
        if path == "torch.utils.cpp_extension.load_inline":
            self.resolve_load_inline(node)
        if self.compute_scope():
            where = (f"ModelNew.{self.in_model_new_method}" if self.in_model_new_method == self.functions[-1]
                     else self.where())
            if path and (path.startswith("torch.") or path == "torch") and path not in TORCH_CALL_OK and \
                    not path.startswith("torch.nn.init") and not path.startswith("torch.utils.cpp_extension"):
                self.add("torch_fallback", node, f"{where} calls '{path}' (the core computation must be the "
                                                 f"candidate's own kernels)")
            elif isinstance(node.func, ast.Attribute) and path is None:
                f = node.func
                on_ext = (isinstance(f.value, ast.Name) and f.value.id in self.load_inline_names) or \
                    (isinstance(f.value, ast.Attribute) and isinstance(f.value.value, ast.Name) and
                     f.value.value.id == "self" and f.value.attr in self.ext_attrs)
                if on_ext:
                    pass
                elif f.attr in COMPUTE_METHODS:
                    self.add("torch_fallback", node, f"{where} calls the tensor method '.{f.attr}()'")
                elif isinstance(f.value, ast.Name) and f.value.id == "self" and f.attr in self.torch_layers:
                    self.add("torch_fallback", node, f"{where} calls the torch layer 'self.{f.attr}'")
                elif isinstance(f.value, ast.Call) and isinstance(f.value.func, ast.Name) and \
                        f.value.func.id == "super" and f.attr == "forward":
                    self.add("torch_fallback", node, f"{where} calls super().forward")
        self.generic_visit(node)

    def resolve_load_inline(self, node):
        args = {}
        why = None
        for i, a in enumerate(node.args):
            if i >= len(LOAD_INLINE_POSITIONAL):
                why = "pass the arguments after cuda_sources by keyword"
                break
            args[LOAD_INLINE_POSITIONAL[i]] = a
        for k in node.keywords:
            if k.arg is None:
                why = "**kwargs in load_inline"
            elif k.arg in LOAD_INLINE_KEYS:
                args[k.arg] = k.value
            elif k.arg not in IGNORED_KEYS:
                why = f"unsupported load_inline argument '{k.arg}'"
        values = {}
        for k, v in args.items():
            x = self.env.eval(v)
            if x is _Env.UNKNOWN:
                why = why or f"load_inline argument '{k}' is not built from module-level constants"
            else:
                values[k] = x
        line = node.lineno
        if why:
            self.extensions.append({"unresolved": why, "line": line})
            return
        if not isinstance(values.get("name"), str) or not re.fullmatch(r"[A-Za-z_]\w*", values["name"]):
            self.extensions.append({"unresolved": "load_inline name must be an identifier string", "line": line})
            return
        canon = canonical_extension(values)
        self.extensions.append({"canonical": canon, "line": line})

    def finish(self, tree):
        if self.model_new is None:
            self.findings.append(finding("no_model_new", 0, "the candidate defines no class ModelNew"))
        if not self.extensions:
            self.findings.append(finding("no_load_inline", 0, "the candidate builds no CUDA code with "
                                         "torch.utils.cpp_extension.load_inline"))
        sources = []
        for e in self.extensions:
            c = e.get("canonical")
            if not c:
                continue
            sources += c["cuda_sources"]
            for rule, msg in torch_cpp_rules.check_sources(c["cuda_sources"], c["cpp_sources"]):
                self.findings.append(finding(rule, e["line"], msg))
            for key in ("extra_cflags", "extra_cuda_cflags", "extra_ldflags", "extra_include_paths"):
                for rule, msg in torch_cpp_rules.check_flags(key, c[key]):
                    self.findings.append(finding(rule, e["line"], msg))
            for rule, msg in check_functions(c["functions"]):
                self.findings.append(finding(rule, e["line"], msg))
        if self.extensions and all("canonical" in e for e in self.extensions) and not kernel_names(sources):
            self.findings.append(finding("no_kernel", 0, "the CUDA sources define no __global__ kernel"))


strip_c_comments = torch_cpp_rules.strip_c_comments


def check_functions(functions):
    """load_inline writes `functions` into the generated C++ bindings (m.def("name", &name, "doc")):
    names must be identifiers and docstrings plain text, or they would add code the guards never saw."""
    if functions is None:
        return []
    items = functions.items() if isinstance(functions, dict) else [(f, "") for f in functions]
    out = []
    for name, doc in items:
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            out.append(("build_flags", f"functions: {name!r} is not an identifier"))
        elif not isinstance(doc, str) or not re.fullmatch(r"[A-Za-z0-9 _.,:;()+*/=-]*", doc):
            out.append(("build_flags", f"functions: the docstring of '{name}' may hold letters, digits, spaces and "
                                       f"simple punctuation only"))
    return out


def read_source(path):
    """(text, note): the file's text exactly as Python's import decodes it (importlib's decode_source: a
    PEP 263 declaration in its first two lines, a UTF-8 BOM, universal newlines) — the guards must read
    what will run — and a note when that text is not the file's UTF-8 reading (a declared `utf-7` turns
    `+AAo-` inside a comment into a new line of code), else None. Raises OSError, and SyntaxError where
    Python could not load the file either."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        enc, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as e:
        raise SyntaxError(f"Python reads lines 1-2 for a source-encoding declaration (PEP 263) and cannot load "
                          f"the file: {e.msg}") from None
    try:
        text = importlib.util.decode_source(raw)
    except (UnicodeDecodeError, LookupError) as e:
        raise SyntaxError(f"Python cannot decode the file as {enc}: {e}") from None
    try:
        utf8 = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError:
        utf8 = None
    note = None if enc in ("utf-8", "utf-8-sig") or utf8 == text else (
        f"the file declares the source encoding '{enc}' (PEP 263, line 1 or 2), under which Python runs other "
        f"text than its UTF-8 reading: only UTF-8 sources are accepted")
    return text, note


def check_candidate_file(path):
    """check_candidate on a file, read as Python will import it (read_source); a declared encoding
    that changes the text is a finding of its own (`source_encoding`)."""
    try:
        text, note = read_source(path)
    except SyntaxError as e:
        return {"syntax_error": f"{path}:1: {e.msg}", "findings": [], "extensions": [], "kernels": []}
    r = check_candidate(text, path)
    if note and "syntax_error" not in r:
        r["findings"].insert(0, finding("source_encoding", 1, note))
    return r


def check_candidate(text, filename="<candidate>"):
    """Static guards of a candidate: {"findings": [...], "extensions": [...], "kernels": [...]}."""
    try:
        tree = ast.parse(text, filename=filename)
    except SyntaxError as e:
        return {"syntax_error": f"{filename}:{e.lineno or 1}: {e.msg}", "findings": [], "extensions": [], "kernels": []}
    for parent in ast.walk(tree):  # parents first: a chain's end and a call's function are known on the way down
        for child in ast.iter_child_nodes(parent):
            child._parent = parent
    c = CandidateChecker(text)
    c.visit(tree)
    c.finish(tree)
    seen, findings = set(), []
    for f in c.findings:
        key = (f["rule"], f["line"], f["message"])
        if key not in seen:
            seen.add(key)
            findings.append(f)
    srcs = [s for e in c.extensions if "canonical" in e for s in e["canonical"]["cuda_sources"]]
    return {"findings": findings, "extensions": c.extensions, "kernels": kernel_names(srcs)}


# ---------------------------------------------------------------- tasks

def module_names(tree):
    """Names bound at module level (assignments, defs, classes, imports)."""
    names = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        names[n.id] = node
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                names[(a.asname or a.name).split(".")[0]] = node
    return names


def check_reference(path, config_keys):
    problems = []
    try:
        text, note = read_source(path)
    except OSError as e:
        return [f"{path}: cannot read: {e}"]
    except SyntaxError as e:
        return [f"{path}:1: does not parse: {e.msg}"]
    if note:
        problems.append(f"{path}:1: {note}")
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        return [f"{path}:{e.lineno}: does not parse: {e.msg}"]
    names = module_names(tree)
    for need, kind in (("Model", ast.ClassDef), ("get_inputs", ast.FunctionDef), ("get_init_inputs", ast.FunctionDef)):
        if not isinstance(names.get(need), kind):
            problems.append(f"{path}: no module-level {'class' if kind is ast.ClassDef else 'function'} '{need}' "
                            f"(KernelBench format)")
    for k in config_keys:
        node = names.get(k)
        if node is None:
            problems.append(f"{path}: config key '{k}' is not a module-level name of reference.py (configs set "
                            f"module globals before get_inputs()/get_init_inputs())")
        elif not isinstance(node, (ast.Assign, ast.AnnAssign)):
            problems.append(f"{path}:{node.lineno}: config key '{k}' names a {type(node).__name__}, not a "
                            f"module-level constant")
    return problems


def check_impl(path, strategy):
    problems = []
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as ex:
        return [f"{path}: cannot read: {ex}"]
    first = text.split("\n", 1)[0]
    m = re.match(r"#\s*strategy:\s*(\S+)", first)
    if not m:
        problems.append(f"{path}:1: first line must be \"# strategy: {strategy} — <what it does>\"")
    elif m.group(1) != strategy:
        problems.append(f"{path}:1: strategy line names '{m.group(1)}' but the file is {strategy}.py")
    r = check_candidate_file(path)
    if "syntax_error" in r:
        return problems + [f"{r['syntax_error']} (does not parse)"]
    for f in r["findings"]:
        problems.append(f"{path}:{f['line']}: rule {f['rule']}: {f['message']}")
    for e in r["extensions"]:
        if "unresolved" in e:
            problems.append(f"{path}:{e['line']}: load_inline cannot be built ahead of the run: {e['unresolved']}")
    return problems


def check_tasks(request):
    """request: {"tasks": [{"dir", "reference", "config_keys": [...], "impls": {strategy: path}}]}"""
    out = []
    for t in request.get("tasks", []):
        res = {"dir": t["dir"], "reference": check_reference(t["reference"], t.get("config_keys", [])), "impls": {}}
        for strategy, path in sorted(t.get("impls", {}).items()):
            res["impls"][strategy] = check_impl(path, strategy)
        out.append(res)
    return {"tasks": out}


# ---------------------------------------------------------------- KernelBench import

def kb_constants(path):
    """Module-level number/bool/string constants of a KernelBench problem file, in file order, and the
    names it defines; constants used by get_inputs/get_init_inputs are marked."""
    try:
        text = read_source(path)[0]
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        return {"error": f"{path}:{e.lineno or 1}: does not parse: {e.msg}"}
    names = module_names(tree)
    env = _Env()
    consts = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = env.eval(node.value)
            if v is not _Env.UNKNOWN:
                env.values[node.targets[0].id] = v
            if isinstance(v, bool) or isinstance(v, (int, float, str)) or \
                    (isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)):
                consts.append({"name": node.targets[0].id, "value": v, "line": node.lineno})
    used = set()
    for fn in ("get_inputs", "get_init_inputs"):
        node = names.get(fn)
        if isinstance(node, ast.FunctionDef):
            for n in ast.walk(node):
                if isinstance(n, ast.Name):
                    used.add(n.id)
    for c in consts:
        c["used"] = c["name"] in used
    return {"constants": consts, "has_model": isinstance(names.get("Model"), ast.ClassDef),
            "has_get_inputs": isinstance(names.get("get_inputs"), ast.FunctionDef),
            "has_get_init_inputs": isinstance(names.get("get_init_inputs"), ast.FunctionDef),
            "docstring": (ast.get_docstring(names["Model"]) or "").strip().split("\n")[0]
            if isinstance(names.get("Model"), ast.ClassDef) else ""}


def main(argv):
    if len(argv) < 3 or argv[1] not in ("candidate", "tasks", "kb"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "candidate":
        r = check_candidate_file(argv[2])
        if len(argv) > 3:  # the toolchain salt: give each resolved extension its cache key and module name
            for e in r["extensions"]:
                if "canonical" in e:
                    e["key"] = extension_key(e["canonical"], argv[3])
                    e["module"] = ext_module_name(e["canonical"], e["key"])
        print(json.dumps(r))
    elif argv[1] == "tasks":
        print(json.dumps(check_tasks(json.load(open(argv[2], encoding="utf-8")))))
    else:
        print(json.dumps(kb_constants(argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

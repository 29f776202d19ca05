"""Rules over what a torch2cuda candidate hands to load_inline: its C++/CUDA sources and its compiler
flags (docs/torch2cuda.md, "Guards"). Standard library only.

Both are default-deny. The sources are read after translation phases 1-2 (line splices joined) with
comments and string/character literals blanked, so a banned word cannot hide behind a backslash-newline,
a comment or token pasting, and a word inside a message string is not a finding. Flags are checked
token by token against an allowlist: load_inline joins them into build.ninja, which runs every
command through /bin/sh, so a token outside the allowlist (or any shell metacharacter) is refused
before anything is built.
"""
from __future__ import annotations

import re

from cudaperf import rule_files

# ---------------------------------------------------------------- flags

# The characters a flag token may contain: no shell metacharacter, quote, space, $, `, ;, |, &, <, >,
# (, ), *, ?, [, ], {, }, ~, !, #, backslash or newline.
FLAG_CHARS = re.compile(r"[A-Za-z0-9_=+.,:/-]+")
_ARCH = r"(?:sm|compute)_90a?"
# The allowlist (full matches), host (extra_cflags) and device (extra_cuda_cflags) alike.
FLAG_OK = [
    r"-O[0-3s]?", r"-std=(?:c|gnu)\+\+(?:14|17|20)", r"--?use_fast_math", r"-lineinfo", r"--?generate-line-info",
    r"-g", r"-w", r"-Wall", r"-Wextra", r"-Wno-[a-z0-9-]+", r"--expt-relaxed-constexpr", r"--expt-extended-lambda",
    r"--extended-lambda", r"-D[A-Za-z_]\w*(?:=[A-Za-z0-9_.+-]*)?", r"-U[A-Za-z_]\w*",
    rf"-arch={_ARCH}", rf"--gpu-architecture={_ARCH}", rf"-code={_ARCH}(?:,{_ARCH})*",
    rf"-gencode=arch=compute_90a?,code={_ARCH}", rf"--generate-code=arch=compute_90a?,code={_ARCH}",
    r"-Xptxas=-v", r"-Xptxas=-O[0-3]", r"--ptxas-options=-v", r"--ptxas-options=-O[0-3]", r"-res-usage",
    r"--resource-usage", r"--?maxrregcount=\d{1,3}", r"-ftz=(?:true|false)", r"-prec-div=(?:true|false)",
    r"-prec-sqrt=(?:true|false)", r"-fmad=(?:true|false)", r"-funroll-loops", r"-ffast-math", r"-march=native",
    r"-mtune=native", r"-fPIC", r"--restrict", r"-restrict",
]
_FLAG_OK = re.compile("|".join(f"(?:{p})" for p in FLAG_OK))
# Tokens that take the next token as their value: the value must be one of these.
FLAG_PAIRS = {"-Xptxas": re.compile(r"-v|-O[0-3]"), "-arch": re.compile(_ARCH), "-code": re.compile(_ARCH),
              "-gencode": re.compile(rf"arch=compute_90a?,code={_ARCH}"), "-maxrregcount": re.compile(r"\d{1,3}"),
              "-Xcompiler": None}  # -Xcompiler: the next token must itself pass the allowlist
PRECISION = re.compile(r"fast[-_]math|^-ftz=true$|^-prec-div=false$|^-prec-sqrt=false$|^-fmad=true$")
_DEFINE_RESERVED = re.compile(r"-[DU]\s*(?:TORCH_EXTENSION_NAME|TORCH_API_INCLUDE_EXTENSION_H|PYBIND11\w*|_GLIBCXX\w*|"
                              r"__\w*)\b")


def check_flags(key, values):
    """Findings [(rule, message)] for one extra_* argument of load_inline (a list of strings; each
    string may hold several space-separated tokens, as load_inline joins them with spaces)."""
    out = []
    if key in ("extra_ldflags", "extra_include_paths"):
        for v in values:
            out.append(("build_flags", f"{key} is not allowed (nothing is linked or included from outside): {v!r}"))
        return out
    tokens = []
    for v in values:
        if not isinstance(v, str):
            out.append(("build_flags", f"{key}: {v!r} is not a string"))
            continue
        tokens += v.split(" ")
    i = 0
    while i < len(tokens):
        t = tokens[i]
        i += 1
        if t == "":
            continue
        if not FLAG_CHARS.fullmatch(t):
            out.append(("build_flags", f"{key}: {t!r} contains a character a flag may not have (the build runs its "
                                       f"commands through a shell)"))
            continue
        if _DEFINE_RESERVED.match(t):
            out.append(("build_flags", f"{key}: {t!r} redefines a name the build sets"))
            continue
        if t in FLAG_PAIRS:
            nxt = tokens[i] if i < len(tokens) else ""
            i += 1
            want = FLAG_PAIRS[t]
            ok = FLAG_CHARS.fullmatch(nxt) is not None and (
                _FLAG_OK.fullmatch(nxt) is not None if want is None else want.fullmatch(nxt) is not None)
            if not ok:
                out.append(("build_flags", f"{key}: {t} {nxt!r} is not on the flag allowlist"))
            elif PRECISION.search(nxt):
                out.append(("precision", f"{key}: a fast-math / flush-to-zero flag: '{t} {nxt}'"))
            continue
        if t.startswith("-Xcompiler="):
            inner = t[len("-Xcompiler="):].split(",")
            bad = [x for x in inner if not _FLAG_OK.fullmatch(x)]
            if bad:
                out.append(("build_flags", f"{key}: {t!r} is not on the flag allowlist"))
            elif any(PRECISION.search(x) for x in inner):
                out.append(("precision", f"{key}: a fast-math / flush-to-zero flag: {t!r}"))
            continue
        if not _FLAG_OK.fullmatch(t):
            rule = "library_call" if re.match(r"-l|-L", t) else "build_flags"
            out.append((rule, f"{key}: {t!r} is not on the flag allowlist (optimisation levels, -std=, -lineinfo, "
                              f"-D<name>[=<value>], sm_90 architecture, -Xptxas -v, --expt-relaxed-constexpr, ...)"))
            continue
        if PRECISION.search(t):
            out.append(("precision", f"{key}: a fast-math / flush-to-zero flag: {t!r}"))
    return out


# ---------------------------------------------------------------- sources

def splice_lines(text):
    """Translation phase 2: backslash-newline joins two lines (also with trailing spaces, as gcc)."""
    return re.sub(r"\\[ \t]*\r?\n", "", text)


def blank_comments_and_literals(text):
    """The source with comments, string literals (raw ones too) and character literals replaced by a
    space / an empty literal: the rules see code only."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and \
                (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            i = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""')
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            out.append(c + c)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


# The bindings load_inline generates (functions=...) are not in the candidate's text. A candidate
# that writes its own module must write exactly this form: PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
# { m.def("name", &name[, "doc"]); ... } (after literal blanking the strings read "").
BINDINGS = re.compile(r"PYBIND11_MODULE\s*\(\s*TORCH_EXTENSION_NAME\s*,\s*m\s*\)\s*\{(?:\s*m\s*\.\s*def\s*\(\s*\"\"\s*,"
                      r"\s*&?\s*[A-Za-z_]\w*\s*(?:,\s*\"\"\s*)?\)\s*;)*\s*\}")
# Qualified names in the torch namespaces a candidate may use: tensors, dtypes, allocation, options,
# the current stream and device guards. Any other torch::/at::/c10:: name is an operator or an API a
# kernel launcher does not need.
QUALIFIED_OK = re.compile(
    r"(?:torch|at)::(?:Tensor|TensorOptions|ScalarType|Dtype|IntArrayRef|Scalar|Device|DeviceType|Half|BFloat16|"
    r"k[A-Z]\w*|empty|empty_like|empty_strided|zeros|zeros_like|ones|ones_like|full|full_like|dtype|device|"
    r"MemoryFormat|Layout|nullopt|optional|cuda::getCurrentCUDAStream|cuda::CUDAStream|cuda::CUDAGuard|"
    r"cuda::OptionalCUDAGuard|cuda::getCurrentDeviceProperties|cuda::current_device)|"
    r"c10::(?:Half|BFloat16|ScalarType|IntArrayRef|optional|nullopt|k[A-Z]\w*|cuda::getCurrentCUDAStream|"
    r"cuda::CUDAStream|cuda::CUDAGuard|cuda::OptionalCUDAGuard|cuda::current_device)")
QUALIFIED = re.compile(r"(?<![\w:])(?:::\s*)?(torch|at|c10)((?:\s*::\s*[A-Za-z_]\w*)+)")
# Tensor methods that compute (as in torch_static.COMPUTE_METHODS) called from C++ (`x.matmul(`).
CPP_COMPUTE_METHOD = re.compile(
    r"(?:\.|->)\s*(matmul|mm|bmm|addmm|baddbmm|addmv|mv|dot|einsum|conv\w*|linear|softmax|log_softmax|relu_?|sigmoid_?|"
    r"tanh_?|gelu|silu|layer_norm|batch_norm|group_norm|instance_norm|logsumexp|cumsum|cumprod|leaky_relu|sum|mean|"
    r"amax|amin|argmax|argmin|prod|exp_?|log_?|sqrt|rsqrt|pow_?|abs|clamp_?|clip|norm|var|std|add_?|sub_?|mul_?|div_?|"
    r"addcmul|addcdiv|topk|sort|where|masked_fill_?|max|min|maximum|minimum|erf|neg|reciprocal|square|triu|tril|"
    r"scatter|scatter_add|gather|index_select|floor|ceil|round|sign|lerp|median|any|all|unfold|pad|interpolate|"
    r"max_pool\w*|avg_pool\w*|softplus|elu|selu|hardtanh|mish|hardswish|hardsigmoid|outer|cross|diag|bincount)\s*\(")
# aten operator names that an unqualified call would reach through argument-dependent lookup on a
# Tensor argument (`matmul(a, b)` is at::matmul): refused unless the candidate defines the name.
ADL_OPS = {"matmul", "mm", "bmm", "addmm", "baddbmm", "einsum", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
           "conv_transpose2d", "conv_transpose3d", "linear", "softmax", "log_softmax", "relu", "gelu", "silu",
           "sigmoid", "layer_norm", "batch_norm", "group_norm", "instance_norm", "logsumexp", "cumsum", "leaky_relu",
           "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "topk", "sort",
           "embedding", "dropout", "addmv", "mv", "dot", "outer", "scaled_dot_product_attention", "mse_loss",
           "cross_entropy", "kl_div", "nll_loss", "smooth_l1_loss", "huber_loss", "hinge_embedding_loss",
           "cosine_similarity", "triplet_margin_loss", "hardtanh", "elu", "selu", "softplus", "mish", "hardswish",
           "hardsigmoid", "argmax", "argmin", "amax", "amin", "var", "std", "norm", "cumprod", "prod", "clamp",
           "where", "index_select", "gather", "scatter", "tril", "triu"}
DEFINED_FN = re.compile(r"\b([A-Za-z_]\w*)\s*\([^;{}()]*(?:\([^()]*\)[^;{}()]*)*\)\s*(?:const\s*)?\{")
# Calls and names of the operating system a kernel launcher never needs: writing to descriptors
# (the result channel), ending the process, raw system calls, files, memory protection, signals.
OS_NAMES = re.compile(
    r"(?<![\w.>:])(?:::\s*)?(write|pwrite\w*|writev|read|pread\w*|readv|_exit|_Exit|exit|quick_exit|at_quick_exit|atexit|"
    r"syscall|open|open64|openat\w*|creat|close|dup|dup2|dup3|fcntl|ioctl|mmap\w*|munmap|mprotect|pkey_\w+|"
    r"fdopen|freopen|fwrite|fputs|fflush|signal|sigaction|raise|prctl|ptrace|process_vm_\w+|sendfile|splice|tee|"
    r"vmsplice|pipe\d?|socket\w*|connect|bind|unlink\w*|rename\w*|chmod|chown|setuid|setgid|environ|"
    r"__libc_\w+|__environ|_dl_\w+)\b")
INCLUDE_OK = re.compile(
    r"torch/extension\.h|torch/types\.h|ATen/cuda/CUDAContext\.h|ATen/ATen\.h|c10/cuda/CUDAGuard\.h|"
    r"c10/cuda/CUDAStream\.h|ATen/cuda/CUDAGuard\.h|cuda\.h|cuda_runtime\.h|cuda_runtime_api\.h|cuda_fp16\.h|cuda_bf16\.h|"
    r"cuda_fp8\.h|mma\.h|cooperative_groups\.h|cooperative_groups/\w+\.h|cuda_pipeline\.h|cuda_pipeline_primitives\.h|"
    r"cuda/pipeline|cuda/barrier|cuda/std/\w+|vector_types\.h|device_launch_parameters\.h|math_constants\.h|"
    r"cstdint|stdint\.h|cfloat|float\.h|climits|limits\.h|limits|cmath|math\.h|algorithm|vector|array|utility|"
    r"type_traits|tuple|cassert|assert\.h|cstdio|stdio\.h|string|sstream|iostream|numeric|initializer_list|cstddef|"
    r"stddef\.h|cstring|functional|optional")

# The source rules and the library headers: config/candidate_policy.toml's [torch_source] (a pattern
# per rule; the C path's rules are in the same file).
_POLICY_FILE = "candidate_policy.toml"
_POLICY = rule_files.load(_POLICY_FILE)
SOURCE_RULES = [(rule_files.alternatives(r, "pattern", _POLICY_FILE), rule_files.value(r, "rule", str, _POLICY_FILE),
                 rule_files.value(r, "message", str, _POLICY_FILE))
                for r in rule_files.value(_POLICY, "torch_source.rules", list, _POLICY_FILE)]
LIBRARY_HEADERS = re.compile("(?:" + rule_files.alternatives(_POLICY, "torch_source.library_headers", _POLICY_FILE)
                             + ")")
_SOURCE_RULES = [(re.compile(p, re.M), rule, msg) for p, rule, msg in SOURCE_RULES]


def code_view(text):
    """What the rules read: lines spliced, comments and literals blanked."""
    return blank_comments_and_literals(splice_lines(text))


def check_sources(cuda_sources, cpp_sources):
    """Findings [(rule, message)] over one extension's sources."""
    out = []
    raw = "\n".join(list(cuda_sources) + list(cpp_sources))
    spliced = splice_lines(raw)
    for m in re.finditer(r"^[ \t]*#[ \t]*include[ \t]*(\S.*?)\s*$", strip_c_comments(spliced), re.M):
        inc = m.group(1)
        im = re.fullmatch(r"<([^<>\s]+)>", inc)
        if not im:
            out.append(("include_rule",
                        f"includes a file by path or macro: '#include {inc}' (only listed <system> headers)"))
        elif not INCLUDE_OK.fullmatch(im.group(1)):
            rule = "library_call" if LIBRARY_HEADERS.match(im.group(1)) else "include_rule"
            out.append((rule, f"includes <{im.group(1)}>, which is not on the header allowlist"))
    code = code_view(raw)
    code = BINDINGS.sub(" ", code)  # the one permitted hand-written binding form
    for pat, rule, msg in _SOURCE_RULES:
        m = pat.search(code)
        if m:
            out.append((rule, f"CUDA/C++ source {msg}: '{m.group(0).strip()[:60]}'"))
    m = OS_NAMES.search(code)
    if m:
        out.append(("process_or_file", f"CUDA/C++ source names the OS call '{m.group(1)}' (descriptors, process exit, "
                                       f"raw system calls, files, memory protection and signals are refused)"))
    for m in QUALIFIED.finditer(code):
        name = m.group(1) + re.sub(r"\s+", "", m.group(2))
        if not QUALIFIED_OK.fullmatch(name):
            out.append(("torch_fallback", f"CUDA/C++ source uses '{name}' (torch/at/c10: only tensors, dtypes, "
                                          f"allocation, options and the current stream)"))
            break
    m = CPP_COMPUTE_METHOD.search(code)
    if m:
        out.append(("torch_fallback", f"CUDA/C++ source calls the PyTorch operator '.{m.group(1)}()' instead of its "
                                      f"own kernel"))
    defined = set(DEFINED_FN.findall(code))
    for m in re.finditer(r"(?<![\w.>:])([A-Za-z_]\w*)\s*(?:<[^<>;(){}]*>)?\s*\(", code):
        if m.group(1) in ADL_OPS and m.group(1) not in defined:
            out.append(("torch_fallback", f"CUDA/C++ source calls '{m.group(1)}(...)', which on a Tensor is the "
                                          f"PyTorch operator (argument-dependent lookup)"))
            break
    return out

"""The PyTorch worker of torch2cuda tasks (docs/torch2cuda.md). The C++ supervisor
(src/verify/torch_check.cpp) starts it in three roles, each in its own process:

  build      builds the candidate's load_inline extensions ahead of the run (arguments resolved
             statically; the candidate's Python never runs here), cached per content hash
  reference  trusted: loads reference.py, draws inputs from the secret seed (read from stdin),
             computes expected outputs and keeps them; after the candidate ran, compares its
             outputs and times the eager and torch.compile baselines
  candidate  untrusted: loads ModelNew (extensions from the cache, no builds, no processes),
             copies the reference weights in (state_dict, strict), runs every config, times the
             perf configs (L2 flush, two alternating input sets, every timed output checked on the
             device against its verified warm-up output) and writes its outputs for the reference

Results travel as JSON lines on the result channel (fd given by --channel-fd); tensors as framed
torch.save records in files of the exchange folder. torch is imported lazily (this module is
importable without it).
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import io
import json
import math
import os
import re
import shutil
import signal
import struct
import sys
import time
import traceback

T_START = time.monotonic()  # the worker's start (its torch import is part of every stage breakdown)
FROM_SPARE = False  # started ahead as a spare (torch imported before its role came)

from cudaperf import torch_hidden, torch_static, torch_timing

CHANNEL = None
# Allocation, metadata, views and copies: the ops a candidate's forward may run besides its kernels.
ALLOWED_ATEN = {
    "aten::empty", "aten::empty_like", "aten::empty_strided", "aten::zeros", "aten::zeros_like", "aten::ones",
    "aten::ones_like", "aten::full", "aten::full_like", "aten::fill_", "aten::zero_", "aten::view", "aten::reshape",
    "aten::_reshape_alias", "aten::as_strided", "aten::contiguous", "aten::clone", "aten::copy_", "aten::to",
    "aten::_to_copy", "aten::detach", "aten::detach_", "aten::t", "aten::transpose", "aten::permute", "aten::expand",
    "aten::unsqueeze", "aten::squeeze", "aten::flatten", "aten::slice", "aten::select", "aten::narrow",
    "aten::size", "aten::stride", "aten::is_contiguous", "aten::numel", "aten::lift_fresh", "aten::alias",
    "aten::resize_", "aten::set_", "aten::new_empty", "aten::new_empty_strided", "aten::new_zeros",
    "aten::view_as", "aten::expand_as", "aten::reshape_as", "aten::unbind", "aten::split", "aten::chunk",
    "aten::_unsafe_view", "aten::item", "aten::_local_scalar_dense", "aten::empty.memory_format",
    "aten::record_stream", "aten::scalar_tensor",
}
HARNESS_KERNEL = re.compile(r"fill|copy|memset|memcpy|Memset|Memcpy", re.I)


class OutputTypeError(Exception):
    """An output that is not a plain dense tensor on the device (hack_suspected, rule output_type)."""


class OutputMismatch(Exception):
    """An output of the wrong count, shape or dtype (wrong_answer)."""


def same(a, b):
    """Bitwise-equal contents (NaN equal to NaN)."""
    import torch
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.is_floating_point():
        return bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all())
    return torch.equal(a, b)


def emit(obj):
    line = json.dumps(obj, default=str)
    if CHANNEL is not None:
        CHANNEL.write(line + "\n")
        CHANNEL.flush()


def fatal(msg):
    emit({"event": "fatal", "message": msg})
    sys.exit(2)


# ---------------------------------------------------------------- framed tensor records

# A record: <II klen hlen> <Q dlen> key header data. The header (JSON) lists each tensor's dtype and
# shape; the data is their raw bytes, one after the other. No pickle crosses from the candidate to
# the reference: the reader builds plain tensors from bytes, after checking every size.
FRAME_DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32", "int64", "bool",
                "complex64", "complex128")


def write_frame(f, key, tensors):
    import ctypes
    dense = [t.contiguous() for t in tensors]  # CPU tensors (host_copies)
    header = json.dumps([{"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)} for t in dense]).encode()
    k = key.encode()
    sizes = [t.numel() * t.element_size() for t in dense]
    f.write(struct.pack("<II", len(k), len(header)) + struct.pack("<Q", sum(sizes)) + k + header)
    for t, n in zip(dense, sizes):
        if n:  # the tensor's memory as a buffer (no copy, no numpy); `dense` keeps it alive
            f.write(memoryview((ctypes.c_ubyte * n).from_address(t.data_ptr())))
    f.flush()


def read_frames(path, limit_bytes):
    import torch
    out = {}
    with open(path, "rb") as f:
        total = 0
        while True:
            head = f.read(16)
            if not head:
                break
            if len(head) < 16:
                raise ValueError("truncated output record")
            klen, hlen = struct.unpack("<II", head[:8])
            (dlen,) = struct.unpack("<Q", head[8:])
            total += 16 + klen + hlen + dlen
            if klen > 256 or hlen > 1 << 16 or total > limit_bytes:
                raise ValueError("output records larger than the outputs could be")
            key = f.read(klen).decode(errors="replace")
            metas = json.loads(f.read(hlen))
            if not isinstance(metas, list) or len(metas) > 64:
                raise ValueError("malformed output record header")
            tensors, used = [], 0
            for m in metas:
                dt, shape = m.get("dtype"), m.get("shape")
                if dt not in FRAME_DTYPES or not isinstance(shape, list) or len(shape) > 16 or \
                        not all(type(d) is int and 0 <= d < 1 << 40 for d in shape):  # noqa: E721
                    raise ValueError("malformed output record header")
                dtype = getattr(torch, dt)
                n = math.prod(shape) * torch.empty((), dtype=dtype).element_size()
                used += n
                if used > dlen:
                    raise ValueError("output record shorter than its header says")
                buf = bytearray(n)  # read straight into it: GBs at perf size, one copy
                if f.readinto(buf) != n:
                    raise ValueError("truncated output record")
                t = torch.frombuffer(buf, dtype=torch.uint8).view(dtype).reshape(shape) if n else torch.empty(shape, dtype=dtype)
                tensors.append(t)
            if used != dlen:
                raise ValueError("output record longer than its header says")
            out[key] = tensors
    return out


# ---------------------------------------------------------------- shared helpers

def load_module(path, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def flatten_outputs(out):
    """Outputs as a list of tensors, or raise with why they are not acceptable."""
    import torch
    items = list(out) if isinstance(out, (tuple, list)) else [out]
    for i, o in enumerate(items):
        if type(o) is not torch.Tensor:  # noqa: E721 - subclasses (fake/lazy tensors, Parameters) are refused
            raise OutputTypeError(f"output {i} is a {type(o).__module__}.{type(o).__qualname__}, not a plain torch.Tensor")
    return items


def describe_meta(items):
    return [{"shape": list(t.shape), "dtype": str(t.dtype)} for t in items]


def compare(expected, got, rtol, atol, name, chunk=1 << 25):
    """'' when got matches expected elementwise (|g-e| <= atol + rtol*|e|; NaN only matches NaN,
    inf only itself), else the first mismatch and a count. Runs on the expected tensor's device
    (the GPU in the reference worker), in float64, a chunk at a time."""
    import torch
    if tuple(got.shape) != tuple(expected.shape):
        return f"{name}: shape {tuple(got.shape)}, expected {tuple(expected.shape)}"
    if got.dtype != expected.dtype:
        return f"{name}: dtype {got.dtype}, expected {expected.dtype}"
    e = expected.detach().reshape(-1)
    g = got.detach().to(e.device).reshape(-1)
    n_bad, first = 0, -1
    for lo in range(0, e.numel(), chunk):
        e64, g64 = e[lo:lo + chunk].double(), g[lo:lo + chunk].double()
        close = (g64 - e64).abs() <= atol + rtol * e64.abs()
        if e.is_floating_point() or e.is_complex():
            enan, gnan = torch.isnan(e64), torch.isnan(g64)
            einf, ginf = torch.isinf(e64), torch.isinf(g64)
            close = torch.where(enan | gnan, enan & gnan, close)
            close = torch.where((einf | ginf) & ~(enan | gnan), e64 == g64, close)
        bad = ~close
        nb = int(bad.sum())
        if nb and first < 0:
            first = lo + int(bad.nonzero()[0])
        n_bad += nb
    if n_bad == 0:
        return ""
    ev, gv = e[first].double().item(), g[first].double().item()
    return (f"{name}[{first}] (flat index): expected {ev:.9g}, got {gv:.9g} ({n_bad} of {e.numel()} elements "
            f"differ; rtol {rtol:g}, atol {atol:g})")


def set_seed(seed):
    import torch
    torch.manual_seed(seed % (2 ** 63))


def derive_seed(secret, *parts):
    h = hashlib.sha256(repr((secret,) + parts).encode()).digest()
    return int.from_bytes(h[:8], "little") & ((1 << 63) - 1)


def apply_config(mod, originals, cfg):
    for k, v in originals.items():
        setattr(mod, k, v)
    for k, v in cfg.get("globals", {}).items():
        setattr(mod, k, tuple(v) if isinstance(v, list) and isinstance(getattr(mod, k, None), tuple) else v)


def call_family(plan, seed, config):
    """The input family of one call (torch_hidden): from its seed among the families the reference
    kept at that config (plan["families"][config], set by the reference; else the problem's own)."""
    return torch_hidden.pick_family((plan.get("families") or {}).get(config) or ["as_written"], seed)


def draw_inputs(torch, mod, plan, seed, family=None, config=None):
    """The inputs of one call, drawn on the run's device: get_inputs() is written for the CPU, but its
    factory calls without a device land on the GPU here (perf inputs of hundreds of MB take
    milliseconds there, seconds on the CPU). Tensors it puts on the CPU explicitly stay there. In the
    strict mode torch.rand/randn draw from the call's hidden family (torch_hidden.HiddenInputs)."""
    device = plan.get("device", "cpu")
    family = family or call_family(plan, seed, config)
    for where in (device, None):  # None: as written (a get_inputs with its own CPU torch.Generator)
        set_seed(seed)
        try:
            with torch.device(where) if where else contextlib.nullcontext():
                with torch_hidden.HiddenInputs(torch, family, derive_seed(seed, "hidden"), device):
                    return list(mod.get_inputs())
        except RuntimeError:
            if where is None or where == "cpu":
                raise
    raise AssertionError("unreachable")


def host_copies(items):
    """Copies of the outputs in host memory (one copy: a device tensor's .to("cpu") is one already)."""
    return [o.detach().to("cpu") if o.device.type != "cpu" else o.detach().clone() for o in items]


def load_inputs(torch, path):
    """A host copy of one input set, mapped rather than read (hundreds of MB at perf size)."""
    try:
        return torch.load(path, weights_only=True, mmap=True)
    except (OSError, RuntimeError):  # a filesystem without mmap: read it
        return torch.load(path, weights_only=True)


def to_device(xs, device):
    import torch
    return [x.to(device) if isinstance(x, torch.Tensor) else x for x in xs]


def sync(device):
    import torch
    if device == "cuda":
        torch.cuda.synchronize()


class Timer:
    """One timed call as the protocol wants it: inputs of its set copied in, L2 flushed (a write of
    2x its size), all outside the window; events on the current stream around the call; the wall
    time to a device-wide sync beside it (work off the stream shows up as wall >> events)."""

    def __init__(self, device):
        import torch
        self.device = device
        self.flush = None
        self.nvml = self.reset_l2 = None
        self.max_mhz = -1.0
        self.clocks = []
        if device == "cuda":
            props = torch.cuda.get_device_properties(0)
            l2 = int(getattr(props, "L2_cache_size", 0) or (50 << 20))
            self.flush = torch.empty(max(2 * l2, 1 << 21) // 4, dtype=torch.float32, device="cuda")
            self.e0 = torch.cuda.Event(enable_timing=True)
            self.e1 = torch.cuda.Event(enable_timing=True)
            self._open_clock(torch)
            self._open_l2_reset()

    # Set up before the sandbox's filter (library loads and device opens happen here).
    def _open_clock(self, torch):
        """The SM clock through NVML (nvidia-ml-py), read after every sample; None without it."""
        try:
            import pynvml
            pynvml.nvmlInit()
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            h = None
            if getattr(props, "uuid", None):  # NVML numbers devices without CUDA_VISIBLE_DEVICES: find ours by UUID
                u = str(props.uuid)
                try:
                    h = pynvml.nvmlDeviceGetHandleByUUID(u if u.startswith("GPU-") else "GPU-" + u)
                except Exception:
                    h = None
            if h is None and hasattr(props, "pci_bus_id"):
                bus = f"{getattr(props, 'pci_domain_id', 0):08x}:{props.pci_bus_id:02x}:{getattr(props, 'pci_device_id', 0):02x}.0"
                h = pynvml.nvmlDeviceGetHandleByPciBusId(bus)
            self.max_mhz = float(pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM))
            self.nvml = (pynvml, h)
        except Exception:  # no NVML: samples are kept, the clock is not reported
            self.nvml = None

    def _open_l2_reset(self):
        """cudaCtxResetPersistingL2Cache from the CUDA runtime torch loaded: a candidate's persisting-L2
        policy must not carry over into the next sample."""
        import ctypes
        for name in ("libcudart.so.13", "libcudart.so.12", "libcudart.so"):
            try:
                self.reset_l2 = ctypes.CDLL(name).cudaCtxResetPersistingL2Cache
                return
            except (OSError, AttributeError):
                continue

    def sm_mhz(self):
        if not self.nvml:
            return -1.0
        try:
            pynvml, h = self.nvml
            return float(pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM))
        except Exception:
            return -1.0

    def throttled(self):
        """Reads the SM clock after a sample (kept for the report); True under 75 % of its maximum,
        the rule of the C++ timing loop (src/verify/gpu_check.cpp)."""
        mhz = self.sm_mhz()
        if mhz > 0:
            self.clocks.append(mhz)
        return mhz > 0 and self.max_mhz > 0 and mhz < 0.75 * self.max_mhz

    def run(self, fn, prepare):
        """prepare() then fn(); returns (result, event_ms, wall_ms)."""
        prepare()
        if self.flush is not None:
            self.flush.zero_()
        if self.reset_l2 is not None:
            self.reset_l2()
        sync(self.device)
        w0 = time.perf_counter()
        if self.device == "cuda":
            self.e0.record()
            out = fn()
            self.e1.record()
            import torch
            torch.cuda.synchronize()
            wall = (time.perf_counter() - w0) * 1e3
            return out, float(self.e0.elapsed_time(self.e1)), wall
        out = fn()
        wall = (time.perf_counter() - w0) * 1e3
        return out, wall, wall


class Watchdog:
    """A call that does not return within the limit ends the process with SIGALRM (default
    action), which the supervisor reports as a timeout of that config."""

    def __init__(self, seconds):
        self.seconds = max(1, int(math.ceil(seconds)))

    def __enter__(self):
        signal.alarm(self.seconds)

    def __exit__(self, *exc):
        signal.alarm(0)


# ---------------------------------------------------------------- build

def toolchain_salt():
    """Part of every extension's cache key. The supervisor computes the same string (torch_check.cpp,
    torch_probe) to find cached builds without starting this worker: keep the two in step."""
    import torch
    return f"torch {torch.__version__} cuda {torch.version.cuda} python {sys.version_info[:2]}"


ext_module_name = torch_static.ext_module_name


BUILD_HEADERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_headers")


def slim_kwargs(kw):
    """load_inline's arguments with cudaperf's cut-down torch/extension.h first on the include path
    (build_headers/cu for the CUDA file, build_headers/cpp for the C++ file): a cold build takes about
    half the CPU (bench/results/2026-12-01-cpu-torch-build-slim-headers.json). Off with
    CUDAPERF_TORCH_SLIM_HEADERS=0."""
    if os.environ.get("CUDAPERF_TORCH_SLIM_HEADERS", "1") == "0":
        return None
    out = dict(kw)
    out["extra_cflags"] = ["-I" + os.path.join(BUILD_HEADERS, "cpp")] + list(kw.get("extra_cflags") or [])
    out["extra_cuda_cflags"] = ["-I" + os.path.join(BUILD_HEADERS, "cu")] + list(kw.get("extra_cuda_cflags") or [])
    return out


BUILD_RULES = {"build_flags", "precision", "library_call", "include_rule", "python_api", "preprocessor_trick",
               "process_or_file", "inline_asm", "namespace_alias", "native_access"}


def build_role(args):
    """Builds each load_inline call of the candidate (resolved statically): first against the cut-down
    headers (slim_kwargs), and when that fails, again exactly as load_inline would (its errors are the
    verdict's message). With --out (the supervisor's confined build, docs/torch2cuda.md) each
    extension is left in OUT/<key>/<module>.so and the supervisor installs it into the cache; with
    --cache (tests, bench) it goes into CACHE/torch_ext/<key>/ directly."""
    text = open(args.candidate, encoding="utf-8").read()
    r = torch_static.check_candidate(text, args.candidate)
    if "syntax_error" in r:
        emit({"event": "built", "status": "compile_error", "message": r["syntax_error"], "extensions": []})
        return 0
    # Defence in depth: the flags and sources reach ninja's shell and the compilers only after the
    # same guards the supervisor ran (it refuses a candidate with findings before it builds).
    refused = [f for f in r["findings"] if f["rule"] in BUILD_RULES]
    if refused:
        emit({"event": "built", "status": "refused", "extensions": [],
              "message": "; ".join(f"rule {f['rule']} (line {f['line']}): {f['message']}" for f in refused[:5])})
        return 0
    exts = []
    for e in r["extensions"]:
        if "unresolved" in e:
            emit({"event": "built", "status": "compile_error", "extensions": [],
                  "message": f"line {e['line']}: load_inline cannot be built ahead of the run: {e['unresolved']} "
                             f"(sources, names and flags must be module-level constants)"})
            return 0
        exts.append(e["canonical"])
    try:
        import torch  # noqa: F401
        from torch.utils import cpp_extension
    except ImportError as ex:  # the supervisor looks for this line (a build user that cannot reach torch)
        print(f"cudaperf: torch is not importable: {ex}", file=sys.stderr, flush=True)
        fatal(f"torch is not importable by the build worker: {ex}")
    salt = toolchain_salt()
    root = args.out or os.path.join(args.cache, "torch_ext")
    os.makedirs(root, exist_ok=True)
    report = []
    for c in exts:
        key = torch_static.extension_key(c, salt)
        name = ext_module_name(c, key)
        final = os.path.join(root, key)
        so = os.path.join(final, name + ".so")
        t0 = time.monotonic()
        if os.path.isfile(so):
            report.append({"name": c["name"], "key": key, "so": so, "cached": True, "seconds": time.monotonic() - t0})
            continue
        # this worker's own build folder (with --out, the whole folder is this build's already)
        work = os.path.join(root, f"tmp-{key[:16]}" if args.out else f"tmp-{os.getpid()}-{key[:16]}")
        kw = torch_static.load_inline_kwargs(c)
        slim = slim_kwargs(kw)
        headers, slim_failed_s = "full", None
        for attempt in ([slim] if slim else []) + [kw]:
            shutil.rmtree(work, ignore_errors=True)  # nothing of a failed try is reused
            os.makedirs(work, exist_ok=True)
            t_try = time.monotonic()
            out = io.StringIO()
            try:
                saved = sys.stdout, sys.stderr
                sys.stdout = sys.stderr = out
                try:
                    # a copy: load_inline edits its source lists in place (header, module definition)
                    m = cpp_extension.load_inline(name=name, build_directory=work, verbose=False,
                                                  **copy.deepcopy(attempt))
                finally:
                    sys.stdout, sys.stderr = saved
                headers = "slim" if attempt is slim else "full"
                break
            except Exception as ex:  # the full build's diagnostics are the verdict's message
                if attempt is slim:
                    slim_failed_s = time.monotonic() - t_try
                    # load_inline remembers a name's flags and would build the next try as
                    # <name>_v1 (another PyInit symbol than the loader looks for): forget the try
                    entries = getattr(getattr(cpp_extension, "JIT_EXTENSION_VERSIONER", None), "entries", None)
                    if isinstance(entries, dict):
                        entries.pop(name, None)
                    continue
                shutil.rmtree(work, ignore_errors=True)
                msg = str(ex) + "\n" + out.getvalue()
                lines = [ln for ln in msg.splitlines() if re.search(r"error|Error|undefined", ln)]
                emit({"event": "built", "status": "compile_error", "extensions": report,
                      "message": "\n".join((lines or msg.splitlines())[:40])[:6000]})
                return 0
        built = getattr(m, "__file__", None) or os.path.join(work, name + ".so")
        if os.path.basename(built) != name + ".so":
            os.replace(built, os.path.join(work, name + ".so"))
        for entry in os.listdir(work):  # the cache keeps the extension, not its objects (~3x the size)
            if entry != name + ".so":
                path = os.path.join(work, entry)
                shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.remove(path)
        try:
            os.replace(work, final)  # atomic: another worker may have finished the same key first
        except OSError:
            pass
        if not os.path.isfile(so):
            so = os.path.join(work, name + ".so")
        report.append({"name": c["name"], "key": key, "so": so, "cached": False, "seconds": time.monotonic() - t0,
                       "headers": headers, **({"slim_failed_s": slim_failed_s} if slim_failed_s is not None else {})})
    emit({"event": "built", "status": "ok", "extensions": report, "salt": salt})
    return 0


# ---------------------------------------------------------------- reference (trusted)

def eval_mode(plan):
    """"strict" (default) or "kernelbench" (docs/torch2cuda.md, "Evaluation modes")."""
    return "kernelbench" if plan.get("eval_mode") == "kernelbench" else "strict"


def set_precision(torch, plan):
    """strict: float32 computed as float32 (fp32_strict); kernelbench: PyTorch's defaults, as
    KernelBench leaves them (cuDNN may use TF32; matmuls do not unless the problem says so)."""
    if eval_mode(plan) == "strict":
        fp32_strict(torch)


class NetworkRefused(OSError):
    pass


NETWORK_TRIES = []


def refuse_network():
    """The reference runs without a network (its own namespace where permitted): a connection it tries
    is refused here with a message that names it, and remembered (a download at import time)."""
    import socket

    def refused(*a, **_k):
        NETWORK_TRIES.append(str(a[1] if len(a) > 1 else a[0] if a else "?")[:120])
        raise NetworkRefused("cudaperf: the reference may not use the network")
    socket.socket.connect = lambda self, addr: refused(self, addr)
    socket.socket.connect_ex = lambda self, addr: refused(self, addr)
    socket.create_connection = lambda addr, *a, **k: refused(None, addr)
    socket.getaddrinfo = lambda host, *a, **k: refused(None, host)


def load_reference(plan, name):
    """reference.py as a module, or fatal() with what it needs: a module that is not installed, or the
    network at import time (a model downloaded from a hub)."""
    refuse_network()
    try:
        return load_module(plan["reference"], name)
    except ModuleNotFoundError as ex:
        fatal(f"reference.py needs the module '{ex.name}', which is not installed for {sys.executable} "
              f"(missing module; install it where the torch worker runs)")
    except Exception as ex:
        if NETWORK_TRIES:
            fatal(f"reference.py needs network access at import time (tried {NETWORK_TRIES[0]}; the reference runs "
                  f"without a network: vendor what it downloads): {type(ex).__name__}: {str(ex)[:300]}")
        fatal(f"reference.py does not import: {type(ex).__name__}: {str(ex)[:1500]}")


def build_reference(torch, mod, plan, secret, name, device):
    """The reference Model of one config: (init, model, notes). Built under its seed; strict: float
    scalars of get_init_inputs perturbed and identity-valued parameters randomised (torch_hidden),
    eval() mode; kernelbench: as KernelBench builds it (training mode, nothing changed). When the
    perturbed scalars do not build, the problem's own are kept (noted)."""
    init_seed = derive_seed(secret, name, "init")
    set_seed(init_seed)
    init = list(mod.get_init_inputs())
    notes = {}
    tries = [init]
    if eval_mode(plan) == "strict":
        perturbed, n = torch_hidden.perturb_scalars(init, torch_hidden.rng(secret, name, "scalars"))
        if n:
            tries.insert(0, perturbed)
    for k, args in enumerate(tries):
        set_seed(init_seed)
        try:
            model = mod.Model(*args).to(device)
        except Exception:
            if k + 1 < len(tries):
                notes["scalars"] = "as written (the perturbed ones do not build)"
                continue
            raise
        if eval_mode(plan) == "strict":
            model.eval()
            if len(tries) == 2 and k == 0:
                notes["scalars_perturbed"] = sum(type(v) is float for v in init)  # noqa: E721
            notes["params_randomized"] = len(torch_hidden.randomize_identities(
                torch, model, derive_seed(secret, name, "params")))
        return args, model, notes
    raise AssertionError("unreachable")


PROBES = 3


def probe_families(torch, mod, plan, model, secret, name, device):
    """The hidden families whose inputs give finite outputs of this reference at this config (strict
    mode; the problem's own always): PROBES draws each, every output finite."""
    if eval_mode(plan) != "strict":
        return ["as_written"]
    kept = ["as_written"]
    for fam in torch_hidden.FAMILIES[1:]:
        try:
            for j in range(PROBES):
                xs = to_device(draw_inputs(torch, mod, plan, derive_seed(secret, name, "probe", fam, j), fam), device)
                if not torch_hidden.outputs_finite(torch, flatten_outputs(model(*xs))):
                    break
            else:
                kept.append(fam)
        except Exception:  # a family the problem's inputs cannot take (a domain error): left out
            pass
        finally:
            if device == "cuda":
                torch.cuda.empty_cache()
    return kept


def reference_role(args):
    import torch
    plan = json.load(open(args.plan, encoding="utf-8"))
    set_precision(torch, plan)
    secret_line = sys.stdin.readline()
    try:
        secret = int(json.loads(secret_line)["seed"])
    except (ValueError, KeyError, TypeError):
        fatal("no secret seed on standard input")
    device = plan["device"]
    mod = load_reference(plan, f"cudaperf_reference_{os.getpid()}")
    originals = {k: getattr(mod, k) for c in plan["configs"] for k in c.get("globals", {}) if hasattr(mod, k)}
    validate = plan.get("mode") == "validate"
    xdir = plan["xdir"]
    torch.set_grad_enabled(False)
    expected, pristine_inputs, models = {}, {}, {}
    problems, metas = [], []
    stages = {"import_s": time.monotonic() - T_START, "inputs_s": 0.0, "save_s": 0.0,  # where the reference's time goes
              "from_spare": int(FROM_SPARE)}
    plan["families"] = {}  # per config, decided below (probe_families)
    hidden = {"mode": eval_mode(plan), "families": plan["families"]}
    for ci, cfg in enumerate(plan["configs"]):
        if validate and cfg["perf"]:
            continue
        name = cfg["name"]
        apply_config(mod, originals, cfg)
        try:
            init, model, notes = build_reference(torch, mod, plan, secret, name, device)
            state = {k: v.detach().to("cpu").clone() for k, v in model.state_dict().items()}
        except Exception as ex:
            fatal(f"config '{name}': the reference Model cannot be built: {type(ex).__name__}: {ex}")
        hidden.setdefault("configs", {})[name] = notes
        kept = plan["families"][name] = probe_families(torch, mod, plan, model, secret, name, device)
        trials = int(plan.get("trials", 3))
        n = 2 if cfg["perf"] else max(trials, len(kept) if eval_mode(plan) == "strict" else trials)
        # perf: the problem's own inputs (the baselines and calibration use them); small: one call per family
        fams = ["as_written"] * n if cfg["perf"] else torch_hidden.trial_families(kept, secret, name, n)
        sets, outs = [], []
        for k in range(n):
            try:
                t_in = time.monotonic()
                xs = draw_inputs(torch, mod, plan, derive_seed(secret, name, "inputs", k), fams[k])
                sync(device)
                stages["inputs_s"] += time.monotonic() - t_in
                pristine = [x.clone() if isinstance(x, torch.Tensor) else x for x in xs]
                run = to_device([x.clone() if isinstance(x, torch.Tensor) else x for x in xs], device)
                out = flatten_outputs(model(*run))
                if fams[k] != "as_written" and not torch_hidden.outputs_finite(torch, out):
                    fams[k] = "as_written"  # an unlucky draw of a kept family: this call uses the problem's own
                    xs = draw_inputs(torch, mod, plan, derive_seed(secret, name, "inputs", k), fams[k])
                    pristine = [x.clone() if isinstance(x, torch.Tensor) else x for x in xs]
                    out = flatten_outputs(model(*to_device([x.clone() if isinstance(x, torch.Tensor) else x for x in xs], device)))
                out = [o.detach().clone() for o in out]  # kept on the device: compared there
                if validate:
                    run2 = to_device([x.clone() if isinstance(x, torch.Tensor) else x for x in xs], device)
                    out2 = [o.detach() for o in flatten_outputs(model(*run2))]
                    for i, (a, b) in enumerate(zip(out, out2)):
                        if not same(a, b):
                            problems.append(f"config '{name}': the reference is not deterministic (output {i} "
                                            f"differs bitwise between two runs on the same inputs"
                                            f"{'; training mode: dropout or batch statistics?' if eval_mode(plan) == 'kernelbench' else ''})")
                        if a.is_floating_point() and not bool(torch.isfinite(a).all()):
                            problems.append(f"config '{name}': the reference produced NaN or inf in output {i}")
            except Exception as ex:
                if NETWORK_TRIES:
                    fatal(f"config '{name}': the reference needs network access (tried {NETWORK_TRIES[0]}): "
                          f"{type(ex).__name__}: {str(ex)[:300]}")
                fatal(f"config '{name}': the reference failed: {type(ex).__name__}: {ex}")
            sets.append(pristine)
            outs.append(out)
        expected[name] = outs
        pristine_inputs[name] = sets
        models[name] = (init, state)
        # the output scale of the problem's own inputs (set 0): atol of other families scales from it
        ref_rms = [torch_hidden.rms(torch, o) for o in outs[0]]
        meta = {"config": name, "index": ci, "perf": cfg["perf"], "trials": n, "outputs": describe_meta(outs[0]),
                "families": fams, "ref_rms": ref_rms}
        metas.append(meta)
        if not validate:
            t_save = time.monotonic()
            d = os.path.join(xdir, f"cfg{ci}")
            os.makedirs(d, exist_ok=True)
            torch.save(init, os.path.join(d, "init.pt"))
            torch.save(state, os.path.join(d, "state.pt"))
            stages["save_s"] += time.monotonic() - t_save
        del model
    if validate:
        nulls = null_battery(torch, plan, expected, pristine_inputs, {m["config"]: m["ref_rms"] for m in metas})
        emit({"event": "validate", "problems": sorted(set(problems)), "nulls": nulls, "hidden": hidden})
        emit({"event": "done"})
        return 0
    if device == "cuda":
        torch.cuda.empty_cache()
    for meta in metas:  # what the roofline floor counts: input and output bytes, FLOPs where known
        name = meta["config"]
        meta["input_bytes"] = sum(x.numel() * x.element_size() for x in pristine_inputs[name][0]
                                  if isinstance(x, torch.Tensor))
        meta["output_bytes"] = sum(o.numel() * o.element_size() for o in expected[name][0])
        cfg = next(c for c in plan["configs"] if c["name"] == name)
        apply_config(mod, originals, cfg)
        meta["flops"] = count_flops(torch, mod, plan, models[name], pristine_inputs[name][0], device)
    from cudaperf import torch_measure
    measurer = torch_measure.Measurer(sys.modules[__name__], torch, plan, mod, secret, metas, expected,
                                      pristine_inputs, models, lambda m, c: apply_config(m, originals, c))
    emit({"event": "ready", "configs": metas, "stages": stages, "hidden": hidden})
    preimport = None
    if plan.get("baselines"):
        # torch.compile's modules (dynamo, Inductor, Triton) take seconds to import: import them now,
        # beside the candidates' runs (this process only waits for commands then), not when the
        # baselines start (they wait for it: no two threads importing Inductor at once). CPU only.
        import threading
        preimport = threading.Thread(target=preimport_compile, daemon=True)
        preimport.start()
    # Phase 2: the supervisor runs each candidate in turn, then asks for its comparison:
    #   "compare K PATH"  the outputs candidate K wrote to PATH; events carry "candidate": K and end
    #                     with {"event": "compared", "candidate": K}
    #   "baselines"       eager PyTorch and torch.compile, timed on the same inputs
    # until its standard input closes.
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        cmd = line.split()
        if cmd[:1] == ["run"] and len(cmd) == 4:
            # "run K CMD REP": measure candidate K through its FIFOs (torch_measure.Measurer.run)
            k = int(cmd[1])
            try:
                chan = torch_measure.Channel(cmd[2], cmd[3])
            except OSError as ex:
                emit({"event": "measured", "candidate": k, "usable": True, "error": f"cannot open its channel: {ex}"})
                continue
            usable = measurer.run(k, chan)
            chan.close()
            emit({"event": "measured", "candidate": k, "usable": usable})
            if not usable:  # a call left this process's stream waiting on the candidate: a fresh reference goes on
                emit({"event": "done", "stages": stages})
                return 0
        elif cmd == ["baselines"] and plan.get("baselines"):
            if preimport is not None:
                preimport.join()
            for ci, cfg in enumerate(plan["configs"]):
                if cfg["perf"] and cfg["name"] in expected:
                    apply_config(mod, originals, cfg)
                    time_baselines(torch, mod, plan, cfg, models[cfg["name"]], pristine_inputs[cfg["name"]])
    emit({"event": "done"})
    return 0


def reference_model(torch, mod, init, state, device, train=False):
    """The reference Model with the run's weights: eval() mode (strict) or training mode (kernelbench)."""
    model = mod.Model(*init).to(device)
    model.train(train)
    model.load_state_dict(state, strict=True)
    return model


def count_flops(torch, mod, plan, model_state, xs, device):
    """FLOPs of one reference call where PyTorch knows them (matmuls, convolutions, attention:
    torch.utils.flop_counter); 0 when it cannot count."""
    try:
        from torch.utils.flop_counter import FlopCounterMode
        model = reference_model(torch, mod, *model_state, device, train=eval_mode(plan) == "kernelbench")
        with FlopCounterMode(display=False) as fc:
            model(*to_device(xs, device))
        return int(fc.get_total_flops())
    except Exception:
        return 0


def null_battery(torch, plan, expected, inputs, ref_rms):
    """zeros, a constant (the output's mean), a copy of the first input: each must fail somewhere
    (compared as candidates are: atol scaled per call by torch_hidden.tol_scale)."""
    rtol, atol = plan["rtol"], plan["atol"]
    res = {}
    for null in ("zeros", "constant", "input_copy"):
        tested = rejected = 0
        for name, outs in expected.items():
            if null == "constant" and all(e.numel() <= 1 for e in outs[0]):
                continue  # a scalar's own mean is its value: not a null answer
            tested += 1
            bad = False
            for k, want in enumerate(outs):
                xs = inputs[name][k]
                for i, e in enumerate(want):
                    if null == "zeros":
                        g = torch.zeros_like(e)
                    elif null == "constant":
                        g = torch.full_like(e, float(e.double().mean()) if e.numel() else 0.0) if \
                            e.is_floating_point() else torch.full_like(e, int(e.double().mean()) if e.numel() else 0)
                    else:
                        first = next((x for x in xs if isinstance(x, torch.Tensor)), None)
                        if first is None or first.shape != e.shape:
                            bad = True
                            break
                        g = first.to(e.dtype)
                    if compare(e, g, rtol, atol * torch_hidden.tol_scale(torch, e, ref_rms[name][i]), "out"):
                        bad = True
                        break
                if bad:
                    break
            rejected += bad
        res[null] = {"tested": tested, "rejected": rejected}
    return res


def fp32_strict(torch):
    """Reference, baselines and warm-up compute float32 as float32: no TF32 in matmuls or cuDNN
    convolutions (cuDNN allows it by default). The dataset's tolerances assume this
    (data/tasks/torch2cuda/README.md), and the eager / torch.compile baselines are then the fp32 work
    a candidate is asked to do."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def warm_role(args):
    """torch.compile of the reference at each perf config, run once, so that the on-disk Inductor
    cache holds the compiled graphs before the timed baselines ask for them (a task's compile takes
    seconds to a minute; many tasks warm in parallel). Nothing here is timed or trusted."""
    import torch
    plan = json.load(open(args.plan, encoding="utf-8"))
    set_precision(torch, plan)
    device = plan["device"]
    mod = load_module(plan["reference"], f"cudaperf_warm_{os.getpid()}")
    originals = {k: getattr(mod, k) for c in plan["configs"] for k in c.get("globals", {}) if hasattr(mod, k)}
    torch.set_grad_enabled(False)
    for cfg in plan["configs"]:
        if not cfg["perf"]:
            continue
        t0 = time.monotonic()
        try:
            apply_config(mod, originals, cfg)
            set_seed(1)
            model = mod.Model(*list(mod.get_init_inputs())).to(device)
            model.train(eval_mode(plan) == "kernelbench")
            xs = to_device(draw_inputs(torch, mod, plan, 2, "as_written"), device)
            torch.compile(model)(*xs)
            sync(device)
            emit({"event": "done", "config": cfg["name"], "seconds": time.monotonic() - t0})
        except Exception as ex:
            emit({"event": "fatal", "config": cfg["name"], "message": f"{type(ex).__name__}: {str(ex)[:300]}"})
        finally:
            if device == "cuda":
                torch.cuda.empty_cache()
    return 0


def preimport_compile():
    try:  # at lower priority (Linux: per thread): the candidate beside it has the CPU first. Not
        # below the background builds (`nice 10` in tools/gpu-check.sh): at nice 15 it starved behind
        # them and the baselines waited 6-24 s for it (2026-12-01 H200 run, 3 of 24 tasks).
        import threading
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 5)
    except (AttributeError, OSError):
        pass
    try:
        import torch._dynamo  # noqa: F401
        import torch._inductor.compile_fx  # noqa: F401
    except Exception:  # the baselines report their own errors
        pass


def time_baselines(torch, mod, plan, cfg, model_state, sets):
    device = plan["device"]
    init, state = model_state
    name = cfg["name"]
    timer = Timer(device)
    for kind in ("eager", "compile"):
        t0 = time.monotonic()
        try:
            model = reference_model(torch, mod, init, state, device, train=eval_mode(plan) == "kernelbench")
            fn = model
            if kind == "compile":
                fn = torch.compile(model)
            priv = [to_device(s, device) for s in sets]
            call_in = [x.clone() if isinstance(x, torch.Tensor) else x for x in priv[0]]

            def prepare(k):
                for dst, src in zip(call_in, priv[k]):
                    if isinstance(dst, torch.Tensor):
                        dst.copy_(src)
            first = time.monotonic()
            for k in (0, 1):  # warm-up, identical to the timed calls (compiles here)
                timer.run(lambda: fn(*call_in), lambda: prepare(k))
            warm_s = time.monotonic() - first
            idx = [0]

            def sample():
                k = idx[0] % 2
                idx[0] += 1
                _, ms, _ = timer.run(lambda: fn(*call_in), lambda: prepare(k))
                return ms, timer.throttled()
            t = plan.get("timing", {})
            t_loop = time.monotonic()
            stats = torch_timing.measure(sample, min_samples=t.get("min_samples", 10),
                                         max_samples=t.get("max_samples", 1000),
                                         target_rel_stdev=t.get("target_rel_stdev", 0.005),
                                         budget_s=t.get("budget_s", 2.0))
            emit(dict(stats, event="baseline", config=name, kind=kind, warmup_s=warm_s,
                      timed_s=time.monotonic() - t_loop, setup_s=time.monotonic() - t0))
        except Exception as ex:
            emit({"event": "baseline", "config": name, "kind": kind,
                  "error": f"{type(ex).__name__}: {str(ex).splitlines()[0][:300] if str(ex) else ''}"})
        finally:
            if device == "cuda":
                torch.cuda.empty_cache()


# ---------------------------------------------------------------- candidate (untrusted)

class CandidateLoader:
    """Replaces torch.utils.cpp_extension.load_inline while the candidate module loads: the
    extension must already be in the cache (the build step made it); it is imported from there
    without ninja, nvcc or any file write."""

    def __init__(self, manifest, salt):
        self.by_key = {e["key"]: e for e in manifest}
        self.salt = salt
        self.sources = []
        self.loaded = []

    def __call__(self, name, cpp_sources, cuda_sources=None, *rest, **kw):
        import importlib.machinery
        import importlib.util
        args = dict(kw)
        args.update(name=name, cpp_sources=cpp_sources, cuda_sources=cuda_sources)
        for k in list(args):
            if k in torch_static.IGNORED_KEYS:
                args.pop(k)
        canon = torch_static.canonical_extension(args)
        key = torch_static.extension_key(canon, self.salt)
        e = self.by_key.get(key)
        if e is None:
            raise RuntimeError(f"load_inline('{name}'): this extension was not built before the run (its "
                               f"arguments must be the module-level constants the build step saw)")
        modname = ext_module_name(canon, key)
        loader = importlib.machinery.ExtensionFileLoader(modname, e["so"])
        spec = importlib.util.spec_from_file_location(modname, e["so"], loader=loader)
        m = importlib.util.module_from_spec(spec)
        loader.exec_module(m)
        self.sources += canon["cuda_sources"]
        self.loaded.append(modname)
        return m


def lock_down(lib_path):
    """The seccomp filter of src/sandbox/confine.cpp, through libcudaperf_confine.so: no sockets,
    exec, fork, ptrace, signals to others; writable opens fail. '' on success, else why not."""
    if not lib_path:
        return "no confinement library"
    import ctypes  # harness code; candidates may not import ctypes
    try:
        lib = ctypes.CDLL(lib_path)
        buf = ctypes.create_string_buffer(512)
        rc = lib.cudaperf_lock_down(buf, 512)
        return "" if rc == 0 else buf.value.decode(errors="replace")
    except OSError as ex:
        return str(ex)


PROFILE_S = [0.0]  # seconds spent in profiled calls (profiler start, the call, stop, event parsing)


def profile_call(torch, fn, device):
    """Runs fn() under the profiler: (result, kernel names, aten op names)."""
    t0 = time.monotonic()
    try:
        return _profile_call(torch, fn, device)
    finally:
        PROFILE_S[0] += time.monotonic() - t0


def _profile_call(torch, fn, device):
    from torch.profiler import ProfilerActivity, profile
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    with profile(activities=acts) as prof:
        out = fn()
        sync(device)
    kernels, ops = [], []
    for ev in prof.events():
        dt = str(getattr(ev, "device_type", ""))
        name = ev.name
        if dt.endswith("CUDA") and not name.startswith(("cuda", "aten::")):
            kernels.append(name)
        elif name.startswith("aten::"):
            ops.append(name)
    return out, kernels, ops


def judge_profile(kernels, ops, own_names, own_required):
    """'' or the rule that fired: own kernel never launched, or a torch op/kernel doing compute."""
    own = [k for k in kernels if any(re.search(r"(?<![A-Za-z0-9_])" + re.escape(n) + r"(?![A-Za-z0-9_])", k)
                                     for n in own_names)]
    if own_required and not own:
        return ("rule own_kernel: none of the candidate's kernels (" + ", ".join(own_names[:6]) +
                ") ran in the call" + (f"; kernels that ran: {', '.join(sorted(set(kernels))[:4])}" if kernels else ""))
    bad_ops = sorted({o for o in ops if o not in ALLOWED_ATEN})
    if bad_ops:
        return f"rule torch_fallback: PyTorch operators ran inside the call: {', '.join(bad_ops[:6])}"
    foreign = sorted({k for k in kernels if k not in own and not HARNESS_KERNEL.search(k)})
    if foreign:
        return f"rule torch_fallback: kernels that are not the candidate's ran: {', '.join(f[:80] for f in foreign[:3])}"
    return ""


def candidate_role(args):
    """Untrusted: launches only (torch_launch.Launcher). The reference measures, compares and times."""
    import torch
    from cudaperf import torch_launch
    first = "go"
    if args.wait_for_go:
        # Started ahead (while the reference draws its inputs or other candidates run): the imports
        # happen now; the plan and the GPU are touched only after the supervisor's "init" or "go"
        # (it sends "init" only while no candidate is being measured). "init": the set-up below (CUDA
        # context, profiler, the FIFOs and shared buffers of the reference), "initialized", then wait
        # for "go"; "go" alone: set-up and run. The candidate is read only after "go" and the lock-down.
        import torch.profiler  # noqa: F401
        import torch.utils.cpp_extension  # noqa: F401
        first = sys.stdin.readline().strip()
        if first not in ("init", "go"):
            return 0
    t_init = time.monotonic()
    stages = {}  # this worker's own account of its time (diagnostics only: the candidate runs in here)
    plan = json.load(open(args.plan, encoding="utf-8"))
    device = plan["device"]
    test_mode = bool(plan.get("test_mode")) and os.environ.get("CUDAPERF_TORCH_TEST_MODE") == "1"
    manifest = json.load(open(args.manifest, encoding="utf-8")) if args.manifest else {"extensions": [], "salt": ""}
    if device == "cuda":
        torch.cuda.init()
        torch.empty(1, device="cuda")
    if not test_mode:  # initialise the profiler before the filter goes in
        profile_call(torch, lambda: torch.ones(8, device=device) + 1, device)
    launcher = torch_launch.Launcher(sys.modules[__name__], torch, plan, device)  # FIFOs, IPC handles, events
    from torch.utils import cpp_extension
    loader = CandidateLoader(manifest.get("extensions", []), manifest.get("salt", ""))
    cpp_extension.load_inline = loader
    stages["setup_s"] = time.monotonic() - t_init
    if first == "init":
        emit({"event": "initialized", "s": stages["setup_s"]})
        if sys.stdin.readline().strip() != "go":
            return 0
    t_go = time.monotonic()
    sandbox = "off (test mode)" if test_mode else lock_down(plan.get("confine_lib", ""))
    emit({"event": "sandbox", "status": sandbox or "seccomp"})
    if sandbox and not test_mode and not plan.get("allow_unconfined"):
        fatal(f"cannot confine the candidate worker: {sandbox}")
    os.environ.pop("CUDAPERF_TORCH_TEST_MODE", None)
    torch.set_grad_enabled(False)
    try:
        cand = load_module(args.candidate, "cudaperf_candidate")
        model_new = cand.ModelNew
    except Exception as ex:
        msg = f"the candidate module does not load: {type(ex).__name__}: {str(ex)[:1500]}"

        def model_new(*_a, **_k):  # every "model" command answers with the load failure
            raise RuntimeError(msg)
    stages["load_s"] = time.monotonic() - t_go
    launcher.serve(model_new, loader.sources, not test_mode, test_mode)
    emit({"event": "done", "stages": stages})
    return 0


# ---------------------------------------------------------------- entry

def not_dumpable():
    """The reference keeps the expected outputs in its memory, and a candidate worker waiting for "go"
    holds its open output file: neither may be read through /proc/<pid>/mem or /proc/<pid>/fd by a
    confined candidate (which has also lost its capabilities: sandbox::lock_down)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
    except (OSError, AttributeError):
        pass


def main(argv=None):
    global CHANNEL
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("role", choices=["build", "reference", "candidate", "warm", "spare"])
    p.add_argument("--plan")
    p.add_argument("--candidate")
    p.add_argument("--manifest")
    p.add_argument("--cache")
    p.add_argument("--out", help="build: leave each extension in OUT/<key>/ (the supervisor installs it)")
    p.add_argument("--channel-fd", type=int, default=1)
    p.add_argument("--wait-for-go", action="store_true", help="candidate: import, then wait for 'go' on stdin")
    args = p.parse_args(argv)
    if args.role in ("reference", "candidate", "spare"):
        not_dumpable()
    if args.role == "spare":
        # Started ahead of a run by the supervisor: torch imported now; the role and its arguments
        # come as the first line on stdin ({"argv": ["reference", ...]}).
        import torch  # noqa: F401
        line = sys.stdin.readline()
        if not line:
            return 0
        try:
            real = json.loads(line)["argv"]
        except (ValueError, KeyError, TypeError):
            return 2
        if not isinstance(real, list) or not real or real[0] != "reference" or not all(isinstance(a, str) for a in real):
            return 2  # a spare only ever becomes a (trusted) reference
        global T_START, FROM_SPARE
        T_START = time.monotonic()  # the role starts now: its stage times leave out the wait
        FROM_SPARE = True
        return main(real)
    CHANNEL = os.fdopen(args.channel_fd, "w", buffering=1) if args.channel_fd != 1 else sys.stdout
    if args.channel_fd != 1:
        os.set_inheritable(args.channel_fd, False)
    try:
        if args.role == "build":
            return build_role(args)
        if args.role == "reference":
            return reference_role(args)
        if args.role == "warm":
            return warm_role(args)
        return candidate_role(args)
    except SystemExit:
        raise
    except BaseException as ex:  # a worker's own failure is reported, never raised across the boundary
        emit({"event": "fatal", "message": f"{type(ex).__name__}: {ex}",
              "trace": traceback.format_exc()[-2000:]})
        return 2


def exit_now(rc):
    """Ends a worker without Python's teardown: everything it reports is on the channel and in files it
    closed. A torch process's orderly exit (CUDA context, profiler, Inductor's compile pool, GBs of
    tensors) took seconds per worker on the H200."""
    for f in (CHANNEL, sys.stdout, sys.stderr):
        try:
            if f is not None:
                f.flush()
        except (OSError, ValueError):
            pass
    os._exit(rc if isinstance(rc, int) else 1)


if __name__ == "__main__":
    try:
        code = main()
    except SystemExit as ex:  # argparse and fatal(): their codes
        code = ex.code if isinstance(ex.code, int) else (0 if ex.code is None else 1)
    exit_now(code)

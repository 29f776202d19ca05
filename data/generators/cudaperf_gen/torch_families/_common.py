"""Pieces the torch families share: activations (torch and CUDA spellings), configs, the spec builder."""
from ..temit import In, TorchSpec  # noqa: F401

# name -> (torch expression of {x}, CUDA device function body of x)
ACTS = {
    "relu": ("torch.relu({x})", "return fmaxf(x, 0.0f);"),
    "gelu": ("F.gelu({x})", "return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));"),
    "gelu_tanh": ("F.gelu({x}, approximate='tanh')", "return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));"),
    "silu": ("F.silu({x})", "return x / (1.0f + expf(-x));"),
    "tanh": ("torch.tanh({x})", "return tanhf(x);"),
    "sigmoid": ("torch.sigmoid({x})", "return 1.0f / (1.0f + expf(-x));"),
    "softplus": ("F.softplus({x})", "return x > 20.0f ? x : log1pf(expf(x));"),
    "elu": ("F.elu({x})", "return x > 0.0f ? x : expm1f(x);"),
    "hardtanh": ("F.hardtanh({x})", "return fminf(fmaxf(x, -1.0f), 1.0f);"),
    "mish": ("F.mish({x})", "const float sp = x > 20.0f ? x : log1pf(expf(x)); return x * tanhf(sp);"),
    "abs": ("torch.abs({x})", "return fabsf(x);"),
    "square": ("torch.square({x})", "return x * x;"),
    "hardsigmoid": ("F.hardsigmoid({x})", "return fminf(fmaxf(x / 6.0f + 0.5f, 0.0f), 1.0f);"),
    "selu": ("torch.selu({x})", "return 1.0507009873554805f * (x > 0.0f ? x : 1.6732632423543772f * expm1f(x));"),
    "softsign": ("F.softsign({x})", "return x / (1.0f + fabsf(x));"),
    "atan": ("torch.atan({x})", "return atanf(x);"),
    "sin": ("torch.sin({x})", "return sinf(x);"),
    "expneg": ("torch.exp(-torch.abs({x}))", "return expf(-fabsf(x));"),
}


def act_py(name, x):
    return ACTS[name][0].format(x=x)


def act_cu(name, x):
    return f"act_{name}({x})"


def act_helpers(names):
    return "".join(f"__device__ __forceinline__ float act_{n}(float x) {{ {ACTS[n][1]} }}\n" for n in sorted(set(names)))


def lit(v):
    """A Python float literal and its CUDA float spelling."""
    s = repr(float(v))
    return s, s + ("" if "e" in s or "." in s else ".0") + "f"


def rscalar(rng, lo=0.25, hi=2.5, neg=True):
    v = round(rng.uniform(lo, hi), 3)
    return -v if neg and rng.random() < 0.4 else v


def mat_configs(rows="batch_size", cols="dim", perf=(1024, 32768)):
    return [{"name": "tiny", rows: 2, cols: 7}, {"name": "odd", rows: 17, cols: 1001}, {"name": "odd_rows", rows: 1001, cols: 33},
            {"name": "perf", rows: perf[0], cols: perf[1]}]


def cube_configs(names=("d0", "d1", "d2"), perf=(64, 512, 1024)):
    a, b, c = names
    return [{"name": "tiny", a: 2, b: 3, c: 5}, {"name": "odd", a: 7, b: 33, c: 129}, {"name": "odd_thin", a: 3, b: 301, c: 3},
            {"name": "perf", a: perf[0], b: perf[1], c: perf[2]}]


def spec(family, seed, summary, configs, inputs, forward, impls, **kw):
    sizes = [(k, v) for k, v in configs[-1].items() if k != "name"]
    sig = " ".join(f"{i.name}:{i.dtype}{tuple(i.shape)}" for i in inputs)
    uses_f = any("F." in line for line in forward) or "F." in " ".join(kw.get("init", []))
    return TorchSpec(family=family, seed=seed, summary=summary, sizes=sizes, configs=configs, inputs=inputs,
                     forward_args=[i.name for i in inputs], forward=forward, impls=impls, imports_f=uses_f,
                     shape_sig=sig, **kw)

"""Scans over one dim: cumsum / cumprod / cummax / cummin / logcumsumexp of a transform, forward or reversed (flip)."""
from ._common import In, cube_configs, lit, spec
from .. import tshapes

NAME = "pt_cumulative"
PRE = {"id": ("x", "AT(x)"), "abs": ("torch.abs(x)", "fabsf(AT(x))"), "sq": ("x * x", "AT(x) * AT(x)"),
       "tanh": ("torch.tanh(x)", "tanhf(AT(x))"), "relu": ("torch.relu(x)", "fmaxf(AT(x), 0.0f)")}


def generate(rng, seed):
    dim = rng.choice([0, 1, 2, -1])
    kind = rng.choice(["cumsum", "cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "cummean"])
    rev = rng.random() < 0.35
    pre = rng.choice(sorted(PRE))
    pp, pc = PRE[pre]
    op, post = {"cumsum": ("add", "s"), "cummean": ("add", "s"), "cumprod": ("mul", "s"), "cummax": ("max", "s"),
                "cummin": ("min", "s"), "logcumsumexp": ("add", "log(s)")}[kind]
    if kind == "cumprod":  # factors near 1 keep the products bounded
        pp, pc = f"1.0 + 0.1 * torch.tanh({pp})", f"1.0f + 0.1f * tanhf({pc})"
    if kind == "logcumsumexp":  # bounded exponents
        pp, pc = f"torch.tanh({pp}) * 3.0", f"exp((double)(tanhf({pc}) * 3.0f))"
    x = f"torch.flip({pp}, dims=({dim},))" if rev else pp
    call = {"cumsum": "torch.cumsum({x}, dim={d})", "cummean": "torch.cumsum({x}, dim={d})", "cumprod": "torch.cumprod({x}, dim={d})",
            "cummax": "torch.cummax({x}, dim={d}).values", "cummin": "torch.cummin({x}, dim={d}).values",
            "logcumsumexp": "torch.logcumsumexp({x}, dim={d})"}[kind].format(x=x, d=dim)
    if kind == "cummean":
        call = f"{call} / torch.arange(1, x.shape[{dim}] + 1, dtype=x.dtype).reshape([-1 if k == {dim % 3} else 1 for k in range(3)])"
        post = "s / (double)(k + 1)"
    if rev:
        call = f"torch.flip({call}, dims=({dim},))"
    impls = tshapes.scan_impls("scan", "x", dim, pc, op, post, reverse=rev, call="_ext.{fn}(x)")
    big = kind in ("cumsum",)
    return spec(NAME, seed, f"{kind} of {pre}(x) over dim {dim}{' reversed' if rev else ''}", cube_configs(perf=(64, 1024, 512)),
                [In("x", ("d0", "d1", "d2"))], [f"return {call}"], impls, rtol=1e-4, atol=2e-3 if big else 1e-4,
                deterministic=False, field="scan")

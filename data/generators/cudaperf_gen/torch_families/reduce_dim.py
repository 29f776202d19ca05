"""A reduction over one dim of a 3-D tensor: sum / mean / amax / amin / prod-free norms of an elementwise transform."""
from ._common import In, cube_configs, lit, spec
from .. import tshapes

NAME = "pt_reduce_dim"
PRE = {"id": ("{x}", "AT(x)"), "abs": ("torch.abs({x})", "fabsf(AT(x))"), "sq": ("{x} * {x}", "AT(x) * AT(x)"),
       "relu": ("torch.relu({x})", "fmaxf(AT(x), 0.0f)"), "tanh": ("torch.tanh({x})", "tanhf(AT(x))"),
       "exp": ("torch.exp({x})", "expf(AT(x))"), "sig": ("torch.sigmoid({x})", "1.0f / (1.0f + expf(-AT(x)))")}


def generate(rng, seed):
    dim = rng.choice([0, 1, 2, -1])
    keep = rng.random() < 0.4
    kind = rng.choice(["sum", "mean", "amax", "amin", "norm2", "norm1", "sumsq_sqrt_mean"])
    pre = rng.choice(sorted(PRE)) if kind in ("sum", "mean", "amax", "amin") else "id"
    pp, pc = PRE[pre]
    pp = pp.format(x="x")
    kd = ", keepdim=True" if keep else ""
    final = "a0"
    if kind in ("sum", "mean"):
        fwd = f"torch.{kind}({pp}, dim={dim}{kd})"
        op = "add"
        final = "a0 / Rd" if kind == "mean" else "a0"
    elif kind in ("amax", "amin"):
        fwd = f"torch.{kind}({pp}, dim={dim}{kd})"
        op = kind[1:]
    elif kind == "norm2":
        fwd, op, pc, final = f"torch.linalg.vector_norm(x, ord=2, dim={dim}{kd})", "add", "AT(x) * AT(x)", "sqrt(a0)"
    elif kind == "norm1":
        fwd, op, pc = f"torch.linalg.vector_norm(x, ord=1, dim={dim}{kd})", "add", "fabsf(AT(x))"
    else:
        fwd, op, pc, final = f"torch.sqrt(torch.mean(x * x, dim={dim}{kd}))", "add", "AT(x) * AT(x)", "sqrt(a0 / Rd)"
    scale = ""
    if rng.random() < 0.3:
        c = lit(round(rng.uniform(0.2, 3), 3))
        fwd, final, scale = f"{fwd} * {c[0]}", f"({final}) * {c[1]}", " scaled"
    impls = tshapes.lines_impls("red", "x", dim, [("x", "float")], [], [], [[("a0", op, pc)]], final=final, keep=keep,
                                call="_ext.{fn}(x)")
    big = kind in ("sum", "norm1")
    return spec(NAME, seed, f"{kind} of {pre}(x) over dim {dim}{' (keepdim)' if keep else ''}{scale}", cube_configs(),
                [In("x", ("d0", "d1", "d2"), scale="1.5")], [f"return {fwd}"], impls, rtol=1e-4, atol=1e-3 if big else 1e-4,
                deterministic=False, field="reduction")

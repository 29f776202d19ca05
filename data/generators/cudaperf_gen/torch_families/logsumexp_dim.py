"""logsumexp (max-shifted) over one dim of a scaled or transformed tensor, or of a sum of two."""
from ._common import In, cube_configs, lit, spec
from .. import tshapes

NAME = "pt_logsumexp_dim"


def generate(rng, seed):
    dim = rng.choice([0, 1, 2, -1])
    keep = rng.random() < 0.4
    pre = rng.choice(["id", "scale", "neg", "y_mul", "y_add", "sq_neg", "abs"])
    c = lit(round(rng.uniform(0.3, 3.0), 3))
    pp, pc = {"id": ("x", "AT(x)"), "scale": (f"x * {c[0]}", f"AT(x) * {c[1]}"), "neg": ("-x", "-AT(x)"),
              "y_mul": ("x * y", "AT(x) * AT(y)"), "y_add": ("x + y", "AT(x) + AT(y)"), "sq_neg": ("-(x * x)", "-(AT(x) * AT(x))"),
              "abs": ("torch.abs(x)", "fabsf(AT(x))")}[pre]
    two = "y" in pp
    tensors = [("x", "float")] + ([("y", "float")] if two else [])
    post = rng.choice(["none", "minus_log_n", "times"])
    final = "a0 + log(a1)"
    fwd = f"torch.logsumexp({pp}, dim={dim}{', keepdim=True' if keep else ''})"
    if post == "minus_log_n":
        fwd, final = f"{fwd} - math.log(x.shape[{dim}])", f"{final} - log(Rd)"
    elif post == "times":
        d = lit(round(rng.uniform(0.2, 2), 2))
        fwd, final = f"{fwd} * {d[0]}", f"({final}) * {d[1]}"
    ph = [[("a0", "max", pc)], [("a1", "add", f"exp((double)({pc}) - a0)")]]
    impls = tshapes.lines_impls("lse", "x", dim, tensors, [], [], ph, final=final, keep=keep, call="_ext.{fn}(" + ("x, y" if two else "x") + ")")
    ins = [In("x", ("d0", "d1", "d2"), scale="2.0")] + ([In("y", ("d0", "d1", "d2"))] if two else [])
    s = spec(NAME, seed, f"logsumexp over dim {dim} of {pre}, {post}", cube_configs(), ins, [f"return {fwd}"], impls,
             rtol=1e-4, atol=1e-4, deterministic=False, field="reduction")
    return s

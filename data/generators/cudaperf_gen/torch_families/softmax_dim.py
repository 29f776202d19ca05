"""softmax / log-softmax over one dim with a temperature, an optional bias or pre-activation, an optional output scale."""
from ._common import In, cube_configs, lit, spec
from .. import tshapes

NAME = "pt_softmax_dim"


def generate(rng, seed):
    dim = rng.choice([0, 1, 2, -1])
    log = rng.random() < 0.4
    t = lit(round(rng.uniform(0.3, 3.0), 3))
    pre = rng.choice(["none", "tanh", "clamp", "y_add", "abs"])
    xp, xc = "x", "AT(x)"
    tensors, ins, args = [("x", "float")], [In("x", ("d0", "d1", "d2"), scale="2.0")], "x"
    if pre == "tanh":
        xp, xc = "torch.tanh(x) * 4.0", "tanhf(AT(x)) * 4.0f"
    elif pre == "clamp":
        xp, xc = "torch.clamp(x, min=-3.0, max=3.0)", "fminf(fmaxf(AT(x), -3.0f), 3.0f)"
    elif pre == "abs":
        xp, xc = "torch.abs(x)", "fabsf(AT(x))"
    elif pre == "y_add":
        xp, xc, args = "x + y", "(AT(x) + AT(y))", "x, y"
        tensors.append(("y", "float"))
        ins.append(In("y", ("d0", "d1", "d2")))
    z = f"((double)({xc}) / (double){t[1]})"
    ph = [[("a0", "max", z)], [("a1", "add", f"exp({z} - a0)")]]
    fn = "log_softmax" if log else "softmax"
    rowmap = f"{z} - a0 - log(a1)" if log else f"exp({z} - a0) / a1"
    fwd = f"torch.{fn}(({xp}) / {t[0]}, dim={dim})"
    if rng.random() < 0.3:
        c = lit(round(rng.uniform(0.5, 4), 2))
        fwd, rowmap = f"{fwd} * {c[0]}", f"({rowmap}) * {c[1]}"
    impls = tshapes.lines_impls("smax", "x", dim, tensors, [], [], ph, rowmap=rowmap, call="_ext.{fn}(" + args + ")")
    return spec(NAME, seed, f"{fn} over dim {dim} of {pre}(x) / T", cube_configs(), ins, [f"return {fwd}"], impls,
                rtol=1e-4, atol=1e-5, deterministic=False, field="ml")

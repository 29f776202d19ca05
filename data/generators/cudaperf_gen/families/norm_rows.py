"""Row normalisations: layernorm, rmsnorm, l2-normalise, standardise, centre, min-max scale; optional gamma/beta/residual."""
from ..common import build
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "norm_rows"


def generate(rng, seed):
    kind = rng.choice(["layernorm", "rmsnorm", "l2norm", "center", "minmax", "layernorm_resid", "rmsnorm_resid"])
    gamma = rng.random() < 0.6
    beta = gamma and rng.random() < 0.6 and kind not in ("l2norm", "minmax")
    X = "(double)x[r * L + j]" if "resid" not in kind else "((double)x[r * L + j] + (double)res[r * L + j])"
    eps = rng.choice(["1e-5", "1e-6", "1e-3"])
    if kind.startswith("layernorm"):
        reds = [Red("s1", "double", "add", X), Red("s2", "double", "add", f"({X} - s1 / (double)L) * ({X} - s1 / (double)L)")]
        v = f"({X} - s1 / (double)L) / sqrt(s2 / (double)L + {eps})"
    elif kind.startswith("rmsnorm"):
        reds = [Red("s2", "double", "add", f"{X} * {X}")]
        v = f"{X} / sqrt(s2 / (double)L + {eps})"
    elif kind == "l2norm":
        reds = [Red("s2", "double", "add", f"{X} * {X}")]
        v = f"{X} / fmax(sqrt(s2), {eps})"
    elif kind == "center":
        reds = [Red("s1", "double", "add", X)]
        v = f"({X} - s1 / (double)L)"
    else:
        reds = [Red("mn", "double", "min", X), Red("mxv", "double", "max", X)]
        v = f"({X} - mn) / (mxv - mn + {eps})"
    if gamma:
        v = f"({v}) * (double)gamma[j]"
    if beta:
        v = f"{v} + (double)beta[j]"
    from ..common import act
    oa = rng.choice(["identity", "identity", "relu", "silu", "tanh", "gelu_tanh", "sigmoid"])
    rowmap = f"out[r * L + j] = (float)({act(oa, '(' + v + ')', 'double')});"
    params = [P("R", "int", "size"), P("L", "int", "size"), P("x", "const float*", "in", len="R*L", dist=rng.choice(["normal(1, 2)", "uniform(-3, 5)"]))]
    if "resid" in kind:
        params.append(P("res", "const float*", "in", len="R*L", dist="uniform(-1, 1)"))
    if gamma:
        params.append(P("gamma", "const float*", "in", len="L", dist="uniform(0.5, 1.5)"))
    if beta:
        params.append(P("beta", "const float*", "in", len="L", dist="uniform(-0.5, 0.5)"))
    params.append(P("out", "float*", "out", len="R*L"))
    L = rng.choice([256, 768, 1024, 4096, 8192])
    configs = [{"name": "tiny", "R": 3, "L": 5}, {"name": "odd", "R": 37, "L": 1001}, {"name": "odd_many", "R": 3001, "L": 7},
               {"name": "perf", "R": 2 ** 25 // L, "L": L}]
    ins = 8 if "resid" in kind else 4
    ref, impls = shapes.rowred_shape(params, "R", "0", "L", reds, "", rowmap)
    return build(NAME, seed, "ml", "warp", f"row-wise {kind.replace('_', ' + ')}{' with gamma' if gamma else ''}{' and beta' if beta else ''} (double statistics)",
                 params, configs, (1e-4, 1e-5), ("5*R*L", f"{ins + 4}*R*L"), ref, impls)

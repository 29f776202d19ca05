"""Masked / selected maps: out = mask ? f(x, y) : g(x, y), mask from a byte buffer or a comparison, optional write-back of a count per element."""
from ..common import build, expr_tree, float_tol, n_configs, sz
from ..emit import P
from .. import shapes

NAME = "masked_select"


def generate(rng, seed):
    t = rng.choice(["float", "double"])
    msrc = rng.choice(["bytes", "compare", "threshold", "bits"])
    f = expr_tree(rng, ["x[i]", "y[i]"], t, rng.choice([1, 2]))
    g = expr_tree(rng, ["x[i]", "y[i]"], t, rng.choice([0, 1, 2]))
    if f == g:
        g = f"-({g})"
    params = [P("n", "int", "size")]
    if msrc == "bytes":
        cond = "mask[i] != 0"
    elif msrc == "compare":
        cond = "x[i] > y[i]"
    elif msrc == "threshold":
        cond = "FMUL(x[i], x[i]) + y[i] < thr"  # never fused: the branch must not depend on FMA contraction
        params.append(P("thr", t, "scalar", value=round(rng.uniform(0.2, 2), 2)))
    else:
        cond = f"((bits[i / 32] >> (i % 32)) & 1u)"
    params += [P("x", f"const {t}*", "in", len="n", dist="uniform(-1, 1)"), P("y", f"const {t}*", "in", len="n", dist="normal(0, 1)")]
    extra = 0
    if msrc == "bytes":
        params.append(P("mask", "const unsigned char*", "in", len="n", dist="uniform(0, 1)")); extra = 1
    if msrc == "bits":
        params.append(P("bits", "const uint32_t*", "in", len="cdiv(n, 32)", dist="uniform(0, 4294967295)"))
    params.append(P("out", f"{t}*", "out", len="n"))
    body = f"out[i] = ({cond}) ? {f} : {g};"
    nin = sum(1 for v in ("x[i]", "y[i]") if v in body)  # the cost model counts only the inputs the body reads
    ref, impls = shapes.map_shape(params, "n", body)
    return build(NAME, seed, "elementwise", "none", f"{t} masked select ({msrc} mask) between two generated expressions",
                 params, n_configs(rng, 2 ** 25 if t == "float" else 2 ** 24), float_tol(t, 10), ("n", f"{(nin + 1) * sz(t) + extra}*n"), ref, impls)

"""Elementwise maps out[i] = a random expression tree over 1-3 input vectors (shared by ew_expr_f32/f64)."""
import math
from ..common import build, expr_tree, float_tol, n_configs, sz, rconst
from ..emit import P
from .. import shapes


def generate_expr(family, rng, seed, t):
    names = ["x", "y", "z"][: rng.choice([1, 2, 2, 3])]
    leaves = [f"{v}[i]" for v in names]
    use_alpha = rng.random() < 0.3
    if use_alpha:
        leaves.append("alpha")
    e = expr_tree(rng, leaves, t, rng.choice([2, 3, 3, 4]))
    # an expression that is one input alone (the tree simplified away) is a copy task that the null
    # battery rejects: draw again
    while not any(f"{v}[i]" in e for v in names) or e.strip("() ") in leaves:
        e = expr_tree(rng, leaves, t, 3)
    used = [v for v in names if f"{v}[i]" in e]
    dists = ["uniform(-2, 2)", "normal(0, 1)", "mixed(-2, 2)", "uniform(-1, 1)"]
    params = [P("n", "int", "size")]
    if "alpha" in e:
        params.append(P("alpha", t, "scalar", value=float(rconst(rng, t).rstrip("f"))))
    for v in used:
        params.append(P(v, f"const {t}*", "in", len="n", dist=rng.choice(dists)))
    params.append(P("out", f"{t}*", "out", len="n"))
    k = len(used)
    perf_n = 2 ** math.ceil(math.log2(450e6 / ((k + 1) * sz(t))))
    configs = n_configs(rng, perf_n)
    if "alpha" in e:
        configs[2]["alpha"] = -1.25
    ref, impls = shapes.map_shape(params, "n", f"out[i] = {e};")
    return build(family, seed, "elementwise", "none", f"{t} elementwise map out[i] = f({', '.join(used)}) with a generated expression tree",
                 params, configs, float_tol(t, 10), ("n", f"{(k + 1) * sz(t)}*n"), ref, impls)

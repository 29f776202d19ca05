"""Gathers through index arrays: out[i] = f(x[idx[i]], ...) with one or two levels of indirection, optional weights."""
from ..common import build, expr_tree, float_tol, n_configs, sz
from ..emit import P
from .. import shapes

NAME = "gather_idx"


def generate(rng, seed):
    t = rng.choice(["float", "float", "double", "int"])
    mode = rng.choice(["direct", "double", "pair", "weighted", "clamped_offset", "rowgather"])
    params = [P("n", "int", "size"), P("m", "int", "size")]
    params.append(P("x", f"const {t}*", "in", len="m" if mode != "rowgather" else "m*4",
                    dist="uniform(-100, 100)" if t == "int" else "uniform(-2, 2)"))
    params.append(P("idx", "const int*", "in", len="n", dist="index(0, m)"))
    nread = 4
    if mode == "direct":
        v = "x[idx[i]]"
    elif mode == "double":
        params.append(P("idx2", "const int*", "in", len="m", dist="index(0, m)"))
        v, nread = "x[idx2[idx[i]]]", 4
    elif mode == "pair":
        params.append(P("idy", "const int*", "in", len="n", dist="index(0, m)"))
        v, nread = ("(x[idx[i]] - x[idy[i]])" if t != "int" else "(x[idx[i]] ^ x[idy[i]])"), 8
    elif mode == "weighted":
        params.append(P("w", f"const {t}*", "in", len="n", dist="uniform(-3, 3)" if t == "int" else "uniform(-1, 1)"))
        v, nread = "(w[i] * x[idx[i]])", 4 + sz(t)
    elif mode == "clamped_offset":
        off = rng.randrange(1, 9)
        v = f"x[idx[i] + {off} < m ? idx[i] + {off} : m - 1]"
    else:
        lane = rng.randrange(0, 4)
        v = f"x[(long long)idx[i] * 4 + {lane}]"
    if t == "int":
        k = rng.choice(["+", "*", "^"])
        body = f"out[i] = {v} {k} {rng.randrange(1, 50)};" if rng.random() < 0.5 else f"out[i] = {v};"
        tol = (0, 0)
    else:
        e = expr_tree(rng, ["g_"], t, rng.choice([0, 1, 2]))
        body = f"const {t} g_ = {v};\nout[i] = {e};"
        tol = float_tol(t, 10)
    params.append(P("out", f"{t}*", "out", len="n"))
    configs = n_configs(rng, 2 ** 25)
    for c in configs:
        c["m"] = {"tiny": 5, "odd": 50021, "odd_small": 777, "perf": 2 ** 24}[c["name"]]
    ref, impls = shapes.map_shape(params, "n", body)
    return build(NAME, seed, "gather_scatter", "none", f"{t} gather ({mode}) through index arrays",
                 params, configs, tol, ("n", f"{nread + sz(t)}*n"), ref, impls)

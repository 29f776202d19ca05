"""Scatters through a permutation: out[perm[i]] = f(x[i]) (every output written exactly once), optionally composed or blocked."""
from ..common import build, expr_tree, float_tol, n_configs, sz
from ..emit import P
from .. import shapes

NAME = "scatter_perm"


def generate(rng, seed):
    t = rng.choice(["float", "double", "int", "unsigned char"])
    mode = rng.choice(["direct", "inverse_gather", "compose", "pairs", "block"])
    params = [P("n", "int", "size"), P("x", f"const {t}*", "in", len="n",
                                        dist="uniform(0, 255)" if t == "unsigned char" else ("uniform(-1000, 1000)" if t == "int" else "uniform(-2, 2)")),
              P("perm", "const int*", "in", len="n", dist="permutation()")]
    if t in ("int", "unsigned char"):
        val = rng.choice(["x[i]", f"({t})(x[i] + {rng.randrange(1, 9)})", f"({t})(x[i] ^ {rng.randrange(1, 127)})", f"({t})(x[i] * {rng.randrange(2, 7)})"])
        tol = (0, 0)
    else:
        val = expr_tree(rng, ["x[i]"], t, rng.choice([0, 1, 2]))
        tol = float_tol(t, 10)
    if mode == "direct":
        body, count = f"out[perm[i]] = {val};", "n"
    elif mode == "inverse_gather":
        body, count = f"out[i] = {val.replace('x[i]', 'x[perm[i]]')};", "n"
    elif mode == "compose":
        params.append(P("perm2", "const int*", "in", len="n", dist="permutation()"))
        body, count = f"out[perm2[perm[i]]] = {val};", "n"
    elif mode == "pairs":
        body, count = f"out[perm[i]] = {val};\nout2[i] = {val.replace('x[i]', 'x[perm[i]]')};", "n"
    else:
        body, count = f"out[(long long)(perm[i / 8]) % n / 8 * 8 + i % 8 < n ? (long long)(perm[i / 8]) % n / 8 * 8 + i % 8 : i] = {val};", "n"
        # every output must be written exactly once: blocked mode permutes blocks of 8 among themselves
        params[2] = P("perm", "const int*", "in", len="cdiv(n, 8)", dist="permutation()")
        body = f"const long long blk = perm[i / 8];\nout[blk * 8 + i % 8] = {val};"
        count = "n"
    params.append(P("out", f"{t}*", "out", len="n"))
    if mode == "pairs":
        params.append(P("out2", f"{t}*", "out", len="n"))
    configs = n_configs(rng, 2 ** 26 if t == "unsigned char" else 2 ** 25)
    if mode == "block":
        for c in configs:
            c["n"] = {"tiny": 16, "odd": 100000, "odd_small": 1000, "perf": 2 ** 26 if t == "unsigned char" else 2 ** 25}[c["name"]]
        configs[1]["name"], configs[2]["name"] = "odd_blocks", "odd_small"
        configs[1]["n"] = 100008
    outs = 2 if mode == "pairs" else 1
    ref, impls = shapes.map_shape(params, count, body)
    return build(NAME, seed, "gather_scatter", "none", f"{t} permutation scatter ({mode})",
                 params, configs, tol, ("n", f"{(outs + 1) * sz(t) + 4}*n"), ref, impls)

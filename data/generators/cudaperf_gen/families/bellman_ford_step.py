"""Graph relaxation: one Bellman-Ford step over an edge list (dist_out[v] = min(dist[v], min over edges u->v of dist[u] + w)),
with variants: max-plus (widest / longest), weight transforms, an active-source filter."""
from ..common import build
from ..emit import P
from .. import shapes

NAME = "bellman_ford_step"


def generate(rng, seed):
    op = rng.choice(["min", "min", "max"])
    wt = rng.choice(["plain", "scaled", "capped", "abs_diff", "hop"])
    act = rng.random() < 0.4
    pot = rng.random() < 0.4
    settled = rng.random() < 0.3
    w = {"plain": "w[e]", "scaled": f"w[e] * {rng.randrange(2, 5)}", "capped": f"(w[e] < {rng.randrange(10, 50)} ? w[e] : {rng.randrange(10, 50)})",
         "abs_diff": "(w[e] > 50 ? w[e] - 50 : 50 - w[e])", "hop": "1"}[wt]
    val = f"dist[src[e]] + {w}" if op == "min" else f"dist[src[e]] - {w}"
    if pot:
        val = f"{val} + pot[src[e]] - pot[dst[e]]"
    if settled:
        ident0 = "2147483647" if op == "min" else "(-2147483647 - 1)"
        val = f"done[dst[e]] ? {ident0} : ({val})"
    if act:
        ident = "2147483647" if op == "min" else "(-2147483647 - 1)"
        val = f"active[src[e]] ? {val} : {ident}"
    params = [P("nv", "int", "size"), P("ne", "int", "size"), P("dist", "const int*", "in", len="nv", dist="uniform(0, 1000000)"),
              P("src", "const int*", "in", len="ne", dist="index(0, nv)"), P("dst", "const int*", "in", len="ne", dist="index(0, nv)")]
    if wt != "hop":
        params.append(P("w", "const int*", "in", len="ne", dist="uniform(1, 100)"))
    if act:
        params.append(P("active", "const unsigned char*", "in", len="nv", dist="uniform(0, 1)"))
    if pot:
        params.append(P("pot", "const int*", "in", len="nv", dist="uniform(0, 1000)"))
    if settled:
        params.append(P("done", "const unsigned char*", "in", len="nv", dist="uniform(0, 1)"))
    params.append(P("out", "int*", "out", len="nv"))
    deg = rng.choice([2, 4, 8, 16])
    nv = 2 ** 25 // deg
    configs = [{"name": "tiny", "nv": 6, "ne": 11}, {"name": "odd", "nv": 10001, "ne": 50001}, {"name": "odd_dense", "nv": 301, "ne": 90001},
               {"name": "perf", "nv": nv, "ne": nv * deg}]
    ref, impls = shapes.scatter_shape(params, "nv", "ne", "out", "int", op, "dist[t]", "dst[e]", val, what="edge")
    return build(NAME, seed, "graph", "atomic", f"Bellman-Ford relaxation step over an edge list ({op}-plus, {wt} weights{', active sources only' if act else ''})",
                 params, configs, (0, 0), ("ne", f"{12 if wt != 'hop' else 8}*ne + 8*nv"), ref, impls)

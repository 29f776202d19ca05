"""Transposes / permutes of a rank 2-5 tensor: out = permute(x, axes), optionally with a cast or a scale."""
import itertools
from ..common import build, sz
from ..emit import P
from .. import shapes

NAME = "permute_nd"


def generate(rng, seed):
    rank = rng.choice([2, 3, 3, 4, 4, 5])
    perms = [p for p in itertools.permutations(range(rank)) if list(p) != list(range(rank))]
    perm = rng.choice(perms)
    t = rng.choice(["float", "double", "int", "unsigned char"])
    op = rng.choice(["copy", "copy", "scale", "negate"] if t in ("float", "double") else ["copy", "copy", "xor"])
    dims = [f"d{k}" for k in range(rank)]
    odims = [dims[p] for p in perm]
    # out index i -> output coordinates (last fastest) -> input flat index
    lines = ["long long rem = i;"]
    for k in reversed(range(rank)):
        lines.append(f"const long long o{k} = rem % {odims[k]};" + ("" if k == 0 else f" rem /= {odims[k]};"))
    # input coordinate of axis perm[k] is o_k
    coord = {perm[k]: f"o{k}" for k in range(rank)}
    flat = coord[0]
    for a in range(1, rank):
        flat = f"({flat}) * {dims[a]} + {coord[a]}"
    v = f"x[{flat}]"
    v = {"copy": v, "scale": f"({v} * alpha)", "negate": f"(-{v})", "xor": f"({t})({v} ^ 0x5A)"}[op]
    lines.append(f"out[i] = {v};")
    if rank == 2:
        lines[0] = "long long rem = i + 0;"
    params = [P(d, "int", "size") for d in dims]
    if op == "scale":
        params.append(P("alpha", t, "scalar", value=round(rng.uniform(0.5, 2), 3)))
    total = "*".join(dims)
    params += [P("x", f"const {t}*", "in", len=total, dist="uniform(0, 255)" if t == "unsigned char" else ("uniform(-1000, 1000)" if t == "int" else "uniform(-1, 1)")),
               P("out", f"{t}*", "out", len=total)]
    tiny = {2: [3, 5], 3: [2, 3, 4], 4: [2, 3, 2, 3], 5: [2, 3, 2, 2, 3]}[rank]
    odd = {2: [301, 257], 3: [17, 31, 45], 4: [7, 9, 11, 13], 5: [5, 7, 3, 9, 11]}[rank]
    target = int(2.4e8 / sz(t))
    per_dim = round(target ** (1.0 / rank))
    perf = [per_dim] * rank
    mk = lambda name, ds: dict({"name": name}, **{d: v for d, v in zip(dims, ds)})
    configs = [mk("tiny", tiny), mk("odd", odd), mk("odd_small", [v + 1 for v in tiny]), mk("perf", perf)]
    ref, impls = shapes.map_shape(params, "(long long)" + " * ".join(dims), "\n".join(lines), what="output element")
    return build(NAME, seed, "layout", "none", f"{t} rank-{rank} permute with axes {list(perm)} ({op})",
                 params, configs, (0, 0) if op != "scale" else (1e-6, 0), ("0", f"{2 * sz(t)}*{total}"), ref, impls)

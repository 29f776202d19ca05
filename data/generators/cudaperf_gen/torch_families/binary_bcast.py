"""Random expression trees over 2-3 broadcast operands (rank 3, size-1 dims), then an optional activation."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, cube_configs, lit, rscalar, spec
from .. import tshapes

NAME = "pt_binary_bcast"
DIMS = ("d0", "d1", "d2")


def _tree(rng, leaves, depth):
    if depth <= 0 or rng.random() < 0.25:
        leaf = rng.choice(leaves)
        return leaf, "{" + leaf + "}"
    op = rng.choice(["+", "-", "*", "max", "min", "div1", "axpy"])
    (pa, ca), (pb, cb) = _tree(rng, leaves, depth - 1), _tree(rng, leaves, depth - 1)
    if op == "max":
        return f"torch.maximum({pa}, {pb})", f"fmaxf({ca}, {cb})"
    if op == "min":
        return f"torch.minimum({pa}, {pb})", f"fminf({ca}, {cb})"
    if op == "div1":
        return f"({pa} / (1.0 + torch.abs({pb})))", f"({ca} / (1.0f + fabsf({cb})))"
    if op == "axpy":
        c = lit(rscalar(rng))
        return f"({c[0]} * {pa} + {pb})", f"({c[1]} * {ca} + {cb})"
    return f"({pa} {op} {pb})", f"({ca} {op} {cb})"


def generate(rng, seed):
    names = ["x", "y"] + (["z"] if rng.random() < 0.5 else [])
    shapes = {"x": DIMS}
    for n in names[1:]:
        while True:
            keep = [rng.random() < 0.5 for _ in DIMS]
            if not all(keep):
                break
        shapes[n] = tuple(d if k else 1 for d, k in zip(DIMS, keep))
    cu_leaves = {n: f"{n}[a * s{n}0 + b * s{n}1 + c * s{n}2]" if n != "x" else "x[idx]" for n in names}
    for _ in range(50):
        py, cu = _tree(rng, names, rng.randint(2, 3))
        if all(n in py for n in names):
            break
    else:
        py = " + ".join(names)
        cu = " + ".join("{" + n + "}" for n in names)
    cu = cu.format(**cu_leaves)
    used = []
    if rng.random() < 0.6:
        a = rng.choice(sorted(ACTS))
        py, cu, used = act_py(a, py), act_cu(a, cu), [a]
    dims = [("D1", "x_c.size(1)"), ("D2", "x_c.size(2)")]
    for n in names[1:]:
        dims += [(f"s{n}0", f"{n}_c.size(0) == 1 ? 0 : {n}_c.size(1) * {n}_c.size(2)"),
                 (f"s{n}1", f"{n}_c.size(1) == 1 ? 0 : {n}_c.size(2)"), (f"s{n}2", f"{n}_c.size(2) == 1 ? 0 : 1")]
    body = "  const int64_t c = idx % D2, b = (idx / D2) % D1, a = idx / (D1 * D2);\n  (void)a; (void)b; (void)c;\n" + \
        f"  return {cu};"
    impls = tshapes.map_impls("bcast", [(n, "float") for n in names], [], dims, "auto out = torch::empty_like(x_c);", body,
                              helpers=act_helpers(used), call="_ext.{fn}(" + ", ".join(names) + ")")
    inputs = [In(n, shapes[n], scale="2.0") for n in names]
    sig = ", ".join(f"{n}({', '.join(map(str, shapes[n]))})" for n in names)
    return spec(NAME, seed, f"broadcast expression over {sig}", cube_configs(DIMS), inputs, [f"return {py}"], impls,
                rtol=1e-4, atol=1e-5, field="elementwise")

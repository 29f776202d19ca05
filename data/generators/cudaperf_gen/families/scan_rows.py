"""Row-wise prefix scans: inclusive or exclusive, sum / max / min, over a transform of the input, int / float (double carries) outputs."""
from ..common import build, expr_tree
from ..emit import P
from .. import shapes

NAME = "scan_rows"


def generate(rng, seed):
    t = rng.choice(["int", "float", "double"])
    op = rng.choice(["add", "add", "max", "min"])
    excl = rng.random() < 0.5
    X = "x[r * L + j]"
    if t == "int":
        ctype = "long long"
        elem = rng.choice([f"(long long){X}", f"(long long)({X} > 0 ? {X} : -{X})", f"(long long)({X} % {rng.randrange(3, 50)})",
                           f"(long long)({X} > {rng.randrange(-50, 50)})", f"(long long){X} * {X}"])
        store = rng.choice(["out[r * L + j] = (long long)s;", f"out[r * L + j] = s % {rng.randrange(1000, 100000)};"])
        ot, tol, dist = "long long", (0, 0), "uniform(-1000, 1000)"
    else:
        ctype = "double"
        g = expr_tree(rng, ["xv"], t, rng.choice([0, 0, 1]))
        elem = f"(double)({g})".replace("xv", X)
        store = f"out[r * L + j] = ({t})s;"
        ot, dist = t, rng.choice(["uniform(-1, 1)", "normal(0, 1)", "uniform(0, 1)"])
        tol = (1e-5, 1e-5) if t == "float" else (1e-10, 1e-9)
    params = [P("R", "int", "size"), P("L", "int", "size"), P("x", f"const {t}*", "in", len="R*L", dist=dist), P("out", f"{ot}*", "out", len="R*L")]
    L = rng.choice([1024, 4096, 65536])
    configs = [{"name": "tiny", "R": 2, "L": 7}, {"name": "odd", "R": 13, "L": 1001}, {"name": "odd_long", "R": 1, "L": 100003},
               {"name": "odd_many", "R": 999, "L": 3}, {"name": "perf", "R": 2 ** 25 // L, "L": L}]
    isz = {"int": 4, "float": 4, "double": 8}[t]
    osz = {"long long": 8, "float": 4, "double": 8}[ot]
    ref, impls = shapes.scan_shape(params, "R", "L", ctype, op, elem, "0", store, excl)
    return build(NAME, seed, "scan", "warp", f"{t} row-wise {'exclusive' if excl else 'inclusive'} {op} scan of a transform",
                 params, configs, tol, ("R*L", f"{isz + osz}*R*L"), ref, impls)

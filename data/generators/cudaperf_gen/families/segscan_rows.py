"""Segmented prefix scans with random segment flags (a byte buffer, a head-index rule, or a key change), per row."""
from ..common import build
from ..emit import P
from .. import shapes

NAME = "segscan_rows"


def generate(rng, seed):
    t = rng.choice(["int", "float"])
    op = rng.choice(["add", "add", "max", "min"])
    excl = rng.random() < 0.4
    fl = rng.choice(["bytes", "keys", "period", "sign"])
    X = "x[r * L + j]"
    flag = {"bytes": "(int)(flags[r * L + j] != 0)", "keys": "(int)(j == 0 || keys[r * L + j] != keys[r * L + j - 1])",
            "period": f"(int)(j % {rng.randrange(3, 40)} == 0)", "sign": f"(int)(j > 0 && (({X} < 0) != (x[r * L + j - 1] < 0)))"}[fl]
    if t == "int":
        ctype, elem, ot, tol = "long long", rng.choice([f"(long long){X}", f"(long long)({X} & 15)", f"(long long){X} * 3 - 1"]), "int", (0, 0)
        store = "out[r * L + j] = (int)s;"
        dist = "uniform(-1000, 1000)"
    else:
        ctype, elem, ot, tol = "double", rng.choice([f"(double){X}", f"(double)fabsf({X})", f"(double)({X} * {X})"]), "float", (1e-5, 1e-5)
        store = "out[r * L + j] = (float)s;"
        dist = "uniform(-1, 1)"
    params = [P("R", "int", "size"), P("L", "int", "size"), P("x", f"const {t}*", "in", len="R*L", dist=dist)]
    if fl == "bytes":
        params.append(P("flags", "const unsigned char*", "in", len="R*L", dist=rng.choice(["uniform(0, 1)", "index(0, 8)"]).replace("index(0, 8)", "uniform(0, 7)")))
        flag = flag if "uniform(0, 1)" in params[-1].dist else "(int)(flags[r * L + j] == 0)"
    if fl == "keys":
        params.append(P("keys", "const int*", "in", len="R*L", dist="sorted(0, 200)"))
    params.append(P("out", f"{ot}*", "out", len="R*L"))
    L = rng.choice([1024, 4096, 65536])
    configs = [{"name": "tiny", "R": 2, "L": 7}, {"name": "odd", "R": 13, "L": 1001}, {"name": "odd_long", "R": 1, "L": 100003},
               {"name": "odd_many", "R": 999, "L": 3}, {"name": "perf", "R": 2 ** 25 // L, "L": L}]
    extra = {"bytes": 1, "keys": 4}.get(fl, 0)
    ref, impls = shapes.scan_shape(params, "R", "L", ctype, op, elem, flag, store, excl)
    return build(NAME, seed, "scan", "warp", f"{t} segmented {'exclusive' if excl else 'inclusive'} {op} scan (segments from {fl})",
                 params, configs, tol, ("R*L", f"{8 + extra}*R*L"), ref, impls)

"""Row reductions with random operators: out[r] = OP_j g(x[r, j]) with OP in sum / max / min / count and g a generated transform, optional post-map."""
from ..common import build, expr_tree, flt, fn
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "reduce_rows"


def generate(rng, seed):
    t = rng.choice(["float", "double", "int"])
    if t == "int":
        op = rng.choice(["add", "max", "min", "count"])
        g = rng.choice(["x[r * L + j]", "x[r * L + j] * x[r * L + j]", "(x[r * L + j] ^ (x[r * L + j] >> 3))", "(x[r * L + j] > 0 ? x[r * L + j] : -x[r * L + j])",
                        f"(x[r * L + j] % {rng.randrange(3, 17)})", f"(x[r * L + j] & {rng.randrange(1, 255)})"])
        if op == "count":
            red = Red("acc", "long long", "add", f"(long long)({g} > {rng.randrange(-50, 50)})")
        else:
            red = Red("acc", "long long", op, f"(long long){g}")
        finish = (f"out[r] = (int)(acc % {rng.randrange(1000, 100000)});" if op == "add" else
                  rng.choice(["out[r] = (int)acc;", "out[r] = (int)(acc / 2);"]))
        ot, tol, dist = "int", (0, 0), "uniform(-1000, 1000)"
        flops = "L*R"
    else:
        op = rng.choice(["add", "add", "max", "min"])
        g = expr_tree(rng, ["v_"], t, rng.choice([0, 1, 2]))
        elem = f"(double)({g})".replace("v_", "x[r * L + j]")
        red = Red("acc", "double", op, elem)
        post = rng.choice(["acc", "acc / (double)L", "sqrt(fabs(acc))", "log1p(fabs(acc))", f"acc * {rng.uniform(0.1, 2):.3f}"])
        if op != "add" and post == "acc / (double)L":
            post = "acc"
        finish = f"out[r] = ({t})({post});"
        ot, tol, dist = t, ((1e-4, 1e-4) if t == "float" else (1e-9, 1e-9)), rng.choice(["uniform(-1, 1)", "normal(0, 1)", "mixed(-2, 2)"])
        flops = "L*R"
    params = [P("R", "int", "size"), P("L", "int", "size"), P("x", f"const {t}*", "in", len="R*L", dist=dist),
              P("out", f"{ot}*", "out", len="R")]
    shape = rng.choice(["many_short", "balanced", "few_long"])
    perf = {"many_short": (2 ** 20, 64), "balanced": (2 ** 15, 2048), "few_long": (256, 2 ** 18)}[shape]
    if t == "double":
        perf = (perf[0] // 2, perf[1])
    configs = [{"name": "tiny", "R": 3, "L": 5}, {"name": "odd", "R": 37, "L": 1001}, {"name": "odd_long", "R": 2, "L": 100003},
               {"name": "odd_many", "R": 3001, "L": 7}, {"name": "perf", "R": perf[0], "L": perf[1]}]
    sz = 8 if t == "double" else 4
    ref, impls = shapes.rowred_shape(params, "R", "0", "L", [red], finish)
    return build(NAME, seed, "reduction", "warp", f"{t} row reduction ({op}) of a generated transform, then a post-map",
                 params, configs, tol, (flops, f"{sz}*R*L + 4*R"), ref, impls)

"""Softmax-like row operations: softmax, log-softmax, temperature, masking, logsumexp outputs."""
from ..common import build
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "softmax_rows"


def generate(rng, seed):
    kind = rng.choice(["softmax", "log_softmax", "logsumexp", "softmax_temp", "masked_softmax", "softmax_scaled_out", "sparsemax_like"])
    X = "x[r * L + j]"
    params = [P("R", "int", "size"), P("L", "int", "size")]
    pre_t = rng.choice(["none", "none", "bias", "tree", "clip", "scale_row"])
    xin = X
    if pre_t == "bias":
        xin = f"({X} + b[j])"
    elif pre_t == "tree":
        from ..common import expr_tree
        xin = "(" + expr_tree(rng, ["xq"], "float", 1).replace("xq", X) + ")"
    elif pre_t == "clip":
        xin = f"fminf(fmaxf({X}, -3.0f), 3.0f)"
    elif pre_t == "scale_row":
        xin = f"({X} * rs[r])"
    X = xin
    if kind == "softmax_temp":
        params.append(P("inv_temp", "float", "scalar", value=round(rng.uniform(0.3, 3), 3)))
        xin = f"({X} * inv_temp)"
    if kind == "masked_softmax":
        xin = f"(m[r * L + j] ? {X} : -1e30f)"
    reds = [Red("mx", "float", "max", xin)]
    reds.append(Red("sm", "double", "add", f"(double)expf({xin} - mx)"))
    finish, rowmap = "", ""
    if kind in ("softmax", "softmax_temp", "masked_softmax"):
        rowmap = f"out[r * L + j] = (float)((double)expf({xin} - mx) / sm);"
    elif kind == "log_softmax":
        rowmap = f"out[r * L + j] = (float)((double)({xin} - mx) - log(sm));"
    elif kind == "softmax_scaled_out":
        rowmap = f"out[r * L + j] = (float)((double)expf({xin} - mx) / sm) * y[r * L + j];"
    elif kind == "sparsemax_like":
        reds = [Red("mx", "float", "max", xin), Red("sm", "double", "add", f"(double)fmaxf({xin} - mx + 1.0f, 0.0f)")]
        rowmap = f"out[r * L + j] = (float)((double)fmaxf({xin} - mx + 1.0f, 0.0f) / sm);"
    else:
        finish = "out[r] = (float)((double)mx + log(sm));"
    params.append(P("x", "const float*", "in", len="R*L", dist=rng.choice(["normal(0, 2)", "uniform(-5, 5)", "mixed(-4, 4)"])))
    if pre_t == "bias":
        params.append(P("b", "const float*", "in", len="L", dist="uniform(-1, 1)"))
    if pre_t == "scale_row":
        params.append(P("rs", "const float*", "in", len="R", dist="uniform(0.5, 2)"))
    if kind == "masked_softmax":
        params.append(P("m", "const unsigned char*", "in", len="R*L", dist="uniform(0, 1)"))
    if kind == "softmax_scaled_out":
        params.append(P("y", "const float*", "in", len="R*L", dist="uniform(-1, 1)"))
    params.append(P("out", "float*", "out", len="R" if kind == "logsumexp" else "R*L"))
    L = rng.choice([128, 512, 1024, 4096, 32768])
    configs = [{"name": "tiny", "R": 3, "L": 5}, {"name": "odd", "R": 37, "L": 1001}, {"name": "odd_many", "R": 3001, "L": 7},
               {"name": "perf", "R": (2 ** 26 if kind == "logsumexp" else 2 ** 25) // L, "L": L}]
    if kind == "masked_softmax":
        configs[0]["L"] = 12  # rows of 5 may be fully masked: expf(-1e30 - -1e30) is 1, still defined
    outb = "4*R" if kind == "logsumexp" else "4*R*L"
    ins = 4 + (1 if kind == "masked_softmax" else 0) + (4 if kind == "softmax_scaled_out" else 0)
    ref, impls = shapes.rowred_shape(params, "R", "0", "L", reds, finish, rowmap)
    return build(NAME, seed, "ml", "warp", f"row-wise {kind.replace('_', ' ')} (max-subtracted, double sums)",
                 params, configs, (1e-4, 1e-6), ("4*R*L", f"{ins}*R*L + {outb}"), ref, impls)

"""ELLPACK SpMV: K slots per row, stored row-major or column-major (slot-major), padding marked by column -1 or by zero values."""
from ..common import build
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "spmv_ell"


def generate(rng, seed):
    t = rng.choice(["float", "double"])
    layout = rng.choice(["row", "slot"])
    padding = rng.choice(["neg_col", "none", "len_array"])
    sl = "r * K + j" if layout == "row" else "j * rows + r"
    xv = f"(double)x[col[{sl}]]"
    if padding == "neg_col":
        elem = f"(col[{sl}] >= 0 ? (double)val[{sl}] * (double)x[col[{sl}] >= 0 ? col[{sl}] : 0] : 0.0)"
        cdist = "index(-1, cols)"
        hi = "K"
    elif padding == "len_array":
        elem, cdist, hi = f"(double)val[{sl}] * {xv}", "index(0, cols)", "(rlen[r] < K ? rlen[r] : K)"
    else:
        elem, cdist, hi = f"(double)val[{sl}] * {xv}", "index(0, cols)", "K"
    act = rng.choice(["plain", "relu", "scale"])
    v = {"plain": "acc", "relu": "(acc > 0 ? acc : 0)", "scale": "acc * (double)alpha"}[act]
    params = [P("rows", "int", "size"), P("cols", "int", "size"), P("K", "int", "size")]
    if act == "scale":
        params.append(P("alpha", t, "scalar", value=round(rng.uniform(0.5, 2), 3)))
    params += [P("col", "const int*", "in", len="rows*K", dist=cdist), P("val", f"const {t}*", "in", len="rows*K", dist="uniform(-1, 1)")]
    if padding == "len_array":
        params.append(P("rlen", "const int*", "in", len="rows", dist="index(0, K+1)"))
    params += [P("x", f"const {t}*", "in", len="cols", dist="uniform(-1, 1)"), P("y", f"{t}*", "out", len="rows")]
    K = rng.choice([4, 8, 16, 32])
    rows = (2 ** 27 if padding == "len_array" else 2 ** 26) // K
    configs = [{"name": "tiny", "rows": 4, "cols": 5, "K": 3}, {"name": "odd", "rows": 1001, "cols": 999, "K": 7},
               {"name": "odd_wide", "rows": 17, "cols": 33, "K": 40}, {"name": "perf", "rows": rows, "cols": rows, "K": K}]
    sz = 8 if t == "double" else 4
    ref, impls = shapes.rowred_shape(params, "rows", "0", hi, [Red("acc", "double", "add", elem)], f"y[r] = ({t})({v});")
    return build(NAME, seed, "sparse", "warp", f"{t} ELL SpMV ({layout}-major slots, padding: {padding}, {act})",
                 params, configs, (1e-5, 1e-5) if t == "float" else (1e-10, 1e-10), ("2*rows*K", {"len_array": f"{4 + sz}*rows*K/4 + {sz}*rows", "neg_col": f"4*rows*K + {sz}*rows*K/2 + {sz}*rows",
                                 "none": f"{4 + sz}*rows*K + {sz}*rows"}[padding]), ref, impls)

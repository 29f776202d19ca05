"""COO sparse products with integer values: y[row[e]] += f(val[e], x[col[e]]) through atomics (exact), optional init from y0."""
from ..common import build
from ..emit import P
from .. import shapes

NAME = "spmv_coo_int"


def generate(rng, seed):
    f = rng.choice(["val[e] * x[col[e]]", "x[col[e]]", "val[e] * x[col[e]] * x[col[e]]", "(val[e] > 0 ? val[e] : -val[e]) * x[col[e]]",
                    "val[e] - x[col[e]]", "val[e] * (x[col[e]] & 7)"])
    op = rng.choice(["add", "add", "max", "min"])
    init = rng.choice(["zero", "y0"])
    ident = {"add": "0", "max": "(-2147483647 - 1)", "min": "2147483647"}[op]
    params = [P("rows", "int", "size"), P("cols", "int", "size"), P("nnz", "int", "size"),
              P("row", "const int*", "in", len="nnz", dist="index(0, rows)"), P("col", "const int*", "in", len="nnz", dist="index(0, cols)")]
    if "val[e]" in f:
        params.append(P("val", "const int*", "in", len="nnz", dist="uniform(-20, 20)"))
    params.append(P("x", "const int*", "in", len="cols", dist="uniform(-20, 20)"))
    if init == "y0":
        params.append(P("y0", "const int*", "in", len="rows", dist="uniform(-100, 100)"))
    params.append(P("y", "int*", "out", len="rows"))
    per = rng.choice([4, 8, 32])
    rows = 2 ** 25 // per
    configs = [{"name": "tiny", "rows": 4, "cols": 5, "nnz": 9}, {"name": "odd", "rows": 1001, "cols": 999, "nnz": 12345},
               {"name": "odd_dense", "rows": 17, "cols": 33, "nnz": 5000}, {"name": "perf", "rows": rows, "cols": rows, "nnz": rows * per}]
    ref, impls = shapes.scatter_shape(params, "rows", "nnz", "y", "int", op, "y0[t]" if init == "y0" else ident, "row[e]", f, what="nonzero")
    nb = 12 if "val[e]" in f else 8
    return build(NAME, seed, "sparse", "atomic", f"integer COO SpMV-like scatter ({op} of {f.replace('[e]', '').replace('[col]', '')}, init {init})",
                 params, configs, (0, 0), ("2*nnz", f"{nb}*nnz + 4*rows"), ref, impls)

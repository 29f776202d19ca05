"""CSR sparse matrix-vector products with value transforms and epilogues (f32 / f64 / int)."""
from ..common import build
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "spmv_csr"


def generate(rng, seed):
    t = rng.choice(["float", "double", "int"])
    vx = rng.choice(["plain", "abs", "square", "pattern", "masked_x"])
    base = "(double)val[j]" if t != "int" else "(long long)val[j]"
    xv = "(double)x[col[j]]" if t != "int" else "(long long)x[col[j]]"
    elem = {"plain": f"{base} * {xv}", "abs": f"({base} < 0 ? -{base} : {base}) * {xv}", "square": f"{base} * {base} * {xv}",
            "pattern": xv, "masked_x": f"({xv} > 0 ? {base} * {xv} : 0)"}[vx]
    epi = rng.choice(["plain", "axpby", "diag"])
    params = [P("rows", "int", "size"), P("cols", "int", "size"), P("nnz", "int", "size")]
    v = "acc"
    if epi == "axpby":
        params += [P("alpha", "int" if t == "int" else t, "scalar", value=rng.choice([2, 3, -1]) if t == "int" else round(rng.uniform(0.5, 2), 3)),
                   P("beta", "int" if t == "int" else t, "scalar", value=rng.choice([1, -2, 5]) if t == "int" else round(rng.uniform(-1, 1), 3))]
        v = f"alpha * acc + beta * y0[r]"
    if epi == "diag":
        v = "acc - d[r] * x[r % cols]"
    params += [P("rowptr", "const int*", "in", len="rows+1", dist="rowptr(nnz)"), P("col", "const int*", "in", len="nnz", dist="index(0, cols)")]
    if vx != "pattern":
        params.append(P("val", f"const {t}*", "in", len="nnz", dist="uniform(-10, 10)" if t == "int" else "uniform(-1, 1)"))
    params.append(P("x", f"const {t}*", "in", len="cols", dist="uniform(-10, 10)" if t == "int" else "uniform(-1, 1)"))
    if epi == "axpby":
        params.append(P("y0", f"const {t}*", "in", len="rows", dist="uniform(-10, 10)" if t == "int" else "uniform(-1, 1)"))
    if epi == "diag":
        params.append(P("d", f"const {t}*", "in", len="rows", dist="uniform(-3, 3)" if t == "int" else "uniform(-1, 1)"))
    params.append(P("y", f"{t}*", "out", len="rows"))
    ctype = "long long" if t == "int" else "double"
    finish = f"y[r] = ({t})({v});"
    per_row = rng.choice([4, 16, 64])
    rows = 2 ** 26 // per_row
    configs = [{"name": "tiny", "rows": 4, "cols": 5, "nnz": 9}, {"name": "odd", "rows": 1001, "cols": 999, "nnz": 12345},
               {"name": "odd_dense", "rows": 17, "cols": 33, "nnz": 500}, {"name": "perf", "rows": rows, "cols": rows, "nnz": rows * per_row}]
    sz = 8 if t == "double" else 4
    valb = f"{sz}*nnz + " if vx != "pattern" else ""
    ref, impls = shapes.rowred_shape(params, "rows", "rowptr[r]", "rowptr[r + 1]", [Red("acc", ctype, "add", elem)], finish)
    return build(NAME, seed, "sparse", "warp", f"{t} CSR SpMV ({vx} values, {epi} epilogue, ~{per_row} nonzeros per row at perf)",
                 params, configs, (0, 0) if t == "int" else ((1e-5, 1e-5) if t == "float" else (1e-10, 1e-10)),
                 ("2*nnz", f"4*nnz + {valb}4*rows + {sz}*rows"), ref, impls)

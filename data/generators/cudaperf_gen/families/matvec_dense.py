"""Dense matrix-vector products y = epi(A x) with A row-major or stored transposed, optional alpha/beta*y0/bias/activation."""
from ..common import build, act
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "matvec_dense"


def generate(rng, seed):
    t = rng.choice(["float", "float", "double"])
    layout = rng.choice(["row", "col"])
    elem = f"(double)A[r * L + j] * (double)x[j]" if layout == "row" else f"(double)A[j * R + r] * (double)x[j]"
    xform = rng.choice(["plain", "abs", "square_x"])
    if xform == "abs":
        elem = elem.replace("(double)A[", "fabs((double)A[").replace("] * (double)x", "]) * (double)x")
    elif xform == "square_x":
        elem = elem + " * (double)x[j]"
    epi = rng.choice(["plain", "alpha", "axpby", "bias_act"])
    a = rng.choice(["relu", "tanh", "sigmoid", "silu"])
    params = [P("R", "int", "size"), P("L", "int", "size")]
    v = "acc"
    if epi in ("alpha", "axpby"):
        params.append(P("alpha", t, "scalar", value=round(rng.uniform(0.5, 2), 3)))
        v = "(double)alpha * acc"
    if epi == "axpby":
        params.append(P("beta", t, "scalar", value=round(rng.uniform(-1, 1), 3)))
        v = f"{v} + (double)beta * (double)y0[r]"
    if epi == "bias_act":
        v = act(a, "(acc + (double)bias[r])", "double")
    params += [P("A", f"const {t}*", "in", len="R*L", dist="uniform(-1, 1)"), P("x", f"const {t}*", "in", len="L", dist="uniform(-1, 1)")]
    if epi == "axpby":
        params.append(P("y0", f"const {t}*", "in", len="R", dist="uniform(-1, 1)"))
    if epi == "bias_act":
        params.append(P("bias", f"const {t}*", "in", len="R", dist="uniform(-0.5, 0.5)"))
    params.append(P("y", f"{t}*", "out", len="R"))
    finish = f"y[r] = ({t})({v});"
    s = 8192 if t == "float" else 6144
    R, L = rng.choice([(s, s), (s * 4, s // 4), (s // 4, s * 4)])
    configs = [{"name": "tiny", "R": 3, "L": 5}, {"name": "odd", "R": 301, "L": 257}, {"name": "odd_wide", "R": 2, "L": 10007},
               {"name": "odd_tall", "R": 3001, "L": 3}, {"name": "perf", "R": R, "L": L}]
    sz = 8 if t == "double" else 4
    ref, impls = shapes.rowred_shape(params, "R", "0", "L", [Red("acc", "double", "add", elem)], finish)
    return build(NAME, seed, "linalg", "warp", f"{t} matrix-vector product ({'A' if layout == 'row' else 'A stored transposed'}, {xform} entries, {epi} epilogue)",
                 params, configs, (1e-5, 1e-5) if t == "float" else (1e-10, 1e-10), ("2*R*L", f"{sz}*R*L + {sz}*L + {sz}*R"), ref, impls)

"""Polynomial / rational evaluation at every x[i]: Horner form with baked-in coefficients, degree 2-24."""
from ..common import build, flt, float_tol, n_configs, sz
from ..emit import P
from .. import shapes

NAME = "poly_horner"


def horner(rng, var, deg, t):
    cs = [flt(round(rng.uniform(-1, 1), 4), t) for _ in range(deg + 1)]
    e = cs[0]
    for c in cs[1:]:
        e = f"({e} * {var} + {c})"
    return e


def generate(rng, seed):
    t = rng.choice(["float", "double"])
    deg = rng.randrange(2, 25)
    form = rng.choice(["poly", "poly", "rational", "even", "poly_clamped"])
    var = "xv"
    if form == "even":
        body = f"const {t} xv = x[i] * x[i];\nout[i] = x[i] * {horner(rng, var, deg, t)};"
    elif form == "rational":
        qdeg = rng.randrange(1, 6)
        body = (f"const {t} xv = x[i];\nconst {t} p = {horner(rng, var, deg, t)};\n"
                f"const {t} q = {flt(1, t)} + xv * xv * {flt(round(rng.uniform(0.1, 1), 3), t)} + {flt(0, t)} * {horner(rng, var, qdeg, t)};\n"
                f"out[i] = p / q;")
    elif form == "poly_clamped":
        body = f"const {t} xv = x[i] < {flt(-0.9, t)} ? {flt(-0.9, t)} : (x[i] > {flt(0.9, t)} ? {flt(0.9, t)} : x[i]);\nout[i] = {horner(rng, var, deg, t)};"
    else:
        body = f"const {t} xv = x[i];\nout[i] = {horner(rng, var, deg, t)};"
    params = [P("n", "int", "size"), P("x", f"const {t}*", "in", len="n", dist="uniform(-0.95, 0.95)"), P("out", f"{t}*", "out", len="n")]
    ref, impls = shapes.map_shape(params, "n", body)
    perf = 2 ** 26 if t == "float" else 2 ** 25
    return build(NAME, seed, "elementwise", "none", f"{t} {form} polynomial of degree {deg} (Horner) at every x[i]",
                 params, n_configs(rng, perf), float_tol(t, 10), (f"{2 * deg}*n", f"{2 * sz(t)}*n"), ref, impls)

"""2D stencils on an n x m grid: star / box / random point sets of radius 1-2, boundary rule, combining form."""
from ..common import build, float_tol, sz
from ..emit import P
from .. import shapes
from ._stencil import access, combine_points, FORMS, BOUNDARIES

NAME = "stencil_2d"


def off(v, k):
    return f"({v} + {k})" if k >= 0 else f"({v} - {-k})"


def generate(rng, seed):
    t = rng.choice(["float", "double"])
    r = rng.choice([1, 1, 2])
    shape = rng.choice(["star", "box", "random", "random", "cross"])
    pts = [(a, b) for a in range(-r, r + 1) for b in range(-r, r + 1)]
    if shape == "star":
        pts = [p for p in pts if p[0] == 0 or p[1] == 0]
    elif shape == "cross":
        pts = [p for p in pts if abs(p[0]) == abs(p[1])]
    elif shape == "random":
        pts = [p for p in pts if p == (0, 0) or rng.random() < 0.5] or [(0, 0)]
        if len(pts) < 3:
            pts += [(0, 1), (1, 0)]
    bnd = rng.choice(BOUNDARIES)
    form = rng.choice(FORMS)
    b = "clamp" if bnd == "copy" else bnd
    vals = [access("x", [off("r", a), off("c", bb)], ["n", "m"], b) for a, bb in pts]
    e = combine_points(rng, form, vals, t)
    body = f"const long long r = i / m, c = i % m;\nconst {t} c0 = x[i];\n"
    if bnd == "copy":
        body += f"out[i] = (r < {r} || r >= n - {r} || c < {r} || c >= m - {r}) ? c0 : ({e});"
    else:
        body += f"out[i] = ({e}) + 0 * c0;"
    params = [P("n", "int", "size"), P("m", "int", "size"),
              P("x", f"const {t}*", "in", len="n*m", dist=rng.choice(["uniform(-1, 1)", "normal(0, 1)", "mixed(-2, 2)"])),
              P("out", f"{t}*", "out", len="n*m")]
    s = 8192 if t == "float" else 6144
    configs = [{"name": "tiny", "n": 5, "m": 7}, {"name": "odd", "n": 333, "m": 301}, {"name": "odd_wide", "n": 6, "m": 2049},
               {"name": "perf", "n": s, "m": s}]
    ref, impls = shapes.map_shape(params, "(long long)n * m", body, what="grid point")
    return build(NAME, seed, "stencil", "none", f"{t} 2D {len(pts)}-point {shape} stencil (radius {r}, {form}, {bnd} boundary)",
                 params, configs, float_tol(t), (f"{len(pts)}*n*m", f"{2 * sz(t)}*n*m"), ref, impls)

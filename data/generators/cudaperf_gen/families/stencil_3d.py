"""3D stencils on a d x n x m grid: a random subset of the 27-point neighbourhood, boundary rule, combining form."""
from ..common import build, float_tol, sz
from ..emit import P
from .. import shapes
from ._stencil import access, combine_points, FORMS

NAME = "stencil_3d"


def off(v, k):
    return f"({v} + {k})" if k >= 0 else f"({v} - {-k})"


def generate(rng, seed):
    t = rng.choice(["float", "double"])
    shape = rng.choice(["star7", "random", "random", "random", "box27"])
    pts = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    if shape == "star7":
        pts = [p for p in pts if sum(map(abs, p)) <= 1]
    elif shape == "random":
        pts = [p for p in pts if p == (0, 0, 0) or rng.random() < 0.35]
        if len(pts) < 4:
            pts += [(1, 0, 0), (0, -1, 0), (0, 0, 1)]
    bnd = rng.choice(["clamp", "zero", "periodic", "copy"])
    form = rng.choice(FORMS)
    b = "clamp" if bnd == "copy" else bnd
    vals = [access("x", [off("z", p[0]), off("y", p[1]), off("w", p[2])], ["d", "n", "m"], b) for p in pts]
    e = combine_points(rng, form, vals, t)
    body = f"const long long z = i / ((long long)n * m), y = (i / m) % n, w = i % m;\nconst {t} c0 = x[i];\n"
    if bnd == "copy":
        body += f"out[i] = (z < 1 || z >= d - 1 || y < 1 || y >= n - 1 || w < 1 || w >= m - 1) ? c0 : ({e});"
    else:
        body += f"out[i] = ({e}) + 0 * c0;"
    params = [P("d", "int", "size"), P("n", "int", "size"), P("m", "int", "size"),
              P("x", f"const {t}*", "in", len="d*n*m", dist=rng.choice(["uniform(-1, 1)", "normal(0, 1)"])),
              P("out", f"{t}*", "out", len="d*n*m")]
    s = 384 if t == "float" else 320
    configs = [{"name": "tiny", "d": 3, "n": 4, "m": 5}, {"name": "odd", "d": 33, "n": 41, "m": 37},
               {"name": "odd_flat", "d": 2, "n": 3, "m": 1001}, {"name": "perf", "d": s, "n": s, "m": s}]
    ref, impls = shapes.map_shape(params, "(long long)d * n * m", body, what="grid point")
    return build(NAME, seed, "stencil", "none", f"{t} 3D {len(pts)}-point stencil ({shape}, {form}, {bnd} boundary)",
                 params, configs, float_tol(t), (f"{len(pts)}*d*n*m", f"{2 * sz(t)}*d*n*m"), ref, impls)

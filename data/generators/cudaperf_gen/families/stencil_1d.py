"""1D stencils: random radius 1-4, random taps (all offsets or a random subset), boundary rule, combining form."""
from ..common import build, float_tol, n_configs, sz
from ..emit import P
from .. import shapes
from ._stencil import access, combine_points, FORMS, BOUNDARIES

NAME = "stencil_1d"


def generate(rng, seed):
    t = rng.choice(["float", "double"])
    r = rng.randrange(1, 5)
    offs = [k for k in range(-r, r + 1) if k == -r or k == r or rng.random() < 0.7]
    bnd = rng.choice(BOUNDARIES)
    form = rng.choice(FORMS)
    b = "clamp" if bnd == "copy" else bnd
    vals = [access("x", [f"(i + {k})" if k >= 0 else f"(i - {-k})"], ["n"], b) for k in offs]
    e = combine_points(rng, form, vals, t)
    body = f"const {t} c0 = x[i];\n"
    if bnd == "copy":
        body += f"out[i] = (i < {r} || i >= n - {r}) ? c0 : ({e});"
    else:
        body += f"out[i] = {e};" if form == "absdiff" else f"out[i] = ({e}) + 0 * c0;"
    params = [P("n", "int", "size"), P("x", f"const {t}*", "in", len="n", dist=rng.choice(["uniform(-1, 1)", "normal(0, 1)", "mixed(-2, 2)"])),
              P("out", f"{t}*", "out", len="n")]
    ref, impls = shapes.map_shape(params, "n", body)
    return build(NAME, seed, "stencil", "none", f"{t} 1D {len(offs)}-point stencil (radius {r}, {form}, {bnd} boundary)",
                 params, n_configs(rng, 2 ** 26 if t == "float" else 2 ** 25), float_tol(t), (f"{len(offs)}*n", f"{2 * sz(t)}*n"), ref, impls)

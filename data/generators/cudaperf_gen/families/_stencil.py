"""Shared stencil code: neighbour access under a boundary rule, and the point-combining forms."""
from ..common import flt, fn


def access(arr, coords, dims, boundary):
    """C expression reading arr at integer coordinate expressions `coords` (outermost first) in a
    grid of `dims` (C expressions), under boundary clamp / zero / periodic."""
    if boundary == "clamp":
        cs = [f"({c} < 0 ? 0 : ({c} >= {d} ? {d} - 1 : {c}))" for c, d in zip(coords, dims)]
    elif boundary == "periodic":
        cs = [f"((({c}) % {d} + {d}) % {d})" for c, d in zip(coords, dims)]
    else:
        cs = list(coords)
    flat = cs[0]
    for c, d in zip(cs[1:], dims[1:]):
        flat = f"({flat}) * {d} + {c}"
    read = f"{arr}[{flat}]"
    if boundary == "zero":
        inside = " && ".join(f"{c} >= 0 && {c} < {d}" for c, d in zip(coords, dims))
        return f"({inside} ? {read} : 0)"
    return read


def combine_points(rng, form, vals, t):
    ws = [flt(round(rng.uniform(-1, 1), 3), t) for _ in vals]
    if form == "weighted":
        return " + ".join(f"{w} * {v}" for w, v in zip(ws, vals))
    if form == "max":
        e = vals[0]
        for v in vals[1:]:
            e = f"{fn('fmax', t)}({e}, {v})"
        return e
    if form == "min":
        e = vals[0]
        for v in vals[1:]:
            e = f"{fn('fmin', t)}({e}, {v})"
        return e
    if form == "absdiff":
        return " + ".join(f"{w} * {fn('fabs', t)}({v} - c0)" for w, v in zip(ws, vals))
    if form == "tanh_weighted":
        return f"{fn('tanh', t)}(" + " + ".join(f"{w} * {v}" for w, v in zip(ws, vals)) + ")"
    raise ValueError(form)


FORMS = ["weighted", "weighted", "max", "min", "absdiff", "tanh_weighted"]
BOUNDARIES = ["clamp", "zero", "periodic", "copy"]

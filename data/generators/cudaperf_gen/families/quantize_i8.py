"""Quantisation float -> int8: per-tensor / per-row / per-column scales, rounding mode, zero point, saturation."""
from ..common import build, matrix_configs
from ..emit import P
from .. import shapes

NAME = "quantize_i8"


def generate(rng, seed):
    gran = rng.choice(["tensor", "row", "col"])
    rnd = rng.choice(["half_up", "floor", "trunc", "half_away"])
    zp = rng.random() < 0.5
    err = rng.random() < 0.5
    pre = rng.choice(["none", "none", "clip", "abs"])
    sym = rng.choice(["sat", "sat_sym"])
    sidx = {"tensor": "0", "row": "i / cols", "col": "i % cols"}[gran]
    xv = {"none": "x[i]", "clip": "fminf(fmaxf(x[i], -2.0f), 2.0f)", "abs": "fabsf(x[i])"}[pre]
    v = f"FMUL({xv}, inv_scale[{sidx}])"
    r = {"half_up": f"floorf({v} + 0.5f)", "floor": f"floorf({v})", "trunc": f"truncf({v})",
         "half_away": f"(({v}) < 0.0f ? -floorf(-({v}) + 0.5f) : floorf(({v}) + 0.5f))"}[rnd]
    lo = -127 if sym == "sat_sym" else -128
    body = f"float q = {r};\n" + ("q = q + (float)zero_point;\n" if zp else "") + f"q = q < {lo}.0f ? {lo}.0f : (q > 127.0f ? 127.0f : q);\nout[i] = (signed char)(int)q;" + ("\nerr[i] = x[i] - q / inv_scale[" + sidx + "];" if err else "")
    params = [P("rows", "int", "size"), P("cols", "int", "size")]
    if zp:
        params.append(P("zero_point", "int", "scalar", value=rng.randrange(-20, 21)))
    slen = {"tensor": "1", "row": "rows", "col": "cols"}[gran]
    params += [P("x", "const float*", "in", len="rows*cols", dist=rng.choice(["normal(0, 2)", "uniform(-4, 4)", "mixed(-3, 3)"])),
               P("inv_scale", "const float*", "in", len=slen, dist="uniform(8, 60)"),
               P("out", "signed char*", "out", len="rows*cols")]
    if err:
        params.append(P("err", "float*", "out", len="rows*cols"))
    configs = matrix_configs(rng.choice([1024, 4096, 2048]), 2 ** 27)
    ref, impls = shapes.map_shape(params, "(long long)rows * cols", body)
    return build(NAME, seed, "quantization", "none", f"float -> int8 quantisation, per-{gran} scale, {rnd} rounding{', zero point' if zp else ''}, saturating",
                 params, configs, (1e-6, 1e-6) if err else (0, 0), ("rows*cols", f"{9 if err else 5}*rows*cols"), ref, impls)

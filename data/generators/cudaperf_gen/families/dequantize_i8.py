"""Dequantisation int8 -> float: (q - zero) * scale per tensor / row / column / group, optional bias and activation."""
from ..common import build, matrix_configs, act, float_tol
from ..emit import P
from .. import shapes

NAME = "dequantize_i8"


def generate(rng, seed):
    gran = rng.choice(["tensor", "row", "col", "group"])
    zp = rng.choice(["none", "scalar", "per_scale"])
    bias = rng.random() < 0.4
    a = rng.choice(["identity", "identity", "relu", "silu", "tanh", "gelu_tanh"])
    sidx = {"tensor": "0", "row": "i / cols", "col": "i % cols", "group": "i / 64"}[gran]
    q = "(float)q[i]"
    if zp == "scalar":
        q = "(float)((int)q[i] - zero_point)"
    elif zp == "per_scale":
        q = f"(float)((int)q[i] - (int)zeros[{sidx}])"
    body = f"float v = FMUL({q}, scale[{sidx}]);\n" + ("v = v + bias[i % cols];\n" if bias else "") + f"out[i] = {act(a, 'v', 'float')};"
    slen = {"tensor": "1", "row": "rows", "col": "cols", "group": "cdiv(rows*cols, 64)"}[gran]
    params = [P("rows", "int", "size"), P("cols", "int", "size")]
    if zp == "scalar":
        params.append(P("zero_point", "int", "scalar", value=rng.randrange(-10, 11)))
    params += [P("q", "const signed char*", "in", len="rows*cols", dist="uniform(-128, 127)"),
               P("scale", "const float*", "in", len=slen, dist="uniform(0.001, 0.05)")]
    if zp == "per_scale":
        params.append(P("zeros", "const signed char*", "in", len=slen, dist="uniform(-8, 8)"))
    if bias:
        params.append(P("bias", "const float*", "in", len="cols", dist="uniform(-0.5, 0.5)"))
    params.append(P("out", "float*", "out", len="rows*cols"))
    configs = matrix_configs(rng.choice([1024, 4096, 2048]), 2 ** 26)
    ref, impls = shapes.map_shape(params, "(long long)rows * cols", body)
    return build(NAME, seed, "quantization", "none", f"int8 -> float dequantisation, per-{gran} scale, zero point: {zp}{', bias' if bias else ''}, then {a}",
                 params, configs, (1e-5, 1e-6), ("rows*cols", "5*rows*cols"), ref, impls)

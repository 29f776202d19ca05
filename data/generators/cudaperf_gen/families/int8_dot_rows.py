"""int8 dot products: each row of an int8 matrix against an int8 vector (or a second matrix row), int32 accumulation, optional zero points and per-row dequantisation."""
from ..common import build
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "int8_dot_rows"


def generate(rng, seed):
    mode = rng.choice(["vec", "pairwise", "vec_zp", "pairwise_zp"])
    out_kind = rng.choice(["int", "dequant", "dequant_bias", "requant"])
    a = "(int)A[r * L + j]"
    b = "(int)v[j]" if mode.startswith("vec") else "(int)Bm[r * L + j]"
    if mode.endswith("zp"):
        a, b = f"({a} - za)", f"({b} - zb)"
    prod = rng.choice(["{a} * {b}", "{a} * {b}", "({a} * {b}) >> 2", "({a} < 0 ? -{a} : {a}) * {b}", "{a} * {a} - {b}", "({a} > {b} ? {a} : {b})", "{a} * ({b} & 15)"])
    red = Red("acc", "int", "add", "(" + prod.format(a=a, b=b) + ")")
    if out_kind == "int":
        finish, ot = "out[r] = acc;", "int"
    elif out_kind == "dequant":
        finish, ot = "out[r] = (float)acc * scale[r];", "float"
    elif out_kind == "dequant_bias":
        finish, ot = "out[r] = (float)acc * scale[r] + bias[r];", "float"
    else:
        finish, ot = "float q = floorf(FMUL((float)acc, scale[r]) + 0.5f);\nq = q < -128.0f ? -128.0f : (q > 127.0f ? 127.0f : q);\nout[r] = (signed char)(int)q;", "signed char"
    params = [P("R", "int", "size"), P("L", "int", "size")]
    if mode.endswith("zp"):
        params += [P("za", "int", "scalar", value=rng.randrange(-8, 9)), P("zb", "int", "scalar", value=rng.randrange(-8, 9))]
    params.append(P("A", "const signed char*", "in", len="R*L", dist="uniform(-128, 127)"))
    params.append(P("v", "const signed char*", "in", len="L", dist="uniform(-128, 127)") if mode.startswith("vec")
                  else P("Bm", "const signed char*", "in", len="R*L", dist="uniform(-128, 127)"))
    if out_kind != "int":
        params.append(P("scale", "const float*", "in", len="R", dist="uniform(0.00001, 0.0001)" if out_kind == "requant" else "uniform(0.001, 0.01)"))
    if out_kind == "dequant_bias":
        params.append(P("bias", "const float*", "in", len="R", dist="uniform(-1, 1)"))
    params.append(P("out", f"{ot}*", "out", len="R"))
    L = rng.choice([256, 1024, 4096, 16384])
    per = 2 if mode.startswith("pair") else 1
    configs = [{"name": "tiny", "R": 3, "L": 5}, {"name": "odd", "R": 301, "L": 1001}, {"name": "odd_long", "R": 2, "L": 50001},
               {"name": "perf", "R": 2 ** 29 // L // per, "L": L}]
    tol = (0, 0) if ot != "float" else (1e-6, 1e-6)
    ref, impls = shapes.rowred_shape(params, "R", "0", "L", [red], finish)
    return build(NAME, seed, "quantization", "warp", f"int8 dot products ({mode.replace('_zp', ' with zero points')}), int32 accumulation, {out_kind} output",
                 params, configs, tol, ("2*R*L", f"{per}*R*L"), ref, impls)

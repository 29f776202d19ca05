"""2D convolutions in C on H x W images: kernel from a buffer, padding rule, stride, channels (single, depthwise, multi-in, multi-in-out), bias, activation."""
from ..common import build, act
from ..emit import P
from .. import shapes

NAME = "conv2d_taps"


def generate(rng, seed):
    pad = rng.choice(["valid", "same_zero", "same_clamp"])
    chan = rng.choice(["single", "depthwise", "multi_in", "multi_in_out"])
    stride = rng.choice([1, 1, 2])
    a = rng.choice(["identity", "identity", "relu", "tanh", "sigmoid", "silu", "leaky"])
    bias = rng.random() < 0.5
    if pad == "valid":
        Ho, Wo = f"((H - KH) / {stride} + 1)", f"((W - KW) / {stride} + 1)"
        yy, xx = f"(oy * {stride} + ky)" if stride > 1 else "(oy + ky)", f"(ox * {stride} + kx)" if stride > 1 else "(ox + kx)"
        rd = lambda base: f"{base}[(long long){yy} * W + {xx}]"
    else:
        Ho, Wo = (("H", "W") if stride == 1 else ("((H + 1) / 2)", "((W + 1) / 2)"))
        yy, xx = f"(oy * {stride} + ky - KH / 2)", f"(ox * {stride} + kx - KW / 2)"
        if pad == "same_zero":
            rd = lambda base: f"({yy} >= 0 && {yy} < H && {xx} >= 0 && {xx} < W ? {base}[(long long){yy} * W + {xx}] : 0.0f)"
        else:
            cy, cx = f"({yy} < 0 ? 0 : ({yy} >= H ? H - 1 : {yy}))", f"({xx} < 0 ? 0 : ({xx} >= W ? W - 1 : {xx}))"
            rd = lambda base: f"{base}[(long long){cy} * W + {cx}]"
    HoE, WoE = Ho.replace("((H + 1) / 2)", "cdiv(H, 2)"), Wo.replace("((W + 1) / 2)", "cdiv(W, 2)")
    hw = f"{Ho} * {Wo}"
    loops = "for (int ky = 0; ky < KH; ++ky)\n  for (int kx = 0; kx < KW; ++kx)\n"
    if chan == "single":
        pre, count = f"const long long oy = i / {Wo}, ox = i % {Wo};\n", f"(long long){hw}"
        acc = f"float acc = 0.0f;\n{loops}    acc += w[ky * KW + kx] * {rd('x')};\n"
        lens = ("H*W", "KH*KW", f"{HoE}*{WoE}")
        flops = f"2*KH*KW*{HoE}*{WoE}"
    elif chan == "depthwise":
        pre = f"const long long ch = i / ((long long){hw}), p = i % ((long long){hw}), oy = p / {Wo}, ox = p % {Wo};\nconst float* xc = x + ch * H * W;\n"
        count = f"(long long)C * {hw}"
        acc = f"float acc = 0.0f;\n{loops}    acc += w[(ch * KH + ky) * KW + kx] * {rd('xc')};\n"
        lens = ("C*H*W", "C*KH*KW", f"C*{HoE}*{WoE}")
        flops = f"2*C*KH*KW*{HoE}*{WoE}"
    elif chan == "multi_in":
        pre, count = f"const long long oy = i / {Wo}, ox = i % {Wo};\n", f"(long long){hw}"
        acc = f"float acc = 0.0f;\nfor (int ch = 0; ch < C; ++ch) {{\n  const float* xc = x + (long long)ch * H * W;\n  {loops.replace(chr(10), chr(10) + '  ')}      acc += w[(ch * KH + ky) * KW + kx] * {rd('xc')};\n}}\n"
        lens = ("C*H*W", "C*KH*KW", f"{HoE}*{WoE}")
        flops = f"2*C*KH*KW*{HoE}*{WoE}"
    else:
        pre = f"const long long co = i / ((long long){hw}), p = i % ((long long){hw}), oy = p / {Wo}, ox = p % {Wo};\n"
        count = f"(long long)CO * {hw}"
        acc = f"float acc = 0.0f;\nfor (int ch = 0; ch < C; ++ch) {{\n  const float* xc = x + (long long)ch * H * W;\n  {loops.replace(chr(10), chr(10) + '  ')}      acc += w[((co * C + ch) * KH + ky) * KW + kx] * {rd('xc')};\n}}\n"
        lens = ("C*H*W", "CO*C*KH*KW", f"CO*{HoE}*{WoE}")
        flops = f"2*CO*C*KH*KW*{HoE}*{WoE}"
    bidx = "co" if chan == "multi_in_out" else ("ch" if chan == "depthwise" else "0")
    body = pre + acc + (f"acc += bias[{bidx}];\n" if bias else "") + f"out[i] = {act(a, 'acc', 'float')};"
    sizes = ["H", "W", "KH", "KW"] + (["C"] if chan != "single" else []) + (["CO"] if chan == "multi_in_out" else [])
    params = [P(s, "int", "size") for s in sizes]
    params += [P("x", "const float*", "in", len=lens[0], dist=rng.choice(["uniform(-1, 1)", "normal(0, 1)"])),
               P("w", "const float*", "in", len=lens[1], dist="uniform(-0.5, 0.5)")]
    if bias:
        params.append(P("bias", "const float*", "in", len={"co": "CO", "ch": "C", "0": "1"}[bidx], dist="uniform(-0.5, 0.5)"))
    params.append(P("out", "float*", "out", len=lens[2]))
    k = rng.choice([3, 3, 5])

    def cfg(name, H, W, KH, KW, C, CO):
        c = {"name": name, "H": H, "W": W, "KH": KH, "KW": KW}
        if chan != "single":
            c["C"] = C
        if chan == "multi_in_out":
            c["CO"] = CO
        return c
    ps = {"single": 8192, "depthwise": 2048, "multi_in": 4096, "multi_in_out": 2048}[chan] * stride  # the floor counts x / stride^2
    configs = [cfg("tiny", 6, 7, 3, 3, 2, 2), cfg("odd", 67, 45, k, k, 3, 2), cfg("odd_rect", 9, 301, 1, 3, 2, 3),
               cfg("perf", ps, ps, k, k, 8, 8)]
    cin = "" if chan == "single" else "C*"
    ref, impls = shapes.map_shape(params, count, body, what="output pixel")
    return build(NAME, seed, "convolution", "none", f"2D convolution ({chan}, {pad} padding, stride {stride}{', bias' if bias else ''}, {a})",
                 params, configs, (1e-4, 2e-4), (flops, f"4*{cin}H*W/{stride * stride} + 4*{lens[2]}"), ref, impls)

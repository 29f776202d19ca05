"""1D convolutions in C: taps from a weight buffer, padding rule, stride / dilation, channel layout, bias and activation."""
from ..common import build, act, float_tol
from ..emit import P
from .. import shapes

NAME = "conv1d_taps"


def generate(rng, seed):
    pad = rng.choice(["valid", "same_zero", "same_clamp", "circular"])
    chan = rng.choice(["single", "depthwise", "multi_in"])
    stride = rng.choice([1, 1, 2])
    dil = rng.choice([1, 1, 2, 3])
    a = rng.choice(["identity", "identity", "relu", "tanh", "sigmoid", "silu"])
    bias = rng.random() < 0.5
    L = "n" if pad != "valid" else f"((n - (K - 1) * {dil} - 1) / {stride} + 1)"
    if pad == "valid":
        pos = f"o * {stride} + k * {dil}" if stride > 1 or dil > 1 else "o + k"
        rd = lambda base: f"{base}[{pos}]"
        outlen = L
    else:
        c = f"(o * {stride} + (k - K / 2) * {dil})"
        outlen = "n" if stride == 1 else f"cdiv(n, {stride})"
        if pad == "same_zero":
            rd = lambda base: f"({c} >= 0 && {c} < n ? {base}[{c}] : 0.0f)"
        elif pad == "same_clamp":
            rd = lambda base: f"{base}[{c} < 0 ? 0 : ({c} >= n ? n - 1 : {c})]"
        else:
            rd = lambda base: f"{base}[(({c}) % n + n) % n]"
    ol = outlen.replace("cdiv(n, 2)", "((n + 1) / 2)")
    if chan == "single":
        count, pre = ol, "const long long o = i;\n"
        acc = f"float acc = 0.0f;\nfor (int k = 0; k < K; ++k) acc += w[k] * {rd('x')};\n"
        xlen, wlen, olen = "n", "K", outlen
    elif chan == "depthwise":
        count, pre = f"(long long)C * {ol}", f"const long long ch = i / ({ol}), o = i % ({ol});\nconst float* xc = x + ch * n;\n"
        acc = f"float acc = 0.0f;\nfor (int k = 0; k < K; ++k) acc += w[ch * K + k] * {rd('xc')};\n"
        xlen, wlen, olen = "C*n", "C*K", f"C*({outlen})"
    else:
        count, pre = ol, "const long long o = i;\n"
        acc = f"float acc = 0.0f;\nfor (int ch = 0; ch < C; ++ch) {{\n  const float* xc = x + (long long)ch * n;\n  for (int k = 0; k < K; ++k) acc += w[ch * K + k] * {rd('xc')};\n}}\n"
        xlen, wlen, olen = "C*n", "C*K", outlen
    body = pre + acc + ("acc += bias[0];\n" if bias else "") + f"out[i] = {act(a, 'acc', 'float')};"
    params = [P("n", "int", "size"), P("K", "int", "size")]
    if chan != "single":
        params.append(P("C", "int", "size"))
    params += [P("x", "const float*", "in", len=xlen, dist=rng.choice(["uniform(-1, 1)", "normal(0, 1)"])),
               P("w", "const float*", "in", len=wlen, dist="uniform(-0.5, 0.5)")]
    if bias:
        params.append(P("bias", "const float*", "in", len="1", dist="uniform(-0.5, 0.5)"))
    params.append(P("out", "float*", "out", len=olen))
    kk = rng.choice([3, 5, 7, 9])
    cfg = lambda name, n, K, C: dict({"name": name, "n": n, "K": K}, **({"C": C} if chan != "single" else {}))
    perf_n = (2 ** 26 if chan == "single" else 2 ** 22) * stride * dil  # the floor counts x / (stride * dil)
    configs = [cfg("tiny", 29, 3, 2), cfg("odd", 10007, kk, 3), cfg("odd_small", 1001, 1, 4), cfg("perf", perf_n, kk, 16)]
    cn = "" if chan == "single" else "C*"
    flops = f"2*K*{cn}({outlen})" if chan != "multi_in" else f"2*K*C*({outlen})"
    ref, impls = shapes.map_shape(params, count, body, what="output")
    return build(NAME, seed, "convolution", "none", f"1D convolution ({chan}, {pad} padding, stride {stride}, dilation {dil}{', bias' if bias else ''}, {a})",
                 params, configs, (1e-4, 1e-4), (flops, f"4*{cn}n/{stride * dil} + 4*({olen})"), ref, impls)

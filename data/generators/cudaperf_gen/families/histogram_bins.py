"""Histograms with random bin functions: linear / log / hashed / 2D bins over float or int data, optional integer weights, counts exact."""
from ..common import build
from ..emit import P
from .. import shapes

NAME = "histogram_bins"


def generate(rng, seed):
    nb = rng.choice([16, 64, 100, 256, 1000, 1024])
    kind = rng.choice(["linear_f", "sqrt_f", "log_f", "hash_u", "mod_i", "bits_u", "joint_2d", "linear_clip_f"])
    params = [P("n", "int", "size")]
    if kind == "linear_f":
        tgt = f"(long long)((x[e] + 4.0f) * {nb / 8.0!r}f) < 0 ? 0 : ((long long)((x[e] + 4.0f) * {nb / 8.0!r}f) >= {nb} ? {nb - 1} : (long long)((x[e] + 4.0f) * {nb / 8.0!r}f))"
        xin = ("float", "uniform(-4, 4)")
    elif kind == "linear_clip_f":
        tgt = f"(long long)fminf(fmaxf(FMUL(x[e], {nb / 2.0!r}f) + {nb / 2.0!r}f, 0.0f), {nb - 1}.0f)"
        xin = ("float", "normal(0, 0.5)")
    elif kind == "sqrt_f":
        tgt = f"(long long)fminf(sqrtf(x[e]) * {nb / 4.0!r}f, {nb - 1}.0f)"
        xin = ("float", "uniform(0, 16)")
    elif kind == "log_f":
        tgt = f"(long long)fmin(log1p((double)x[e]) * {nb / 7.0!r}, {nb - 1}.0)"  # double: a 1-ulp float log difference would move samples across bins
        xin = ("float", "uniform(0, 1000)")
    elif kind == "hash_u":
        tgt = f"(long long)(((x[e] * {rng.getrandbits(32) | 1}u) >> {rng.randrange(8, 20)}) % {nb}u)"
        xin = ("uint32_t", "uniform(0, 4294967295)")
    elif kind == "bits_u":
        tgt = f"(long long)(__builtin_popcount(x[e]) * {nb} / 33)".replace("__builtin_popcount", "POPC")
        xin = ("uint32_t", "uniform(0, 4294967295)")
    elif kind == "mod_i":
        tgt = f"(long long)(((x[e] % {nb}) + {nb}) % {nb})"
        xin = ("int", "uniform(-100000, 100000)")
    else:
        h = int(nb ** 0.5)
        nb = h * h
        tgt = f"(long long)(x[e] < 0.0f ? 0 : (x[e] >= 1.0f ? {h - 1} : (int)(x[e] * {h}.0f))) * {h} + (y[e] < 0.0f ? 0 : (y[e] >= 1.0f ? {h - 1} : (int)(y[e] * {h}.0f)))"
        xin = ("float", "uniform(0, 1)")
    if xin[0] == "float" and kind != "joint_2d":
        g = rng.choice(["x[e]", "x[e]", "fabsf(x[e])", "(x[e] * x[e])", "sinf(x[e])", "tanhf(x[e])", "(x[e] + y[e])", "fmaxf(x[e], y[e])"])
        if "y[e]" in g:
            kind += "_pair"
        tgt = tgt.replace("x[e]", "XV").replace("XV", g)
        if g != "x[e]":
            xin = (xin[0], {"linear_f": "uniform(-2, 2)", "linear_clip_f": "normal(0, 0.5)", "sqrt_f": "uniform(0, 4)", "log_f": "uniform(0, 30)"}[kind.replace("_pair", "")])
    params.append(P("x", f"const {xin[0]}*", "in", len="n", dist=xin[1]))
    if kind.endswith("_pair"):
        params.append(P("y", "const float*", "in", len="n", dist=xin[1]))
    if kind == "joint_2d":
        params.append(P("y", "const float*", "in", len="n", dist="uniform(0, 1)"))
    weighted = rng.random() < 0.3
    if weighted:
        params.append(P("w", "const int*", "in", len="n", dist="uniform(1, 9)"))
    params.append(P("hist", "unsigned int*", "out", len=str(nb)))
    helpers = ("DEV int POPC(uint32_t v) { int c = 0; while (v) { c += (int)(v & 1u); v >>= 1; } return c; }\n" if kind == "bits_u" else "")
    ref, impls = shapes.scatter_shape(params, str(nb), "n", "hist", "unsigned int", "add", "0u", tgt,
                                      "(unsigned int)w[e]" if weighted else "1u", small_nb=nb, helpers=helpers)
    configs = [{"name": "tiny", "n": 13}, {"name": "odd", "n": 100003}, {"name": "odd_small", "n": 999}, {"name": "perf", "n": 2 ** 26}]
    per = 4 + (4 if kind == "joint_2d" or kind.endswith("_pair") else 0) + (4 if weighted else 0)
    return build(NAME, seed, "histogram", "atomic", f"{nb}-bin histogram ({kind.replace('_', ' ')} bins{', integer weights' if weighted else ''})",
                 params, configs, (0, 0), ("n", f"{per}*n"), ref, impls, helpers=helpers)

"""FFT-like butterflies: one radix-2 (or radix-4) stage of a length-n complex transform, DIT or DIF, forward or inverse, interleaved or split storage."""
import math
from ..common import build, flt, fn, float_tol, sz
from ..emit import P
from .. import shapes

NAME = "fft_butterfly"


def generate(rng, seed):
    t = rng.choice(["float", "double"])
    form = rng.choice(["dit", "dif"])
    sign = rng.choice([-1, 1])
    store = rng.choice(["interleaved", "split"])
    scale = rng.random() < 0.3
    table = rng.random() < 0.5
    f = lambda v: flt(v, t)
    c, s = fn("cos", t), fn("sin", t)
    # butterfly b in [0, n/2): group g = b / half, k = b % half, pair (p, q) = (g*2*half + k, p + half)
    body = ["const long long g = i / half, k = i % half;", "const long long p = g * 2 * half + k, q = p + half;",
            f"const {t} ang = {f(sign * 2 * math.pi)} * ({t})k / ({t})(2 * half);",
            f"const {t} wr = {c}(ang), wi = {s}(ang);"]
    if table:  # twiddles from a table of the largest stage instead of cos/sin
        body = body[:2] + [f"const {t} wr = tw[2 * k * (tw_half / half)], wi = {'' if sign > 0 else '-'}tw[2 * k * (tw_half / half) + 1];"]
    if store == "interleaved":
        ld = lambda idx: (f"x[2 * {idx}]", f"x[2 * {idx} + 1]")
        st = lambda idx, re, im: [f"out[2 * {idx}] = {re};", f"out[2 * {idx} + 1] = {im};"]
    else:
        ld = lambda idx: (f"xr[{idx}]", f"xi[{idx}]")
        st = lambda idx, re, im: [f"outr[{idx}] = {re};", f"outi[{idx}] = {im};"]
    (ar, ai), (br, bi) = ld("p"), ld("q")
    body += [f"const {t} ar = {ar}, ai = {ai}, br = {br}, bi = {bi};"]
    sc = f" * {f(0.5)}" if scale else ""
    if form == "dit":
        body += ["const {0} tr = wr * br - wi * bi, ti = wr * bi + wi * br;".format(t)]
        body += st("p", f"(ar + tr){sc}", f"(ai + ti){sc}") + st("q", f"(ar - tr){sc}", f"(ai - ti){sc}")
    else:
        body += [f"const {t} dr = ar - br, di = ai - bi;"]
        body += st("p", f"(ar + br){sc}", f"(ai + bi){sc}") + st("q", f"(dr * wr - di * wi){sc}", f"(dr * wi + di * wr){sc}")
    params = [P("n", "int", "size"), P("half", "int", "size")]
    if table:
        params += [P("tw_half", "int", "size"), P("tw", f"const {t}*", "in", len="2*tw_half", dist="uniform(-1, 1)")]
    if store == "interleaved":
        params += [P("x", f"const {t}*", "in", len="2*n", dist="uniform(-1, 1)"), P("out", f"{t}*", "out", len="2*n")]
    else:
        params += [P("xr", f"const {t}*", "in", len="n", dist="uniform(-1, 1)"), P("xi", f"const {t}*", "in", len="n", dist="uniform(-1, 1)"),
                   P("outr", f"{t}*", "out", len="n"), P("outi", f"{t}*", "out", len="n")]
    pn = 2 ** 25 if t == "float" else 2 ** 24
    # n is a multiple of 2 * half in every config (groups of 2 * half elements)
    configs = [{"name": "tiny", "n": 16, "half": 4}, {"name": "odd_half", "n": 3000, "half": 375},
               {"name": "tiny_first", "n": 32, "half": 1}, {"name": "odd", "n": 4098, "half": 2049},
               {"name": "perf", "n": pn, "half": rng.choice([1, 64, 4096, pn // 2])}]
    if table:  # the table has tw_half >= half entries and tw_half / half is an integer stride
        for cf in configs:
            cf["tw_half"] = cf["half"] * {"tiny": 2, "tiny_first": 16}.get(cf["name"], 1)
    ref, impls = shapes.map_shape(params, "n / 2", "\n".join(body), what="butterfly")
    return build(NAME, seed, "fft", "none", f"{t} radix-2 {form.upper()} butterfly stage ({'inverse' if sign > 0 else 'forward'} twiddles, {store} complex{', halved' if scale else ''})",
                 params, configs, float_tol(t), ("5*n", f"{4 * sz(t)}*n"), ref, impls)

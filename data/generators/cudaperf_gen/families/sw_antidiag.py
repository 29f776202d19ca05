"""Dynamic programming along anti-diagonals: one Smith-Waterman / Needleman-Wunsch anti-diagonal update of a banded
score matrix for a batch of sequence pairs (linear or affine-free gap, match/mismatch or a substitution table)."""
from ..common import build
from ..emit import P
from .. import shapes

NAME = "sw_antidiag"


def generate(rng, seed):
    local = rng.random() < 0.6
    score = rng.choice(["match", "table", "match_n"])
    gap_kind = rng.choice(["const", "per_position", "asym"])
    clamp_hi = rng.random() < 0.3
    band = rng.random() < 0.5
    trace = rng.random() < 0.5
    # cell k of the current anti-diagonal of pair p: row a = k, column b = diag - k
    body = ["const long long pr = i / W, k = i % W;",
            "const long long base = pr * W;",
            "const int up = prev1[base + k];",
            "const int left = k > 0 ? prev1[base + k - 1] : NEG;",
            "const int dg = k > 0 ? prev2[base + k - 1] : (local_zero);",
            "const int ca = a[pr * W + k], cb = b[pr * W + (W - 1 - k)];"]
    if score == "match":
        body.append(f"const int s = ca == cb ? {rng.randrange(1, 6)} : -{rng.randrange(1, 6)};")
    elif score == "match_n":
        body.append(f"const int s = (ca == 4 || cb == 4) ? 0 : (ca == cb ? {rng.randrange(1, 6)} : -{rng.randrange(1, 6)});")
    else:
        body.append("const int s = sub[ca * 5 + cb];")
    g1, g2 = rng.randrange(1, 6), rng.randrange(1, 6)
    if gap_kind == "const":
        body.append(f"const int gu = {g1}, gl = {g1};")
    elif gap_kind == "asym":
        body.append(f"const int gu = {g1}, gl = {g2};")
    else:
        body.append("const int gu = gap[k], gl = gap[W - 1 - k];")
    body.append("int h = dg + s;")
    body.append("h = h > up - gu ? h : up - gu;")
    body.append("h = h > left - gl ? h : left - gl;")
    if local:
        body.append("h = h > 0 ? h : 0;")
    if clamp_hi:
        body.append(f"h = h < {rng.randrange(500, 5000)} ? h : {rng.randrange(500, 5000)};")
    if band:
        body.append(f"if (k - (W - 1 - k) > {rng.randrange(8, 64)} || (W - 1 - k) - k > {rng.randrange(8, 64)}) h = {'0' if local else '-1000000'};")
    body.append("out[i] = h;")
    if trace:
        body.append("dir[i] = (signed char)(h == dg + s ? 0 : (h == up - gu ? 1 : (h == left - gl ? 2 : 3)));")
    code = "\n".join(body).replace("NEG", "-1000000").replace("(local_zero)", "0" if local else "-1000000")
    params = [P("pairs", "int", "size"), P("W", "int", "size"),
              P("prev1", "const int*", "in", len="pairs*W", dist="uniform(0, 200)" if local else "uniform(-300, 200)"),
              P("prev2", "const int*", "in", len="pairs*W", dist="uniform(0, 200)" if local else "uniform(-300, 200)"),
              P("a", "const unsigned char*", "in", len="pairs*W", dist="uniform(0, 4)" if score != "match" else "uniform(0, 3)"),
              P("b", "const unsigned char*", "in", len="pairs*W", dist="uniform(0, 4)" if score != "match" else "uniform(0, 3)")]
    if score == "table":
        params.append(P("sub", "const int*", "in", len="25", dist="uniform(-4, 6)"))
    if gap_kind == "per_position":
        params.append(P("gap", "const int*", "in", len="W", dist="uniform(1, 8)"))
    params.append(P("out", "int*", "out", len="pairs*W"))
    if trace:
        params.append(P("dir", "signed char*", "out", len="pairs*W"))
    configs = [{"name": "tiny", "pairs": 2, "W": 9}, {"name": "odd", "pairs": 37, "W": 1001}, {"name": "odd_one", "pairs": 1, "W": 77},
               {"name": "perf", "pairs": 2 ** 25 // 4096, "W": 4096}]
    ref, impls = shapes.map_shape(params, "(long long)pairs * W", code, what="cell")
    return build(NAME, seed, "dynamic_programming", "none",
                 f"{'Smith-Waterman (local)' if local else 'Needleman-Wunsch (global)'} anti-diagonal cell update over a batch of banded pairs ({score} scores, {gap_kind} gaps)",
                 params, configs, (0, 0), ("6*pairs*W", "14*pairs*W"), ref, impls)

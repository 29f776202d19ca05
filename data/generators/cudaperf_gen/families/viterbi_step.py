"""HMM steps: Viterbi (max-plus) or forward (log-sum-exp) recursion for one time step over S states, for a batch of sequences."""
from ..common import build
from ..emit import P
from ..shapes import Red
from .. import shapes

NAME = "viterbi_step"


def generate(rng, seed):
    kind = rng.choice(["viterbi", "viterbi", "forward", "viterbi_argmax"])
    layout = rng.choice(["from_major", "to_major"])
    shared_T = rng.random() < 0.5
    emis = rng.choice(["vector", "table"])
    # row = (sequence b, destination state s); reduce over source states j
    tb = "" if shared_T else "b * S * S + "
    T = f"T[{tb}j * S + s]" if layout == "from_major" else f"T[{tb}s * S + j]"
    pre = "const long long b = r / S, s = r % S;"
    tx = rng.choice(["plain", "scaled", "log_floor"])
    tv = {"plain": f"(double){T}", "scaled": f"(double){T} * (double)tscale", "log_floor": f"fmax((double){T}, -4.0)"}[tx]
    elem = f"(double)prev[b * S + j] + {tv}"
    em = "(double)emit[b * S + s]" if emis == "vector" else "(double)etab[s * NSYM + obs[b]]"
    if kind == "forward":
        reds = [Red("mx", "double", "max", elem), Red("sm", "double", "add", f"exp({elem} - mx)")]
        finish = f"out[r] = (float)(mx + log(sm) + {em});"
    else:
        reds = [Red("mx", "double", "max", elem)]
        finish = f"out[r] = (float)(mx + {em});"
    params = [P("B", "int", "size"), P("S", "int", "size")]
    if tx == "scaled":
        params.append(P("tscale", "float", "scalar", value=round(rng.uniform(0.5, 2), 3)))
    if emis == "table":
        params.append(P("NSYM", "int", "size"))
    params += [P("prev", "const float*", "in", len="B*S", dist="uniform(-20, 0)"),
               P("T", "const float*", "in", len="S*S" if shared_T else "B*S*S", dist="uniform(-6, 0)")]
    if emis == "vector":
        params.append(P("emit", "const float*", "in", len="B*S", dist="uniform(-5, 0)"))
    else:
        params += [P("etab", "const float*", "in", len="S*NSYM", dist="uniform(-5, 0)"), P("obs", "const int*", "in", len="B", dist="index(0, NSYM)")]
    params.append(P("out", "float*", "out", len="B*S"))
    if kind == "viterbi_argmax":
        reds.append(Red("arg", "int", "min", f"({elem} == mx ? (int)j : 2147483647)"))
        finish += "\nbp[r] = arg;"
        params.append(P("bp", "int*", "out", len="B*S"))
    S = rng.choice([64, 128, 256, 512])
    B = 2 ** 25 // S if shared_T else 2 ** 26 // (S * S)
    cfg = lambda name, b, s: dict({"name": name, "B": b, "S": s}, **({"NSYM": 7} if emis == "table" else {}))
    configs = [cfg("tiny", 2, 3), cfg("odd", 7, 101), cfg("odd_big", 2, 333), cfg("perf", B, S)]
    tbytes = "4*S*S" if shared_T else "4*B*S*S"
    ref, impls = shapes.rowred_shape(params, "B * S", "0", "S", reds, finish, what="state", row_pre=pre)
    return build(NAME, seed, "dynamic_programming", "warp", f"HMM {kind.replace('_', ' + ')} step over S states ({layout} transitions{', shared' if shared_T else ', per sequence'}, {emis} emissions)",
                 params, configs, (1e-5, 1e-4), (f"2*B*S*S", f"{tbytes} + {12 if emis == 'vector' else 8}*B*S"), ref, impls)


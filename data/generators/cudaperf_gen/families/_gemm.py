"""Shared GEMM pieces: operand layouts (transposes) and epilogues."""
from ..common import act


def layouts(ta, tb, batched):
    ab = "b * M * K + " if batched else ""
    bb = "b * K * N + " if batched else ""
    a = f"A[{ab}(i) * K + (k)]" if not ta else f"A[{ab}(k) * M + (i)]"
    b = f"B[{bb}(k) * N + (j)]" if not tb else f"B[{bb}(j) * K + (k)]"
    return a, b


def epilogue(rng, t, batched, kinds=("plain", "alpha", "bias_col", "bias_row_act", "alpha_beta_c", "act")):
    kind = rng.choice(list(kinds))
    a = rng.choice(["relu", "tanh", "sigmoid", "gelu_tanh", "silu"])
    oi = "(long long)b * M * N + (long long)i * N + j" if batched else "(long long)i * N + j"
    v = {"plain": "acc", "alpha": "alpha * acc", "bias_col": "acc + bias[j]", "bias_row_act": act(a, "(acc + bias[i])", t),
         "alpha_beta_c": f"alpha * acc + beta * C0[{oi}]", "act": act(a, "acc", t)}[kind]
    return kind, a, f"out[{oi}] = ({t})({v});"

"""nn.Linear (x @ W^T + b) with an activation epilogue, an optional scale and an optional residual."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, lit, spec
from .. import tshapes

NAME = "pt_linear_act"


def generate(rng, seed):
    act = rng.choice(sorted(ACTS))
    bias = rng.random() < 0.8
    resid = rng.random() < 0.3
    scale = lit(round(rng.uniform(0.3, 2), 2)) if rng.random() < 0.3 else None
    init = [f"self.fc = nn.Linear(in_features, out_features, bias={bias})"]
    lines = ["h = self.fc(x)"]
    epi = "acc" + (" + bias[n]" if bias else "")
    if scale:
        lines.append(f"h = h * {scale[0]}")
        epi = f"({epi}) * {scale[1]}"
    lines.append(f"h = {act_py(act, 'h')}")
    epi = act_cu(act, f"({epi})")
    ins = [In("x", ("batch_size", "in_features"))]
    tensors = [("x", "float"), ("w", "float")] + ([("bias", "float")] if bias else [])
    args = "x, self.fc.weight" + (", self.fc.bias" if bias else "")
    if resid:
        ins.append(In("r", ("batch_size", "out_features")))
        lines.append("h = h + r")
        epi = f"{epi} + r[m * N + n]"
        tensors.append(("r", "float"))
        args = "x, self.fc.weight" + (", self.fc.bias" if bias else "") + ", r"
    lines.append("return h")
    dims = [("NB", "1"), ("M", "x_c.size(0)"), ("N", "w_c.size(0)"), ("K", "x_c.size(1)")]
    impls = tshapes.gemm_impls("lin", tensors, [], dims, "auto out = torch::empty({M, N}, x_c.options());",
                               "x[(m) * K + (k)]", "w[(n) * K + (k)]", epi, call="_ext.{fn}(" + args + ")")
    for im in impls.values():
        im.cuda = act_helpers([act]) + im.cuda
    cfg = [{"name": "tiny", "batch_size": 2, "in_features": 5, "out_features": 3},
           {"name": "odd", "batch_size": 37, "in_features": 129, "out_features": 65},
           {"name": "odd_tall", "batch_size": 1001, "in_features": 17, "out_features": 33},
           {"name": "perf", "batch_size": 8192, "in_features": 2048, "out_features": 2048}]
    return spec(NAME, seed, f"linear{' + bias' if bias else ''}{' * c' if scale else ''} -> {act}{' + residual' if resid else ''}", cfg,
                ins, lines, impls, init=init, init_args=[("in_features", "in_features"), ("out_features", "out_features")],
                rtol=2e-4, atol=2e-3, deterministic=False, tf32_off=True, field="matmul")

"""Attention scores over (batch, heads, seq, head_dim): q @ k^T scaled, with a causal fill, an additive mask or bias, a tanh soft-cap."""
from ._common import In, lit, spec
from .. import tshapes

NAME = "pt_attn_scores"


def generate(rng, seed):
    extra = rng.choice(["none", "causal", "add_mask", "softcap", "causal_softcap", "rel_bias"])
    scale_kind = rng.choice(["rsqrt_d", "const"])
    c = lit(round(rng.uniform(0.05, 0.5), 3))
    kt = rng.random() < 0.5  # k given as (batch, heads, head_dim, seq)
    pre = scale_kind == "const" and rng.random() < 0.5  # q scaled before the product
    kk = "k" if kt else "k.transpose(-1, -2)"
    lines = [f"s = torch.matmul(q * {c[0]}, {kk})" if pre else f"s = torch.matmul(q, {kk})"]
    if pre:
        epi = f"acc"
    elif scale_kind == "rsqrt_d":
        lines.append("s = s / math.sqrt(q.shape[-1])")
        epi = "acc / sqrtf((float)K)"
    else:
        lines.append(f"s = s * {c[0]}")
        epi = f"acc * {c[1]}"
    ins = [In("q", ("batch_size", "heads", "seq", "head_dim")),
           In("k", ("batch_size", "heads", "head_dim", "seq") if kt else ("batch_size", "heads", "seq", "head_dim"))]
    tensors, args = [("q", "float"), ("kt", "float")], "q, k"  # kt: k is the GEMM's loop index in the kernels
    if "softcap" in extra:
        cap = lit(round(rng.uniform(5, 50), 1))
        lines.append(f"s = torch.tanh(s / {cap[0]}) * {cap[0]}")
        epi = f"tanhf(({epi}) / {cap[1]}) * {cap[1]}"
    if extra == "add_mask":
        ins.append(In("mask", ("seq", "seq")))
        tensors.append(("mask", "float"))
        args += ", mask"
        lines.append("s = s + mask")
        epi = f"({epi}) + mask[m * N + n]"
    if extra == "rel_bias":
        lines.append("s = s + self.bias")
        tensors.append(("bias", "float"))
        args += ", self.bias"
        epi = f"({epi}) + bias[(bb % H) * M * N + m * N + n]"
    if "causal" in extra:
        fill = rng.choice(["-1e9", "-10000.0"])
        lines.append(f"s = s.masked_fill(torch.triu(torch.ones(s.shape[-2], s.shape[-1], dtype=torch.bool), diagonal=1).to(s.device), {fill})")
        epi = f"(n > m ? {fill}f : ({epi}))"
    lines.append("return s")
    dims = [("H", "q_c.size(1)"), ("NB", "q_c.size(0) * q_c.size(1)"), ("M", "q_c.size(2)"), ("N", f"kt_c.size({3 if kt else 2})"),
            ("K", "q_c.size(3)")]
    a_at = f"(q[(bb * M + (m)) * K + (k)] * {c[1]})" if pre else "q[(bb * M + (m)) * K + (k)]"
    b_at = "kt[(bb * K + (k)) * N + (n)]" if kt else "kt[(bb * N + (n)) * K + (k)]"
    impls = tshapes.gemm_impls("att", tensors, [], dims, "auto out = torch::empty({q_c.size(0), q_c.size(1), M, N}, q_c.options());",
                               a_at, b_at, epi, call="_ext.{fn}(" + args + ")")
    init, init_args = [], []
    if extra == "rel_bias":
        init = ["self.bias = nn.Parameter(torch.randn(heads, seq, seq))"]
        init_args = [("heads", "heads"), ("seq", "seq")]
    cfg = [{"name": "tiny", "batch_size": 1, "heads": 2, "seq": 5, "head_dim": 4},
           {"name": "odd", "batch_size": 2, "heads": 3, "seq": 37, "head_dim": 24},
           {"name": "odd_long", "batch_size": 1, "heads": 2, "seq": 301, "head_dim": 8},
           {"name": "perf", "batch_size": 8, "heads": 16, "seq": 1024, "head_dim": 64}]
    return spec(NAME, seed, f"attention scores ({scale_kind}{', q pre-scaled' if pre else ''}, {extra}{', k as (d, s)' if kt else ''})", cfg, ins, lines, impls, init=init, init_args=init_args,
                rtol=2e-4, atol=1e-3, deterministic=False, tf32_off=True, field="attention")

"""Batched matmuls with transposed operands, a shared or batched right operand, a scale and an optional activation or bias."""
from ._common import ACTS, In, act_cu, act_helpers, act_py, lit, spec
from .. import tshapes

NAME = "pt_bmm_t"


def generate(rng, seed):
    ta, tb = rng.random() < 0.5, rng.random() < 0.5
    shared = rng.random() < 0.3
    act = rng.choice(sorted(ACTS)) if rng.random() < 0.4 else None
    scale = lit(round(rng.uniform(0.05, 1.5), 3)) if rng.random() < 0.5 else None
    ashape = ("batch", "k_dim", "m_dim") if ta else ("batch", "m_dim", "k_dim")
    bshape = ("k_dim", "n_dim") if not tb else ("n_dim", "k_dim")
    if not shared:
        bshape = ("batch",) + bshape
    a_py = "a.transpose(1, 2)" if ta else "a"
    b_py = ("b.transpose(-1, -2)" if tb else "b")
    lines = [f"h = torch.matmul({a_py}, {b_py})"]
    epi = "acc"
    if scale:
        lines.append(f"h = h * {scale[0]}")
        epi = f"acc * {scale[1]}"
    if act:
        lines.append(f"h = {act_py(act, 'h')}")
        epi = act_cu(act, epi)
    lines.append("return h")
    a_at = "a[bb * M * K + (k) * M + (m)]" if ta else "a[bb * M * K + (m) * K + (k)]"
    sb = "0" if shared else "bb * K * N"
    b_at = f"b[{sb} + (n) * K + (k)]" if tb else f"b[{sb} + (k) * N + (n)]"
    dims = [("NB", "a_c.size(0)"), ("M", f"a_c.size({2 if ta else 1})"), ("K", f"a_c.size({1 if ta else 2})"),
            ("N", f"b_c.size(b_c.dim() - {2 if tb else 1})")]
    impls = tshapes.gemm_impls("bmm", [("a", "float"), ("b", "float")], [], dims, "auto out = torch::empty({NB, M, N}, a_c.options());",
                               a_at, b_at, epi, call="_ext.{fn}(a, b)")
    if act:
        for im in impls.values():
            im.cuda = act_helpers([act]) + im.cuda
    cfg = [{"name": "tiny", "batch": 2, "m_dim": 3, "k_dim": 5, "n_dim": 4},
           {"name": "odd", "batch": 3, "m_dim": 37, "k_dim": 129, "n_dim": 65},
           {"name": "odd_thin", "batch": 7, "m_dim": 101, "k_dim": 3, "n_dim": 17},
           {"name": "perf", "batch": 16, "m_dim": 1024, "k_dim": 1024, "n_dim": 1024}]
    ins = [In("a", ashape), In("b", bshape)]
    return spec(NAME, seed, f"batched matmul A{'^T' if ta else ''} B{'^T' if tb else ''}{' (shared B)' if shared else ''}"
                f"{' * c' if scale else ''}{' -> ' + act if act else ''}", cfg, ins, lines, impls,
                rtol=2e-4, atol=2e-3, deterministic=False, tf32_off=True, field="matmul")

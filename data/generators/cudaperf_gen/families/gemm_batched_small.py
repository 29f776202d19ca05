"""Batched small GEMMs (M, N, K <= 64) with random transposes and epilogues, one problem per batch entry."""
from ..common import build
from ..emit import P
from .. import shapes
from ._gemm import layouts, epilogue

NAME = "gemm_batched_small"


def generate(rng, seed):
    t = "float"
    ta, tb = rng.random() < 0.5, rng.random() < 0.5
    kind, a, epi = epilogue(rng, t, True, ("plain", "alpha", "act", "alpha_beta_c"))
    a_at, b_at = layouts(ta, tb, True)
    shared_b = rng.random() < 0.3
    if shared_b:
        b_at = b_at.replace("b * K * N + ", "")
    params = [P("BATCH", "int", "size"), P("M", "int", "size"), P("N", "int", "size"), P("K", "int", "size")]
    if kind in ("alpha", "alpha_beta_c"):
        params.append(P("alpha", t, "scalar", value=round(rng.uniform(0.5, 2), 3)))
    if kind == "alpha_beta_c":
        params.append(P("beta", t, "scalar", value=round(rng.uniform(-1, 1), 3)))
    params += [P("A", "const float*", "in", len="BATCH*M*K", dist="uniform(-1, 1)"),
               P("B", "const float*", "in", len="K*N" if shared_b else "BATCH*K*N", dist="uniform(-1, 1)")]
    if kind == "alpha_beta_c":
        params.append(P("C0", "const float*", "in", len="BATCH*M*N", dist="uniform(-1, 1)"))
    params.append(P("out", "float*", "out", len="BATCH*M*N"))
    M, N, K = rng.choice([(16, 16, 16), (32, 32, 32), (8, 64, 32), (64, 8, 16), (24, 24, 48)])
    batch = 2 ** 27 // (M * K + (0 if shared_b else N * K) + M * N)
    configs = [{"name": "tiny", "BATCH": 2, "M": 3, "N": 5, "K": 4}, {"name": "odd", "BATCH": 33, "M": 17, "N": 9, "K": 13},
               {"name": "odd_one", "BATCH": 1, "M": 31, "N": 33, "K": 35}, {"name": "perf", "BATCH": batch, "M": M, "N": N, "K": K}]
    bb = "4*K*N" if shared_b else "4*BATCH*K*N"
    ref, impls, macros = shapes.gemm_shape(params, "BATCH", "M", "N", "K", a_at, b_at, epi)
    return build(NAME, seed, "linalg", "shared", f"batched small f32 GEMMs ({'A^T' if ta else 'A'} {'B^T' if tb else 'B'}{', shared B' if shared_b else ''}, {kind} epilogue)",
                 params, configs, (1e-4, 1e-4), ("2*BATCH*M*N*K", f"4*BATCH*M*K + {bb} + 4*BATCH*M*N"), ref, impls, extra_c_helpers=macros)

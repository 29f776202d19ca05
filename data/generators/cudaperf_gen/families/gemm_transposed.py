"""Matrix-matrix products out = epi(op(A) op(B)) with random transposes of A and B and an epilogue (f32)."""
from ..common import build
from ..emit import P
from .. import shapes
from ._gemm import layouts, epilogue

NAME = "gemm_transposed"


def generate(rng, seed):
    t = "float"
    ta, tb = rng.random() < 0.5, rng.random() < 0.5
    kind, a, epi = epilogue(rng, t, False)
    a_at, b_at = layouts(ta, tb, False)
    params = [P("M", "int", "size"), P("N", "int", "size"), P("K", "int", "size")]
    if kind in ("alpha", "alpha_beta_c"):
        params.append(P("alpha", t, "scalar", value=round(rng.uniform(0.5, 2), 3)))
    if kind == "alpha_beta_c":
        params.append(P("beta", t, "scalar", value=round(rng.uniform(-1, 1), 3)))
    params += [P("A", "const float*", "in", len="M*K", dist="uniform(-1, 1)"), P("B", "const float*", "in", len="K*N", dist="uniform(-1, 1)")]
    if kind == "bias_col":
        params.append(P("bias", "const float*", "in", len="N", dist="uniform(-1, 1)"))
    if kind == "bias_row_act":
        params.append(P("bias", "const float*", "in", len="M", dist="uniform(-1, 1)"))
    if kind == "alpha_beta_c":
        params.append(P("C0", "const float*", "in", len="M*N", dist="uniform(-1, 1)"))
    params.append(P("out", "float*", "out", len="M*N"))
    M, N, K = rng.choice([(2048, 2048, 2048), (4096, 1024, 1024), (1024, 4096, 512), (2048, 1024, 4096)])
    configs = [{"name": "tiny", "M": 3, "N": 5, "K": 4}, {"name": "odd", "M": 67, "N": 45, "K": 99},
               {"name": "odd_k", "M": 16, "N": 32, "K": 1001}, {"name": "perf", "M": M, "N": N, "K": K}]
    macros_ref, impls, macros = shapes.gemm_shape(params, "1", "M", "N", "K",
                                                  a_at.replace("(i)", "(i)").replace("(k)", "(k)"), b_at, epi.replace("b * M * N + ", ""))
    return build(NAME, seed, "linalg", "shared", f"f32 GEMM out = {kind}({'A^T' if ta else 'A'} {'B^T' if tb else 'B'}) (double-accumulated reference)",
                 params, configs, (1e-4, 2e-4), ("2*M*N*K", "4*M*K + 4*K*N + 4*M*N"), macros_ref, impls, extra_c_helpers=macros)

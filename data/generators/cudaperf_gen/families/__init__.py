"""The families: one module each, every module has NAME and generate(rng, seed) -> TaskSpec."""
import importlib

MODULES = """
ew_expr_f32 ew_expr_f64 ew_bits_u32 epilogue_bias_act poly_horner rng_counter quantize_i8 dequantize_i8 gather_idx
scatter_perm masked_select stencil_1d stencil_2d stencil_3d conv1d_taps conv2d_taps permute_nd fft_butterfly sw_antidiag
reduce_rows softmax_rows norm_rows matvec_dense spmv_csr spmv_ell label_prop viterbi_step int8_dot_rows
scan_rows segscan_rows gemm_transposed gemm_batched_small histogram_bins bellman_ford_step spmv_coo_int
""".split()


def all_families():
    return {m: importlib.import_module(f"{__name__}.{m}") for m in MODULES}

"""The family-level held-out split (docs/generators.md): whole families the policy never trains on.
They are families without a curated counterpart of the same computation (curated tasks are train),
spread over the shapes: elementwise maps, row reductions, atomic scatters."""
HELDOUT = ["bellman_ford_step", "conv1d_taps", "dequantize_i8", "fft_butterfly", "label_prop", "sw_antidiag", "viterbi_step"]
# torch2cuda: five of the 22 torch families (100 of 440 tasks), each with train siblings of its kernel
# shape (map: pt_where_mask, pt_pool2d; lines: pt_var_std, pt_pairwise_rows; gemm: pt_attn_scores)
TORCH_HELDOUT = ["pt_attn_scores", "pt_pairwise_rows", "pt_pool2d", "pt_var_std", "pt_where_mask"]
HELDOUT = HELDOUT + TORCH_HELDOUT


def split_of(family):
    return "heldout" if family in HELDOUT else "train"

"""The family-level held-out split (docs/generators.md): whole families the policy never trains on.
They are families without a curated counterpart of the same computation (curated tasks are train),
spread over the shapes: elementwise maps, row reductions, atomic scatters."""
HELDOUT = ["bellman_ford_step", "conv1d_taps", "dequantize_i8", "fft_butterfly", "label_prop", "sw_antidiag", "viterbi_step"]


def split_of(family):
    return "heldout" if family in HELDOUT else "train"

"""Elementwise f32 maps: out[i] = a random well-conditioned expression tree over 1-3 input vectors."""
from ._map_expr import generate_expr
NAME = "ew_expr_f32"
def generate(rng, seed): return generate_expr(NAME, rng, seed, "float")

"""Elementwise f64 maps: out[i] = a random well-conditioned expression tree over 1-3 input vectors."""
from ._map_expr import generate_expr
NAME = "ew_expr_f64"
def generate(rng, seed): return generate_expr(NAME, rng, seed, "double")

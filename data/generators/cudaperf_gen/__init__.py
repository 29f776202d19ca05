"""Generators of C-to-CUDA task folders for RL training (docs/generators.md). Python 3 stdlib only."""

import torch
import torch.nn as nn

M = 24576
K = 32768


class Model(nn.Module):
    """Matrix-vector product y = A @ x with A (M, K) and x (K, 1); output (M, 1)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return torch.matmul(A, x)


def get_inputs():
    A = torch.randn(M, K) * (torch.rand(M, 1) * 3.75 + 0.25)
    x = torch.randn(K, 1) * 2.0
    return [A, x]


def get_init_inputs():
    return []

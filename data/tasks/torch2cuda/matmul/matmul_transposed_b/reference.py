import torch
import torch.nn as nn

M = 4096
K = 4096
N = 4096


class Model(nn.Module):
    """fp32 product with a transposed right operand: C = A @ B.T, A (M, K), B (N, K)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B.T)


def get_inputs():
    A = torch.randn(M, K) * (torch.rand(M, 1) * 3.75 + 0.25)
    B = torch.randn(N, K) * (torch.rand(N, 1) * 3.75 + 0.25)
    return [A, B]


def get_init_inputs():
    return []

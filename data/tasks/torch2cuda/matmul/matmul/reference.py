import torch
import torch.nn as nn

M = 4096
K = 4096
N = 4096


class Model(nn.Module):
    """Dense fp32 matrix product C = A @ B with A (M, K) and B (K, N)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


def get_inputs():
    A = torch.randn(M, K) * (torch.rand(M, 1) * 3.75 + 0.25)
    B = torch.randn(K, N) * (torch.rand(1, N) * 3.75 + 0.25)
    return [A, B]


def get_init_inputs():
    return []

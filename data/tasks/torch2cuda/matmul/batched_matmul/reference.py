import torch
import torch.nn as nn

batch_size = 256
M = 512
K = 512
N = 512


class Model(nn.Module):
    """Batched fp32 matrix product: C[b] = A[b] @ B[b] with A (batch, M, K) and B (batch, K, N)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.bmm(A, B)


def get_inputs():
    A = torch.randn(batch_size, M, K) * (torch.rand(batch_size, 1, 1) * 3.75 + 0.25)
    B = torch.randn(batch_size, K, N) * (torch.rand(batch_size, 1, N) * 3.75 + 0.25)
    return [A, B]


def get_init_inputs():
    return []

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 1024
dim = 32768


class Model(nn.Module):
    """Row-wise p-norm distance: (sum_k |x1[r, k] - x2[r, k] + eps|^p)^(1/p); output (batch,)."""

    def __init__(self, p, eps):
        super().__init__()
        self.p = p
        self.eps = eps

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, p=self.p, eps=self.eps)


def get_inputs():
    # x2 is x1 plus noise of a per-row size, so distances span a few orders of magnitude
    x1 = torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 3.0 + 0.1)
    x2 = x1 + torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 2.0 + 0.01)
    return [x1, x2]


def get_init_inputs():
    return [3.0, 1e-6]

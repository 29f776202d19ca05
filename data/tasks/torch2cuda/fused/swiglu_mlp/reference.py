import torch
import torch.nn as nn
import torch.nn.functional as F

tokens = 2048
dim = 2048
hidden = 5632


class Model(nn.Module):
    """SwiGLU feed-forward block: w2(silu(w1(x)) * w3(x)), bias-free linears."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


def get_inputs():
    x = torch.randn(tokens, dim) * (torch.rand(tokens, 1) * 3.75 + 0.25)
    return [x]


def get_init_inputs():
    return [dim, hidden]

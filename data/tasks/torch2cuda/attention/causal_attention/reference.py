import math
import torch
import torch.nn as nn

batch_size = 4
num_heads = 16
seq_len = 2048
head_dim = 64


class Model(nn.Module):
    """Causal scaled dot-product attention: softmax(Q K^T / sqrt(d) + causal mask) V, key j visible to query i iff j <= i."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(q.size(-1)))
        S = q.size(-2)
        causal = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(causal, float("-inf"))
        return torch.matmul(torch.softmax(scores, dim=-1), v)


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    # per-head scales: some heads have nearly uniform attention, others very peaked
    q = torch.randn(shape) * (torch.rand(batch_size, num_heads, 1, 1) * 2.5 + 0.25)
    k = torch.randn(shape) * (torch.rand(batch_size, num_heads, 1, 1) * 2.5 + 0.25)
    v = torch.randn(shape) * 2.0 + torch.randn(batch_size, num_heads, 1, head_dim)
    return [q, k, v]


def get_init_inputs():
    return []

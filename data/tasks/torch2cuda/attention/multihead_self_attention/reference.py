import math
import torch
import torch.nn as nn

batch_size = 4
seq_len = 1024
embed_dim = 1024
num_heads = 16


class Model(nn.Module):
    """Multi-head self-attention block (no mask): fused QKV projection, softmax(QK^T/sqrt(d)) V per head, output projection."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        B, S, E = x.shape
        H = self.num_heads
        Dh = E // H
        qkv = self.qkv(x).reshape(B, S, 3, H, Dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        att = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(Dh)), dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(B, S, E)
        return self.proj(y)


def get_inputs():
    x = torch.randn(batch_size, seq_len, embed_dim) * (torch.rand(batch_size, seq_len, 1) * 3.0 + 0.25)
    return [x]


def get_init_inputs():
    return [embed_dim, num_heads]

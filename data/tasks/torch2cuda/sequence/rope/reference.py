import torch
import torch.nn as nn

batch_size = 4
seq_len = 4096
heads = 32
head_dim = 128


class Model(nn.Module):
    """RoPE: out = x * cos + rotate_half(x) * sin, with x split into halves (x1, x2) and
    rotate_half(x) = (-x2, x1); the angle of position t and pair i is t * inv_freq[i]."""

    def __init__(self, head_dim, base):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, x):
        t = torch.arange(x.shape[1], device=x.device, dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq)                  # (seq, head_dim / 2)
        cos = freqs.cos()[None, :, None, :]
        sin = freqs.sin()[None, :, None, :]
        half = x.shape[-1] // 2
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


def get_inputs():
    x = torch.randn(batch_size, seq_len, heads, head_dim)
    return [x]


def get_init_inputs():
    return [head_dim, 10000.0]

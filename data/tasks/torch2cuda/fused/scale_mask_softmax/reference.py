import torch
import torch.nn as nn

batch_size = 4
num_heads = 16
seq_len = 2048


class Model(nn.Module):
    """Attention-score softmax: softmax(scores * scale + mask) over the last dim; mask (seq, seq) is additive."""

    def __init__(self, scale=0.125):
        super().__init__()
        self.scale = scale

    def forward(self, scores, mask):
        return torch.softmax(scores * self.scale + mask, dim=-1)


def get_inputs():
    scores = torch.randn(batch_size, num_heads, seq_len, seq_len) * (torch.rand(batch_size, num_heads, 1, 1) * 60.0 + 1.0)
    # additive mask: 0 where visible, -10000 where masked (about a third of the positions), never a whole row
    mask = torch.where(torch.rand(seq_len, seq_len) < 0.35, -10000.0, 0.0)
    mask[:, 0] = 0.0
    return [scores, mask]


def get_init_inputs():
    return [0.125]

import torch
import torch.nn as nn

batch_size = 32
seq_len = 1024
dim = 1024
vocab_size = 32000
max_len = 2048
embed_scale = 32.0


class Model(nn.Module):
    """Token embedding * scale + learned positional embedding (positions 0..S-1, broadcast over the batch)."""

    def __init__(self, vocab_size, max_len, dim, scale):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.scale = scale
        with torch.no_grad():
            self.tok.weight.copy_(torch.randn(vocab_size, dim) * 0.05)
            self.pos.weight.copy_(torch.randn(max_len, dim) * 0.5 + 0.1)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], device=ids.device)
        return self.tok(ids) * self.scale + self.pos(positions)


def get_inputs():
    ids = torch.randint(0, vocab_size, (batch_size, seq_len))
    return [ids]


def get_init_inputs():
    return [vocab_size, max_len, dim, embed_scale]

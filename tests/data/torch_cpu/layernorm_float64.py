# test-mode candidate (pure torch, device cpu): LayerNorm computed in float64 and rounded once, more
# accurate than the float32 reference; on ill-conditioned hidden draws it differs from that reference by
# the reference's own rounding error (torch_hidden, Conditioning): ok, not wrong_answer
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)

    def forward(self, x):
        w, b = self.ln.weight.double(), self.ln.bias.double()
        return torch.nn.functional.layer_norm(x.double(), x.shape[-1:], w, b, self.ln.eps).float()

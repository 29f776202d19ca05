# test-mode candidate (pure torch, device cpu): LayerNorm off by 1e-3 everywhere: wrong_answer, also with
# the slack that ill-conditioned hidden draws add to atol (it is only added on those draws)
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)

    def forward(self, x):
        return self.ln(x) + 1e-3

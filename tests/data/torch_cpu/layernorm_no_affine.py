# test-mode candidate for the LayerNorm fixture: normalises but drops the affine parameters (weight 1,
# bias 0 at construction). kernelbench mode cannot tell; strict mode randomises them (wrong_answer).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)

    def forward(self, x):
        dims = tuple(range(x.dim() - 3, x.dim()))
        mean = x.mean(dim=dims, keepdim=True)
        var = x.var(dim=dims, keepdim=True, unbiased=False)
        return (x - mean) / torch.sqrt(var + 1e-5)

import torch
import torch.nn as nn

batch_size = 6144
in_features = 4096
out_features = 4096


class Model(nn.Module):
    """Linear layer with int8 weights dequantized per output channel: y = x @ (W_q * s[:, None]).T + b."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.register_buffer("weight_int8", torch.randint(-127, 128, (out_features, in_features), dtype=torch.int8))
        # per-row scales of a weight whose entries are about N(0, 1 / in_features)
        self.weight_scale = nn.Parameter((torch.rand(out_features) + 0.5) * (2.0 / (127.0 * in_features ** 0.5)))
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x):
        w = self.weight_int8.float() * self.weight_scale.unsqueeze(1)
        return torch.matmul(x, w.t()) + self.bias


def get_inputs():
    x = torch.randn(batch_size, in_features) * (torch.rand(batch_size, 1) * 2.0 + 0.25)
    return [x]


def get_init_inputs():
    return [in_features, out_features]

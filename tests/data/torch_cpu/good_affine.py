# test-mode candidate for affine_relu: correct only if the reference weights were copied in
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(x @ self.fc.weight.t() + self.fc.bias)

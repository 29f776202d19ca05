# test-mode candidate: never returns from a call
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()

    def forward(self, x):
        while True:
            pass

# test-mode null answer: returns a copy of its first input, whatever the problem (ReLU of torch.rand is
# its input: strict mode's hidden inputs must catch it).
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x, *rest):
        return x.clone()

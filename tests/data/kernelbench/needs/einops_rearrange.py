import torch
import torch.nn as nn
from einops import rearrange  # a module the torch worker's interpreter may not have


class Model(nn.Module):
    """
    Transposes the last two dimensions with einops (a fixture: validate must name the missing module).
    """
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x):
        return rearrange(x, "b h w -> b w h")

batch_size = 4
height = 32
width = 64

def get_inputs():
    return [torch.randn(batch_size, height, width)]

def get_init_inputs():
    return []

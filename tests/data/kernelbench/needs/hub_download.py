import urllib.request

import torch
import torch.nn as nn


class Model(nn.Module):
    """
    A model whose configuration is downloaded when it is built, as Hugging Face models are (a fixture:
    validate must say that the reference needs the network).
    """
    def __init__(self, hidden):
        super(Model, self).__init__()
        config = urllib.request.urlopen("https://huggingface.co/gpt2/resolve/main/config.json", timeout=5).read()
        self.fc = nn.Linear(hidden, hidden + len(config) % 2)

    def forward(self, x):
        return self.fc(x)

batch_size = 8
hidden = 64

def get_inputs():
    return [torch.randn(batch_size, hidden)]

def get_init_inputs():
    return [hidden]

# test-mode candidate for the LayerNorm fixture: correct, but its parameters are named gamma/beta, not
# ln.weight/ln.bias. kernelbench mode builds it under the reference's seed (evaluated: ok); strict mode
# copies the weights by name (load_state_dict, strict=True: runtime_error).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.shape = tuple(normalized_shape)
        self.gamma = nn.Parameter(torch.ones(self.shape))
        self.beta = nn.Parameter(torch.zeros(self.shape))

    def forward(self, x):
        dims = tuple(range(x.dim() - len(self.shape), x.dim()))
        mean = x.mean(dim=dims, keepdim=True)
        var = x.var(dim=dims, keepdim=True, unbiased=False)
        return (x - mean) / torch.sqrt(var + 1e-5) * self.gamma + self.beta

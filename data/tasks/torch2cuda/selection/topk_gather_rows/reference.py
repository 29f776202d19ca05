import torch
import torch.nn as nn

B = 32
N = 8192
D = 256
k = 512


class Model(nn.Module):
    """out[b, j] = feats[b, i_j] * sigmoid(scores[b, i_j]), i_0, i_1, ... the indices of the k largest
    scores of batch b in descending order of score."""

    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, scores, feats):
        vals, idx = torch.topk(scores, self.k, dim=-1, largest=True, sorted=True)
        rows = torch.gather(feats, 1, idx.unsqueeze(-1).expand(-1, -1, feats.size(-1)))
        return rows * torch.sigmoid(vals).unsqueeze(-1)


def get_inputs():
    scores = torch.randn(B, N) * 3.0
    feats = torch.randn(B, N, D) * (torch.rand(B, N, 1) * 2.0 + 0.1)
    return [scores, feats]


def get_init_inputs():
    return [k]

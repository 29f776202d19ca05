import torch
import torch.nn as nn

numel = 50000000
segments = 50000


class Model(nn.Module):
    """Inclusive cumulative sum that restarts at the start of every segment; lengths[k] is the size of
    segment k, the segments tile x in order."""

    def __init__(self):
        super().__init__()

    def forward(self, x, lengths):
        c = torch.cumsum(x.double(), dim=0)
        starts = torch.cumsum(lengths, dim=0) - lengths
        base = c[starts] - x.double()[starts]          # sum of everything before each segment
        seg = torch.repeat_interleave(torch.arange(lengths.numel(), device=x.device), lengths)
        return (c - base[seg]).float()


def get_inputs():
    x = torch.randn(numel) * 2.0 + 0.1
    # cut k (k = 1 .. segments-1) at k * step + r_k with r_k in [0, step): strictly increasing, so every
    # length is in [1, 2 * step) and the lengths sum to numel; cheap to draw at the perf size
    step = numel // segments
    k = torch.arange(1, segments, dtype=torch.int64)
    cuts = k * step + torch.randint(0, step, (segments - 1,))
    bounds = torch.cat([torch.zeros(1, dtype=torch.int64), cuts, torch.full((1,), numel, dtype=torch.int64)])
    lengths = bounds[1:] - bounds[:-1]
    return [x, lengths]


def get_init_inputs():
    return []

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8192
dim = 49152


class Model(nn.Module):
    """Per-sample KL divergence sum_j p_j (log p_j - log q_j) from log q and p; output (batch,)."""

    def __init__(self):
        super().__init__()

    def forward(self, log_q, p):
        return F.kl_div(log_q, p, reduction="none").sum(dim=-1)


def get_inputs():
    # log q: log-softmax of wide-ranging logits; p: softmax of other logits, with some entries that
    # underflow to exactly 0 (their terms must count as 0)
    log_q = torch.log_softmax(torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 4.0 + 0.1), dim=-1)
    p = torch.softmax(torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 12.0 + 0.1), dim=-1)
    return [log_q, p]


def get_init_inputs():
    return []

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 1024
dim = 16384


class Model(nn.Module):
    """Triplet margin loss (p = 2, eps = 1e-6, swap = True, no reduction):
    relu(margin + d(anchor, positive) - min(d(anchor, negative), d(positive, negative)))."""

    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=2.0, eps=1e-6,
                                     swap=True, reduction="none")


def get_inputs():
    anchor = torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 2.0 + 0.5)
    # the positive and negative noise sizes are drawn per row from the same range: some rows are
    # active (d_pos > d_neg - margin), others give 0
    positive = anchor + torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 0.7 + 0.3)
    negative = anchor + torch.randn(batch_size, dim) * (torch.rand(batch_size, 1) * 0.7 + 0.3)
    return [anchor, positive, negative]


def get_init_inputs():
    return [1.0]

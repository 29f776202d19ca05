import torch
import torch.nn as nn

num_bags = 16384
mean_bag = 24
num_embeddings = 131072
dim = 256


class Model(nn.Module):
    """EmbeddingBag with mode='sum', include_last_offset=True and per-sample weights:
    out[i] = sum_{j in [offsets[i], offsets[i+1])} per_sample_weights[j] * weight[ids[j]] (0 for an empty bag)."""

    def __init__(self, num_embeddings, dim):
        super().__init__()
        self.bag = nn.EmbeddingBag(num_embeddings, dim, mode="sum", include_last_offset=True)
        with torch.no_grad():
            self.bag.weight.copy_(torch.randn(num_embeddings, dim) * 0.5 + 0.1)

    def forward(self, ids, offsets, per_sample_weights):
        return self.bag(ids, offsets, per_sample_weights=per_sample_weights)


def get_inputs():
    # Fixed shapes under every seed (the engine reuses input buffers across calls): num_bags * mean_bag ids
    # cut at num_bags - 1 random points into ragged bags; every 7th bag (i % 7 == 3) is made empty.
    total = num_bags * mean_bag
    offsets = torch.zeros(num_bags + 1, dtype=torch.int64)
    offsets[1:num_bags] = torch.sort(torch.randint(0, total + 1, (num_bags - 1,))).values
    offsets[num_bags] = total
    empty = torch.arange(4, num_bags, 7)
    offsets[empty] = offsets[empty - 1]
    ids = torch.randint(0, num_embeddings, (total,))
    per_sample_weights = torch.rand(total) * 1.5 - 0.5
    return [ids, offsets, per_sample_weights]


def get_init_inputs():
    return [num_embeddings, dim]

import torch
import torch.nn as nn

num_bags = 16384
mean_bag = 16
num_embeddings = 65536
dim = 512


class Model(nn.Module):
    """EmbeddingBag with mode='mean': out[i] = mean of weight rows ids[offsets[i]:offsets[i+1]] (0 for an empty bag)."""

    def __init__(self, num_embeddings, dim):
        super().__init__()
        self.bag = nn.EmbeddingBag(num_embeddings, dim, mode="mean")
        with torch.no_grad():
            self.bag.weight.copy_(torch.randn(num_embeddings, dim) * 0.7 + 0.2)

    def forward(self, ids, offsets):
        return self.bag(ids, offsets)


def get_inputs():
    # Fixed shapes under every seed (the engine reuses input buffers across calls): num_bags * mean_bag ids
    # cut at num_bags - 1 random points into ragged bags; every 7th bag (i % 7 == 3) is made empty.
    total = num_bags * mean_bag
    offsets = torch.zeros(num_bags, dtype=torch.int64)
    offsets[1:] = torch.sort(torch.randint(0, total + 1, (num_bags - 1,))).values
    empty = torch.arange(4, num_bags, 7)
    offsets[empty] = offsets[empty - 1]
    ids = torch.randint(0, num_embeddings, (total,))
    return [ids, offsets]


def get_init_inputs():
    return [num_embeddings, dim]

import torch
import torch.nn as nn

batch_size = 2048
seq_len = 256
vocab_size = 131072
dim = 256
pad_id = 1


class Model(nn.Module):
    """Sentence embedding by masked mean pooling: out[b] = mean of weight[ids[b, s]] over the s with
    ids[b, s] != pad_id (0 for a row that is all padding)."""

    def __init__(self, vocab_size, dim, pad_id):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=pad_id)
        self.pad_id = pad_id
        with torch.no_grad():
            # every row random, the pad row included: only the mask keeps it out of the mean
            self.emb.weight.copy_(torch.randn(vocab_size, dim) * 0.6 - 0.1)

    def forward(self, ids):
        mask = (ids != self.pad_id).unsqueeze(-1).to(torch.float32)
        summed = (self.emb(ids) * mask).sum(dim=1)
        count = mask.sum(dim=1).clamp(min=1.0)
        return summed / count


def get_inputs():
    ids = torch.randint(0, vocab_size, (batch_size, seq_len))
    lengths = torch.randint(0, seq_len + 1, (batch_size, 1))
    ids = torch.where(torch.arange(seq_len).unsqueeze(0) < lengths, ids, torch.full_like(ids, pad_id))
    return [ids]


def get_init_inputs():
    return [vocab_size, dim, pad_id]

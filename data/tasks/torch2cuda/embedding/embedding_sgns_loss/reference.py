import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 65536
num_neg = 16
vocab_size = 262144
dim = 128


class Model(nn.Module):
    """Skip-gram with negative sampling (word2vec): per example, the centre word's input embedding is dotted
    with the output embeddings of one positive and num_neg negative context words;
    loss[b] = -logsigmoid(score[b, 0]) - sum_{k >= 1} logsigmoid(-score[b, k])."""

    def __init__(self, vocab_size, dim):
        super().__init__()
        self.in_emb = nn.Embedding(vocab_size, dim)
        self.out_emb = nn.Embedding(vocab_size, dim)
        with torch.no_grad():
            self.in_emb.weight.copy_(torch.randn(vocab_size, dim) * 0.3 + 0.02)
            self.out_emb.weight.copy_(torch.randn(vocab_size, dim) * 0.3 - 0.02)

    def forward(self, center, context):
        c = self.in_emb(center)                           # (B, D)
        o = self.out_emb(context)                         # (B, 1 + K, D)
        scores = (o * c.unsqueeze(1)).sum(dim=-1)         # (B, 1 + K)
        pos = F.logsigmoid(scores[:, 0])
        neg = F.logsigmoid(-scores[:, 1:]).sum(dim=-1)
        return -(pos + neg)


def get_inputs():
    center = torch.randint(0, vocab_size, (batch_size,))
    context = torch.randint(0, vocab_size, (batch_size, 1 + num_neg))
    return [center, context]


def get_init_inputs():
    return [vocab_size, dim]

import torch
import torch.nn as nn

batch_size = 131072


class Model(nn.Module):
    """MLP classifier for 28x28 digit images: 784 -> 256 -> ReLU -> 128 -> ReLU -> 10 logits."""

    def __init__(self, in_features=784, hidden1=256, hidden2=128, num_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden1)
        self.fc2 = nn.Linear(hidden1, hidden2)
        self.fc3 = nn.Linear(hidden2, num_classes)

    def forward(self, x):
        x = x.reshape(x.size(0), -1)
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


def get_inputs():
    # 28x28 "digit-like" images: mostly background with bright strokes (values in [0, 1]), then the
    # usual MNIST normalisation (x - 0.1307) / 0.3081, so inputs lie in about [-0.42, 2.82]
    raw = torch.rand(batch_size, 1, 28, 28)
    strokes = (torch.rand(batch_size, 1, 28, 28) < 0.2).float()
    x = (raw * strokes - 0.1307) / 0.3081
    return [x]


def get_init_inputs():
    return [784, 256, 128, 10]

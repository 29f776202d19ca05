import torch
import torch.nn as nn

batch_size = 65536


class Model(nn.Module):
    """One SGD training step of a 784-256-128-10 ReLU MLP on a batch of 28x28 digit images.

    Forward, mean softmax cross-entropy, backward by hand and the update W <- W - lr * dL/dW for every
    weight and bias. The module's own parameters are NOT modified; the step's result is returned as one
    flat fp32 vector: [loss, fc1.weight', fc1.bias', fc2.weight', fc2.bias', fc3.weight', fc3.bias']
    (each updated tensor flattened row-major), length 1 + 200960 + 256 + 32768 + 128 + 1280 + 10.
    """

    def __init__(self, lr=0.5):
        super().__init__()
        self.lr = lr
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x, labels):
        B = x.size(0)
        a0 = x.reshape(B, -1)
        W1, b1 = self.fc1.weight, self.fc1.bias
        W2, b2 = self.fc2.weight, self.fc2.bias
        W3, b3 = self.fc3.weight, self.fc3.bias
        z1 = a0 @ W1.T + b1
        a1 = torch.relu(z1)
        z2 = a1 @ W2.T + b2
        a2 = torch.relu(z2)
        z3 = a2 @ W3.T + b3
        logp = torch.log_softmax(z3, dim=1)
        loss = -logp.gather(1, labels.view(-1, 1)).mean()
        # backward of the mean cross-entropy
        g3 = torch.softmax(z3, dim=1)
        g3[torch.arange(B, device=z3.device), labels] -= 1.0
        g3 = g3 / B
        dW3 = g3.T @ a2
        db3 = g3.sum(0)
        g2 = (g3 @ W3) * (z2 > 0)
        dW2 = g2.T @ a1
        db2 = g2.sum(0)
        g1 = (g2 @ W2) * (z1 > 0)
        dW1 = g1.T @ a0
        db1 = g1.sum(0)
        lr = self.lr
        new = [W1 - lr * dW1, b1 - lr * db1, W2 - lr * dW2, b2 - lr * db2, W3 - lr * dW3, b3 - lr * db3]
        return torch.cat([loss.reshape(1)] + [t.reshape(-1) for t in new])


def get_inputs():
    # 28x28 "digit-like" images: mostly background with bright strokes (values in [0, 1]), then the
    # usual MNIST normalisation (x - 0.1307) / 0.3081, so inputs lie in about [-0.42, 2.82]
    raw = torch.rand(batch_size, 1, 28, 28)
    strokes = (torch.rand(batch_size, 1, 28, 28) < 0.2).float()
    x = (raw * strokes - 0.1307) / 0.3081
    labels = torch.randint(0, 10, (batch_size,))
    return [x, labels]


def get_init_inputs():
    return [0.5]

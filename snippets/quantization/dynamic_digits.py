import warnings

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

from reference_impl.quantization import compare_models, require_quantized

torch.set_num_threads(1)  # tiny model: one thread is faster than two fighting over small ops
torch.manual_seed(0)
digits = load_digits()
images = torch.tensor(digits.images / 16.0, dtype=torch.float32)  # (1797, 8, 8)
labels = torch.tensor(digits.target)
x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.3, random_state=0)


class RowColumnReader(nn.Module):
    """Reads each 8x8 digit twice: rows with an LSTM, columns with an RNNCell loop."""

    def __init__(self, hidden=32):
        super().__init__()
        self.rows = nn.LSTM(8, hidden, batch_first=True)
        self.cols = nn.RNNCell(8, hidden)
        self.head = nn.Linear(2 * hidden, 10)

    def forward(self, img):
        _, (h_rows, _) = self.rows(img)
        h = torch.zeros(img.shape[0], self.cols.hidden_size)
        for column in img.transpose(1, 2).unbind(1):
            h = self.cols(column, h)
        return self.head(torch.cat([h_rows[-1], h], dim=1))


model = RowColumnReader()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(10):
    for batch in torch.randperm(len(x_train)).split(128):
        loss = nn.functional.cross_entropy(model(x_train[batch]), y_train[batch])
        opt.zero_grad()
        loss.backward()
        opt.step()
model.eval()

with warnings.catch_warnings():
    # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    quantized = torch.ao.quantization.quantize_dynamic(
        model, {nn.Linear, nn.LSTM, nn.RNNCell}, dtype=torch.qint8
    )


require_quantized(model, quantized)  # raises if no module was replaced: prove it before any figure


def accuracy(m):
    with torch.no_grad():
        return (m(x_test).argmax(1) == y_test).float().mean().item()


print(f"test accuracy  float32: {accuracy(model):.3f}   int8 dynamic: {accuracy(quantized):.3f}")
with torch.no_grad():
    changed = (model(x_test).argmax(1) != quantized(x_test).argmax(1)).sum().item()
print(f"predictions that changed: {changed} of {len(x_test)}")
print(compare_models(model, quantized, x_test).format_table(latency=False))

import torch
from torch import nn

torch.manual_seed(0)

# Dropout: train() zeroes a random p-fraction and scales the rest by 1/(1-p); eval() is the identity.
drop = nn.Dropout(p=0.5)
x = torch.ones(8)
print("dropout train:", drop.train()(x).tolist())
print("dropout eval: ", drop.eval()(x).tolist())

# BatchNorm: train() normalizes with the batch's own mean/var and updates running stats;
# eval() normalizes with the running stats. It is not switched off.
bn = nn.BatchNorm1d(1, momentum=0.1)
batch = torch.tensor([[1.0], [2.0], [3.0], [6.0]])
print("running before:", bn.running_mean.item(), bn.running_var.item())
out_train = bn.train()(batch)
print("train output:  ", [round(v, 4) for v in out_train.flatten().tolist()])
print("running after: ", round(bn.running_mean.item(), 4), round(bn.running_var.item(), 4))
out_eval = bn.eval()(batch)
print("eval output:   ", [round(v, 4) for v in out_eval.flatten().tolist()])
by_hand = (batch - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps)
print("eval == (x - running_mean) / sqrt(running_var + eps):", torch.allclose(out_eval, by_hand))

# In train mode a batch of one sample has no variance to normalize with:
try:
    bn.train()(torch.tensor([[5.0]]))
except ValueError as err:
    print(type(err).__name__, err)
print("eval() handles a single sample:", round(bn.eval()(torch.tensor([[5.0]])).item(), 4))

# model.train(False) == model.eval(); the flag propagates to every submodule.
model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(), nn.BatchNorm1d(2)).eval()
print([m.training for m in model.modules()])

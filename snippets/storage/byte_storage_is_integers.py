import torch

x = torch.tensor([1.23, 2.7, 200.0])
print(x.to(torch.uint8))  # uint8 (the old ByteStorage) holds integers 0..255: fractions are cut off
print(torch.iinfo(torch.uint8))

# Eight bits per value *and* fractions: float8, a storage dtype for weights and activations.
f8 = x.to(torch.float8_e4m3fn)
print(f8.element_size(), "byte per value:", f8.float().tolist())
print("float8_e4m3fn max:", torch.finfo(torch.float8_e4m3fn).max)

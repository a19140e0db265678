import torch

# The defaults of torch 2.13 (the same on a CPU-only build and on a GPU machine).
print("cuda.matmul.fp32_precision:", torch.backends.cuda.matmul.fp32_precision)
print("cudnn.conv.fp32_precision: ", torch.backends.cudnn.conv.fp32_precision)
print("get_float32_matmul_precision():", torch.get_float32_matmul_precision())

# Allow TF32 for float32 matrix multiplications on CUDA ("ieee" turns it off again).
torch.backends.cuda.matmul.fp32_precision = "tf32"
print("after setting it:", torch.backends.cuda.matmul.fp32_precision)

# The older spelling, torch.backends.cuda.matmul.allow_tf32 = True, still works, but
# reading the precision with the old getter after setting it with the new API fails:
try:
    torch.get_float32_matmul_precision()
except RuntimeError as error:
    print("RuntimeError:", str(error).split(",")[0])

import torch

matmul = torch.backends.cuda.matmul


def read(name, getter):
    try:
        value = getter()
    except RuntimeError as error:
        value = "RuntimeError: " + str(error).split(",")[0]
    print(f"  {name:32} {value}")


def show(title):
    print(title)
    read("matmul.fp32_precision", lambda: matmul.fp32_precision)
    read("matmul.allow_tf32", lambda: matmul.allow_tf32)
    read("get_float32_matmul_precision()", torch.get_float32_matmul_precision)


matmul.fp32_precision = "ieee"
show('new API set to "ieee" (the legacy view agrees: off)')
matmul.fp32_precision = "tf32"
show('new API set to "tf32" (the legacy view still says off)')
torch.set_float32_matmul_precision("high")
show('legacy set_float32_matmul_precision("high") (both views agree)')

# The parent switch: "ieee" there also turns off TF32 for cuDNN convolutions.
torch.backends.fp32_precision = "ieee"
print('torch.backends.fp32_precision = "ieee"')
print("  cuda.matmul.fp32_precision:", matmul.fp32_precision)
print("  cudnn.conv.fp32_precision: ", torch.backends.cudnn.conv.fp32_precision)

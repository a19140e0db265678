import warnings

import torch


def attempt(label, action):
    """Run one line of the common mistake and print what really happens."""
    try:
        result = action()
    except Exception as err:  # show the real error: its first line (first sentence if very long)
        lines = str(err).splitlines()
        message = lines[0] if len(lines[0]) < 200 else lines[0].split(". ")[0] + "."
        if message != str(err):
            message += " [...]"
        print(f"{label}\n  -> {type(err).__name__}: {message}")
    else:
        print(f"{label}\n  -> works: {result!r}")


# TypedStorage warns that it is deprecated, but only the first time in a process;
# record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    storage = torch.QInt32Storage(5)

attempt("torch.IntTensor(torch.QInt32Storage(5))", lambda: torch.IntTensor(storage))
attempt("torch.IntTensor(torch.ByteStorage(5))", lambda: torch.IntTensor(torch.ByteStorage(5)))
attempt("torch.IntTensor(storage, offset=5, size=3)", lambda: torch.IntTensor(storage, offset=5, size=3))
attempt("torch.randn(10, dtype=torch.int32)", lambda: torch.randn(10, dtype=torch.int32))

t = torch.tensor([1, 2, 3, 4, 5], dtype=torch.int32)
attempt("t.qscheme(...)  # try to set a scheme", lambda: t.qscheme(torch.per_tensor_affine))
attempt("t.qscheme()  # on a tensor that is not quantized", lambda: t.qscheme())
attempt("torch.quantization.QScheme", lambda: torch.quantization.QScheme)
attempt("torch.Scheme", lambda: torch.Scheme)
attempt("storage.data", lambda: storage.data)
attempt("storage.is_contiguous()", lambda: storage.is_contiguous())
attempt("storage.size()", lambda: storage.size())  # an int, not a tuple
attempt("torch.cuda.QInt32Storage", lambda: torch.cuda.QInt32Storage)

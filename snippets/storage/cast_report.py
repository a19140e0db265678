import textwrap

import torch

from reference_impl.errors import CastError
from reference_impl.storage import check_cast, safe_cast

# Activations with a few large values and a few tiny ones, as after a badly scaled layer.
x = torch.tensor([0.5, -3.0, 70000.0, 1e-9, 2e-6, -1e5, 1.23])

report = check_cast(x, torch.float16)  # counts only: never raises
print(f"overflow={report.overflow} underflow={report.underflow} subnormal={report.subnormal}")
print("first overflow:", report.first_overflow)
print("plain .half():", x.half().tolist())  # the silent version

try:
    safe_cast(x, torch.float16)  # errors="raise" is the default
except CastError as err:
    print(type(err).__name__ + ":")
    print(textwrap.fill(str(err), width=88, initial_indent="  ", subsequent_indent="  "))

print(safe_cast(x, torch.bfloat16))  # float32's range: nothing overflows or vanishes

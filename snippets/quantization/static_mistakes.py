import importlib

import torch

# Names from old articles, checked against torch 2.13:
for path in ("torch.quantization.fbgemm_qconfig", "torch.nn.Attention", "torch.quantization.QScheme"):
    module_name, attribute = path.rsplit(".", 1)
    try:
        getattr(importlib.import_module(module_name), attribute)
    except AttributeError as err:
        print(type(err).__name__, err)

# torch.quantization and torch.nn.quantized are old aliases of the torch.ao namespaces.
print(torch.quantization.quantize_dynamic is torch.ao.quantization.quantize_dynamic)
print(torch.nn.quantized.dynamic.RNNCell is torch.ao.nn.quantized.dynamic.RNNCell)
# What the articles meant by fbgemm_qconfig: the default qconfig of an engine.
print([engine for engine in torch.backends.quantized.supported_engines if engine != "none"])

import torch

x = torch.tensor([448.0, 464.0, 465.0, 1000.0, 60000.0, 61440.0, float("inf"), float("nan")])
print("torch", torch.__version__, "on", torch.cuda.get_device_name())
for dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
    print(f"{str(dtype).removeprefix('torch.')}:", "cpu", x.to(dtype).float().tolist())
    print(f"{str(dtype).removeprefix('torch.')}:", "cuda", x.cuda().to(dtype).float().cpu().tolist())

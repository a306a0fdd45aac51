"""Shared test settings: small thread counts so the suite behaves on a 2-core machine."""
import torch

torch.set_num_threads(1)

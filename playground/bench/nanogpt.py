"""Our Trainer against a nanoGPT-style training loop, on nanoGPT's Shakespeare-char configuration.

nanoGPT (karpathy/nanoGPT, config/train_shakespeare_char.py): 6 layers, 6 heads, d 384, context 256,
batch 64, dropout 0.2, no biases, AdamW (lr 1e-3, betas 0.9/0.99, weight decay 0.1 on matrices),
gradient clipping at 1.0, 100 warm-up steps then cosine decay. `ReferenceGPT` and `reference_steps`
rebuild its model.py and train.py loop here (compile off): one fused query-key-value matrix,
F.scaled_dot_product_attention, a fused AdamW on CUDA, batches drawn on the CPU and copied from
pinned memory, the loss read every 10 iterations. Both sides compute alike: TF32 matmuls on CUDA
and bfloat16 autocast where the GPU supports it (as TrainConfig.bf16_autocast decides), float32 on
the CPU.

gpu_ms_per_iter_nanogpt_config: milliseconds per training iteration of our Trainer (its run
    loop, events every 0.5 s, no evaluation), the reference's beside it; gpu_ms_per_iter_ratio_to_reference:
    ours / the reference's (goal: at most 1). Medians of rounds that alternate the two. On a CPU, where
    an iteration of the whole configuration takes about a minute, batches hold CPU_BATCH examples.

`python -m playground.bench.nanogpt [--device cuda] [--steps N] [--profile FILE]` writes torch.profiler's
table of the ops that took the most time in N steps of each, to paste where the time goes.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from contextlib import nullcontext
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from playground.data import CharTokenizer, LMData, tiny_shakespeare
from playground.device import choose_device, default_device
from playground.model import ModelConfig
from playground.train import TrainConfig, Trainer, precision

from .common import result

SUITE = "train"
NANOGPT = dict(n_layer=6, n_head=6, n_embd=384, block_size=256, batch_size=64, dropout=0.2)
CPU_BATCH = 4               # on a CPU an iteration of batch 64 takes about a minute: the CPU lines use batch 4
OPTIMISER = dict(lr=1e-3, min_lr_ratio=0.1, warmup_steps=100, max_steps=5000, weight_decay=0.1, beta1=0.9,
                 beta2=0.99, grad_clip=1.0)
LOG_INTERVAL = 10           # nanoGPT reads the loss every log_interval iterations
PROFILE_ROWS = 25


def _rounds(quick: bool, device: torch.device) -> tuple[int, int, int]:
    """(warm-up iterations, timed rounds per side, iterations per round) for this device."""
    if device.type == "cpu":
        return (1, 1, 2) if quick else (2, 3, 3)
    return (10, 3, 20) if quick else (20, 5, 50)


class _Block(nn.Module):
    """nanoGPT's Block: pre-norm causal self-attention with one q/k/v matrix, then a GELU MLP."""

    def __init__(self, d: int, heads: int, dropout: float):
        super().__init__()
        self.heads, self.dropout = heads, dropout
        self.ln_1, self.ln_2 = nn.LayerNorm(d, bias=False), nn.LayerNorm(d, bias=False)
        self.c_attn = nn.Linear(d, 3 * d, bias=False)
        self.c_proj = nn.Linear(d, d, bias=False)
        self.c_fc = nn.Linear(d, 4 * d, bias=False)
        self.mlp_proj = nn.Linear(4 * d, d, bias=False)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:                             # [B, T, D]
        B, T, D = x.shape
        q, k, v = (t.view(B, T, self.heads, D // self.heads).transpose(1, 2)       # [B, H, T, Dh] each
                   for t in self.c_attn(self.ln_1(x)).split(D, dim=2))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=self.dropout if self.training else 0.0)
        x = x + self.resid_dropout(self.c_proj(y.transpose(1, 2).reshape(B, T, D)))
        return x + self.resid_dropout(self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)))))


class ReferenceGPT(nn.Module):
    """nanoGPT's GPT: token and learned position embeddings, blocks, a final LayerNorm, a tied head."""

    def __init__(self, vocab_size: int, n_layer: int, n_head: int, n_embd: int, block_size: int, dropout: float):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab_size, n_embd), nn.Embedding(block_size, n_embd)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(_Block(n_embd, n_head, dropout) for _ in range(n_layer))
        self.ln_f = nn.LayerNorm(n_embd, bias=False)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight
        for name, parameter in self.named_parameters():
            if parameter.dim() >= 2:
                std = 0.02 / math.sqrt(2 * n_layer) if name.endswith(("c_proj.weight", "mlp_proj.weight")) else 0.02
                nn.init.normal_(parameter, std=std)

    def forward(self, ids: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:     # [B, T] each -> loss
        x = self.drop(self.wte(ids) + self.wpe(torch.arange(ids.size(1), device=ids.device)))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))                                         # [B, T, V]
        return F.cross_entropy(logits.flatten(0, 1), targets.flatten())


def _text_ids(text: str) -> tuple[np.ndarray, int]:
    """nanoGPT's prepare.py: one id per character of the sorted vocabulary; the first 90% trains."""
    chars = sorted(set(text))
    index = {ch: i for i, ch in enumerate(chars)}
    ids = np.array([index[ch] for ch in text], dtype=np.uint16)
    return ids[: int(0.9 * len(ids))], len(chars)


def reference_steps(text: str, device: torch.device, bfloat16: bool, sizes: dict = NANOGPT,
                    seed: int = 0) -> Callable[[int], float]:
    """A function training the reference ``n`` iterations more and returning its last loss read."""
    train_ids, vocab_size = _text_ids(text)
    torch.manual_seed(seed)
    model = ReferenceGPT(vocab_size, sizes["n_layer"], sizes["n_head"], sizes["n_embd"], sizes["block_size"],
                         sizes["dropout"]).to(device).train()
    parameters = [p for p in model.parameters() if p.requires_grad]
    groups = [{"params": [p for p in parameters if p.dim() >= 2], "weight_decay": OPTIMISER["weight_decay"]},
              {"params": [p for p in parameters if p.dim() < 2], "weight_decay": 0.0}]
    optimizer = torch.optim.AdamW(groups, lr=OPTIMISER["lr"], betas=(OPTIMISER["beta1"], OPTIMISER["beta2"]),
                                  fused=device.type == "cuda")
    block, batch = sizes["block_size"], sizes["batch_size"]
    cuda = device.type == "cuda"
    autocast = torch.autocast(device.type, dtype=torch.bfloat16) if bfloat16 else nullcontext()
    state = {"iteration": 0, "loss": math.nan}

    def get_batch() -> tuple[torch.Tensor, torch.Tensor]:
        starts = torch.randint(len(train_ids) - block, (batch,))
        x = torch.stack([torch.from_numpy(train_ids[i: i + block].astype(np.int64)) for i in starts])   # [B, T]
        y = torch.stack([torch.from_numpy(train_ids[i + 1: i + 1 + block].astype(np.int64)) for i in starts])
        if cuda:
            return x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)
        return x.to(device), y.to(device)

    def learning_rate(it: int) -> float:
        warmup, decay_steps, lr = OPTIMISER["warmup_steps"], OPTIMISER["max_steps"], OPTIMISER["lr"]
        if it < warmup:
            return lr * (it + 1) / (warmup + 1)
        ratio, min_lr = min(1.0, (it - warmup) / (decay_steps - warmup)), lr * OPTIMISER["min_lr_ratio"]
        return min_lr + 0.5 * (1 + math.cos(math.pi * ratio)) * (lr - min_lr)

    x, y = get_batch()

    def steps(n: int) -> float:
        nonlocal x, y
        with precision.computing(device):
            for _ in range(n):
                it = state["iteration"]
                for group in optimizer.param_groups:
                    group["lr"] = learning_rate(it)
                with autocast:
                    loss = model(x, y)
                x, y = get_batch()                          # the next batch while the GPU works, as nanoGPT does
                loss.backward()
                torch.nn.utils.clip_grad_norm_(parameters, OPTIMISER["grad_clip"])
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
                if it % LOG_INTERVAL == 0:
                    state["loss"] = loss.item()
                state["iteration"] = it + 1
        return state["loss"]

    return steps


def our_trainer(text: str, sizes: dict = NANOGPT, seed: int = 0) -> Trainer:
    """Our Trainer on the same configuration: the run loop's events every 0.5 s, no evaluation while it trains."""
    data = LMData(text, CharTokenizer.from_text(text), sizes["block_size"])
    config = ModelConfig(arch="decoder_only", vocab_size=data.vocab_size, d_model=sizes["n_embd"],
                         n_heads=sizes["n_head"], n_decoder_layers=sizes["n_layer"], d_ff=4 * sizes["n_embd"],
                         max_len=sizes["block_size"], positional="learned", scale_embedding=False, bias=False,
                         activation="gelu", dropout=sizes["dropout"], tie_weights=True)
    train = TrainConfig(**OPTIMISER, batch_size=sizes["batch_size"], seed=seed, val_size=1, eval_every_s=None,
                        event_every_s=0.5, snapshot_every_s=None)
    return Trainer(config, train, data)


def _our_steps(trainer: Trainer) -> Callable[[int], float]:
    def steps(n: int) -> float:
        for _ in trainer.run(max_steps=n):
            pass
        return trainer.step_losses[-1]
    return steps


def _timed_ms(steps: Callable[[int], float], n: int, device: torch.device) -> float:
    """Milliseconds per iteration of ``n`` iterations, the device's queue drained before and after."""
    synchronize = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    synchronize()
    started = time.perf_counter()
    steps(n)
    synchronize()
    return 1000 * (time.perf_counter() - started) / n


def sizes_on(device: torch.device) -> dict:
    """nanoGPT's configuration, with CPU_BATCH examples per batch on a CPU."""
    return NANOGPT if device.type != "cpu" else {**NANOGPT, "batch_size": min(CPU_BATCH, NANOGPT["batch_size"])}


def _sides(text: str, device: torch.device) -> tuple[Trainer, dict[str, Callable[[int], float]]]:
    sizes = sizes_on(device)
    trainer = our_trainer(text, sizes)
    bfloat16 = precision.uses_bfloat16(device, trainer.config)
    return trainer, {"ours": _our_steps(trainer), "reference": reference_steps(text, device, bfloat16, sizes)}


def run(quick: bool, text: str | None = None) -> list[dict]:
    device = default_device()
    text = tiny_shakespeare() if text is None else text
    warmup, rounds, per_round = _rounds(quick, device)
    trainer, sides = _sides(text, device)
    for steps in sides.values():
        steps(warmup)
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(rounds):
        for name, steps in sides.items():
            times[name].append(_timed_ms(steps, per_round, device))
    ours, reference = (statistics.median(times[name]) for name in ("ours", "reference"))
    context = dict(config=sizes_on(device), precision=trainer.precision, device=str(device),
                   gpu=torch.cuda.get_device_name(device) if device.type == "cuda" else None,
                   rounds=rounds, iterations_per_round=per_round, warmup_iterations=warmup,
                   reference="nanoGPT's model.py and train.py loop rebuilt in playground.bench.nanogpt (compile off)")
    return [result(SUITE, "gpu_ms_per_iter_nanogpt_config", ours, "ms", None, "lower",
                   reference_ms=round(reference, 2), ours_per_round=[round(t, 2) for t in times["ours"]],
                   reference_per_round=[round(t, 2) for t in times["reference"]], **context),
            result(SUITE, "gpu_ms_per_iter_ratio_to_reference", ours / reference, "x", 1.0, "lower",
                   ours_ms=round(ours, 2), reference_ms=round(reference, 2), **context)]


def profile(steps: int, rows: int = PROFILE_ROWS, text: str | None = None) -> str:
    """torch.profiler's table of the ops that took the most time in ``steps`` iterations of each side."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as profiler

    device = default_device()
    text = tiny_shakespeare() if text is None else text
    trainer, sides = _sides(text, device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    sort_by = "self_cuda_time_total" if device.type == "cuda" else "self_cpu_time_total"
    tables = []
    names = {"ours": "ours (playground Trainer)", "reference": "reference (nanoGPT's loop)"}
    for side, run_steps in sides.items():
        run_steps(max(2, steps // 2))                                           # warm-up
        with profiler(activities=activities) as measured:
            ms = _timed_ms(run_steps, steps, device)
        tables.append(f"## {names[side]}: {ms:.2f} ms per iteration over {steps} ({trainer.precision}, {device}, "
                      f"batch {sizes_on(device)['batch_size']})\n\n"
                      + measured.key_averages().table(sort_by=sort_by, row_limit=rows))
    return "\n\n".join(tables) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m playground.bench.nanogpt", description=__doc__.splitlines()[0])
    parser.add_argument("--device",
                        help="cpu, cuda, cuda:N or mps (default: PLAYGROUND_DEVICE, else the best available)")
    parser.add_argument("--steps", type=int, default=20, help="iterations profiled on each side (default 20)")
    parser.add_argument("--profile", metavar="FILE", help="write the profile there (default: standard output)")
    args = parser.parse_args(argv)
    try:
        choose_device(args.device)
    except ValueError as error:
        parser.error(str(error))
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    table = profile(args.steps)
    if args.profile:
        with open(args.profile, "w", encoding="utf-8") as out:
            out.write(table)
    else:
        sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

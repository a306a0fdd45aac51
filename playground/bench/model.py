"""`python -m playground.bench model`: training throughput against torch's own layers, trace cost, KV cache."""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from playground.model import ModelConfig, Trace, build_model

from .common import alternate, result
from .torch_reference import TorchReference

SUITE = "model"
TRACE_MODEL = dict(vocab_size=65, d_model=128, n_heads=4, n_decoder_layers=4, d_ff=512)
KV_MODEL = dict(vocab_size=65, d_model=256, n_heads=4, n_decoder_layers=4, d_ff=1024)    # the pretrained char model


def _train_step(model: nn.Module, optimizer: torch.optim.Optimizer, ids: torch.Tensor) -> None:
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()


def train_throughput_ratio(name: str, d_model: int, layers: int, heads: int, length: int, batch: int, rounds: int) -> dict:
    config = ModelConfig(arch="decoder_only", vocab_size=256, d_model=d_model, n_heads=heads, n_decoder_layers=layers,
                         d_ff=4 * d_model, max_len=length, positional="learned", scale_embedding=False)
    torch.manual_seed(0)
    ours, reference = build_model(config).train(), TorchReference(config).train()
    ours_optimizer = torch.optim.AdamW(ours.parameters(), lr=1e-4)
    reference_optimizer = torch.optim.AdamW(reference.parameters(), lr=1e-4)
    ids = torch.randint(0, 256, (batch, length + 1))
    for _ in range(2):                                                       # warm-up
        _train_step(ours, ours_optimizer, ids)
        _train_step(reference, reference_optimizer, ids)
    ours_s, reference_s = alternate(lambda: _train_step(ours, ours_optimizer, ids),
                                    lambda: _train_step(reference, reference_optimizer, ids), rounds)
    tokens = batch * length
    return result(SUITE, name, reference_s / ours_s, "x", 1.0, "higher",
                  ours_tokens_per_s=round(tokens / ours_s), torch_tokens_per_s=round(tokens / reference_s),
                  config=dict(d_model=d_model, layers=layers, heads=heads, T=length, batch=batch), rounds=rounds)


def trace_overhead(rounds: int) -> dict:
    config = ModelConfig(arch="decoder_only", max_len=256, **TRACE_MODEL)
    model = build_model(config).eval()
    ids = torch.randint(5, 65, (1, 256))
    with torch.inference_mode():
        plain_s, traced_s = alternate(lambda: model(ids), lambda: model(ids, trace=Trace()), rounds)
    return result(SUITE, "trace_overhead_pct", 100 * (traced_s / plain_s - 1), "%", None, "lower",
                  plain_ms=round(1000 * plain_s, 2), traced_ms=round(1000 * traced_s, 2),
                  what="forward of a 4-layer d128 decoder on 256 tokens, full Trace (every activation) vs none")


def kv_cache_speedup(rounds: int, context: int = 256) -> dict:
    """Decoding on one thread (as the app serves it), a model the size of the pretrained character model."""
    config = ModelConfig(arch="decoder_only", max_len=context, **KV_MODEL)
    model = build_model(config).eval()

    def decode(use_cache: bool) -> None:
        ids = torch.tensor([[5]])
        cache = model.new_cache() if use_cache else None
        step_input = ids
        while ids.size(1) < context:
            logits = model(step_input, cache=cache) if use_cache else model(ids)
            next_id = logits[:, -1].argmax(-1, keepdim=True)
            ids = torch.cat([ids, next_id], dim=1)
            step_input = next_id if use_cache else ids

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    with torch.inference_mode():
        cached_s, recompute_s = alternate(lambda: decode(True), lambda: decode(False), rounds)
    torch.set_num_threads(threads)
    return result(SUITE, f"kv_cache_speedup_ctx{context}", recompute_s / cached_s, "x", 5, "higher",
                  cached_tokens_per_s=round((context - 1) / cached_s), recompute_tokens_per_s=round((context - 1) / recompute_s),
                  config=KV_MODEL, threads=1)


def run(quick: bool) -> list[dict]:
    torch.set_num_threads(2)
    rounds = 3 if quick else 8
    return [
        train_throughput_ratio("train_throughput_ratio_small", 128, 4, 4, 64, 32, rounds),
        train_throughput_ratio("train_throughput_ratio_medium", 256, 6, 8, 256, 16, max(2, rounds // 2)),
        trace_overhead(rounds * 3),
        kv_cache_speedup(max(2, rounds // 2)),
    ]

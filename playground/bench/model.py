"""`python -m playground.bench model`: training throughput against torch's own layers, trace cost, KV cache,
how fast an upload too large for the app is refused, parity of GPT-2, Llama and Qwen2 imports with
`transformers`, and how long the activation-patching view takes."""
from __future__ import annotations

import json
import statistics
import struct
import time

import torch
import torch.nn.functional as F
from torch import nn

from playground.analysis.patching import activation_patching, induction_pair
from playground.checkpoint import CheckpointTooLarge, from_bytes, load, to_bytes
from playground.data import tasks
from playground.limits import UPLOAD_LIMITS
from playground.model import ModelConfig, Trace, build_model
from playground.zoo import pretrained_dir

from . import gpt2, llm
from .common import alternate, result, seconds
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


def _with_config(data: bytes, **changes) -> bytes:
    """A checkpoint file with its header's config changed and its tensors kept (as a hostile upload would be)."""
    header_size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + header_size])
    metadata = header["__metadata__"]
    metadata["config"] = json.dumps({**json.loads(metadata["config"]), **changes})
    header_bytes = json.dumps(header).encode()
    return struct.pack("<Q", len(header_bytes)) + header_bytes + data[8 + header_size:]


def hostile_upload_refusal(rounds: int) -> dict:
    """The slowest refusal of two crafted uploads: the copy model's tensors under a header claiming 1000 + 1000
    layers at d_model 1024 (refused from the fields), or 6 + 6 layers at d_model 512 (parameters counted)."""
    task = tasks.get("copy")
    config = ModelConfig(arch="encoder_decoder", vocab_size=task.tokenizer.vocab_size, d_model=64, n_heads=4,
                         n_encoder_layers=2, n_decoder_layers=2, d_ff=256, max_len=32, tie_weights=False)
    genuine = to_bytes(build_model(config), task.tokenizer)
    crafted = [_with_config(genuine, n_encoder_layers=1000, n_decoder_layers=1000, d_model=1024, d_ff=4096),
               _with_config(genuine, n_encoder_layers=6, n_decoder_layers=6, d_model=512, d_ff=2048)]
    slowest = []
    for data in crafted:
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            try:
                from_bytes(data, UPLOAD_LIMITS)
            except CheckpointTooLarge:
                times.append(time.perf_counter() - start)
            else:
                raise RuntimeError("a crafted upload was accepted")
        slowest.append(sorted(times)[len(times) // 2])
    return result(SUITE, "hostile_upload_refuse_ms", 1000 * max(slowest), "ms", 1000, "lower",
                  fields_refusal_ms=round(1000 * slowest[0], 2), parameters_refusal_ms=round(1000 * slowest[1], 2),
                  what="median refusal of a crafted header under the app's upload limits, the slower of two files")


def activation_patching_time(rounds: int) -> dict:
    """The whole patching view of the shipped induction model on 64 tokens (every layer x position of the
    residual stream, every head, every head at every position), on one thread as the app serves it."""
    checkpoint = load(pretrained_dir() / "induction")
    pair = induction_pair(checkpoint.config.vocab_size, length=64)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        activation_patching(checkpoint.model, pair)                          # warm-up
        times = [seconds(lambda: activation_patching(checkpoint.model, pair)) for _ in range(rounds)]
    finally:
        torch.set_num_threads(threads)
    view = activation_patching(checkpoint.model, pair)
    cells = sum(r.values.size for r in view.residual) + sum(h.values.size + h.by_position.size for h in view.heads)
    return result(SUITE, "activation_patching_ms", 1000 * statistics.median(times), "ms", 1000, "lower",
                  tokens=64, cells=cells, threads=1, rounds=rounds,
                  what="pretrained/induction: residual stream layer x position, heads, heads x position")


def run(quick: bool) -> list[dict]:
    torch.set_num_threads(2)
    rounds = 3 if quick else 8
    return [
        train_throughput_ratio("train_throughput_ratio_small", 128, 4, 4, 64, 32, rounds),
        train_throughput_ratio("train_throughput_ratio_medium", 256, 6, 8, 256, 16, max(2, rounds // 2)),
        trace_overhead(rounds * 3),
        kv_cache_speedup(max(2, rounds // 2)),
        hostile_upload_refusal(rounds),
        *gpt2.run(quick),
        *llm.run(quick),
        activation_patching_time(rounds),
    ]

"""`python -m playground.bench generate`: the Stepper's traced step latency and its speed-up over recomputing.

The model is a decoder-only of the pretrained character model's size: 4 layers, 4 heads,
d_model 256, d_ff 1024, 65 tokens, context 256; its special tokens get zero logits, so greedy
decoding never stops early on eos.
"""
from __future__ import annotations

import statistics
import string
import time

import numpy as np
import torch

from playground.data import CharTokenizer
from playground.data.tokenizer import NUM_SPECIAL
from playground.generate import SamplingConfig, Stepper
from playground.model import ModelConfig, build_model

SUITE = "generate"
CONTEXT = 256
CONFIG = ModelConfig(arch="decoder_only", vocab_size=65, d_model=256, n_heads=4, n_decoder_layers=4, d_ff=1024,
                     max_len=CONTEXT, positional="learned")
TOKENIZER = CharTokenizer(string.ascii_letters + string.digits[:8])  # 60 characters + 5 special = 65 ids


def _line(name: str, value: float, unit: str, goal: float, better: str, **context) -> dict:
    return {"suite": SUITE, "name": name, "value": round(float(value), 3), "unit": unit, "goal": goal,
            "better": better, **context}


def _model() -> torch.nn.Module:
    torch.manual_seed(0)
    model = build_model(CONFIG).eval()
    with torch.no_grad():
        model.decoder.embed.tokens.weight[:NUM_SPECIAL] = 0.0                # tied head: special logits are 0
    return model


def _prompt(length: int) -> str:
    rng = np.random.default_rng(0)
    return "".join(rng.choice(TOKENIZER.chars, size=length))


def traced_step_ms(model: torch.nn.Module, rounds: int) -> tuple[float, float]:
    """(p50, p95) milliseconds of one traced step that fills the context's last position."""
    stepper = Stepper(model, TOKENIZER, _prompt(CONTEXT - 1), SamplingConfig(max_new_tokens=16))
    times = []
    for i in range(rounds + 3):                                              # 3 warm-up rounds
        start = time.perf_counter()
        stepper.step()
        elapsed = time.perf_counter() - start
        stepper.back()
        if i >= 3:
            times.append(1000 * elapsed)
    return float(np.percentile(times, 50)), float(np.percentile(times, 95))


def stepper_seconds(model: torch.nn.Module, prompt: str, new_tokens: int) -> tuple[float, list[int]]:
    """Greedy decoding with the Stepper, reading the prompt (building the Stepper fills its cache) included."""
    start = time.perf_counter()
    stepper = Stepper(model, TOKENIZER, prompt, SamplingConfig(max_new_tokens=new_tokens), trace_attention=False)
    steps = list(stepper.run())
    return time.perf_counter() - start, [s.token_id for s in steps]


def recompute_seconds(model: torch.nn.Module, prompt: str, new_tokens: int) -> tuple[float, list[int]]:
    """Greedy decoding that runs the whole sequence through the model for every new token."""
    ids = TOKENIZER.encode(prompt)
    start = time.perf_counter()
    with torch.no_grad():
        for _ in range(new_tokens):
            logits = model(torch.tensor([ids]))[0, -1]                        # [V]
            ids.append(int(torch.argmax(logits)))
    return time.perf_counter() - start, ids[-new_tokens:]


def speedup(model: torch.nn.Module, rounds: int) -> dict:
    prompt, new_tokens = _prompt(CONTEXT // 2), CONTEXT // 2
    cached, recomputed = [], []
    for _ in range(rounds):
        seconds, cached_ids = stepper_seconds(model, prompt, new_tokens)
        cached.append(seconds)
        seconds, recomputed_ids = recompute_seconds(model, prompt, new_tokens)
        recomputed.append(seconds)
    cached_s, recomputed_s = statistics.median(cached), statistics.median(recomputed)
    return _line("stepper_speedup_vs_recompute_ctx256", recomputed_s / cached_s, "x", 5, "higher",
                 stepper_tokens_per_s=round(new_tokens / cached_s), recompute_tokens_per_s=round(new_tokens / recomputed_s),
                 same_tokens=cached_ids == recomputed_ids, rounds=rounds,
                 what=f"greedy, {len(prompt)}-token prompt + {new_tokens} new tokens, trace off")


def run(quick: bool) -> list[dict]:
    """Measured on one intra-op thread: a single-token step gains nothing from more, and on a shared
    2-core machine extra threads contend and make steps several times slower."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model = _model()
        context = dict(config=dict(layers=4, heads=4, d_model=256, d_ff=1024, vocab=65, context=CONTEXT), threads=1)
        p50, p95 = traced_step_ms(model, 30 if quick else 200)
        speed = speedup(model, 1 if quick else 3)
    finally:
        torch.set_num_threads(threads)
    what = "one Stepper step with the attention trace on, at cache length 255 -> 256"
    return [
        _line("step_ms_p50_traced_ctx256", p50, "ms", 20, "lower", what=what, **context),
        _line("step_ms_p95_traced_ctx256", p95, "ms", None, "lower", what=what, **context),
        speed | context,
    ]

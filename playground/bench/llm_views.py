"""The Attention tab's view and one Generate step on a model of Qwen2.5-0.5B's shape (random weights),
timed in this process: part of the app suite, since it times the app's own views.

llm_0_5b_attention_view_ms: a cold view, a new input every round, as gpt2_small_attention_view_ms.
llm_0_5b_step_ms: one Generate step with the KV cache at 64 tokens (the model's step, then the tab's
    output, status, candidates, the new token's attention and the filling matrix, serialised).
Both carry the process's added resident memory for the one shared copy of the model (added_rss_mib)
and what its weights take (weights_mib).
"""
from __future__ import annotations

import os
import statistics
import time

import torch

from playground.generate import SamplingConfig
from playground.hub.llama import LlamaConfig, model_config
from playground.hub.tokenizer import IdMap
from playground.ui.views.generate import Generation, stepper_views
from playground.data import CharTokenizer
from playground.data.tokenizer import NUM_SPECIAL
from playground.zoo import ModelEntry, ascii_tokenizer, seeded_model

from . import attention_view
from .common import result, seconds


def timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of one call of `fn`: under load from other processes the wall time grows, the
    CPU time (all this process's threads) much less."""
    cpu_start = time.process_time()
    wall = seconds(fn)
    return wall, time.process_time() - cpu_start

SUITE = "app"
TOKENS = 64
QWEN2_5_0_5B = LlamaConfig(family="qwen2", vocab_size=151_936, hidden_size=896, n_layers=24, n_heads=14,
                           n_kv_heads=2, intermediate_size=4864, max_positions=32_768, rope_theta=1e6,
                           rms_norm_eps=1e-6, tied=True, qkv_bias=True, end_of_text=151_643, begin_of_text=None)
STEP_SETTINGS = SamplingConfig(max_new_tokens=64, beam_width=1)


def resident_mib() -> float:
    """This process's resident memory (VmRSS), MiB."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def full_vocabulary(vocab_size: int) -> CharTokenizer:
    """One id per character for all `vocab_size` ids (the Stepper needs the model's whole vocabulary):
    printable ASCII, then characters from the CJK block on (surrogates skipped)."""
    chars = ascii_tokenizer().chars
    code = 0x4E00
    while len(chars) < vocab_size - NUM_SPECIAL:
        if not 0xD800 <= code <= 0xDFFF:
            chars.append(chr(code))
        code += 1
    return CharTokenizer(chars)


def llm_entry() -> ModelEntry:
    """A model of Qwen2.5-0.5B's shape with seeded random weights, as the Hub loader builds it, with a
    tokenizer of as many ids."""
    shape = QWEN2_5_0_5B
    config = model_config(shape, IdMap(shape.vocab_size, shape.end_of_text, shape.begin_of_text))
    return ModelEntry("qwen2.5-0.5b-random", seeded_model(config), full_vocabulary(config.vocab_size), config, "",
                      "hub")


def step_seconds(entry: ModelEntry, prompt: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one Generate step at a cache of len(prompt) tokens, the tab's views serialised."""
    generation = Generation.start(entry, prompt, STEP_SETTINGS)

    def step() -> None:
        with torch.inference_mode():
            generation.stepper.step()
            views = stepper_views(generation, 0, 0, "en")
        for figure in (views.candidates, views.token_self, views.filling):
            if figure is not None:
                figure.to_json()
    return timed(step)


def run(quick: bool) -> list[dict]:
    before = resident_mib()
    entry = llm_entry()
    added_mib = resident_mib() - before
    weights_mib = sum(p.numel() * p.element_size() for p in entry.model.parameters()) / 2**20
    text = attention_view.TEXT
    rotations = [text[i:] + text[:i] for i in range(1, len(text))]                 # a new input every round
    rounds = 2 if quick else 5
    attention_view.view(entry, text[:TOKENS])                                       # warm-up
    views = [timed(lambda i=i: attention_view.view(entry, rotations[i][:TOKENS])) for i in range(rounds)]
    step_seconds(entry, rotations[-1][:TOKENS - 1])                                 # warm-up
    steps = [step_seconds(entry, rotations[-2 - i][:TOKENS - 1]) for i in range(rounds)]
    config = entry.config
    context = dict(tokens=TOKENS, layers=config.n_decoder_layers, d_model=config.d_model, heads=config.n_heads,
                   kv_heads=config.n_kv_heads, vocab=config.vocab_size, dtype=str(next(entry.model.parameters()).dtype),
                   added_rss_mib=round(added_mib), weights_mib=round(weights_mib), threads=torch.get_num_threads(),
                   load_average=round(os.getloadavg()[0], 1), rounds=rounds)
    return [result(SUITE, "llm_0_5b_attention_view_ms", 1000 * statistics.median(w for w, _ in views), "ms", 3000,
                   "lower", cpu_ms=round(1000 * statistics.median(c for _, c in views)),
                   inputs="a new input every round, cold", **context),
            result(SUITE, "llm_0_5b_step_ms", 1000 * statistics.median(w for w, _ in steps), "ms", 400, "lower",
                   cpu_ms=round(1000 * statistics.median(c for _, c in steps)), cache_tokens=TOKENS,
                   inputs="a new 63-token prompt read, then one step to the 64th", **context)]

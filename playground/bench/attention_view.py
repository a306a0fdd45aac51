"""The Attention tab's whole view at GPT-2 small's size (random weights), timed in this process: part
of the app suite, since it times the app's own views (playground.ui.tabs.attention).

gpt2_small_attention_view_ms: a cold view, a new input every round: the traced forward pass, grid,
    enlarged head, head scores and shapes, all serialised as Gradio sends them.
gpt2_small_attention_view_cached_ms: the same view asked again (another layer, head or score, or
    another student on the same input): the forward pass is served from the shared pass cache.
"""
from __future__ import annotations

import os
import statistics
import time
from typing import Callable

import torch

from playground.hub.gpt2 import DEFAULTS, Gpt2Config, model_config
from playground.hub.tokenizer import IdMap
from playground.ui.views.attention import attention_views
from playground.zoo import ModelEntry, ascii_tokenizer, seeded_model

from .common import result, seconds

SUITE = "app"
VIEW_TOKENS = 64
TEXT = "The quick brown fox jumps over the lazy dog while attention heads watch. " * 2


def gpt2_small_entry() -> ModelEntry:
    """GPT-2 small's configuration with seeded random weights, over printable ASCII."""
    gpt2 = Gpt2Config(**{k: DEFAULTS[k] for k in ("vocab_size", "n_positions", "n_embd", "n_layer", "n_head")},
                      d_ff=4 * DEFAULTS["n_embd"], activation="gelu_tanh",
                      layer_norm_epsilon=DEFAULTS["layer_norm_epsilon"], end_of_text=DEFAULTS["eos_token_id"], tied=True)
    config = model_config(gpt2, IdMap(gpt2.vocab_size, gpt2.end_of_text))
    return ModelEntry("gpt2-small-random", seeded_model(config), ascii_tokenizer(), config, "", "hub")


def view(entry: ModelEntry, text: str) -> None:
    """The tab's view of layer 5, head 3 of decoder self-attention, serialised."""
    with torch.inference_mode():
        views = attention_views(entry, text, "", "decoder", 5, 3, False, "induction", "en")
    for figure in (views.grid, views.head, views.scores, views.shapes):
        figure.to_json()


def _timed(fn: Callable[[int], None], rounds: int) -> tuple[float, float]:
    """Median wall and CPU seconds of fn(round) over ``rounds`` rounds."""
    times, cpu_times = [], []
    for i in range(rounds):
        cpu_start = time.process_time()
        times.append(seconds(lambda: fn(i)))
        cpu_times.append(time.process_time() - cpu_start)
    return statistics.median(times), statistics.median(cpu_times)


def run(quick: bool) -> list[dict]:
    entry = gpt2_small_entry()
    rotations = [TEXT[i:] + TEXT[:i] for i in range(1, len(TEXT))]                  # a new input every round
    cold_rounds, cached_rounds = (2, 5) if quick else (5, 20)
    view(entry, TEXT[:VIEW_TOKENS])                                                  # warm-up, and the cached input
    cold, cold_cpu = _timed(lambda i: view(entry, rotations[i][:VIEW_TOKENS]), cold_rounds)
    cached, cached_cpu = _timed(lambda i: view(entry, TEXT[:VIEW_TOKENS]), cached_rounds)
    config = entry.config
    context = dict(tokens=VIEW_TOKENS, layers=config.n_decoder_layers, heads=config.n_heads,
                   threads=torch.get_num_threads(), load_average=round(os.getloadavg()[0], 1))
    return [result(SUITE, "gpt2_small_attention_view_ms", 1000 * cold, "ms", 2000, "lower",
                   cpu_ms=round(1000 * cold_cpu), rounds=cold_rounds, inputs="a new input every round",
                   cached_ms=round(1000 * cached, 1), **context),
            result(SUITE, "gpt2_small_attention_view_cached_ms", 1000 * cached, "ms", None, "lower",
                   cpu_ms=round(1000 * cached_cpu, 1), rounds=cached_rounds,
                   inputs="the same input again: its forward pass comes from the shared pass cache", **context)]

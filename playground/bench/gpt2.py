"""GPT-2 in the hand-written stack: parity with `transformers`' GPT-2, and the attention view at GPT-2 small's size.

Part of the model suite. The parity metric needs the test dependencies (`pip install -r
tests/requirements.txt`): the reference model comes from `transformers`, which the app never imports.
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import torch

from playground.hub import load_gpt2
from playground.hub.gpt2 import DEFAULTS, Gpt2Config, model_config
from playground.hub.tokenizer import IdMap
from playground.model import DECODER_SELF, Trace
from playground.ui.session.registry import ModelEntry, ascii_tokenizer, seeded_model
from playground.ui.tabs.attention.views import attention_views

from .common import result, seconds

SUITE = "model"
PARITY_CONFIGS = ((32, 4, 2), (30, 3, 3), (48, 6, 2), (40, 5, 1))   # n_embd, n_head, n_layer
VIEW_TOKENS = 64


def gpt2_parity() -> dict:
    """Largest |logit| and |attention weight| difference against GPT2LMHeadModel over random small configs."""
    try:
        from tests.hub.helpers import save_random_gpt2
    except ImportError as error:
        return result(SUITE, "gpt2_parity_max_abs_logit_diff", float("nan"), "abs", 1e-4, "lower",
                      skipped=f"needs the test dependencies (pip install -r tests/requirements.txt): {error}")
    logit_diff = attention_diff = 0.0
    for seed, (n_embd, n_head, n_layer) in enumerate(PARITY_CONFIGS):
        with tempfile.TemporaryDirectory() as folder:
            reference = save_random_gpt2(Path(folder), n_embd, n_head, n_layer, seed=seed)
            imported = load_gpt2(folder)
        ids = torch.randint(0, reference.config.vocab_size, (2, 48), generator=torch.Generator().manual_seed(seed))
        with torch.no_grad():
            expected = reference(ids, output_attentions=True)
            trace = Trace()
            logits = imported.model(imported.ids.to_project(ids), trace=trace)       # [B, T, V + 4]
        predicted = torch.tensor([p for p in range(logits.size(-1)) if p not in imported.config.never_predict])
        gpt2_ids = imported.ids.to_gpt2(predicted)
        logit_diff = max(logit_diff, (logits[..., predicted] - expected.logits[..., gpt2_ids]).abs().max().item())
        ours = trace.attention(DECODER_SELF)                                        # [L, B, H, T, T]
        attention_diff = max(attention_diff, *((ours[i] - w).abs().max().item() for i, w in enumerate(expected.attentions)))
    line = result(SUITE, "gpt2_parity_max_abs_logit_diff", logit_diff, "abs", 1e-4, "lower",
                  max_abs_attention_diff=attention_diff, configs=[dict(zip(("n_embd", "n_head", "n_layer"), c))
                                                                  for c in PARITY_CONFIGS], tokens=48)
    line["value"] = logit_diff                                               # unrounded: it is far below 1e-3
    return line


def gpt2_small_attention_view(rounds: int) -> dict:
    """The Attention tab's whole view (traced forward, grid, enlarged head, head scores, shapes, all
    serialised as Gradio sends them) for GPT-2 small's configuration with random weights."""
    gpt2 = Gpt2Config(**{k: DEFAULTS[k] for k in ("vocab_size", "n_positions", "n_embd", "n_layer", "n_head")},
                      d_ff=4 * DEFAULTS["n_embd"], activation="gelu_tanh", layer_norm_epsilon=DEFAULTS["layer_norm_epsilon"],
                      end_of_text=DEFAULTS["eos_token_id"], tied=True)
    config = model_config(gpt2, IdMap(gpt2.vocab_size, gpt2.end_of_text))
    entry = ModelEntry("gpt2-small-random", seeded_model(config), ascii_tokenizer(), config, "", "hub")
    text = ("The quick brown fox jumps over the lazy dog while attention heads watch." * 2)[:VIEW_TOKENS]

    def view() -> None:
        with torch.inference_mode():
            views = attention_views(entry, text, "", "decoder", 5, 3, False, "induction", "en")
        for figure in (views.grid, views.head, views.scores, views.shapes):
            figure.to_json()

    view()                                                                   # warm-up
    times, cpu_times = [], []
    for _ in range(rounds):
        cpu_start = time.process_time()
        times.append(seconds(view))
        cpu_times.append(time.process_time() - cpu_start)
    return result(SUITE, "gpt2_small_attention_view_ms", 1000 * statistics.median(times), "ms", 2000, "lower",
                  cpu_ms=round(1000 * statistics.median(cpu_times)), tokens=VIEW_TOKENS, layers=config.n_decoder_layers, heads=config.n_heads, rounds=rounds,
                  threads=torch.get_num_threads(), load_average=round(os.getloadavg()[0], 1))


def run(quick: bool) -> list[dict]:
    return [gpt2_parity(), gpt2_small_attention_view(2 if quick else 5)]

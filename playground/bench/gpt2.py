"""GPT-2 in the hand-written stack: parity with `transformers`' GPT-2.

Part of the model suite (the attention view at GPT-2 small's size is timed by the app suite:
playground.bench.attention_view). The parity metric needs the test dependencies (`pip install -r
tests/requirements.txt`): the reference model comes from `transformers`, which the app never imports.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import torch

from playground.hub import load_gpt2
from playground.model import DECODER_SELF, Trace

from .common import result

SUITE = "model"
PARITY_CONFIGS = ((32, 4, 2), (30, 3, 3), (48, 6, 2), (40, 5, 1))   # n_embd, n_head, n_layer


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
        gpt2_ids = imported.ids.to_source(predicted)
        logit_diff = max(logit_diff, (logits[..., predicted] - expected.logits[..., gpt2_ids]).abs().max().item())
        ours = trace.attention(DECODER_SELF)                                        # [L, B, H, T, T]
        attention_diff = max(attention_diff, *((ours[i] - w).abs().max().item() for i, w in enumerate(expected.attentions)))
    line = result(SUITE, "gpt2_parity_max_abs_logit_diff", logit_diff, "abs", 1e-4, "lower",
                  max_abs_attention_diff=attention_diff, configs=[dict(zip(("n_embd", "n_head", "n_layer"), c))
                                                                  for c in PARITY_CONFIGS], tokens=48)
    line["value"] = logit_diff                                               # unrounded: it is far below 1e-3
    return line


def run(quick: bool) -> list[dict]:
    return [gpt2_parity()]

"""Llama- and Qwen2-family models in the hand-written stack: parity with `transformers`.

Part of the model suite. The reference models come from `transformers`, a test dependency the app
never imports (`pip install -r tests/requirements.txt`); without it each line says it was skipped.
"""
from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

import torch

from playground.hub import load_model
from playground.model import DECODER_SELF, Trace

from .common import result

SUITE = "model"
PARITY_CONFIGS = ((4, False, 1e4), (2, True, 1e6), (1, False, 1e6))   # key/value heads of 4, tied head, rotary base


def family_parity(family: str) -> dict:
    """Largest |logit| and |attention weight| difference against transformers' model over random small configs."""
    name = f"{family}_parity_max_abs_logit_diff"
    if importlib.util.find_spec("transformers") is None:
        return result(SUITE, name, None, "abs", 1e-4, "lower",
                      skipped="needs the test dependencies (pip install -r tests/requirements.txt): no transformers")
    from tests.hub.llama_helpers import save_random_llm

    logit_diff = attention_diff = 0.0
    for seed, (kv_heads, tied, rope_theta) in enumerate(PARITY_CONFIGS):
        with tempfile.TemporaryDirectory() as folder:
            reference = save_random_llm(Path(folder), family, hidden=32, heads=4, kv_heads=kv_heads, layers=2,
                                        rope_theta=rope_theta, tied=tied, seed=seed)
            imported = load_model(folder)
        ids = torch.randint(0, reference.config.vocab_size, (2, 48), generator=torch.Generator().manual_seed(seed))
        with torch.no_grad():
            expected = reference(ids, output_attentions=True)
            trace = Trace()
            logits = imported.model(imported.ids.to_project(ids), trace=trace)          # [B, T, V']
        predicted = torch.tensor([p for p in range(logits.size(-1)) if p not in imported.config.never_predict])
        source_ids = imported.ids.to_source(predicted)
        logit_diff = max(logit_diff, (logits[..., predicted] - expected.logits[..., source_ids]).abs().max().item())
        ours = trace.attention(DECODER_SELF)                                            # [L, B, H, T, T]
        attention_diff = max(attention_diff, *((ours[i] - w).abs().max().item() for i, w in enumerate(expected.attentions)))
    line = result(SUITE, name, logit_diff, "abs", 1e-4, "lower", max_abs_attention_diff=attention_diff,
                  configs=[dict(zip(("n_kv_heads_of_4", "tied", "rope_theta"), c)) for c in PARITY_CONFIGS], tokens=48,
                  dtype="float32")
    line["value"] = logit_diff                                               # unrounded: it is far below 1e-3
    return line


def run(quick: bool) -> list[dict]:
    return [family_parity("llama"), family_parity("qwen2")]

"""The length-generalisation lab: decoder-only models, so RoPE rotates every attention, every encoding
is decoded at every length the lab tests, and with the lab's own recipe every encoding learns the
trained length before longer lengths are compared."""
import math

import pytest
import torch

from playground.labs import LabRun, checks, get_lab
from playground.labs.ablation_labs import LEARNED, TESTED_LENGTHS, TRAINED_LENGTH, length_verdict
from playground.model import MultiHeadAttention
from playground.model.positional import RotaryPositions

from .helpers import prepared

LAB = get_lab("length-generalisation")


def test_rope_rotates_the_queries_and_keys_of_every_attention_of_the_lab_s_model(monkeypatch):
    model = prepared(LAB).trainers["rope"].model.eval()
    attentions = [m for m in model.modules() if isinstance(m, MultiHeadAttention)]
    rotated = []
    rotate = RotaryPositions.rotate
    monkeypatch.setattr(RotaryPositions, "rotate", lambda self, x, offset=0: rotated.append(x.shape) or
                        rotate(self, x, offset))
    with torch.no_grad():
        model(torch.tensor([[5, 6, 7, 1, 5, 6]]))                                 # source <bos> part of the copy
    assert model.config.arch == "decoder_only" and len(attentions) == LAB.model_config.n_decoder_layers
    assert len(rotated) == 2 * len(attentions)                                    # q and k of each attention


def test_the_checks_decode_every_length_the_lab_tests_within_the_model_s_positions():
    run = prepared(LAB)
    lengths = [int(check.id.rsplit("_", 1)[1]) for check in LAB.checks]
    assert lengths[0] == TRAINED_LENGTH and max(lengths) * 2 + 1 <= LAB.model_config.max_len
    measured = checks.exact_match_at_length(max(lengths), examples=2).measure(run.trainers)
    assert set(measured.values) == {"sinusoidal", "learned", "rope"}              # untrained: a value, no error


@pytest.fixture(scope="module")
def trained():
    """The lab run in full as the app runs it (one torch thread), without its time budget: one result for
    every assertion below (a few minutes on a 2-vCPU machine)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        run = LabRun(LAB, budget_s=math.inf)
        for _ in run.run():
            pass
    finally:
        torch.set_num_threads(threads)
    return run.result()


def test_every_encoding_copies_the_trained_length_exactly_with_the_lab_s_recipe(trained):
    exact = trained.check(f"exact_match_length_{TRAINED_LENGTH}").values
    assert set(exact) == {"sinusoidal", "learned", "rope"}
    assert min(exact.values()) >= LEARNED, exact


def test_the_findings_compare_longer_lengths_for_every_encoding(trained):
    beyond = {n: trained.check(f"exact_match_length_{n}").values for n in TESTED_LENGTHS}
    inside = trained.check(f"exact_match_length_{TRAINED_LENGTH}").values
    verdicts = {v: length_verdict(inside[v], [beyond[n][v] for n in beyond]) for v in inside}
    assert "not_learned" not in verdicts.values(), verdicts
    assert not trained.stopped_early and len(trained.findings) == len(trained.variants) + 1
    closing = trained.findings[-1].text
    assert closing.en.startswith("Of the 3 encoding(s)") and closing.zh.startswith("学会了训练长度的 3 种编码中")

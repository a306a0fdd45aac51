"""The length-generalisation lab: decoder-only models, so RoPE rotates every attention, every encoding
is decoded at every length the lab tests, and with the lab's own recipe every encoding learns the
trained length before longer lengths are compared. That last part is a full run of a few minutes: the
labs bench measures it (`length_generalisation_trained_exact_min`), not the suite."""
import torch

from playground.labs import checks, get_lab
from playground.labs.ablation_labs import TRAINED_LENGTH
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

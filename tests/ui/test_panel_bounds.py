"""The panels that search or fit are bounded in work on the largest upload the app accepts: beam search stops
early and says so, probes read few enough positions, patching accepts only inputs its budget covers."""
import pytest
import torch

from playground.analysis import MAX_PROBE_LENGTH, view_flops
from playground.bench.uploads import largest_accepted, vocabulary
from playground.model import build_model
from playground.ui.inputs.validation import MAX_BEAM_WIDTH, MAX_NEW_TOKENS, UPLOAD_LIMITS
from playground.generate import SamplingConfig
from playground.ui.views.generate import BEAM_CANDIDATES, beam_tokens, beam_views
from playground.ui.views.meaning import RANDOM_BLOCKS
from playground.ui.views.patching import PATCHING_FLOPS, longest_input
from playground.ui.views.probes import PASS_FLOPS, probe_size
from playground.zoo import ModelEntry


@pytest.fixture(scope="module")
def largest() -> ModelEntry:
    config = largest_accepted(UPLOAD_LIMITS)
    torch.manual_seed(0)
    return ModelEntry("largest", build_model(config).eval(), vocabulary(config.vocab_size), config,
                      f"Task: {RANDOM_BLOCKS}", "session")


@pytest.mark.parametrize("lang, said", [("en", "The search stopped at **81** new tokens, not 200"),
                                        ("zh-CN", "搜索在 **81** 个新词元处停止，而不是 200 个")])
def test_a_wide_beam_over_a_large_vocabulary_stops_early_and_says_so(largest, lang, said):
    settings = SamplingConfig("beam", beam_width=MAX_BEAM_WIDTH, max_new_tokens=MAX_NEW_TOKENS)
    assert beam_tokens(largest, settings) == BEAM_CANDIDATES // (MAX_BEAM_WIDTH * 8192) == 81
    views = beam_views(largest, "一丁七", settings, lang)
    assert said in views.status


def test_probes_of_an_upload_whose_card_claims_the_repeat_task_read_bounded_sequences(largest):
    sequences, length = probe_size(largest, "offset")
    assert length <= MAX_PROBE_LENGTH < largest.config.max_len and sequences >= 4
    assert sequences * length <= 128 * MAX_PROBE_LENGTH


def test_patching_accepts_only_inputs_whose_maps_fit_its_budget(largest):
    limit = longest_input(largest)
    assert 1 < limit < 64
    assert view_flops(largest.model, limit, 0, False) <= PATCHING_FLOPS < view_flops(largest.model, limit + 1, 0, False)
    assert PASS_FLOPS > 0

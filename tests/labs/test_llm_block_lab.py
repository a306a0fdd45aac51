"""The 2017 block against the 2024 block: the four pieces swapped at (as near as can be) equal
parameters, and findings that read the steps to the target loss off the run's own curves."""
import dataclasses

import pytest

from playground.labs import get_lab
from playground.labs.llm_block_lab import LLM_PIECES, TARGET_BELOW_FREQUENCY, matched_d_ff, steps_to, target_loss
from playground.labs.comparisons import letter_frequency_loss
from playground.labs.presets import CHAR_LM_MODEL
from playground.model import build_model, count_parameters

from .helpers import prepared, tiny_result


@pytest.fixture(scope="module")
def result():
    return tiny_result("llm-block")


def test_the_2024_block_swaps_the_four_pieces_and_matches_the_parameters():
    lab = get_lab("llm-block")
    reference, llm = (lab.configs(v, vocab_size=70)[0] for v in lab.variants)
    assert (reference.norm_type, reference.gated_ffn, reference.positional, reference.kv_heads) == \
        ("layernorm", False, "sinusoidal", reference.n_heads)
    assert (llm.norm_type, llm.gated_ffn, llm.activation, llm.positional, llm.bias) == \
        ("rmsnorm", True, "silu", "rope", False)
    assert llm.kv_heads < llm.n_heads and (llm.d_model, llm.n_heads, llm.n_decoder_layers) == \
        (reference.d_model, reference.n_heads, reference.n_decoder_layers)
    ours, theirs = (sum(p.numel() for p in build_model(c).parameters()) for c in (reference, llm))
    step = 3 * llm.d_model * llm.n_decoder_layers          # parameters one more unit of SwiGLU width adds
    assert abs(ours - theirs) <= step / 2 and ours != count_parameters(llm.replace(d_ff=llm.d_ff + 1))["total"]


def test_matched_width_is_the_closest_one():
    width = matched_d_ff(CHAR_LM_MODEL, LLM_PIECES)
    target = count_parameters(CHAR_LM_MODEL)["total"]
    gaps = {w: abs(count_parameters(CHAR_LM_MODEL.replace(**LLM_PIECES, d_ff=w))["total"] - target)
            for w in (width - 1, width, width + 1)}
    assert min(gaps, key=gaps.get) == width


def test_the_parameter_check_counts_both_models_alike():
    run = prepared(get_lab("llm-block"))
    run._measure_start()
    counts = run._start_checks[0].values
    assert abs(counts["block_2017"] - counts["llm_2024"]) < 0.005 * counts["block_2017"]


def test_steps_to_target_reads_the_first_evaluation_at_or_below_it(result):
    variant = result.variants[1]
    history = dict(variant.history, step=[0, 10, 20, 30], val_loss=[4.0, 3.0, 2.4, 2.0])
    shaped = dataclasses.replace(variant, history=history)
    assert steps_to(shaped, 2.4) == 20 and steps_to(shaped, 1.0) is None and steps_to(shaped, 5.0) == 0


def test_a_run_states_its_target_and_each_blocks_steps_in_both_languages(result):
    assert [v.final["status"] for v in result.variants] == ["finished", "finished"]
    claims = [claim for finding in result.findings for claim in finding.claims]
    assert result.findings and [str(c) for c in claims if not c.holds] == []
    target = target_loss("tiny_shakespeare")
    assert target == round(letter_frequency_loss("tiny_shakespeare")[0] - TARGET_BELOW_FREQUENCY, 2)
    last = result.findings[-1].text
    assert f"{target:.2f}" in last.en and f"{target:.2f}" in last.zh
    for variant in result.variants:
        step = steps_to(variant, target)
        assert (f"at step {step}" if step is not None else "not within the run") in last.en


def test_the_labs_bench_reports_each_blocks_steps_to_the_target():
    from playground.bench import labs as labs_bench
    from .helpers import tiny

    timing = labs_bench.lab_seconds(tiny(get_lab("llm-block"), steps=4, rounds=2), quick=False)
    assert set(timing["to_target"]) >= {"target", "block_2017", "llm_2024", "final_val_loss", "parameters"}

"""Patching, attribution, probes and the guessing game on the shipped models: the induction model's answer
is carried by its second layer's heads, every model's logit splits exactly into its parts, the reverse
model's decoder knows the letter to copy after one layer, and training shows in the game's score."""
import numpy as np
import pytest

from playground.analysis.attribution import logit_attribution
from playground.analysis.guessing import GuessingGame, held_out_text
from playground.analysis.patching import activation_patching, induction_pair, task_pair
from playground.analysis.probes import fit_probes, reverse_probe_data
from playground.checkpoint import load, timeline_files
from playground.data import CorpusUnavailable, tasks
from playground.data.corpora import load_corpus

from .conftest import PRETRAINED


def test_patching_the_shipped_induction_model_names_its_second_layer_heads(checkpoints):
    checkpoint, _ = checkpoints["induction"]
    view = activation_patching(checkpoint.model, induction_pair(checkpoint.config.vocab_size, seed=0))
    heads = view.heads[0].values                                              # [L, H]
    assert view.clean_metric > 3 and view.corrupted_metric < -3             # the model copies the block
    assert heads[1].sum() > 0.8 and heads[1].min() > 0.2                    # layer 1's heads carry the answer ...
    assert np.abs(view.residual[0].values[-1, :-1]).max() < 1e-6            # ... to the last position alone


@pytest.mark.parametrize("name", ["reverse", "dates"])
def test_patching_a_shipped_seq2seq_model_finds_the_changed_source_character(checkpoints, name):
    checkpoint, meta = checkpoints[name]
    pair = task_pair(tasks.get(meta["task"], **meta["task_knobs"]), checkpoint.tokenizer, seed=0)
    view = activation_patching(checkpoint.model, pair, heads_by_position=False)
    changed = [i for i, (a, b) in enumerate(zip(pair.clean_source, pair.corrupted_source)) if a != b]
    encoder = view.residual[0]
    np.testing.assert_allclose(encoder.values[0, changed], 1.0, atol=1e-5)  # the changed character is everything
    assert view.clean_metric > 3 and view.corrupted_metric < -3


@pytest.mark.parametrize("name", ["induction", "reverse", "shakespeare-char", "masked-char", "dates"])
def test_the_parts_of_a_shipped_model_sum_to_its_logit(checkpoints, name):
    checkpoint, meta = checkpoints[name]
    source = None
    if name == "induction":
        ids = list(induction_pair(checkpoint.config.vocab_size).clean)
    elif meta["task"]:
        pair = task_pair(tasks.get(meta["task"], **meta["task_knobs"]), checkpoint.tokenizer)
        ids, source = list(pair.clean), list(pair.clean_source)
    else:
        ids = checkpoint.tokenizer.encode("Now is the winter of our discontent")
    attribution = logit_attribution(checkpoint.model, ids, source=source)
    assert attribution.total == pytest.approx(attribution.logit, abs=1e-4)
    assert attribution.logit > 3                                              # the top token, confidently


def test_the_reverse_model_s_decoder_learns_the_letter_to_copy_after_its_first_layer(checkpoints):
    checkpoint, meta = checkpoints["reverse"]
    task = tasks.get(meta["task"], **meta["task_knobs"])
    result = fit_probes(reverse_probe_data(checkpoint.model, task, checkpoint.tokenizer, "letter", n_sources=128))
    assert result.accuracy[0] < 0.3 and result.accuracy[1:].min() > 0.95     # the embeddings cannot know it
    assert np.all(result.control < result.chance + 0.1)


def test_the_character_model_beats_an_early_checkpoint_of_itself_at_guessing(checkpoints):
    checkpoint, _ = checkpoints["shakespeare-char"]
    try:
        text = held_out_text(load_corpus("tiny_shakespeare", allow_download=False))
    except CorpusUnavailable:
        pytest.skip("tiny Shakespeare is not available offline")
    game = GuessingGame(checkpoint.model, checkpoint.tokenizer, text, n_rounds=30, seed=0)
    steps = timeline_files(PRETRAINED / "shakespeare-char")
    rematch = game.rematch(load(steps[min(steps)]).model)
    for played in (game, rematch):
        while not played.finished:
            played.play("e")
    assert game.score.model >= rematch.score.model + 8 and game.score.learner == rematch.score.learner

"""Guess the next character: the model's guess is its argmax, both scores come from the real text, a
rematch replays the same rounds against another model."""
import pytest
import torch

from playground.analysis.guessing import (
    GuessingGame, held_out_text, learner_character, model_guess, score,
)
from playground.checkpoint import save, timeline_files
from playground.data import CharTokenizer
from playground.model import ModelConfig, build_model, hooks
from tests.model.helpers import randomize_parameters

TEXT = "the quick brown fox jumps over the lazy dog; " * 6


def char_model(tokenizer: CharTokenizer, seed: int = 0, max_len: int = 16):
    torch.manual_seed(seed)
    config = ModelConfig(arch="decoder_only", vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2,
                         n_decoder_layers=1, d_ff=32, max_len=max_len)
    return randomize_parameters(build_model(config).eval(), seed=seed, std=0.5)


@pytest.fixture
def game():
    tokenizer = CharTokenizer.from_text(TEXT)
    return GuessingGame(char_model(tokenizer), tokenizer, TEXT, n_rounds=12, seed=1, min_context=8)


def test_the_model_s_guess_is_the_argmax_of_its_logits_on_the_text_before(game):
    tokenizer, model = game.tokenizer, game.model
    for position in game.positions:
        context = TEXT[max(0, position - 16):position]
        with torch.no_grad():
            logits = model(torch.tensor([tokenizer.encode(context)]))[0, -1]
        guess = model_guess(model, tokenizer, TEXT, position)
        assert guess.guess == tokenizer.decode([int(logits.argmax())], skip_special=False)
        assert guess.top[0] == (guess.guess, pytest.approx(guess.probability))
        probabilities = torch.softmax(logits.double(), -1)
        assert guess.answer_probability == pytest.approx(float(probabilities[tokenizer.encode(TEXT[position])[0]]))


def test_the_learner_s_score_counts_guesses_equal_to_the_real_next_character(game):
    right_answers = [TEXT[p] for p in game.positions]
    for i, answer in enumerate(right_answers):
        assert game.context(8) == TEXT[game.positions[i] - 8:game.positions[i]]
        game.play(answer if i % 3 else "#")                                 # every third guess is wrong
    assert game.finished and game.score.learner == 8 and game.score.rounds == 12
    assert [r.answer for r in game.rounds] == right_answers
    assert game.score.model == sum(r.model.guess == TEXT[r.position] for r in game.rounds)


def test_the_model_s_score_comes_from_the_text_whatever_it_guesses(game):
    e = game.tokenizer.encode("e")[0]

    def always_e(logits, name):
        forced = torch.zeros_like(logits)
        forced[..., e] = 10.0
        return forced

    with hooks(game.model, {"logits": always_e}):
        while not game.finished:
            game.play("e")
    assert all(r.model.guess == "e" for r in game.rounds)
    expected = sum(TEXT[p] == "e" for p in game.positions)
    assert game.score.model == game.score.learner == expected
    assert score(game.rounds) == game.score


def test_a_rematch_plays_the_same_rounds_against_another_model(game):
    while not game.finished:
        game.play("o")
    earlier = char_model(game.tokenizer, seed=7)
    rematch = game.rematch(earlier)
    assert rematch.positions == game.positions and rematch.rounds == [] and rematch.model is earlier
    while not rematch.finished:
        rematch.play("o")
    assert rematch.score.learner == game.score.learner
    assert [r.model for r in rematch.rounds] == [model_guess(earlier, game.tokenizer, TEXT, p) for p in game.positions]
    assert [r.model for r in rematch.rounds] != [r.model for r in game.rounds]


def test_the_same_seed_draws_the_same_rounds():
    tokenizer = CharTokenizer.from_text(TEXT)
    model = char_model(tokenizer)
    first, again, other = (GuessingGame(model, tokenizer, TEXT, 5, seed) for seed in (3, 3, 4))
    assert first.positions == again.positions != other.positions
    assert all(p >= 32 and TEXT[p] in tokenizer.chars for p in first.positions)


def test_typed_whitespace_and_the_held_out_split():
    assert learner_character("␣") == " " and learner_character("↵") == "\n" and learner_character("x") == "x"
    for bad in ("", "ab"):
        with pytest.raises(ValueError, match="exactly one character"):
            learner_character(bad)
    assert held_out_text("a" * 90 + "b" * 10) == "b" * 10
    assert held_out_text("0123456789" * 10, 0.25) == ("0123456789" * 10)[75:]


def test_timeline_files_lists_the_steps_of_a_saved_run(tmp_path):
    tokenizer = CharTokenizer.from_text(TEXT)
    (tmp_path / "timeline").mkdir()
    for step in (250, 0, 1000):
        save(tmp_path / "scratch", char_model(tokenizer, seed=step), tokenizer)
        (tmp_path / "scratch" / "model.safetensors").rename(tmp_path / "timeline" / f"step_{step:06d}.safetensors")
    (tmp_path / "timeline" / "notes.txt").write_text("not a checkpoint")
    files = timeline_files(tmp_path)
    assert list(files) == [0, 250, 1000] and files[250].name == "step_000250.safetensors"
    assert timeline_files(tmp_path / "scratch") == {}


@pytest.mark.parametrize("make, message", [
    (lambda t, m: GuessingGame(m, t, TEXT[:40], n_rounds=20), "positions to guess"),
    (lambda t, m: GuessingGame(m, t, TEXT, n_rounds=0), "n_rounds"),
    (lambda t, m: GuessingGame(m, CharTokenizer("abc"), TEXT), "model's own tokenizer"),
    (lambda t, m: GuessingGame(build_model(ModelConfig(arch="encoder_decoder", vocab_size=t.vocab_size, d_model=16,
                                                       n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=32)),
                               t, TEXT), "decoder_only"),
    (lambda t, m: model_guess(m, t, TEXT, 0), "position"),
])
def test_games_that_cannot_be_played_are_refused_with_the_reason(make, message):
    tokenizer = CharTokenizer.from_text(TEXT)
    with pytest.raises(ValueError, match=message):
        make(tokenizer, char_model(tokenizer))


def test_a_finished_game_says_so(game):
    while not game.finished:
        game.play("a")
    with pytest.raises(ValueError, match="game is over"):
        game.play("a")

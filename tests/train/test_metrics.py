import math

import pytest
import sacrebleu
import torch
import torch.nn.functional as F

from playground.data import IGNORE_INDEX
from playground.train import Trainer, precision
from playground.train.metrics import bleu, perplexity
from tests.train.helpers import lm_data, model_config, quiet_config, seq2seq_trainer


def test_perplexity_is_exp_of_the_mean_cross_entropy_per_token():
    data = lm_data(block_size=16)
    trainer = Trainer(model_config("decoder_only", data.vocab_size), quiet_config(max_steps=5), data)
    for _ in trainer.run(max_steps=5):
        pass
    event = trainer.history[-1]
    losses = []
    with torch.no_grad(), precision.computing(trainer.device):                 # as the trainer evaluates
        for batch in trainer.objective.val_batches():
            batch = batch.to(trainer.device)                                  # where the model is
            logits = trainer.model.eval()(*batch.inputs)                     # [B, T, V]
            losses.append(F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(), reduction="none",
                                          ignore_index=IGNORE_INDEX))
    per_token = torch.cat(losses).cpu()                                       # [N]
    assert event.perplexity == pytest.approx(math.exp(per_token.mean().item()), rel=1e-4)
    # the same number read the other way: the geometric mean of 1 / p(right token)
    assert event.perplexity == pytest.approx(torch.exp(per_token).log().mean().exp().item(), rel=1e-4)


def test_perplexity_of_uniform_guessing_is_the_vocabulary_size_and_huge_losses_stay_finite():
    assert perplexity(math.log(37)) == pytest.approx(37)
    assert perplexity(0.0) == 1.0
    assert math.isfinite(perplexity(1e6))


@pytest.mark.parametrize("outputs, references", [
    (["abcdefghij"], ["abcdefghij"]),
    (["2023-04-05", "1999-12-31"], ["2023-04-05", "1999-12-13"]),
    (["abdc", "hgfe", "aaaa"], ["abcd", "efgh", "abca"]),
    (["abc"], ["abcdefgh"]),
])
def test_bleu_is_sacrebleus_character_corpus_bleu(outputs, references):
    expected = sacrebleu.corpus_bleu(outputs, [references], tokenize="char").score
    assert bleu(outputs, references) == pytest.approx(expected)


def test_bleu_by_hand_a_correct_prefix_is_only_penalised_for_brevity():
    # "abcde" against "abcdefghij": every 1- to 4-gram of the output is in the reference (precision 1),
    # the output has 5 characters for 10: brevity penalty exp(1 - 10/5) = e^-1.
    assert bleu(["abcde"], ["abcdefghij"]) == pytest.approx(100 * math.exp(-1), rel=1e-6)
    # corpus-level: n-gram counts are pooled before the precisions are taken, not averaged per sentence
    assert bleu(["abcde", "abcdefghij"], ["abcdefghij", "abcdefghij"]) == pytest.approx(100 * math.exp(1 - 20 / 15))


def test_bleu_refuses_mismatched_lists():
    with pytest.raises(ValueError, match="one reference per output"):
        bleu(["a"], ["a", "b"])
    with pytest.raises(ValueError, match="at least one output"):
        bleu([], [])


def test_seq2seq_evaluation_reports_the_bleu_of_its_greedy_decodes():
    trainer = seq2seq_trainer(max_steps=10)
    objective = trainer.objective
    decoded = objective.greedy(trainer.model.eval(), [source for source, _ in objective.held_out])
    outputs = [trainer.tokenizer.decode(ids) for ids in decoded]
    expected = sacrebleu.corpus_bleu(outputs, [[target for _, target in objective.held_out]], tokenize="char").score
    assert trainer.evaluate().bleu == pytest.approx(expected)
    event = next(e for e in trainer.run(max_steps=2) if hasattr(e, "bleu") and e.evaluated)
    assert event.bleu is not None and 0 <= event.bleu <= 100


def test_language_models_have_no_bleu():
    data = lm_data(block_size=16)
    trainer = Trainer(model_config("decoder_only", data.vocab_size), quiet_config(max_steps=2), data)
    assert trainer.evaluate().bleu is None

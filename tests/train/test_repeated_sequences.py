"""Training on repeated random sequences: held-out periods, the probe, the sample, wrong architectures."""
import pytest
import torch

from playground.data import RepeatedSequences
from playground.model import ModelConfig
from playground.train import PRESETS, TrainConfig, Trainer
from playground.train.objectives import RepeatedSequenceObjective, build_objective


def small(**changes):
    data = RepeatedSequences(block_size=32, min_period=4, max_period=12)
    config = ModelConfig(arch="decoder_only", vocab_size=data.vocab_size, d_model=16, n_heads=2, n_decoder_layers=2,
                         d_ff=32, max_len=32, positional="learned", scale_embedding=False).replace(**changes)
    return data, config


def test_the_held_out_sequences_spread_over_the_periods_and_the_probe_repeats():
    data, config = small()
    objective = build_objective(data, config, TrainConfig(val_size=9, batch_size=4))
    assert isinstance(objective, RepeatedSequenceObjective)
    (batch,) = objective.val_batches()
    x, y = batch.inputs[0], batch.targets
    assert x.shape == (9, 32) and torch.equal(x[:, 1:], y[:, :-1])
    periods = [next(n for n in range(1, 33) if torch.equal(row[n:], row[:-n])) for row in x]
    assert periods == [4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert objective.probe_period == 12


def test_a_run_records_induction_scores_and_a_sample_against_the_true_repeat():
    data, config = small()
    trainer = Trainer(config, TrainConfig(max_steps=3, warmup_steps=0, batch_size=4, val_size=8), data)
    items = list(trainer.run())
    snapshot = trainer.last_snapshot
    assert snapshot.head_scores["decoder.self_attn.induction"].shape == (2, 2)
    (sample,) = snapshot.samples
    assert len(sample.output) == len(sample.target) == 32 - 13                # greedy, as long as the rest
    assert (sample.input + sample.target)[12:] == (sample.input + sample.target)[:-12]
    assert items[-1].status == "finished" and items[-1].val_loss is not None


def test_repeated_sequences_need_a_decoder_only_model_that_holds_the_context():
    data, config = small()
    with pytest.raises(ValueError, match="use arch='decoder_only'"):
        build_objective(data, config.replace(arch="encoder_only", n_encoder_layers=2, n_decoder_layers=0),
                        TrainConfig())
    with pytest.raises(ValueError, match="longer than the model's max_len"):
        build_objective(data, config.replace(max_len=16), TrainConfig())
    with pytest.raises(ValueError, match="takes no text"):
        PRESETS["induction"].trainer(text="hello")

"""Scheduled sampling: the decoder reads its own predictions as often as the schedule says, the loss is
teacher forcing's when it never does, and the scores are counted on exactly the held-out rows."""
import pytest
import torch

from playground.data import EOS_ID, PAD_ID, pad_sequences, tasks
from playground.generate.batch import bos, greedy
from playground.model import ModelConfig
from playground.train import TrainConfig, Trainer
from playground.train.scheduled_sampling import ScheduledSampling, compare_with_teacher_forcing, decoding_scores

TASK = tasks.get("reverse", length=5, symbols=5)
MODEL = ModelConfig(arch="encoder_decoder", vocab_size=10, d_model=16, n_heads=2, n_encoder_layers=1,
                    n_decoder_layers=1, d_ff=32, max_len=8, tie_weights=False)
TRAIN = TrainConfig(lr=3e-3, warmup_steps=2, batch_size=8, max_steps=6, val_size=16, eval_every_s=None,
                    snapshot_every_s=None)


def test_the_chance_of_reading_its_own_token_rises_linearly_to_final():
    wrapped = ScheduledSampling(Trainer(MODEL, TRAIN, TASK).objective, ramp_steps=10, final=0.5)
    assert [wrapped.probability(s) for s in (0, 5, 10, 20)] == [0.0, 0.25, 0.5, 0.5]


def test_at_probability_0_the_loss_is_teacher_forcings():
    trainer = Trainer(MODEL, TRAIN, TASK)
    batch = trainer.objective.next_batch()
    wrapped = ScheduledSampling(trainer.objective, ramp_steps=10, final=0.5)     # step 0: p = 0
    assert wrapped.loss(trainer.model, batch).item() == pytest.approx(trainer.objective.loss(trainer.model, batch).item())


def test_at_probability_1_the_decoder_reads_its_own_previous_prediction():
    trainer = Trainer(MODEL, TRAIN, TASK)
    objective, model = trainer.objective, trainer.model.eval()
    batch = objective.next_batch()
    src, tgt_in = batch.inputs
    read = []
    original = objective.forward

    def recording(model, inputs, trace=None):
        read.append(inputs[1].clone())
        return original(model, inputs, trace)

    objective.forward = recording
    wrapped = ScheduledSampling(objective, ramp_steps=1, final=1.0)
    wrapped.steps_done = 1                                                       # p = 1
    wrapped.loss(model, batch)
    own = original(model, (src, tgt_in)).argmax(-1)                             # [B, T]
    mixed = read[1]
    kept = tgt_in != PAD_ID
    assert torch.equal(mixed[:, 0], tgt_in[:, 0])                                # <bos> always given
    assert torch.equal(mixed[:, 1:][kept[:, 1:]], own[:, :-1][kept[:, 1:]])     # every real token is its own guess


def test_decoding_scores_count_exactly_the_held_out_rows():
    trainer = Trainer(MODEL, TRAIN, TASK)
    for _ in trainer.run(max_steps=6):
        pass
    scores = decoding_scores(trainer)
    objective, model = trainer.objective, trainer.model.eval()
    src = pad_sequences([TASK.tokenizer.encode(s) for s, _ in objective.held_out])
    decoded = greedy(model, bos(len(objective.held_out)), TASK.max_target_len + 1, src)
    wanted = [TASK.tokenizer.encode(t) + [EOS_ID] for _, t in objective.held_out]
    right = sum(sum(a == b for a, b in zip(out, want)) for out, want in zip(decoded, wanted))
    assert scores.free_running_accuracy == pytest.approx(right / sum(map(len, wanted)))
    assert scores.free_running_exact == pytest.approx(sum(o == w for o, w in zip(decoded, wanted)) / len(wanted))
    assert scores.teacher_forced_accuracy == pytest.approx(objective.evaluate(model).accuracy)


def test_the_comparison_trains_both_from_the_same_start():
    scores = compare_with_teacher_forcing(MODEL, TRAIN, TASK, final=0.0)        # p = 0 throughout: the same run
    assert scores["teacher_forcing"] == scores["scheduled_sampling"]


def test_only_a_seq2seq_objective_can_be_wrapped():
    lm = tasks.get("copy", length=4, symbols=4)
    decoder_only = MODEL.replace(arch="decoder_only", n_encoder_layers=0, n_decoder_layers=1, max_len=10)
    with pytest.raises(TypeError, match="encoder-decoder"):
        ScheduledSampling(Trainer(decoder_only, TRAIN, lm).objective, ramp_steps=5, final=0.5)

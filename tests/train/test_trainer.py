import math

import numpy as np
import pytest
import torch

from playground.data import BOS_ID, EOS_ID, IGNORE_INDEX, tasks
from playground.train import Snapshot, Trainer, learning_rate

from .helpers import (assert_same_losses, assert_same_tensor, copy_task, events, lm_trainer, mlm_trainer, model_config,
                      quiet_config, seq2seq_trainer)


def prompted_trainer(**train_changes) -> Trainer:
    task = copy_task()
    return Trainer(model_config("decoder_only", task.tokenizer.vocab_size), quiet_config(**train_changes), task)


def dropout_lm_trainer(**train_changes) -> Trainer:
    from .helpers import lm_data
    data = lm_data()
    return Trainer(model_config("decoder_only", data.vocab_size, dropout=0.2), quiet_config(**train_changes), data)


MAKERS = {
    "seq2seq": seq2seq_trainer,
    "prompted_seq2seq": prompted_trainer,
    "lm": lm_trainer,
    "mlm": mlm_trainer,
    "lm_with_dropout": dropout_lm_trainer,
}


def weights(trainer: Trainer) -> dict[str, torch.Tensor]:
    return {name: p.detach().cpu().clone() for name, p in trainer.model.named_parameters()}


def assert_same_weights(a: Trainer, b: Trainer) -> None:
    wa, wb = weights(a), weights(b)
    assert wa.keys() == wb.keys()
    for name in wa:
        assert_same_tensor(wa[name], wb[name], name)


def drain(generator) -> list:
    return list(generator)


@pytest.mark.parametrize("kind", MAKERS)
def test_same_seed_gives_the_same_losses_and_weights(kind):
    a, b = MAKERS[kind](max_steps=6), MAKERS[kind](max_steps=6)
    drain(a.run())
    drain(b.run())
    assert len(a.step_losses) == 6
    assert_same_losses(a.step_losses, b.step_losses)
    assert_same_weights(a, b)
    c = MAKERS[kind](max_steps=6, seed=1)
    drain(c.run())
    assert c.step_losses != a.step_losses


@pytest.mark.parametrize("kind", MAKERS)
def test_a_run_split_by_stops_equals_an_uninterrupted_run(kind):
    whole = MAKERS[kind](max_steps=12)
    drain(whole.run())

    split = MAKERS[kind](max_steps=12)
    generator = split.run()
    for item in generator:                       # Stop after the event of step 4: close the generator
        if item.step == 4:
            break
    generator.close()
    assert split.step == 4
    drain(split.run(max_steps=3))                # Resume for 3 steps (paused), then to the end
    assert split.step == 7
    final = events(split.run())[-1]

    assert final.status == "finished" and final.step == 12
    assert_same_losses(split.step_losses, whole.step_losses)
    assert_same_weights(split, whole)
    assert split.optimizer.state_dict()["state"].keys() == whole.optimizer.state_dict()["state"].keys()
    for key, state in whole.optimizer.state_dict()["state"].items():
        assert_same_tensor(state["exp_avg"], split.optimizer.state_dict()["state"][key]["exp_avg"], str(key))


def test_a_tiny_copy_model_reaches_exact_match():
    task = tasks.get("copy", length=5, symbols=5)
    config = model_config("encoder_decoder", task.tokenizer.vocab_size, d_model=64, n_heads=4, d_ff=128, max_len=8,
                          tie_weights=False)
    trainer = Trainer(config, quiet_config(lr=3e-3, warmup_steps=20, batch_size=64, max_steps=600, val_size=200,
                                           event_every_s=1e9), task)
    before = trainer.evaluate()
    while not trainer.finished:
        final = events(trainer.run(max_steps=50))[-1]
        if final.exact_match >= 0.98:
            break
    assert before.exact_match < 0.05
    assert final.exact_match >= 0.98
    assert final.accuracy >= 0.99
    assert final.val_loss < 0.1
    assert trainer.objective.decoded_exact_match(trainer.model) == trainer.evaluate().exact_match


def test_a_decoder_that_sees_later_tokens_is_judged_by_real_greedy_decodes(monkeypatch):
    trainer = seq2seq_trainer(max_steps=10)
    decoded = []
    monkeypatch.setattr(trainer.objective, "decoded_exact_match", lambda model: decoded.append(model) or 0.25)
    assert trainer.evaluate().exact_match != 0.25                            # the reference decoder: teacher forced
    trainer.model.decoder.mask_builder = lambda n_queries, n_keys, device=None: torch.ones(
        n_queries, n_keys, dtype=torch.bool, device=device).triu()
    assert trainer.evaluate().exact_match == 0.25
    assert decoded == [trainer.model]


def test_events_come_after_every_step_when_asked_and_the_last_one_is_evaluated():
    trainer = seq2seq_trainer(max_steps=10)
    items = list(trainer.run(max_steps=3))
    assert [(e.step, e.status) for e in items] == [(1, "running"), (2, "running"), (3, "paused")]
    assert all(e.val_loss is None and e.exact_match is None for e in items[:2])
    last = items[-1]
    assert last.evaluated and 0 <= last.accuracy <= 1 and 0 <= last.exact_match <= 1
    assert last.perplexity == pytest.approx(math.exp(last.val_loss))
    assert last.lr == pytest.approx(learning_rate(2, trainer.config))
    assert last.loss == trainer.step_losses[-1]
    assert last.grad_norm > 0 and last.tokens_per_s > 0 and last.elapsed > 0
    assert trainer.history == items


def test_event_loss_is_the_mean_of_the_steps_since_the_previous_event():
    trainer = lm_trainer(max_steps=5, event_every_s=1e9)
    (final,) = list(trainer.run())
    assert final.status == "finished" and final.step == 5
    assert final.loss == pytest.approx(sum(trainer.step_losses) / 5)


def test_a_finished_trainer_only_reports_that_it_is_finished():
    trainer = lm_trainer(max_steps=3)
    drain(trainer.run())
    (again,) = list(trainer.run())
    assert again.status == "finished" and again.step == 3 and trainer.step == 3


def test_the_config_time_cap_finishes_the_run():
    trainer = lm_trainer(max_steps=10_000, max_seconds=0.05)
    final = events(trainer.run())[-1]
    assert final.status == "finished"
    assert 0 < trainer.step < 10_000
    assert trainer.elapsed >= 0.05


def test_a_run_time_cap_pauses_the_run():
    trainer = lm_trainer(max_steps=10_000)
    final = events(trainer.run(max_seconds=0.05))[-1]
    assert final.status == "paused" and 0 < trainer.step < 10_000


@pytest.mark.parametrize("caps, message", [
    ({"max_steps": 0}, "max_steps"), ({"max_steps": 2.5}, "max_steps"), ({"max_steps": True}, "max_steps"),
    ({"max_seconds": 0}, "max_seconds"), ({"max_seconds": math.nan}, "max_seconds"),
])
def test_bad_run_caps_are_refused_before_training(caps, message):
    trainer = lm_trainer()
    with pytest.raises(ValueError, match=message):
        trainer.run(**caps)
    assert trainer.step == 0


def test_seq2seq_snapshot_holds_every_attention_kind_with_labels_and_head_scores():
    trainer = seq2seq_trainer(max_steps=2, snapshot_every_s=1e9)
    items = list(trainer.run())
    snapshots = [item for item in items if isinstance(item, Snapshot)]
    assert [s.step for s in snapshots] == [0, 2]            # the untrained model, then the end of the run
    assert isinstance(items[-1], type(trainer.history[-1]))
    snap = snapshots[-1]
    source, target = trainer.objective.held_out[0]
    assert snap.probe == f"{source} -> {target}"
    S, T = len(source), len(target) + 1
    shapes = {"encoder.self_attn": (1, 2, S, S), "decoder.self_attn": (1, 2, T, T), "decoder.cross_attn": (1, 2, T, S)}
    assert {k: v.shape for k, v in snap.attention.items()} == shapes
    for kind, weights in snap.attention.items():
        assert weights.dtype == np.float32
        np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-5)
        queries, keys = snap.tokens[kind]
        assert (len(queries), len(keys)) == weights.shape[2:]
    assert snap.tokens["decoder.cross_attn"] == (["<bos>", *target], list(source))
    assert np.triu(snap.attention["decoder.self_attn"], k=1).max() == 0
    assert snap.head_scores["decoder.cross_attn.diagonal"].shape == (1, 2)
    assert snap.head_scores["encoder.self_attn.previous_token"].shape == (1, 2)
    assert all(((0 <= v) & (v <= 1)).all() for v in snap.head_scores.values())
    assert [(s.input, s.target) for s in snap.samples] == list(trainer.objective.held_out[:3])


def test_lm_and_mlm_snapshots():
    lm = lm_trainer(max_steps=1, snapshot_every_s=1e9)
    snap = [i for i in lm.run() if isinstance(i, Snapshot)][-1]
    assert list(snap.attention) == ["decoder.self_attn"]
    assert snap.attention["decoder.self_attn"].shape == (2, 2, 16, 16)
    assert "decoder.self_attn.induction" in snap.head_scores
    (sample,) = snap.samples
    assert sample.target is None and sample.output and snap.probe.startswith(sample.input)

    mlm = mlm_trainer(max_steps=1, snapshot_every_s=1e9)
    snap = [i for i in mlm.run() if isinstance(i, Snapshot)][-1]
    assert list(snap.attention) == ["encoder.self_attn"]
    queries, keys = snap.tokens["encoder.self_attn"]
    assert queries == keys and len(queries) == 16
    assert len(snap.samples) == 3 and any("<mask>" in s.input for s in snap.samples)
    assert all(len(s.output) == len(s.target) == 16 for s in snap.samples)


def test_snapshots_do_not_change_the_training():
    plain = lm_trainer(max_steps=6)
    drain(plain.run())
    watched = lm_trainer(max_steps=6, snapshot_every_s=0.0, eval_every_s=0.0)
    items = list(watched.run())
    assert sum(isinstance(i, Snapshot) for i in items) >= 7
    assert_same_losses(watched.step_losses, plain.step_losses)


def test_a_nan_loss_ends_the_run_with_a_diverged_event_and_keeps_the_last_good_weights():
    trainer = seq2seq_trainer(max_steps=20)
    drain(trainer.run(max_steps=3))
    good = weights(trainer)
    real_loss = trainer.objective.loss
    trainer.objective.loss = lambda model, batch: real_loss(model, batch) * math.nan

    items = list(trainer.run())
    assert len(items) == 1
    (event,) = items
    assert event.status == "diverged" and event.step == 3 and math.isnan(event.loss)
    assert "loss became nan at step 4" in event.message and "Lower the learning rate" in event.message
    assert trainer.step == 3
    for name, tensor in weights(trainer).items():
        assert torch.equal(tensor, good[name]), name
    (again,) = list(trainer.run())                          # resuming reports the same failure, no crash
    assert again.status == "diverged" and again.message == event.message


def test_overflowing_logits_are_reported_not_raised():
    trainer = lm_trainer(max_steps=50)
    with torch.no_grad():
        for p in trainer.model.parameters():
            p.mul_(1e30)                                    # logits overflow to inf: the loss is not finite
    final = events(trainer.run())[-1]
    assert final.status == "diverged"
    assert "learning rate" in final.message


def test_decoder_only_reads_source_bos_target_and_learns_only_the_target():
    trainer = prompted_trainer()
    batch = trainer.objective._batch([("abc", "abc"), ("abcde", "abcde")])
    (ids,) = batch.inputs
    tok = trainer.tokenizer.encode
    assert ids[0].tolist()[:7] == [*tok("abc"), BOS_ID, *tok("abc")]
    assert batch.targets[0].tolist()[:7] == [IGNORE_INDEX] * 3 + [*tok("abc"), EOS_ID]
    assert batch.targets[0].tolist()[7:] == [IGNORE_INDEX] * 4          # padding takes no loss
    assert batch.targets[1].tolist() == [IGNORE_INDEX] * 5 + [*tok("abcde"), EOS_ID]
    final = events(trainer.run(max_steps=2))[-1]
    assert 0 <= final.exact_match <= 1


def test_lm_validation_uses_disjoint_windows_of_the_held_out_text():
    trainer = lm_trainer(val_size=100_000)
    val = trainer.objective.data.ids("val")
    T = trainer.objective.data.block_size
    windows = torch.cat([b.inputs[0] for b in trainer.objective.val_batches()])
    targets = torch.cat([b.targets for b in trainer.objective.val_batches()])
    assert len(windows) == (len(val) - 1) // T
    assert torch.equal(windows.flatten(), val[: len(windows) * T])
    assert torch.equal(targets.flatten(), val[1: len(windows) * T + 1])


@pytest.mark.parametrize("arch", ["encoder_decoder", "decoder_only"])
def test_exact_match_equals_the_share_of_greedy_decodes_that_match(arch):
    task = tasks.get("copy", length=4, symbols=4)
    config = model_config(arch, task.tokenizer.vocab_size, d_model=64, n_heads=4, d_ff=128, max_len=12,
                          tie_weights=False)
    trainer = Trainer(config, quiet_config(batch_size=32, max_steps=400, val_size=64, event_every_s=1e9), task)
    while not trainer.finished:                  # train until some, not all, held-out decodes are right
        metrics = events(trainer.run(max_steps=10))[-1]
        if 0.2 <= metrics.exact_match <= 0.8:
            break
    assert 0.2 <= metrics.exact_match <= 0.8
    sources = [source for source, _ in trainer.objective.held_out]
    decoded = trainer.objective.greedy(trainer.model, sources)
    right = [out == task.tokenizer.encode(target, add_eos=True) for out, (_, target) in zip(decoded, trainer.objective.held_out)]
    assert metrics.exact_match == sum(right) / len(right)


def test_the_weights_at_the_lowest_validation_loss_are_kept_beside_the_last():
    trainer = lm_trainer(max_steps=60, lr=0.05, warmup_steps=0, eval_every_s=0.0, val_size=8)   # evaluated each step
    list(trainer.run())
    evaluated = [e for e in trainer.history if e.evaluated]
    lowest = min(evaluated, key=lambda e: e.val_loss)
    assert trainer.best.step == lowest.step and trainer.best.val_loss == lowest.val_loss
    assert all(t.device.type == "cpu" for t in trainer.best.state.values())
    trainer.model.load_state_dict(trainer.best.state)                  # those weights measure that loss again
    assert trainer.evaluate().val_loss == pytest.approx(lowest.val_loss, rel=1e-5)

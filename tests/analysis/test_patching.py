"""Activation patching: it finds a planted circuit, patching a run into itself changes nothing, and every
cell agrees with two forward passes and an activation copied by hand."""
import numpy as np
import pytest
import torch

from playground.analysis.patching import (
    MIN_SPREAD, Patch, PatchingPair, PatchingTooCostly, activation_patching, flipping_pairs, induction_pair,
    pair_from_inputs, pair_metrics, patched_metrics, task_pair, view_flops,
)
from playground.data import BOS_ID, tasks
from playground.model import ModelConfig, build_model, hook_names, hooks
from tests.model.helpers import randomize_parameters, tiny_model

T = 6


def planted_copier() -> torch.nn.Module:
    """Two layers, two heads, weights set by hand: head 0 of layer 1 looks at position 0 from everywhere and
    writes the token it finds there into the stream, which the head reads out; every other head and both
    feed-forwards write nothing. So the answer at the last position is the first token."""
    config = ModelConfig(arch="decoder_only", vocab_size=10, d_model=32, n_heads=2, n_decoder_layers=2, d_ff=8,
                         max_len=T, positional="learned", tie_weights=False, scale_embedding=False)
    model = build_model(config).eval()
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            parameter.copy_(torch.ones_like(parameter) if "norm" in name and name.endswith("weight") else 0)
        model.decoder.embed.tokens.weight[:, :10] = torch.eye(10)           # token t -> dimension t
        model.decoder.embed.positions.embedding.weight[0, 10] = 1.0         # position 0 -> a flag in dimension 10
        copier = model.decoder.blocks[1].self_attn                           # head 0 = features 0..15
        copier.w_q.bias[0] = 1.0                                             # every query asks for ...
        copier.w_k.weight[0, 10] = 40.0                                      # ... the flagged position
        copier.w_v.weight[:10, :10] = torch.eye(10)                          # its token ...
        copier.w_o.weight[:10, :10] = torch.eye(10)                          # ... written back to the stream
        model.head.weight[:, :10] = torch.eye(10)
    return model


def test_patching_finds_the_planted_head_and_the_position_it_reads():
    model = planted_copier()
    clean, corrupted = (5, 8, 9, 8, 9, 7), (6, 8, 9, 8, 9, 7)
    with torch.no_grad():
        assert model(torch.tensor([clean]))[0, -1].argmax() == 5
        assert model(torch.tensor([corrupted]))[0, -1].argmax() == 6
    view = activation_patching(model, PatchingPair(clean, corrupted, T - 1, 5, 6))
    assert view.clean_metric > 1 and view.corrupted_metric < -1
    residual = view.residual[0]
    assert residual.rows == ["decoder.0.resid_pre", "decoder.1.resid_pre", "decoder.1.resid_post"]
    expected = np.zeros((3, T))
    expected[0, 0] = expected[1, 0] = expected[2, T - 1] = 1.0     # position 0 before the copy, the answer after
    np.testing.assert_allclose(residual.values, expected, atol=1e-5)
    heads = view.heads[0]
    expected_heads = np.zeros((2, 2))
    expected_heads[1, 0] = 1.0
    np.testing.assert_allclose(heads.values, expected_heads, atol=1e-5)
    assert np.unravel_index(np.abs(heads.by_position).argmax(), heads.by_position.shape) == (1, 0, T - 1)
    assert heads.by_position[1, 0, T - 1] == pytest.approx(1.0, abs=1e-5)
    assert np.abs(heads.by_position).sum() == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_patching_every_activation_of_a_run_into_itself_changes_nothing(arch):
    model = randomize_parameters(tiny_model(arch))
    ids, src = (7, 9, 12, 5, 8), (11, 6, 9, 14, 10, 7)
    pair = PatchingPair(ids, ids, 4, 9, 13, *((src, src) if arch == "encoder_decoder" else ()))
    names = [n for n in hook_names(model) if not n.endswith("pos_embed")]
    patches = [Patch(n) for n in names] + [Patch(n, 2) for n in names]
    patches += [Patch(n, None, 1) for n in names if n.rsplit(".", 1)[-1] in ("q", "k", "v", "scores", "weights", "z")]
    metrics = patched_metrics(model, pair, patches)
    with torch.no_grad():
        inputs = (torch.tensor([src]), torch.tensor([ids])) if arch == "encoder_decoder" else (torch.tensor([ids]),)
        logits = model(*inputs)
    clean = float(logits[0, 4, 9] - logits[0, 4, 13])
    assert len(metrics) == len(patches) > 60
    np.testing.assert_allclose(metrics, clean, atol=1e-5)


def by_hand(model, pair: PatchingPair, name: str, position: int | None, head: int | None, source: bool) -> float:
    """The normalised metric from two plain forward passes: record the clean activation, copy it into the
    corrupted run with a hook written here."""
    def run(ids, src, hooked=None):
        with torch.no_grad(), hooks(model, hooked or {}):
            if source:
                return model(torch.tensor([src]), torch.tensor([ids]))
            return model(torch.tensor([ids]))

    def metric(logits):
        return float(logits[0, pair.position, pair.right] - logits[0, pair.position, pair.wrong])

    recorded = {}
    clean = metric(run(pair.clean, pair.clean_source, {name: lambda x, n: recorded.setdefault("x", x.clone())}))
    corrupted = metric(run(pair.corrupted, pair.corrupted_source))

    def copy(x, n):
        x = x.clone()
        if head is None:
            x[:, position] = recorded["x"][:, position]
        elif position is None:
            x[:, :, head] = recorded["x"][:, :, head]                          # z: [B, T, H, Dh]
        else:
            x[:, position, head] = recorded["x"][:, position, head]
        return x

    patched = metric(run(pair.corrupted, pair.corrupted_source, {name: copy}))
    return (patched - corrupted) / (clean - corrupted)


def test_the_decoder_only_view_agrees_with_activations_copied_by_hand():
    model = randomize_parameters(tiny_model("decoder_only", max_len=16), std=0.3)
    pair = induction_pair(model.config.vocab_size, length=12, period=5, seed=3)
    view = activation_patching(model, pair)
    residual, heads = view.residual[0], view.heads[0]
    for row, position in [(0, 2), (0, 7), (1, 7), (1, 11), (2, 11), (1, 9)]:
        assert residual.values[row, position] == pytest.approx(
            by_hand(model, pair, residual.rows[row], position, None, False), abs=1e-4)
    for layer, head in [(0, 1), (1, 3)]:
        assert heads.values[layer, head] == pytest.approx(
            by_hand(model, pair, f"decoder.{layer}.self_attn.z", None, head, False), abs=1e-4)
        assert heads.by_position[layer, head, 11] == pytest.approx(
            by_hand(model, pair, f"decoder.{layer}.self_attn.z", 11, head, False), abs=1e-4)
    assert np.abs(residual.values[:, :2]).max() == 0                       # before the first change nothing differs


def test_the_seq2seq_view_agrees_with_activations_copied_by_hand():
    task = tasks.get("reverse", length=6, symbols=6)
    model = randomize_parameters(build_model(ModelConfig(
        arch="encoder_decoder", vocab_size=task.tokenizer.vocab_size, d_model=32, n_heads=4, n_encoder_layers=2,
        n_decoder_layers=2, d_ff=64, max_len=16)).eval(), std=0.3)
    pair = task_pair(task, seed=2)
    view = activation_patching(model, pair, heads_by_position=False)
    encoder, decoder = view.residual
    assert (encoder.stack, decoder.stack) == ("encoder", "decoder")
    changed = next(i for i, (a, b) in enumerate(zip(pair.clean_source, pair.corrupted_source)) if a != b)
    assert encoder.values[0, changed] == pytest.approx(1.0, abs=1e-5)      # the changed token itself restores it all
    assert encoder.values[1, changed - 1 if changed else 1] == pytest.approx(
        by_hand(model, pair, "encoder.1.resid_pre", changed - 1 if changed else 1, None, True), abs=1e-4)
    assert decoder.values[1, pair.position] == pytest.approx(
        by_hand(model, pair, "decoder.1.resid_pre", pair.position, None, True), abs=1e-4)
    cross = next(h for h in view.heads if h.site.is_cross)
    assert cross.by_position is None
    assert cross.values[1, 2] == pytest.approx(by_hand(model, pair, "decoder.1.cross_attn.z", None, 2, True), abs=1e-4)


def test_induction_pairs_change_one_token_of_the_block_in_every_copy():
    pair = induction_pair(101, length=64, period=24, seed=1)
    changed = [t for t, (a, b) in enumerate(zip(pair.clean, pair.corrupted)) if a != b]
    assert changed == [16, 40] and pair.position == 63
    assert pair.right == pair.clean[16] and pair.wrong == pair.corrupted[16] and pair.wrong not in pair.clean
    assert all(pair.clean[t] == pair.clean[t % 24] for t in range(64)) and len(set(pair.clean[:24])) == 24
    assert induction_pair(101, seed=1) == pair != induction_pair(101, seed=2)


@pytest.mark.parametrize("name, knobs", [("reverse", {"length": 10, "symbols": 10}), ("dates", {}), ("sort", {})])
def test_task_pairs_change_one_source_character_and_read_the_first_target_character_it_changes(name, knobs):
    task = tasks.get(name, **knobs)
    pair = task_pair(task, seed=0)
    source = task.tokenizer.decode(list(pair.clean_source))
    corrupted = task.tokenizer.decode(list(pair.corrupted_source))
    assert len(source) == len(corrupted) and sum(a != b for a, b in zip(source, corrupted)) == 1
    assert pair.clean == pair.corrupted and pair.clean[0] == BOS_ID and pair.position == len(pair.clean) - 1
    target = dict(task.held_out(64, seed=0)).get(source) or task.transform(source)
    prefix = task.tokenizer.decode(list(pair.clean[1:]))
    assert target.startswith(prefix) and task.tokenizer.encode(target[len(prefix)]) == [pair.right]
    assert pair.wrong != pair.right


def test_a_pair_from_typed_inputs_takes_each_run_s_top_token():
    model = randomize_parameters(tiny_model("decoder_only"))
    pair = pair_from_inputs(model, [5, 6, 7, 8], [5, 9, 7, 8])
    with torch.no_grad():
        clean, corrupted = model(torch.tensor([[5, 6, 7, 8], [5, 9, 7, 8]]))[:, -1]
    assert pair.right == int(clean.argmax()) and pair.position == 3
    assert pair.wrong == (int(corrupted.argmax()) if int(corrupted.argmax()) != pair.right
                          else int(corrupted.argsort(descending=True)[1]))


@pytest.mark.parametrize("make, message", [
    (lambda: PatchingPair((5, 6), (5,), 0, 5, 6), "same, non-zero length"),
    (lambda: PatchingPair((5, 6), (5, 7), 2, 5, 6), "position must be an index"),
    (lambda: PatchingPair((5, 6), (5, 7), 1, 5, 5), "same token"),
    (lambda: PatchingPair((5, "a"), (5, 7), 1, 5, 6), "token ids"),
    (lambda: PatchingPair((5, 6), (5, 7), 1, 5, 6, (5,), None), "both sources"),
    (lambda: induction_pair(101, length=64, period=63), "period must be"),
    (lambda: induction_pair(12, length=64, period=24), "ordinary tokens"),
    (lambda: task_pair(tasks.get("reverse"), source="xyz"), "has no characters"),
    (lambda: task_pair(tasks.get("addition")), "copy, reverse, sort and dates"),
    (lambda: activation_patching(tiny_model("decoder_only"), PatchingPair((5, 6), (5, 6), 1, 5, 6)),
     "same logit difference"),
    (lambda: activation_patching(tiny_model("decoder_only"), PatchingPair((5, 60), (5, 6), 1, 5, 6)),
     "outside the model's vocabulary"),
    (lambda: activation_patching(tiny_model("encoder_decoder"), PatchingPair((1, 6), (1, 6), 1, 5, 6)),
     "reads a source"),
    (lambda: activation_patching(tiny_model("decoder_only"), ((5, 6), (5, 7))), "PatchingPair"),
    (lambda: patched_metrics(tiny_model("decoder_only"), PatchingPair((5, 6), (5, 7), 1, 5, 6),
                             [Patch("decoder.pos_embed")]), "nothing to patch"),
    (lambda: patched_metrics(tiny_model("decoder_only"), PatchingPair((5, 6), (5, 7), 1, 5, 6),
                             [Patch("decoder.0.resid_post", 0, 1)]), "no head axis"),
])
def test_bad_pairs_and_patches_are_refused_with_the_reason(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()



def test_the_corruptions_found_each_change_one_token_and_flip_the_answer_by_more_than_noise():
    """The planted copier answers with the first token: only a change of position 0 (or of nothing it reads)
    can flip it, and every pair found changes exactly one token and moves the logit difference by >= MIN_SPREAD."""
    model = planted_copier()
    clean = (5, 8, 9, 8, 9, 7)
    pairs = flipping_pairs(model, clean, per_position=9)
    assert pairs
    for pair in pairs:
        changed = [t for t, (a, b) in enumerate(zip(pair.clean, pair.corrupted)) if a != b]
        assert changed == [0] and pair.right == 5 and pair.wrong == pair.corrupted[0]
        clean_metric, corrupted_metric = pair_metrics(model, pair)
        assert clean_metric - corrupted_metric >= MIN_SPREAD
        with torch.no_grad():
            assert int(model(torch.tensor([pair.corrupted]))[0, -1].argmax()) == pair.wrong != pair.right


def test_the_search_runs_no_more_changes_than_its_budget_allows():
    model = planted_copier()
    one_row = view_flops(model, 6) / (3 * 6 + 2 * 2 * (1 + 6))           # the FLOPs of one run of 6 tokens
    assert flipping_pairs(model, (5, 8, 9, 8, 9, 7), per_position=9, max_flops=one_row * 3) == []   # 3 nearest
    assert flipping_pairs(model, (5, 8, 9, 8, 9, 7), per_position=9, max_flops=one_row * 60)


def test_over_its_budget_the_view_leaves_out_the_head_by_position_runs_and_says_how_many():
    model = randomize_parameters(tiny_model("decoder_only", max_len=16), std=0.3)
    pair = induction_pair(model.config.vocab_size, length=12, period=5, seed=3)
    full = activation_patching(model, pair)
    one_row = view_flops(model, 12) / ((2 + 1) * 12 + 2 * 4 * (1 + 12))
    run_everywhere = int(sum((h.by_position != 0).sum() for h in full.heads))
    bounded = activation_patching(model, pair, max_flops=one_row * (3 * 12 + 8 + run_everywhere - 1))
    assert bounded.heads[0].by_position is None and bounded.left_out_runs >= run_everywhere
    np.testing.assert_allclose(bounded.residual[0].values, full.residual[0].values, atol=1e-6)
    np.testing.assert_allclose(bounded.heads[0].values, full.heads[0].values, atol=1e-6)
    with pytest.raises(PatchingTooCostly, match="GFLOPs"):
        activation_patching(model, pair, max_flops=one_row * 5)

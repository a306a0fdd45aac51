"""Each injected bug changes the model the way it claims, and only the model it is installed in."""
import math

import pytest
import torch

from playground.analysis import head_scores
from playground.labs import (
    drop_residuals, forget_embedding_scale, forget_score_scale, merge_heads_without_transpose, see_the_future,
    split_heads_without_transpose, split_heads_wrongly, upper_triangular_mask,
)
from playground.model import (
    DECODER_SELF, ModelConfig, MultiHeadAttention, Trace, build_model, causal_mask, merge_heads, split_heads,
)

VOCAB = 20


def decoder_only(seed: int = 0, **changes):
    fields = dict(arch="decoder_only", vocab_size=VOCAB, d_model=32, n_heads=4, n_decoder_layers=2, d_ff=64, max_len=16)
    fields.update(changes)
    torch.manual_seed(seed)
    return build_model(ModelConfig(**fields)).eval()


def encoder_decoder(seed: int = 0):
    torch.manual_seed(seed)
    return build_model(ModelConfig(arch="encoder_decoder", vocab_size=VOCAB, d_model=32, n_heads=4, n_encoder_layers=1,
                                   n_decoder_layers=1, d_ff=64, max_len=16)).eval()


def ids(batch: int = 2, length: int = 10, seed: int = 1) -> torch.Tensor:
    return torch.randint(5, VOCAB, (batch, length), generator=torch.Generator().manual_seed(seed))


def test_upper_triangular_mask_lets_each_query_see_itself_and_later_keys():
    mask = upper_triangular_mask(4, 4)
    assert mask.tolist() == [[True, True, True, True], [False, True, True, True],
                             [False, False, True, True], [False, False, False, True]]
    assert torch.equal(mask & causal_mask(4, 4), torch.eye(4, dtype=torch.bool))     # only the diagonal is shared
    assert upper_triangular_mask(1, 5).tolist() == [[False, False, False, False, True]]  # a cached step: itself only


@torch.no_grad()
def test_with_the_upper_triangular_mask_a_later_token_changes_an_earlier_logit():
    reference, broken = decoder_only(), decoder_only()
    see_the_future(broken)
    x = ids()
    changed = x.clone()
    changed[:, -1] = (x[:, -1] - 5 + 1) % (VOCAB - 5) + 5
    for model, leaks in ((reference, False), (broken, True)):
        earlier_change = (model(changed)[:, :-1] - model(x)[:, :-1]).abs().max()
        assert bool(earlier_change > 1e-4) is leaks


def _entropy(model, x) -> torch.Tensor:
    trace = Trace(include=("*.weights",))
    with torch.no_grad():
        model(x, trace=trace)
    weights = trace.attention(DECODER_SELF)[:, 0]                              # [L, H, T, T]
    return torch.tensor(head_scores(weights, "self", causal=True)["entropy"])  # [L, H]


def test_without_the_score_scale_attention_entropy_at_initialisation_is_lower():
    reference, broken = decoder_only(n_heads=1), decoder_only(n_heads=1)
    forget_score_scale(broken)
    x = ids(batch=1, length=16)
    with_scale, without_scale = _entropy(reference, x), _entropy(broken, x)
    # Layer 0 sees identical inputs, and softmax(c * s) has lower entropy for every c > 1.
    assert without_scale[0, 0] < with_scale[0, 0]
    assert without_scale.mean() < with_scale.mean()


@torch.no_grad()
def test_the_wrong_head_split_changes_outputs_for_identical_weights():
    reference, broken = decoder_only(), decoder_only()
    assert all(torch.equal(a, b) for a, b in zip(reference.state_dict().values(), broken.state_dict().values()))
    split_heads_wrongly(broken)
    x = ids()
    assert (broken(x) - reference(x)).abs().max() > 1e-4
    seq2seq_reference, seq2seq_broken = encoder_decoder(), encoder_decoder()
    split_heads_wrongly(seq2seq_broken)
    src, tgt = ids(seed=2), ids(seed=3)
    assert (seq2seq_broken(src, tgt) - seq2seq_reference(src, tgt)).abs().max() > 1e-4


def test_the_wrong_split_is_undone_by_its_merge_but_groups_positions_differently():
    x = torch.arange(2 * 6 * 8, dtype=torch.float32).view(2, 6, 8)          # [B, T, D]
    wrong, right = split_heads_without_transpose(x, 4), split_heads(x, 4)     # [B, H, T, Dh]
    assert wrong.shape == right.shape == (2, 4, 6, 2)
    assert torch.equal(merge_heads_without_transpose(wrong), x) and torch.equal(merge_heads(right), x)
    assert not torch.equal(wrong, right)
    positions_in_head_0 = {int(v) // 8 for v in wrong[0, 0].flatten()}        # value // D = position
    assert positions_in_head_0 == {0, 1}                                      # not all six positions


@torch.no_grad()
def test_without_the_embedding_scale_positions_outweigh_tokens():
    reference, broken = decoder_only(), decoder_only()
    forget_embedding_scale(broken)
    x = ids()
    traces = []
    for model in (reference, broken):
        trace = Trace(include=("*.tok_embed", "*.pos_embed"))
        model(x, trace=trace)
        traces.append(trace)
    scale = math.sqrt(32)
    assert torch.allclose(traces[1]["decoder.tok_embed"] * scale, traces[0]["decoder.tok_embed"], atol=1e-5)
    ratios = [t["decoder.pos_embed"].norm() / t["decoder.tok_embed"][0].norm() for t in traces]
    assert ratios[0] < 1.5 and ratios[1] > 3


@torch.no_grad()
def test_without_residuals_a_deep_stack_gives_every_position_nearly_the_same_vector():
    similarities = []
    for broken in (False, True):
        model = decoder_only(n_decoder_layers=8, d_model=32)
        if broken:
            drop_residuals(model)
        trace = Trace(include=("decoder.7.resid_post",))
        model(ids(length=16), trace=trace)
        hidden = torch.nn.functional.normalize(trace["decoder.7.resid_post"], dim=-1)   # [B, T, D]
        cosine = hidden @ hidden.transpose(1, 2)
        similarities.append(float(cosine[:, ~torch.eye(16, dtype=torch.bool)].mean()))
    assert similarities[0] < 0.6 and similarities[1] > 0.9


def test_a_bug_changes_only_the_model_it_is_installed_in():
    broken = decoder_only()
    for bug in (see_the_future, forget_score_scale, split_heads_wrongly, drop_residuals, forget_embedding_scale):
        bug(broken)
    fresh = decoder_only()
    assert fresh.decoder.mask_builder is causal_mask
    assert all(m.uses_reference_pieces() for m in fresh.modules() if isinstance(m, MultiHeadAttention))
    assert all(block.residual(torch.ones(1), torch.ones(1)) == 2 for block in fresh.decoder.blocks)
    assert fresh.decoder.embed.scale == math.sqrt(32)


def test_a_bug_refuses_a_model_without_the_piece_it_breaks():
    encoder_only = build_model(ModelConfig(arch="encoder_only", vocab_size=VOCAB, n_encoder_layers=1,
                                           n_decoder_layers=0, d_model=16, n_heads=2, d_ff=32, max_len=8))
    with pytest.raises(ValueError, match="needs a model with a decoder"):
        see_the_future(encoder_only)


def test_a_float_mask_is_added_to_the_scores_so_a_0_1_causal_mask_hides_nothing():
    from playground.labs.bugs import float_causal_mask
    from playground.model.attention import attend

    generator = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 2, 5, 4, generator=generator) for _ in range(3))
    _, scores, weights = attend(q, k, v, float_causal_mask(5, 5))
    expected = torch.softmax(scores + torch.ones(5, 5).tril(), dim=-1)
    torch.testing.assert_close(weights, expected)
    future = torch.ones(5, 5, dtype=torch.bool).triu(1)                    # [Tq, Tk] keys after the query
    assert (weights[..., future] > 0).all()                                 # the future keeps its weight
    _, _, boolean = attend(q, k, v, float_causal_mask(5, 5).bool())
    assert (boolean[..., future] == 0).all()


def test_merging_heads_with_view_after_transpose_raises_and_contiguous_fixes_it():
    from playground.labs.bugs import merge_heads_contiguous_view
    from playground.model.attention import merge_heads

    x = torch.randn(2, 4, 6, 8)                                              # [B, H, T, Dh]
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        x.transpose(1, 2).view(2, 6, 32)
    torch.testing.assert_close(merge_heads_contiguous_view(x), merge_heads(x), rtol=0, atol=0)

"""Switching heads off: the arithmetic on a tiny model, and the shared model left untouched."""
import pytest
import torch

from playground.model import CROSS, DECODER_SELF, ENCODER_SELF, Trace, merge_heads
from playground.model.interventions import Head, heads_off

from .helpers import ARCHS, run, tiny_model


def expected_attention_out(trace: Trace, attention, off: set[int], how: str) -> torch.Tensor:
    """W_o applied head by head: sum over heads h of z_h W_o[:, h]^T + b, with z_h = weights_h v_h
    for a working head, 0 (zero) or its mean over positions (mean) for a head switched off."""
    name = attention.name
    z = trace[f"{name}.weights"] @ trace[f"{name}.v"]                       # [B, H, T, Dh]
    head_dim = z.size(-1)
    out = attention.w_o.bias.expand(z.size(0), z.size(2), -1).clone()       # [B, T, D]
    for h in range(z.size(1)):
        z_h = z[:, h]                                                        # [B, T, Dh]
        if h in off:
            if how == "zero":
                continue
            z_h = z_h.mean(dim=1, keepdim=True).expand_as(z_h)
        out += z_h @ attention.w_o.weight[:, h * head_dim:(h + 1) * head_dim].T
    return out


@pytest.mark.parametrize("how", ["zero", "mean"])
def test_a_head_switched_off_gives_its_hand_computed_output(how):
    model = tiny_model("decoder_only", n_decoder_layers=1)
    ids = torch.tensor([[3, 9, 4, 4, 7, 12]])
    attention = model.decoder.blocks[0].self_attn
    clean = Trace(("decoder.0.self_attn.*",))
    with torch.no_grad():
        model(ids, trace=clean)
    changed = Trace(("decoder.0.self_attn.out",))
    with torch.no_grad():
        heads_off(model, [Head(DECODER_SELF, 0, 1), Head(DECODER_SELF, 0, 3)], how)(ids, trace=changed)
    expected = expected_attention_out(clean, attention, {1, 3}, how)
    torch.testing.assert_close(changed["decoder.0.self_attn.out"], expected, atol=1e-5, rtol=1e-5)
    # and the two kinds really differ: the mean of a head is not nothing
    assert not torch.allclose(expected, expected_attention_out(clean, attention, {1, 3}, "mean" if how == "zero" else "zero"))


@pytest.mark.parametrize("arch", ARCHS)
def test_every_site_of_every_architecture_can_be_switched_off_and_the_model_stays_as_it_was(arch):
    model = tiny_model(arch)
    ids, src = torch.tensor([[1, 5, 6, 7, 8]]), torch.tensor([[5, 6, 7, 9]])
    before = run(model, ids, src=src)
    for site in model.sites():
        off = heads_off(model, [Head(site, 1, h) for h in range(4)])
        assert not torch.allclose(run(off, ids, src=src), before, atol=1e-4), site
        assert off.sites() == model.sites()
    torch.testing.assert_close(run(model, ids, src=src), before, rtol=0, atol=0)
    assert all(m.merge is merge_heads for m in model.modules() if hasattr(m, "merge"))


def test_the_view_shares_every_parameter_with_the_model():
    model = tiny_model("encoder_decoder")
    off = heads_off(model, [Head(CROSS, 0, 2)])
    assert {id(p) for p in off.parameters()} == {id(p) for p in model.parameters()}
    assert off.decoder.blocks[1] is model.decoder.blocks[1] and off.encoder is model.encoder
    assert off.decoder.blocks[0].cross_attn is not model.decoder.blocks[0].cross_attn


def test_a_view_can_be_switched_off_again():
    model = tiny_model("decoder_only")
    ids = torch.tensor([[2, 8, 5, 11]])
    both = heads_off(heads_off(model, [Head(DECODER_SELF, 0, 0)]), [Head(DECODER_SELF, 0, 2)])
    at_once = heads_off(model, [Head(DECODER_SELF, 0, 0), Head(DECODER_SELF, 0, 2)])
    torch.testing.assert_close(both(ids), at_once(ids))


@pytest.mark.parametrize("heads, how, message", [
    ([Head(CROSS, 0, 0)], "zero", "no decoder.cross_attn"),
    ([Head(DECODER_SELF, 2, 0)], "zero", "layers 0..1, got layer 2"),
    ([Head(DECODER_SELF, 0, 4)], "zero", "heads 0..3, got head 4"),
    ([Head(DECODER_SELF, 0, 0)], "half", "one of"),
    ([(DECODER_SELF, 0, 0)], "zero", "Head"),
])
def test_heads_the_model_does_not_have_are_refused_with_the_reason(heads, how, message):
    with pytest.raises((ValueError, TypeError), match=message):
        heads_off(tiny_model("decoder_only"), heads, how)


def test_an_encoder_head_of_a_seq2seq_model_is_found_in_the_encoder():
    model = tiny_model("encoder_decoder")
    off = heads_off(model, [Head(ENCODER_SELF, 1, 0)])
    assert off.encoder.blocks[1].self_attn.hook_z.own_hooks and not model.encoder.blocks[1].self_attn.hook_z.own_hooks
    assert off.decoder is model.decoder

"""One interface for the three architectures: encode, decode, sites; and the attention-site type."""
import pytest
import torch

from playground.model import CROSS, DECODER_SELF, ENCODER_SELF, SITES, AttentionSite, Trace

from .helpers import ARCHS, tiny_model

SITES_OF = {"encoder_decoder": (ENCODER_SELF, DECODER_SELF, CROSS), "decoder_only": (DECODER_SELF,),
            "encoder_only": (ENCODER_SELF,)}


def test_a_site_names_its_trace_keys_and_sides():
    assert [site.id for site in SITES] == ["encoder", "decoder", "cross"]
    assert CROSS.key(1) == "decoder.1.cross_attn.weights" and CROSS.pattern("scores") == "decoder.*.cross_attn.scores"
    assert (CROSS.query_side, CROSS.key_side) == ("target", "source")
    assert (DECODER_SELF.query_side, DECODER_SELF.key_side) == ("target", "target")
    assert [site.causal for site in SITES] == [False, True, False]
    assert AttentionSite.parse("cross") is CROSS and AttentionSite.parse("encoder.self_attn") is ENCODER_SELF


@pytest.mark.parametrize("stack, sublayer", [("encoder", "cross_attn"), ("middle", "self_attn"), ("decoder", "ffn")])
def test_a_site_that_no_model_has_is_refused(stack, sublayer):
    with pytest.raises(ValueError):
        AttentionSite(stack, sublayer)
    with pytest.raises(ValueError, match="not an attention site"):
        AttentionSite.parse(f"{stack}.{sublayer}")


@pytest.mark.parametrize("arch", ARCHS)
def test_encode_then_decode_equals_forward_and_every_site_is_traced(arch):
    model = tiny_model(arch)
    src, tgt = torch.randint(5, 23, (2, 7)), torch.randint(5, 23, (2, 5))
    trace = Trace()
    memory = model.encode(src if model.has_encoder else None, trace)
    ids = tgt if model.has_decoder else src
    logits = model.decode(ids, memory, trace=trace)
    expected = model(src, tgt) if model.has_encoder and model.has_decoder else model(ids)
    torch.testing.assert_close(logits, expected)
    assert model.sites() == SITES_OF[arch]
    lengths = {"source": src.size(1), "target": tgt.size(1)} if model.has_decoder else {"source": src.size(1)}
    for site in model.sites():
        weights = trace.attention(site)                                      # [L, B, H, Tq, Tk]
        assert weights.shape[-2:] == (lengths[site.query_side], lengths[site.key_side])


def test_each_architecture_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="memory=None"):
        tiny_model("decoder_only").decode(torch.ones(1, 3, dtype=torch.long), tiny_model("encoder_only").encode(
            torch.ones(1, 3, dtype=torch.long)))
    with pytest.raises(ValueError, match="call encode"):
        tiny_model("encoder_decoder").decode(torch.ones(1, 3, dtype=torch.long), None)
    encoder_only = tiny_model("encoder_only")
    with pytest.raises(ValueError, match="no decoder"):
        encoder_only.new_cache()
    assert tiny_model("decoder_only").encode(torch.ones(1, 3, dtype=torch.long)) is None


def test_an_attention_trace_name_is_read_back_as_its_site_layer_and_part():
    assert AttentionSite.from_key("decoder.1.cross_attn.weights") == (CROSS, 1, "weights")
    assert AttentionSite.from_key(ENCODER_SELF.key(3, "q")) == (ENCODER_SELF, 3, "q")
    for other in ("decoder.1.resid_post", "decoder.final_norm", "encoder.0.cross_attn.q", "logits", "decoder.x.self_attn.q"):
        assert AttentionSite.from_key(other) is None


@pytest.mark.parametrize("arch", ARCHS)
def test_the_config_and_the_model_name_the_same_capabilities(arch):
    model = tiny_model(arch)
    assert model.sites() == SITES_OF[arch] == model.config.sites()
    assert (model.has_encoder, model.has_decoder) == (ENCODER_SELF in SITES_OF[arch], DECODER_SELF in SITES_OF[arch])

"""Direct logit attribution: the parts and the bias terms add up to the model's logit, each part is its
output through the frozen final norm and the unembedding, and post-norm models are refused."""
import pytest
import torch

from playground.analysis.attribution import logit_attribution
from playground.labs.bugs import drop_residuals
from playground.model import Trace
from tests.model.helpers import ARCHS, POSITIONALS, randomize_parameters, tiny_model

IDS, SOURCE = [7, 12, 9, 5, 20, 11], [8, 14, 6, 19, 10]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("positional", POSITIONALS)
def test_the_parts_of_a_random_pre_norm_model_sum_to_its_logit(arch, positional):
    model = randomize_parameters(tiny_model(arch, positional, seed=3), seed=4, std=0.3)
    for position, token in [(-1, None), (2, 17)]:
        source = SOURCE if arch == "encoder_decoder" else None
        attribution = logit_attribution(model, IDS, position, token, source=source)
        assert attribution.total == pytest.approx(attribution.logit, abs=1e-4)
        heads = [c for c in attribution.components if c.kind == "head"]
        n_sublayers = 2 if arch == "encoder_decoder" else 1
        assert len(heads) == 2 * 4 * n_sublayers
        assert len({c.name for c in attribution.components}) == len(attribution.components)
    assert attribution.token == 17 and attribution.position == 2


def test_a_head_s_share_is_its_output_through_the_frozen_norm_and_the_unembedding():
    model = randomize_parameters(tiny_model("decoder_only"), seed=5, std=0.3)
    attribution = logit_attribution(model, IDS, 3, 9)
    trace = Trace(("decoder.1.self_attn.z", "decoder.1.resid_post"))
    with torch.no_grad():
        model(torch.tensor([IDS]), trace=trace)
        attention, norm = model.decoder.blocks[1].self_attn, model.decoder.final_norm
        head_out = attention.w_o.weight[:, 16:24].double() @ trace["decoder.1.self_attn.z"][0, 3, 2].double()   # head 2
        stream = trace["decoder.1.resid_post"][0, 3].double()
        sigma = torch.sqrt(stream.var(unbiased=False) + norm.eps)
        expected = float(((head_out - head_out.mean()) / sigma * norm.weight.double()) @ model.head.weight[9].double())
    share = next(c for c in attribution.components if c.name == "decoder.1.self_attn.head2")
    assert (share.kind, share.layer, share.head, share.sublayer) == ("head", 1, 2, "self_attn")
    assert share.value == pytest.approx(expected, abs=1e-9)
    assert attribution.scale == pytest.approx(1 / float(sigma))


def test_without_a_final_norm_bias_or_positions_the_parts_still_sum():
    model = randomize_parameters(tiny_model("decoder_only", "rope", bias=False), seed=6, std=0.3)
    attribution = logit_attribution(model, IDS)
    kinds = {c.kind for c in attribution.components}
    assert kinds == {"embedding", "head", "mlp"}
    assert attribution.total == pytest.approx(attribution.logit, abs=1e-4)


@pytest.mark.parametrize("make, message", [
    (lambda: logit_attribution(tiny_model("decoder_only", norm="post"), IDS), "post-norm"),
    (lambda: logit_attribution(tiny_model("decoder_only", dropout=0.1).train(), IDS), "model.eval"),
    (lambda: logit_attribution(tiny_model("decoder_only"), []), "empty"),
    (lambda: logit_attribution(tiny_model("decoder_only"), IDS, position=6), "outside the input"),
    (lambda: logit_attribution(tiny_model("decoder_only"), IDS, token=23), "vocabulary"),
    (lambda: logit_attribution(tiny_model("encoder_decoder"), IDS), "source"),
    (lambda: logit_attribution(tiny_model("decoder_only", never_predict=(0,)), IDS, token=0), "never predicts"),
])
def test_what_cannot_be_split_is_refused_with_the_reason(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_a_model_whose_residual_connections_were_swapped_is_refused():
    model = tiny_model("decoder_only")
    drop_residuals(model)
    with pytest.raises(ValueError, match="do not add up"):
        logit_attribution(model, IDS)

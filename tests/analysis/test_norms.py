"""LayerNorm by hand against torch's layer_norm with the model's own gamma, beta and eps; BatchNorm
against torch's batch_norm; the residual stream's size at every stage of the trace."""
import torch
import torch.nn.functional as F

from playground.analysis.norms import batch_vs_layer, first_norm_input, layer_norm_steps, residual_norms
from playground.analysis.worked_attention import traced_run
from tests.model.helpers import tiny_model

IDS = [5, 9, 7, 12, 6]


def test_layer_norm_by_hand_is_torchs_layer_norm_with_the_models_parameters():
    model = tiny_model("decoder_only")
    trace = traced_run(model, None, IDS)
    x, norm, name = first_norm_input(model, trace, 1)
    assert name == "decoder.blocks.1.norm_self"
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)                                      # a gamma and beta that matter
        norm.bias.uniform_(-0.5, 0.5)
    steps = layer_norm_steps(x[2], norm)
    expected = F.layer_norm(x[2].double(), (x.size(-1),), norm.weight.double(), norm.bias.double(), norm.eps)
    assert torch.allclose(steps.output, expected, atol=1e-10)
    assert abs(float(steps.normalised.mean())) < 1e-9
    assert abs(float(steps.normalised.pow(2).mean()) - steps.variance / (steps.variance + steps.eps)) < 1e-9


def test_post_norm_reads_the_stream_plus_the_attention_output():
    model = tiny_model("encoder_only", norm="post")
    trace = traced_run(model, IDS, None)
    x, norm, _ = first_norm_input(model, trace, 0)
    with torch.no_grad():
        assert torch.allclose(norm(x), trace["encoder.0.resid_mid"][0], atol=1e-5)


def test_layer_norm_normalises_rows_and_batch_norm_columns():
    x = torch.randn(4, 6, generator=torch.Generator().manual_seed(0)) * torch.arange(1, 7)
    both = batch_vs_layer(x, eps=1e-5)
    assert torch.allclose(both.layer_out, F.layer_norm(x.double(), (6,), eps=1e-5), atol=1e-10)
    assert torch.allclose(both.batch_out, F.batch_norm(x.double(), None, None, training=True, eps=1e-5), atol=1e-10)
    assert torch.allclose(both.layer_out.mean(dim=1), torch.zeros(4, dtype=torch.float64), atol=1e-10)
    assert torch.allclose(both.batch_out.mean(dim=0), torch.zeros(6, dtype=torch.float64), atol=1e-10)
    assert not torch.allclose(both.layer_out, both.batch_out, atol=1e-2)


def test_residual_norms_cover_every_stage_of_every_stack():
    model = tiny_model("encoder_decoder")
    trace = traced_run(model, IDS, [1, *IDS[:3]])
    norms = residual_norms(model, trace)
    assert list(norms) == ["encoder.0.resid_pre", "encoder.0.resid_post", "encoder.1.resid_post", "encoder.final_norm",
                           "decoder.0.resid_pre", "decoder.0.resid_post", "decoder.1.resid_post", "decoder.final_norm"]
    assert torch.allclose(norms["encoder.1.resid_post"], trace["encoder.1.resid_post"][0].double().norm(dim=-1))
    assert norms["decoder.0.resid_pre"].shape == (4,)
    post = tiny_model("decoder_only", norm="post")
    assert "decoder.final_norm" not in residual_norms(post, traced_run(post, None, IDS))

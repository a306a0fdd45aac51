"""The logit lens reads every layer's residual stream through the final norm and the head."""
import pytest
import torch

from playground.analysis.logit_lens import layer_logits, logit_lens
from playground.model import Trace
from tests.model.helpers import ARCHS, run, tiny_model

IDS, SRC = [1, 5, 6, 7, 8], [5, 6, 7, 9]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("norm", ["pre", "post"])
def test_the_last_layer_lens_is_the_models_own_prediction(arch, norm):
    model = tiny_model(arch, norm=norm, n_heads=2)
    trace = Trace(("*.resid_post", "logits"))
    with torch.no_grad():
        run(model, torch.tensor([IDS]), trace, src=torch.tensor([SRC]))
    last = len(model.decoder.blocks if model.has_decoder else model.encoder.blocks) - 1
    torch.testing.assert_close(layer_logits(model, trace, last), trace["logits"])
    assert not torch.allclose(layer_logits(model, trace, 0), trace["logits"], atol=1e-3)


@pytest.mark.parametrize("arch, stack, layers", [("decoder_only", "decoder", 3), ("encoder_decoder", "decoder", 3),
                                                 ("encoder_only", "encoder", 2)])
def test_one_top_token_and_probability_per_layer_and_position(arch, stack, layers):
    model = tiny_model(arch, n_decoder_layers=0 if arch == "encoder_only" else 3)
    lens = logit_lens(model, IDS, SRC if arch == "encoder_decoder" else None)
    assert lens.stack == stack
    assert lens.top_ids.shape == lens.top_probs.shape == (layers, len(IDS))
    assert ((lens.top_probs > 0) & (lens.top_probs <= 1)).all()
    with torch.no_grad():
        logits = run(model, torch.tensor([IDS]), src=torch.tensor([SRC]))[0]     # [T, V]
    assert lens.top_ids[-1].tolist() == logits.argmax(-1).tolist()
    torch.testing.assert_close(torch.tensor(lens.top_probs[-1]), torch.softmax(logits, -1).max(-1).values)


def test_bad_inputs_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="empty"):
        logit_lens(tiny_model("decoder_only"), [])
    with pytest.raises(ValueError, match="source"):
        logit_lens(tiny_model("encoder_decoder"), IDS)
    with pytest.raises(KeyError, match="resid_post"):
        layer_logits(tiny_model("decoder_only"), Trace(()), 0)

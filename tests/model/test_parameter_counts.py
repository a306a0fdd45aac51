"""Parameter counts against formulas written from the architecture, not from the model code.

Per layer, with D = d_model, F = d_ff and b = 1 when biases are on (0 otherwise):
    attention       4 D^2 + 4 b D          (W_q, W_k, W_v, W_o)
    feed-forward    2 D F + b (F + D)      (W_in, W_out)
    LayerNorm       D + b D                (gain, shift)
An encoder block has one attention and two norms, a decoder block of a seq2seq model two attentions
(self, cross) and three norms, a decoder-only block one attention and two norms; each has one
feed-forward. Pre-norm stacks end with one more LayerNorm. Learned positions add max_len x D per
stack; token embeddings V x D per stack; the head V x D unless tied (an encoder-decoder ties source
embedding, target embedding and head into one matrix).
"""
import pytest

from playground.model import ModelConfig, build_model, count_parameters

D, F, V, MAX_LEN = 24, 40, 31, 50


def expected_counts(arch, tie, bias, norm, positional, vocab=V, tgt_vocab=None):
    b = int(bias)
    attention, feed_forward, layer_norm = 4 * D * D + 4 * b * D, 2 * D * F + b * (F + D), D + b * D
    tgt_vocab = tgt_vocab or vocab
    encoder_layers, decoder_layers = {"encoder_decoder": (2, 3), "decoder_only": (0, 3), "encoder_only": (2, 0)}[arch]
    stacks = (encoder_layers > 0) + (decoder_layers > 0)
    cross = arch == "encoder_decoder"
    norms_per_decoder_block = 3 if cross else 2
    out_vocab = tgt_vocab if cross else vocab
    counts = {
        "attention": attention * (encoder_layers + decoder_layers * (2 if cross else 1)),
        "feed_forward": feed_forward * (encoder_layers + decoder_layers),
        "norms": layer_norm * (2 * encoder_layers + norms_per_decoder_block * decoder_layers
                               + (stacks if norm == "pre" else 0)),
        "position_embeddings": MAX_LEN * D * stacks if positional == "learned" else 0,
        "token_embeddings": vocab * D if (tie or not cross) else (vocab + tgt_vocab) * D,
        "output_head": 0 if tie else out_vocab * D,
    }
    counts["total"] = sum(counts.values())
    return counts


def _config(arch, tie, bias, norm, positional, tgt_vocab=None):
    layers = {"encoder_decoder": (2, 3), "decoder_only": (0, 3), "encoder_only": (2, 0)}[arch]
    return ModelConfig(arch=arch, vocab_size=V, tgt_vocab_size=tgt_vocab, d_model=D, n_heads=4, d_ff=F,
                       max_len=MAX_LEN, n_encoder_layers=layers[0], n_decoder_layers=layers[1], tie_weights=tie,
                       bias=bias, norm=norm, positional=positional)


@pytest.mark.parametrize("positional", ["learned", "rope"])
@pytest.mark.parametrize("norm", ["pre", "post"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("tie", [True, False])
@pytest.mark.parametrize("arch", ["encoder_decoder", "decoder_only", "encoder_only"])
def test_counts_follow_the_formula(arch, tie, bias, norm, positional):
    config = _config(arch, tie, bias, norm, positional)
    expected = expected_counts(arch, tie, bias, norm, positional)
    assert count_parameters(config) == expected
    model = build_model(config)
    assert sum(p.numel() for p in model.parameters()) == expected["total"]   # each shared tensor once


def test_an_untied_encoder_decoder_counts_both_vocabularies():
    config = _config("encoder_decoder", False, True, "pre", "sinusoidal", tgt_vocab=17)
    expected = expected_counts("encoder_decoder", False, True, "pre", "sinusoidal", tgt_vocab=17)
    assert expected["token_embeddings"] == (31 + 17) * D and expected["output_head"] == 17 * D
    assert count_parameters(config) == expected

import pytest

from playground.model import ModelConfig


def test_json_round_trip_preserves_every_field():
    config = ModelConfig(arch="encoder_decoder", vocab_size=40, tgt_vocab_size=50, n_encoder_layers=3,
                         n_decoder_layers=1, positional="rope", norm="post", activation="relu",
                         dropout=0.1, tie_weights=False, scale_embedding=False, bias=False, pad_id=2)
    assert ModelConfig.from_json(config.to_json()) == config


@pytest.mark.parametrize("changes, field, hint", [
    (dict(d_model=130, n_heads=4), "d_model", "divisible by n_heads=4"),
    (dict(d_model=12, n_heads=4, positional="rope"), "positional", "must be even (got 3)"),
    (dict(n_decoder_layers=0), "n_decoder_layers", "at least 1 decoder layer"),
    (dict(dropout=1.0), "dropout", "[0, 1)"),
    (dict(dropout=-0.1), "dropout", "[0, 1)"),
    (dict(arch="encoder_decoder", n_encoder_layers=1, tgt_vocab_size=99), "tie_weights", "vocabularies must match"),
    (dict(positional="alibi"), "positional", "not one of"),
    (dict(norm="sandwich"), "norm", "not one of"),
    (dict(activation="swish"), "activation", "not one of"),
    (dict(vocab_size=0), "vocab_size", "integer in [2, 300,000], got 0"),
    (dict(d_model=100_000), "d_model", "integer in [1, 8,192], got 100,000"),
    (dict(max_len=10**9), "max_len", "integer in [1, 65,536], got 1,000,000,000"),
    (dict(n_decoder_layers=1000), "n_decoder_layers", "integer in [0, 48], got 1,000"),
    (dict(d_ff=2.5), "d_ff", "got 2.5"),
    (dict(arch="encoder_decoder", n_encoder_layers=1, tgt_vocab_size=10**7, tie_weights=False), "tgt_vocab_size",
     "integer in [2, 300,000]"),
    (dict(pad_id=64), "pad_id", "[0, 64)"),
    (dict(arch="encoder_only"), "n_encoder_layers", "at least 1 encoder layer"),
    (dict(n_encoder_layers=2), "n_encoder_layers", "has no encoder"),
    (dict(arch="gpt"), "arch", "not one of"),
    (dict(tie_weights="yes"), "tie_weights", "true or false"),
])
def test_invalid_config_names_the_field_and_what_is_valid(changes, field, hint):
    with pytest.raises(ValueError) as error:
        ModelConfig(**changes)
    assert f"ModelConfig.{field}" in str(error.value)
    assert hint in str(error.value)


def test_unknown_fields_are_refused_with_the_valid_list():
    with pytest.raises(ValueError, match="unknown model config field.*n_layers"):
        ModelConfig.from_dict({"n_layers": 3})


def test_untied_seq2seq_may_have_different_vocabularies():
    config = ModelConfig(arch="encoder_decoder", n_encoder_layers=1, vocab_size=10, tgt_vocab_size=12, tie_weights=False)
    assert config.target_vocab_size == 12

"""The corpus probes and the guessing game are offered by what the model can read, not by what its card claims:
a card may name any corpus, and a model whose characters cannot read that text is offered neither."""
import pytest

from playground.data import CharTokenizer
from playground.model import ModelConfig, build_model
from playground.ui.views.guessing import playable
from playground.ui.views.probes import probe_properties
from playground.zoo import ModelEntry

LATIN = CharTokenizer("abcdefghijklmnopqrstuvwxyz ,.\n")
CHINESE = CharTokenizer("床前明月光疑是地上霜，。\n")


def character_model(tokenizer: CharTokenizer, corpus: str) -> ModelEntry:
    """A small decoder-only character model, uploaded with a card that names `corpus`."""
    config = ModelConfig(arch="decoder_only", vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2,
                         n_decoder_layers=1, d_ff=32, max_len=32)
    return ModelEntry("own-upload", build_model(config), tokenizer, config, f"Corpus `{corpus}`, characters.", "session")


@pytest.mark.parametrize("tokenizer, corpus, offered", [
    (LATIN, "tiny_shakespeare", ("vowel",)),
    (CHINESE, "tang_poems", ("line_end",)),
    (LATIN, "tang_poems", ()),                   # a Latin model whose card claims Tang poems
    (CHINESE, "tiny_shakespeare", ()),           # a Chinese model whose card claims Shakespeare
    (CHINESE, "bundled", ()),
])
def test_a_corpus_probe_and_the_game_need_a_model_that_reads_the_corpus(tokenizer, corpus, offered):
    entry = character_model(tokenizer, corpus)
    assert probe_properties(entry) == offered
    assert playable(entry) is bool(offered)

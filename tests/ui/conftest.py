"""Tiny checkpoints for the app to load, and the registry over them."""
import pytest
import torch

from playground.checkpoint import save
from playground.data import CharTokenizer, tasks
from playground.model import ModelConfig, build_model
from playground.ui import create_app
from playground.zoo import ModelRegistry

LETTERS = CharTokenizer("abcdefghij ")


def _save(directory, name, config, tokenizer, seed=0):
    torch.manual_seed(seed)
    save(directory / name, build_model(config), tokenizer, card=f"# {name}\nA tiny model for tests.")


@pytest.fixture(scope="session")
def pretrained_dir(tmp_path_factory):
    """copy (encoder-decoder), tiny-gpt (decoder-only), tiny-bert (encoder-only) and one broken folder."""
    directory = tmp_path_factory.mktemp("pretrained")
    copy = tasks.get("copy")
    _save(directory, "copy", ModelConfig(arch="encoder_decoder", vocab_size=copy.tokenizer.vocab_size, d_model=16,
                                         n_heads=2, n_encoder_layers=1, n_decoder_layers=2, d_ff=32, max_len=16),
          copy.tokenizer)
    _save(directory, "tiny-gpt", ModelConfig(arch="decoder_only", vocab_size=LETTERS.vocab_size, d_model=16, n_heads=2,
                                             n_decoder_layers=2, d_ff=32, max_len=24, positional="learned"), LETTERS)
    _save(directory, "tiny-bert", ModelConfig(arch="encoder_only", vocab_size=LETTERS.vocab_size, d_model=16, n_heads=4,
                                              n_encoder_layers=1, n_decoder_layers=0, d_ff=32, max_len=24,
                                              positional="rope"), LETTERS)
    (directory / "broken").mkdir()
    (directory / "broken" / "model.safetensors").write_bytes(b"\x80\x04 not a checkpoint")
    return directory


@pytest.fixture(scope="session")
def registry(pretrained_dir):
    return ModelRegistry(pretrained_dir)


@pytest.fixture(scope="module")
def demo(pretrained_dir):
    """The whole app on the test checkpoints."""
    return create_app(pretrained_dir)


@pytest.fixture(scope="module")
def shipped():
    """The registry of the models shipped in pretrained/ (skips where the copy model is absent)."""
    registry = ModelRegistry()
    if registry.get("copy") is None or registry.get("copy").source != "pretrained":
        pytest.skip("needs the shipped copy model (pretrained/copy)")
    return registry

"""Tiny checkpoints for the app to load, and the registry over them; the app on them, and another served;
the shipped models' registry and the Lessons tab's views of it, each built once for the whole test run."""
import copy
import dataclasses
import functools

import gradio as gr
import plotly.graph_objects as go
import pytest
import torch

from playground.checkpoint import save
from playground.data import CharTokenizer, tasks
from playground.model import ModelConfig, build_model
from playground.ui import create_app
from playground.ui.tabs.lessons.views import VIEWS
from playground.zoo import ModelRegistry

from .serving import serve

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


@pytest.fixture(scope="session")
def demo(pretrained_dir):
    """The whole app on the test checkpoints, built once for the run (a build costs about 2 s CPU): for
    tests that read its page or call its events, not ones that change how it is built."""
    return create_app(pretrained_dir)


@dataclasses.dataclass(frozen=True)
class Served:
    app: gr.Blocks
    url: str


@pytest.fixture(scope="session")
def served(pretrained_dir):
    """Another app on the test checkpoints, served on localhost once for the run (`demo` stays unserved,
    so a test may serve it by itself); tests reach it as independent sessions."""
    app = create_app(pretrained_dir)
    for url in serve(app):
        yield Served(app, url)


@pytest.fixture(scope="session")
def shipped():
    """The registry of the models shipped in pretrained/, shared read-only as the app shares it (skips
    where the copy model is absent)."""
    registry = ModelRegistry()
    if registry.get("copy") is None or registry.get("copy").source != "pretrained":
        pytest.skip("needs the shipped copy model (pretrained/copy)")
    return registry


_BUILT_VIEWS = {}               # (view key, lang) -> Shown, of the `shipped` registry


def _built_once(key: str, view, shipped_registry: ModelRegistry, registry: ModelRegistry, lang: str):
    if registry is not shipped_registry:
        return view(registry, lang)
    if (key, lang) not in _BUILT_VIEWS:
        _BUILT_VIEWS[key, lang] = view(registry, lang)
    built = _BUILT_VIEWS[key, lang]                               # a test may change what it gets: a copy
    return dataclasses.replace(built, figures=[go.Figure(figure) for figure in built.figures],
                               facts=copy.deepcopy(built.facts))


@pytest.fixture
def shipped_views(monkeypatch, shipped):
    """`shipped`, whose Lessons views (VIEWS) are each built once per language for the whole test run:
    a view is a function of the shipped models and the language only. Each call gets its own copy."""
    for key, view in list(VIEWS.items()):
        monkeypatch.setitem(VIEWS, key, functools.partial(_built_once, key, view, shipped))
    return shipped

"""Text that would be markup if the app did not write it literally, checkpoints whose vocabularies
hold it, and the checks that what the app produced holds none of it.

Every payload names the host evil.example or the marker PWN, so whatever they describe (an
element, an attribute, a link, a request) is recognisable wherever it would appear. A payload
checkpoint's model predicts its payload tokens above all others (its final LayerNorm gives every
position the same vector, to which only the payload tokens' embeddings point), so they fill the
candidates, the generated text, the beam, the logit lens and the nearest neighbours.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import plotly.graph_objects as go
import torch

from playground.checkpoint import to_bytes
from playground.data import BPETokenizer, CharTokenizer
from playground.data.bpe_tokenizer import _symbol_to_byte
from playground.model import ModelConfig, build_model

PAYLOADS = (
    "<img src=http://evil.example/i.png>",
    '<a href="https://evil.example/">PWN</a>',
    "[PWN](http://evil.example/l)",
    "![PWN](http://evil.example/i.png)",
    "<http://evil.example/auto>",
    "www.evil.example/w",
    "PWN@evil.example",
    "<b>PWN</b><i>PWN</i><br>",
    '<p style="position:fixed;inset:0">PWN',
    "`PWN` *PWN* _PWN_ ~~PWN~~ $$PWN$$ |",
    "<script>alert('PWN')</script>",
    '"><img src=x onerror=alert(1)>',
)
LONG_NAME = "n" * 10_000                   # a parameter name no link should show whole
CHARS = "".join(sorted(set("".join(PAYLOADS)) - {"\n"}))     # every character the payloads use

# Tags the app itself writes in Plotly text; anything else that looks like a tag came from a value.
_APP_TAGS = re.compile(r"</?(?:b|i|br|sub|sup|extra)>|<span style='font-size:\d+px'>|</span>")
_TAG = re.compile(r"<\s*/?\s*[A-Za-z!?]")
_LINK = re.compile(r"\]\(|!\[|(?i:\b(?:https?|ftp)://|\bwww\.)|@evil")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
# the guessing game's blank, bold by a tag: Markdown's ** does not open after a letter ("干**▯**")
_APP_MARKDOWN_TAGS = re.compile(r"<strong>▯</strong>")


def payload_bpe() -> BPETokenizer:
    """A byte-level BPE whose vocabulary holds every payload as one token (after the 261 ordinary ones): a
    model predicts them as single tokens. Typed text is split by the fixed byte-level pipeline as any text is."""
    base = json.loads(BPETokenizer.train("abc abc", vocab_size=262).to_json())
    vocab = base["tokenizer"]["model"]["vocab"]
    symbols = {byte: symbol for symbol, byte in _symbol_to_byte().items()}
    for payload in PAYLOADS:
        vocab["".join(symbols[b] for b in payload.encode("utf-8"))] = len(vocab)
    return BPETokenizer._from_state(base)


def payload_chars() -> CharTokenizer:
    """Every character of the payloads (few enough to be listed as the characters a model accepts)."""
    return CharTokenizer(CHARS)


def payload_ids(tokenizer) -> list[int]:
    """The ids whose pieces are payloads (BPE), else every ordinary id."""
    pieces = {tokenizer.id_to_piece(i): i for i in range(tokenizer.vocab_size)}
    found = [pieces[p.replace(" ", "␣")] for p in PAYLOADS if p.replace(" ", "␣") in pieces]
    return found or list(range(5, tokenizer.vocab_size))


def payload_model(arch: str, tokenizer, d_model: int = 16, max_len: int = 64):
    """A small model of `arch` that predicts the payload tokens everywhere (see the module docstring)."""
    layers = {"decoder_only": (0, 2), "encoder_only": (2, 0), "encoder_decoder": (1, 2)}[arch]
    config = ModelConfig(arch=arch, vocab_size=tokenizer.vocab_size, d_model=d_model, n_heads=2,
                         n_encoder_layers=layers[0], n_decoder_layers=layers[1], d_ff=32, max_len=max_len)
    torch.manual_seed(0)
    model = build_model(config)
    direction = torch.randn(d_model)
    direction /= direction.norm()
    with torch.no_grad():
        for stack in (getattr(model, "encoder", None), getattr(model, "decoder", None)):
            if stack is not None:
                stack.final_norm.weight.zero_()
                stack.final_norm.bias.copy_(direction)
        embedding = model.head.weight                                      # tied: the token embeddings too
        for i in payload_ids(tokenizer):
            embedding[i] = direction * 3 + 0.01 * torch.randn(d_model)
    return model.eval()


def payload_checkpoint(directory: Path, arch: str, tokenizer, name: str = "payload") -> Path:
    """A .safetensors file of payload_model(arch, tokenizer), as the download button writes one."""
    path = directory / f"{name}.safetensors"
    path.write_bytes(to_bytes(payload_model(arch, tokenizer), tokenizer, card="# payload"))
    return path


def markdown_problems(text: str) -> list[str]:
    """What in Markdown (or a toast's HTML) `text` would become markup: a tag, a link, an image, an
    autolink, a stray backtick (a value that broke out of a code span) or a raw payload."""
    outside_code = _APP_MARKDOWN_TAGS.sub("", _CODE_SPAN.sub("", text))   # the app's own code spans: "`<bos>`"
    problems = [f"tag {m.group()!r}" for m in _TAG.finditer(outside_code)]
    problems += [f"link {m.group()!r}" for m in _LINK.finditer(text)]
    if "`" in outside_code:
        problems.append("a backtick outside a code span")
    problems += [f"payload {p!r}" for p in PAYLOADS if p in text]
    return problems


def plotly_problems(text: str) -> list[str]:
    """What Plotly would draw as markup in `text`: a tag the app did not write, or a payload's tag."""
    problems = [f"tag {m.group()!r}" for m in _TAG.finditer(_APP_TAGS.sub("", text))]
    return problems + [f"payload {p!r}" for p in PAYLOADS if "<" in p and p in text]


def strings(value):
    """Every string inside a figure, an update, a dict, a list or a tuple (for the checks above)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, go.Figure):
        yield from strings(value.to_plotly_json())
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)
    elif hasattr(value, "tolist"):
        yield from strings(value.tolist())


def figures_and_texts(updates: dict) -> tuple[list, list[str]]:
    """A handler's updates split into Plotly figures and Markdown texts (a component's value)."""
    figures, texts = [], []
    for update in updates.values():
        value = update
        if hasattr(update, "constructor_args"):
            value = update.constructor_args.get("value")
        elif isinstance(update, dict) and "value" in update:
            value = update["value"]
        if isinstance(value, go.Figure):
            figures.append(value)
        elif isinstance(value, str):
            texts.append(value)
    return figures, texts


def update_problems(updates: dict) -> list[str]:
    """Every problem in a handler's updates: its Markdown texts and every string of its figures."""
    figures, texts = figures_and_texts(updates)
    found = [p for t in texts for p in markdown_problems(t)]
    return found + [p for f in figures for s in strings(f) for p in plotly_problems(s)]

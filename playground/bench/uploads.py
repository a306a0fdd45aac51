"""`python -m playground.bench uploads` (also part of the app suite): what the largest upload the app
accepts costs once it is loaded, through the app's own upload loader and handlers, in this process.

hostile_upload_view_peak_mib: the largest growth of the process's resident memory (sampled every
millisecond, from just before the action) over three actions of a session that uploaded the
model: its first Attention view, opening Generate and taking a step, and the Inside tab drawn,
each with the app's torch threads per request; each action's MiB and seconds are in the line's
context. hostile_upload_view_s: the slowest of
the three. Goals: 300 MiB and 2 s on a 2-core machine.

worst_upload_panel_s / worst_upload_panel_mib: CPU seconds (of the thread that runs the panel: torch runs on
one thread, so this is its work however loaded the machine is) and memory over every panel the upload reaches, the
three above and the ones that explain an answer or search: activation patching of the longest input the
panel accepts (its suggested corruption found and patched), the linear probes (both induction properties:
the card of an upload may claim the random-block task that offers them), beam search at the widest beam
and longest output the Generate tab allows, and patching on an encoder-only upload of the same limits.

accepted_tokenizer_encode_s: the slowest encoding, among inputs of the longest length a text box accepts
(one character repeated, Chinese, bytes that merge nowhere, the training text), by a BPE tokenizer as an
upload is read (rebuilt on the fixed pipeline): the shipped shakespeare-bpe. Goal: well under a second.

The largest accepted upload is read from the app's UPLOAD_LIMITS: a decoder-only model with the
widest vocabulary they allow (a character vocabulary, so the typed text is known) and the widest
d_model that keeps it within their parameter count. The vocabulary is what a view's cost grows
with: every prediction is a row of vocabulary-many logits, and the Attention view's induction
check predicts 32 sequences of 48 tokens.
"""
from __future__ import annotations

import dataclasses
import gc
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

import torch

from playground.bench.common import result
from playground.checkpoint import to_bytes
from playground.data import CharTokenizer
from playground.data.tokenizer import NUM_SPECIAL
from playground.model import FIELD_RANGES, ModelConfig, SizeLimits, build_model, count_parameters

SUITE = "app"
PEAK_GOAL_MIB, SECONDS_GOAL = 300, 2.0
TYPED_CHARS = 40                        # the text the session types: the vocabulary's first characters
SAMPLE_SECONDS = 0.001
_PAGE_BYTES = 4096
_SURROGATES = range(0xD800, 0xE000)


def vocabulary(size: int) -> CharTokenizer:
    """A character tokenizer of exactly `size` tokens: CJK and the planes after it (never a surrogate)."""
    chars, point = [], 0x4E00
    while len(chars) < size - NUM_SPECIAL:
        if point not in _SURROGATES:
            chars.append(chr(point))
        point += 1
    return CharTokenizer(chars)


def largest_accepted(limits: SizeLimits) -> ModelConfig:
    """A decoder-only config at the limits' widest vocabulary, layers, heads and context, with the widest
    d_model (a multiple of the heads, d_ff four times it) whose parameters stay within the limit, found
    by bisection (the count grows with d_model); with fewer heads when even the narrowest does not fit."""
    largest = limits.largest
    vocab = largest.get("vocab_size", FIELD_RANGES["vocab_size"][1])

    def config(heads: int, width: int) -> ModelConfig:
        return ModelConfig(arch="decoder_only", vocab_size=vocab, d_model=heads * width, n_heads=heads,
                           n_decoder_layers=largest["n_decoder_layers"], d_ff=min(4 * heads * width, largest["d_ff"]),
                           max_len=largest["max_len"])

    def fits(heads: int, width: int) -> bool:
        return count_parameters(config(heads, width))["total"] <= limits.max_parameters

    for heads in range(largest["n_heads"], 0, -1):
        low, high = 1, largest["d_model"] // heads
        if not fits(heads, low):
            continue
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if fits(heads, middle) else (low, middle - 1)
        return config(heads, low)
    raise ValueError("no decoder-only model fits the limits")


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE_BYTES


def peak_growth(action: Callable[[], object]) -> tuple[float, float]:
    """(the largest growth of resident memory while `action` runs, in MiB; its seconds)."""
    mib, seconds, _ = peak_growth_and_cpu(action)
    return mib, seconds


def peak_growth_and_cpu(action: Callable[[], object]) -> tuple[float, float, float]:
    """(the largest growth of resident memory while `action` runs, in MiB; its seconds; the CPU seconds of
    the thread that runs it, which with torch on one thread is all of its work, whatever else the machine runs)."""
    gc.collect()
    start = _resident_bytes()
    peak, running = [start], threading.Event()
    running.set()

    def sample():
        while running.is_set():
            peak[0] = max(peak[0], _resident_bytes())
            time.sleep(SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    began, began_cpu = time.perf_counter(), time.thread_time()
    try:
        action()
    finally:
        elapsed, cpu = time.perf_counter() - began, time.thread_time() - began_cpu
        running.clear()
        sampler.join()
    return (max(peak[0], _resident_bytes()) - start) / 2**20, elapsed, cpu


def upload_view_lines() -> list[dict]:
    """The four lines, measured once (the first view is what a hostile upload costs)."""
    from playground.ui.page.runtime import configure_torch
    from playground.ui.inputs.validation import UPLOAD_LIMITS
    from playground.ui.header.own_models import load_own_model
    from playground.ui.session.workspace import Workspace
    from playground.ui.tabs.attention import AttentionForm
    from playground.ui.tabs.attention import handlers as attention
    from playground.ui.tabs.generate import GenerateForm
    from playground.ui.tabs.generate import handlers as generate
    from playground.ui.tabs.inside import InsideForm
    from playground.ui.inputs.validation import MAX_BEAM_WIDTH, MAX_NEW_TOKENS
    from playground.ui.tabs.inside import handlers as inside
    from playground.ui.views.meaning import RANDOM_BLOCKS
    from playground.ui.views.patching import longest_input
    from playground.zoo import ModelRegistry

    configure_torch()                                      # the app's threads per request
    config = largest_accepted(UPLOAD_LIMITS)
    tokenizer = vocabulary(config.vocab_size)
    torch.manual_seed(0)
    encoder_config = dataclasses.replace(config, arch="encoder_only", n_encoder_layers=config.n_decoder_layers,
                                         n_decoder_layers=0)
    with tempfile.TemporaryDirectory() as directory:
        path, encoder_path = Path(directory) / "largest.safetensors", Path(directory) / "largest-bert.safetensors"
        path.write_bytes(to_bytes(build_model(config), tokenizer, card=f"Task: {RANDOM_BLOCKS}"))
        encoder_path.write_bytes(to_bytes(build_model(encoder_config), tokenizer))
        file_mib = path.stat().st_size / 2**20
        entry, encoder = load_own_model(path, "en"), load_own_model(encoder_path, "en")
    workspace = Workspace("largest-upload", ModelRegistry())
    workspace.add_model(entry)
    workspace.add_model(encoder)
    typed = "".join(tokenizer.chars[:TYPED_CHARS])
    longest = "".join(tokenizer.chars[:longest_input(entry)])
    longest_encoder = "".join(tokenizer.chars[:longest_input(encoder)])
    beam = GenerateForm(model=entry.name, prompt=typed, strategy="beam", beam_width=MAX_BEAM_WIDTH, max_new=MAX_NEW_TOKENS)
    actions = {
        "attention_first_view": lambda: attention.draw(
            workspace, AttentionForm(model=entry.name, text=typed, kind="decoder"), "en"),
        "generate_step": lambda: (generate.open_tab(workspace, GenerateForm(model=entry.name, prompt=typed), "en"),
                                  generate.step(workspace, GenerateForm(model=entry.name, prompt=typed), "en")),
        "inside_tab": lambda: inside.draw(workspace, InsideForm(
            emb_model=entry.name, emb_token=typed[0], worked_model=entry.name, worked_text=typed,
            worked_site="decoder", mask_model=entry.name, mask_first=typed[:8], mask_second=typed[:4],
            norm_model=entry.name, norm_text=typed), "en"),
    }
    views = dict(actions)
    actions.update({
        "patching": lambda: attention.patching(workspace, AttentionForm(model=entry.name, text=longest), "en"),
        "patching_encoder_only": lambda: attention.patching(
            workspace, AttentionForm(model=encoder.name, text=longest_encoder, kind="encoder"), "en"),
        "probes_inside": lambda: attention.probes(workspace, AttentionForm(model=entry.name, pr_property="inside"), "en"),
        "probes_offset": lambda: attention.probes(workspace, AttentionForm(model=entry.name, pr_property="offset"), "en"),
        "beam_search": lambda: list(generate.run(workspace, beam, "en")),
    })
    everything = {name: peak_growth_and_cpu(action) for name, action in actions.items()}
    measured = {name: (mib, seconds) for name, (mib, seconds, _) in everything.items()}
    first = {name: measured[name] for name in views}
    context = dict(vocab_size=config.vocab_size, d_model=config.d_model, n_heads=config.n_heads,
                   layers=config.n_decoder_layers, d_ff=config.d_ff, max_len=config.max_len,
                   parameters=entry.n_parameters, file_mib=round(file_mib, 1),
                   per_view_mib={name: round(mib, 1) for name, (mib, _) in measured.items()},
                   per_view_s={name: round(s, 2) for name, (_, s) in measured.items()},
                   per_view_cpu_s={name: round(cpu, 2) for name, (_, _, cpu) in everything.items()})
    return [result(SUITE, "hostile_upload_view_peak_mib", max(mib for mib, _ in first.values()), "MiB",
                   PEAK_GOAL_MIB, "lower", **context),
            result(SUITE, "hostile_upload_view_s", max(s for _, s in first.values()), "s", SECONDS_GOAL, "lower",
                   **context),
            result(SUITE, "worst_upload_panel_mib", max(mib for mib, _ in measured.values()), "MiB", PEAK_GOAL_MIB,
                   "lower", **context),
            result(SUITE, "worst_upload_panel_s", max(cpu for _, _, cpu in everything.values()), "s CPU",
                   SECONDS_GOAL, "lower", **context)]


def tokenizer_line() -> dict:
    """The slowest encoding of a longest input by a BPE tokenizer read as an upload is (see the docstring)."""
    from playground.data import tokenizer_from_json
    from playground.ui.inputs.validation import MAX_INPUT_CHARS

    shipped = Path(__file__).resolve().parents[2] / "pretrained" / "shakespeare-bpe" / "tokenizer.json"
    tokenizer = tokenizer_from_json(shipped.read_text(encoding="utf-8"))
    inputs = {"one_character": "a" * MAX_INPUT_CHARS, "chinese": ("床前明月光" * MAX_INPUT_CHARS)[:MAX_INPUT_CHARS],
              "unmerged_bytes": ("\x00\x7f\u0300" * MAX_INPUT_CHARS)[:MAX_INPUT_CHARS],
              "text": ("To be, or not to be, that is the question. " * MAX_INPUT_CHARS)[:MAX_INPUT_CHARS]}
    seconds = {}
    for name, typed in inputs.items():
        began = time.perf_counter()
        tokenizer.encode(typed)
        seconds[name] = time.perf_counter() - began
    return result(SUITE, "accepted_tokenizer_encode_s", max(seconds.values()), "s", 1.0, "lower",
                  chars=MAX_INPUT_CHARS, per_input_s={name: round(s, 5) for name, s in seconds.items()})


def run(quick: bool) -> list[dict]:
    return upload_view_lines() + [tokenizer_line()]

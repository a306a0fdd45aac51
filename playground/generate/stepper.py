"""Stepper: autoregressive generation one token at a time on the KV cache, with a view inside.

    stepper = Stepper(model, tokenizer, "To be", SamplingConfig(strategy="sample", top_k=10))
    step = stepper.step()      # chosen token, raw and filtered distributions, attention row
    stepper.back()             # undo it exactly
    for step in stepper.run(): # until eos, the token budget, or (encoder-decoder) a full context
        ...

Each step chooses the next token from the distribution the model gave at the last position,
then feeds that token through the model once (only the new position; earlier keys and values
come from the cache). That forward pass records the new token's attention row in every layer
and head, and yields the distribution the next step chooses from.
"""
from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import torch
from torch import nn

from playground.data import EOS_ID, Tokenizer
from playground.device import model_device
from playground.model import DECODER_SELF, ENCODER_SELF, AttentionSite, KVCache, Trace

from .context import check_model_and_tokenizer, encode_prompt, window_after_slide
from .filters import draw, filter_stages
from .settings import SamplingConfig

STOP_REASONS = ("eos", "budget", "context")


class GenerationFinished(RuntimeError):
    """step() was called after generation stopped."""


@dataclass(frozen=True)
class Step:
    """One generated token and what led to it.

    raw_probs: the model's next-token distribution, softmax(logits), [V] float32.
    stages: filter name -> distribution after that filter, [V] float32 each, in the order applied
        ("repetition", "temperature", "top-k", "top-p"; only the active ones; empty for greedy
        without a repetition penalty).
    attention: each decoder attention site (DECODER_SELF, and CROSS for encoder-decoder) -> the new
        token's attention row in every layer and head, [L, H, Tk] float32; empty when the Stepper
        does not trace attention.
    cache_length: positions in the KV cache after this step (the window's length).
    slid / message: whether the context window slid during this step, and how.
    finished / reason: whether generation stopped here, and why ("eos", "budget" or "context").
    """

    index: int                    # 0 for the first generated token
    position: int                 # the token's index in Stepper.ids
    token_id: int
    token_text: str
    raw_probs: np.ndarray
    stages: OrderedDict[str, np.ndarray]
    attention: dict[AttentionSite, np.ndarray]
    cache_length: int
    slid: bool = False
    message: str = ""
    finished: bool = False
    reason: str | None = None

    @property
    def chosen(self) -> int:
        """The chosen token id (the same as token_id)."""
        return self.token_id

    @property
    def probs(self) -> np.ndarray:
        """The distribution the token was chosen from: the last stage, or the raw one."""
        return next(reversed(self.stages.values())) if self.stages else self.raw_probs


@dataclass
class _Window:
    """The part of the sequence inside the context: ids[start:] are in `cache`."""

    start: int
    cache: KVCache
    rows: dict[AttentionSite, list[np.ndarray]] = field(default_factory=dict)  # site -> one [L, H, Tk] row a position

    def copy(self) -> "_Window":
        """An independent copy (the rows themselves are never changed, only added and removed)."""
        return _Window(self.start, self.cache.copy(), {site: list(rows) for site, rows in self.rows.items()})


@dataclass
class _Undo:
    """What back() needs to restore the state before a step."""

    next_logits: np.ndarray
    window: _Window | None        # the window before the step, when the step slid it


def _stepping(settings: SamplingConfig | None) -> SamplingConfig:
    """Settings a Stepper can decode with (the defaults for None); beam search is refused."""
    settings = SamplingConfig() if settings is None else settings
    if not isinstance(settings, SamplingConfig):
        raise TypeError(f"settings must be a SamplingConfig, got {type(settings).__name__}")
    if settings.strategy == "beam":
        raise ValueError("beam search keeps several hypotheses at once; call "
                         "beam_search(model, tokenizer, prompt, beam_width, max_new_tokens) for its tree, "
                         "or choose strategy 'greedy' or 'sample' to step")
    return settings


class Stepper:
    """Step-by-step decoding for a decoder-only or encoder-decoder model.

    model: a playground model (it is put in eval mode). tokenizer: the tokenizer it was trained
    with. prompt: text to continue (decoder-only; empty starts from bos) or the source text
    (encoder-decoder; decoding starts from bos). settings: greedy or sampling (beam search has
    its own function, `beam_search`). trace_attention: record each new position's attention.
    """

    def __init__(self, model: nn.Module, tokenizer: Tokenizer, prompt: str,
                 settings: SamplingConfig | None = None, *, trace_attention: bool = True):
        settings = _stepping(settings)
        self.config = check_model_and_tokenizer(model, tokenizer)
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.settings = settings
        self.trace_attention = bool(trace_attention)
        encoded = encode_prompt(model, tokenizer, prompt)
        self.unknown_chars: list[str] = encoded.unknown_chars
        self.notices: list[str] = encoded.notices
        self.ids: list[int] = list(encoded.decoder_ids)
        self.prompt_length = len(self.ids)
        self.source_ids = encoded.source_ids
        self.steps: list[Step] = []
        self._undo: list[_Undo] = []
        self._encoder_attention = None
        with torch.no_grad():
            trace = Trace((ENCODER_SELF.pattern(),)) if self.trace_attention else None
            source = None if self.source_ids is None else torch.tensor([self.source_ids], device=self._device)  # [1, S]
            self.memory = model.encode(source, trace)                                        # None without an encoder
            if trace is not None and model.has_encoder:
                self._encoder_attention = trace.attention(ENCODER_SELF)[:, 0].cpu().numpy()   # [L, H, S, S]
            self._window, self._next_logits = self._read(encoded.window_start)
        self._reason = "context" if self._context_full() else None

    def fork(self, settings: SamplingConfig | None = None) -> "Stepper":
        """An independent Stepper at this point, decoding with `settings` (these when None): stepping
        or going back in either leaves the other as it was. The model, the tokenizer and the
        encoder's output are shared (nothing changes them); the KV cache is copied, so a prompt read
        once can be continued many times without reading it again."""
        twin = copy.copy(self)
        twin.settings = self.settings if settings is None else _stepping(settings)
        twin.ids, twin.steps = list(self.ids), list(self.steps)
        twin.unknown_chars, twin.notices = list(self.unknown_chars), list(self.notices)
        twin._window = self._window.copy()
        twin._undo = [_Undo(undo.next_logits, None if undo.window is None else undo.window.copy())
                      for undo in self._undo]
        return twin

    # ----------------------------------------------------------------- model calls

    def _trace(self) -> Trace | None:
        if not self.trace_attention:
            return None
        return Trace(tuple(site.pattern() for site in self._decoder_sites))

    @property
    def _device(self) -> torch.device:
        return model_device(self.model)

    @property
    def _decoder_sites(self) -> tuple[AttentionSite, ...]:
        return tuple(site for site in self.model.sites() if site.stack == "decoder")

    def _read(self, start: int) -> tuple[_Window, np.ndarray]:
        """Run ids[start:] through a fresh cache: the window, and the logits at its last position."""
        window = _Window(start, self.model.new_cache())
        trace = self._trace()
        ids = torch.tensor([self.ids[start:]], device=self._device)                    # [1, T]
        logits = self.model.decode(ids, self.memory, window.cache, trace, last_only=True)  # [1, 1, V]
        if trace is not None:
            for site in self._decoder_sites:
                weights = trace.attention(site)[:, 0].cpu().numpy()                     # [L, H, T, Tk]
                window.rows[site] = [weights[:, :, i, :i + 1] if site.causal else weights[:, :, i]
                                     for i in range(weights.shape[2])]                  # row i sees keys 0..i
        return window, logits[0, -1].double().cpu().numpy()

    def _feed(self, token: int) -> np.ndarray:
        """Run one new token on the cache: its attention rows are appended, its logits returned."""
        trace = self._trace()
        ids = torch.tensor([[token]], device=self._device)                             # [1, 1]
        logits = self.model.decode(ids, self.memory, self._window.cache, trace)         # [1, 1, V]
        for site, rows in self._window.rows.items():
            rows.append(trace.attention(site)[:, 0, :, 0].cpu().numpy())            # [L, H, Tk]
        return logits[0, -1].double().cpu().numpy()

    def _context_full(self) -> bool:
        """Encoder-decoder targets do not slide: a full context ends generation."""
        return self.source_ids is not None and self._window.cache.length >= self.config.max_len

    # ----------------------------------------------------------------- stepping

    def step(self) -> Step:
        """Choose the next token, feed it, and report everything about it."""
        if self._reason is not None:
            raise GenerationFinished(f"generation has finished ({self._reason}); call back() to undo the last "
                                     f"step, or start a new Stepper")
        logits = self._next_logits
        if not np.isfinite(logits).all():
            raise FloatingPointError("the model produced NaN or infinite logits; it probably diverged in "
                                     "training (try a lower learning rate) and cannot generate")
        raw, stages = filter_stages(logits, self.settings, self.ids[self._window.start:])
        position = len(self.ids)
        if self.settings.strategy == "greedy":
            token = int(np.argmax(next(reversed(stages.values())) if stages else raw))
        else:
            token = draw(next(reversed(stages.values())), self.settings.seed, position)
        undo = _Undo(logits, None)
        self.ids.append(token)
        message = ""
        with torch.no_grad():
            if self._window.cache.length >= self.config.max_len:
                undo.window = self._window
                start = len(self.ids) - window_after_slide(self.config.max_len)
                self._window, self._next_logits = self._read(start)
                message = (f"the context holds {self.config.max_len} tokens: the window slid past the first "
                           f"{start} tokens and read the last {len(self.ids) - start} again")
            else:
                self._next_logits = self._feed(token)
        self._reason = self._stop_reason(token)
        step = Step(
            index=len(self.steps), position=position, token_id=token, token_text=self.tokenizer.id_to_piece(token),
            raw_probs=raw.astype(np.float32),
            stages=OrderedDict((name, probs.astype(np.float32)) for name, probs in stages.items()),
            attention={site: rows[-1] for site, rows in self._window.rows.items()},
            cache_length=self._window.cache.length, slid=bool(message), message=message,
            finished=self._reason is not None, reason=self._reason,
        )
        self._undo.append(undo)
        self.steps.append(step)
        return step

    def _stop_reason(self, token: int) -> str | None:
        if token == EOS_ID:
            return "eos"
        if self._context_full():
            return "context"
        if len(self.ids) - self.prompt_length >= self.settings.max_new_tokens:
            return "budget"
        return None

    def back(self) -> Step:
        """Undo the last step exactly; returns the step that was undone."""
        if not self._undo:
            raise RuntimeError("nothing to undo: no token has been generated yet")
        undo = self._undo.pop()
        self.ids.pop()
        self._next_logits = undo.next_logits
        self._reason = None
        if undo.window is not None:
            self._window = undo.window
        else:
            self._window.cache.crop(self._window.cache.length - 1)
            for rows in self._window.rows.values():
                rows.pop()
        return self.steps.pop()

    def run(self, max_steps: int | None = None) -> Iterator[Step]:
        """Step until generation stops (eos, budget, context) or `max_steps` steps were taken."""
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None (run to the end), got {max_steps!r}")

        def steps() -> Iterator[Step]:
            taken = 0
            while self._reason is None and (max_steps is None or taken < max_steps):
                yield self.step()
                taken += 1

        return steps()

    # ----------------------------------------------------------------- state

    @property
    def finished(self) -> bool:
        return self._reason is not None

    @property
    def reason(self) -> str | None:
        """Why generation stopped ("eos", "budget", "context"), or None while it can go on."""
        return self._reason

    @property
    def cache_length(self) -> int:
        return self._window.cache.length

    @property
    def window_start(self) -> int:
        """Index in `ids` of the first token inside the context window."""
        return self._window.start

    @property
    def tokens(self) -> list[str]:
        """Display text of every decoder token so far, prompt (or bos) included."""
        return [self.tokenizer.id_to_piece(i) for i in self.ids]

    @property
    def window_tokens(self) -> list[str]:
        """Display text of the tokens inside the context window: the attention matrix's axes."""
        return self.tokens[self._window.start:]

    @property
    def source_tokens(self) -> list[str]:
        """Display text of the source tokens (encoder-decoder), else empty."""
        return [self.tokenizer.id_to_piece(i) for i in self.source_ids or []]

    @property
    def generated_ids(self) -> list[int]:
        return self.ids[self.prompt_length:]

    @property
    def generated_text(self) -> str:
        """The generated tokens as text (special tokens dropped)."""
        return self.tokenizer.decode(self.generated_ids)

    def attention_matrix(self, site: AttentionSite = DECODER_SELF) -> np.ndarray:
        """Attention of every window position so far at one of the model's sites, float32.

        DECODER_SELF: [L, H, W, W], causal, filled row by row as tokens are generated (rows of the
        prompt come from its forward pass). CROSS: [L, H, W, S] (encoder-decoder). ENCODER_SELF: the
        source's self-attention [L, H, S, S] (encoder-decoder).
        """
        if not isinstance(site, AttentionSite):
            raise TypeError(f"site must be an AttentionSite (DECODER_SELF, CROSS, ENCODER_SELF), got {site!r}")
        if not self.trace_attention:
            raise ValueError("this Stepper does not record attention; create it with trace_attention=True")
        if site not in self.model.sites():
            raise ValueError(f"a {self.config.arch} model has no {site.name}; "
                             f"its sites are {[s.name for s in self.model.sites()]}")
        if site == ENCODER_SELF:
            return self._encoder_attention.copy()
        rows = self._window.rows[site]
        layers, heads, keys = rows[0].shape[0], rows[0].shape[1], rows[-1].shape[-1]
        matrix = np.zeros((layers, heads, len(rows), keys), dtype=np.float32)              # [L, H, W, Tk]
        for i, row in enumerate(rows):
            matrix[:, :, i, :row.shape[-1]] = row
        return matrix

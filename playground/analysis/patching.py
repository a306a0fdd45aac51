"""Activation patching: which activations carry the answer from a clean input to the output.

Two inputs differ in one place: with the clean one the answer is `right`, with the corrupted one it
becomes `wrong`. The metric is the logit difference at the position where the answer is read,

    m = logit[right] - logit[wrong]

normalised so that the clean run scores 1 and the corrupted run 0. Patching runs the corrupted
input with one activation copied from the clean run (the residual stream of one layer at one
position, one head's output) and measures m again: a cell near 1 restores the answer by itself,
a cell near 0 carries nothing the answer needs. An activation equal in both runs changes nothing,
so it scores exactly 0 without being run; every other patched run is one row of a batch, so a
whole view is a few forward passes.

The pair makers build inputs the tasks make meaningful: `induction_pair` changes the token that
followed the earlier occurrences of the last token (the one an induction head copies), `task_pair`
one character of a sequence-to-sequence source, `pair_from_inputs` any two inputs a learner types.
"""
from __future__ import annotations

import calendar
import datetime as dt
import random
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
from torch import nn

from playground.data import BOS_ID, Tokenizer
from playground.data.tokenizer import NUM_SPECIAL
from playground.data.date_formats import iso
from playground.data.tasks import DatesTask, Task
from playground.model import AttentionSite, Trace, hooks

from .cost import flops_per_token

CHUNK_VALUES = 2 ** 22           # the largest activation one patched batch may hold (rows x positions x width)
MIN_SPREAD = 1.0                 # logits: a corruption must move logit[right] - logit[wrong] at least this much,
                                 # or normalising by the difference divides by noise
SUGGESTED_PER_POSITION = 4       # replacements tried at each position by the search for a corruption


@dataclass(frozen=True)
class PatchingPair:
    """A clean and a corrupted input, where the answer is read, and the two answers.

    clean, corrupted: the decoder's input (the only input of a decoder-only or encoder-only model).
    clean_source, corrupted_source: what the encoder of a sequence-to-sequence model reads.
    position: the index in the input where the next token (the answer) is predicted.
    """

    clean: tuple[int, ...]
    corrupted: tuple[int, ...]
    position: int
    right: int                   # the answer the clean input implies
    wrong: int                   # the answer the corrupted input implies
    clean_source: tuple[int, ...] | None = None
    corrupted_source: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        for name in ("clean", "corrupted", "clean_source", "corrupted_source"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _ids(value, name))
        if len(self.clean) != len(self.corrupted) or not self.clean:
            raise ValueError(f"the clean and corrupted inputs must have the same, non-zero length "
                             f"(got {len(self.clean)} and {len(self.corrupted)}), so positions line up")
        if (self.clean_source is None) != (self.corrupted_source is None):
            raise ValueError("give both sources (clean and corrupted) or neither")
        if self.clean_source is not None and (len(self.clean_source) != len(self.corrupted_source)
                                              or not self.clean_source):
            raise ValueError("the clean and corrupted sources must have the same, non-zero length")
        if isinstance(self.position, bool) or not isinstance(self.position, int) \
                or not 0 <= self.position < len(self.clean):
            raise ValueError(f"position must be an index into the {len(self.clean)} input tokens, "
                             f"got {self.position!r}")
        for name in ("right", "wrong"):
            if isinstance(getattr(self, name), bool) or not isinstance(getattr(self, name), int):
                raise TypeError(f"{name} must be a token id (int), got {getattr(self, name)!r}")
        if self.right == self.wrong:
            raise ValueError("the right and wrong answers are the same token; the logit difference would be 0")

    def tokens(self, stack: str, which: str = "clean") -> tuple[int, ...]:
        """The token ids along the positions of `stack` ("encoder" or "decoder") in the clean or corrupted input."""
        source = self.clean_source if which == "clean" else self.corrupted_source
        ids = self.clean if which == "clean" else self.corrupted
        return source if stack == "encoder" and source is not None else ids


@dataclass(frozen=True)
class Patch:
    """One activation copied from the clean run: hook point `name`, at `position` and/or `head` (None: all)."""

    name: str
    position: int | None = None
    head: int | None = None


@dataclass
class ResidualPatching:
    stack: str                   # "encoder" or "decoder"
    rows: list[str]              # hook names: STACK.{i}.resid_pre for every block, then the last resid_post
    values: np.ndarray           # [rows, T] normalised metric of patching that layer at that position


@dataclass
class HeadPatching:
    site: AttentionSite
    values: np.ndarray           # [L, H] normalised metric of patching each head's output at every position
    by_position: np.ndarray | None   # [L, H, T] the same, one query position at a time (None when not asked)


@dataclass
class PatchingView:
    pair: PatchingPair
    clean_metric: float          # logit[right] - logit[wrong] of the clean run
    corrupted_metric: float      # the same of the corrupted run
    residual: list[ResidualPatching]      # one per stack, encoder first
    heads: list[HeadPatching]             # one per attention site of the model
    left_out_runs: int = 0       # patched runs of the head-by-position map left out to stay within the budget


class PatchingTooCostly(ValueError):
    """The patched runs of a view need more FLOPs than the caller's budget allows."""

    def __init__(self, needed: float, budget: float):
        super().__init__(f"patching these inputs needs about {needed / 1e9:.1f} GFLOPs, over the budget of "
                         f"{budget / 1e9:.1f}; use a shorter input")
        self.needed, self.budget = needed, budget


def _ids(value, name: str) -> tuple[int, ...]:
    ids = tuple(value)
    if any(isinstance(i, bool) or not isinstance(i, int) or i < 0 for i in ids):
        raise TypeError(f"{name} must be a sequence of token ids (non-negative ints)")
    return ids


# ------------------------------------------------------------------------------------------ pairs

def induction_pair(vocab_size: int, length: int = 64, period: int = 24, seed: int = 0) -> PatchingPair:
    """A random block of `period` distinct ordinary tokens written again and again up to `length`
    tokens, read at its last token: the next token is the one that followed that token's earlier
    occurrences.

    The corrupted input is the same repeat with that one token of the block changed (in every
    earlier copy) to a token the block lacks, so copying from earlier occurrences, as an induction
    head does, now gives the new token: right = the old token, wrong = the new one.
    """
    if isinstance(length, bool) or not isinstance(length, int) or length < 4:
        raise ValueError(f"length must be an int of at least 4 tokens, got {length!r}")
    if isinstance(period, bool) or not isinstance(period, int) or not 2 <= period <= length - 2:
        raise ValueError(f"period must be an int between 2 and length - 2 = {length - 2}, got {period!r}")
    ordinary = vocab_size - NUM_SPECIAL
    if ordinary < period + 1:
        raise ValueError(f"a block of {period} distinct tokens and one more needs {period + 1} ordinary tokens; "
                         f"the vocabulary has {ordinary}")
    rng = random.Random(f"induction-pair/{seed}")
    drawn = rng.sample(range(NUM_SPECIAL, vocab_size), period + 1)
    block, new = drawn[:period], drawn[period]
    answer = length % period                                                 # the block index read next
    clean = [block[t % period] for t in range(length)]
    corrupted = [new if t % period == answer else token for t, token in enumerate(clean)]
    return PatchingPair(tuple(clean), tuple(corrupted), length - 1, block[answer], new)


def task_pair(task: Task, tokenizer: Tokenizer | None = None, seed: int = 0, source: str | None = None) -> PatchingPair:
    """A source of a sequence-to-sequence `task` and the same source with one character changed.

    The decoder reads <bos> and the right target up to the first character the change alters; the
    answer is read there: right = that character of the clean target, wrong = of the corrupted one.
    The source is drawn from the task's held-out examples (seeded) unless given.
    """
    tokenizer = tokenizer or task.tokenizer
    rng = random.Random(f"task-pair/{task.name}/{seed}")
    if source is None:
        source = rng.choice(task.held_out(64, seed=seed))[0]
    task.check_source(source)
    clean_target, corrupted_source, corrupted_target = _changed_source(task, source, rng)
    first = next(i for i, (a, b) in enumerate(zip(clean_target, corrupted_target)) if a != b)
    decoder_input = [BOS_ID, *tokenizer.encode(clean_target[:first])]
    right, wrong = tokenizer.encode(clean_target[first])[0], tokenizer.encode(corrupted_target[first])[0]
    return PatchingPair(tuple(decoder_input), tuple(decoder_input), len(decoder_input) - 1, right, wrong,
                        tuple(tokenizer.encode(source)), tuple(tokenizer.encode(corrupted_source)))


def _changed_source(task: Task, source: str, rng: random.Random) -> tuple[str, str, str]:
    """(clean target, corrupted source, corrupted target): the source with one character changed so that
    the target changes too."""
    if isinstance(task, DatesTask):
        return _changed_date(task, source)
    transform = getattr(task, "transform", None)
    if transform is None:
        raise ValueError(f"patching pairs are made for the copy, reverse, sort and dates tasks, not {task.name}")
    indices = list(range(len(source)))
    rng.shuffle(indices)
    for index in indices:
        for char in rng.sample(task.tokenizer.chars, len(task.tokenizer.chars)):
            corrupted = source[:index] + char + source[index + 1:]
            if transform(corrupted) != transform(source):
                return transform(source), corrupted, transform(corrupted)
    raise ValueError(f"no change of one character of {source!r} changes its target; use a longer source")


def _changed_date(task: DatesTask, source: str) -> tuple[str, str, str]:
    """A date written in the same format, a few days away, whose text differs in exactly one character."""
    written = [(fmt, date) for fmt in task.formats.values() for date in _dates_in(source) if fmt(date) == source]
    if not written:
        raise ValueError(f"{source!r} is not a date this task writes; use one of its examples")
    fmt, date = written[0]
    for days in sorted(range(-40, 41), key=abs):
        other = date + dt.timedelta(days=days)
        text = fmt(other)
        if days and len(text) == len(source) and sum(a != b for a, b in zip(text, source)) == 1:
            return iso(date), text, iso(other)
    raise ValueError(f"no date near {source!r} is written with one character changed")


def _dates_in(source: str) -> list[dt.date]:
    """Every date of each four-digit year written in `source` (the task's formats write the year in full)."""
    years = {int(source[i:i + 4]) for i in range(len(source) - 3) if source[i:i + 4].isdigit()}
    return [dt.date(year, 1, 1) + dt.timedelta(days=k) for year in sorted(years) if year >= 1
            for k in range(366 if calendar.isleap(year) else 365)]


@torch.no_grad()
def pair_from_inputs(model: nn.Module, clean: Sequence[int], corrupted: Sequence[int], position: int | None = None,
                     clean_source: Sequence[int] | None = None,
                     corrupted_source: Sequence[int] | None = None) -> PatchingPair:
    """Two inputs a learner chose: right is the clean run's top token at `position` (default: the last),
    wrong the corrupted run's (its second choice when both runs agree)."""
    position = len(clean) - 1 if position is None else position
    probe = PatchingPair(tuple(clean), tuple(corrupted), position, 0, 1,        # the answers are read below
                         None if clean_source is None else tuple(clean_source),
                         None if corrupted_source is None else tuple(corrupted_source))
    _check_model(model, probe)
    clean_logits = _run(model, torch.tensor([probe.clean]), _source(probe.clean_source))[0, position]
    corrupted_logits = _run(model, torch.tensor([probe.corrupted]), _source(probe.corrupted_source))[0, position]
    right = int(clean_logits.argmax())
    ranked = corrupted_logits.argsort(descending=True).tolist()
    wrong = ranked[0] if ranked[0] != right else ranked[1]
    return PatchingPair(probe.clean, probe.corrupted, position, right, wrong, probe.clean_source,
                        probe.corrupted_source)


@torch.no_grad()
def pair_metrics(model: nn.Module, pair: PatchingPair) -> tuple[float, float]:
    """(clean, corrupted) logit[right] - logit[wrong] of the pair's two runs: two forward passes."""
    _check_model(model, pair)
    clean = _run(model, torch.tensor([pair.clean]), _source(pair.clean_source))
    corrupted = _run(model, torch.tensor([pair.corrupted]), _source(pair.corrupted_source))
    return float(_metric(clean, pair)[0]), float(_metric(corrupted, pair)[0])


@torch.no_grad()
def flipping_pairs(model: nn.Module, ids: Sequence[int], position: int | None = None,
                   per_position: int = SUGGESTED_PER_POSITION, max_flops: float | None = None) -> list[PatchingPair]:
    """One-token changes of `ids` (a decoder-only or encoder-only model's input) that flip the model's answer
    at `position` (default: the last), best first: changed positions other than the answer's own before it,
    then by the spread of the logit difference (at least MIN_SPREAD).

    At each position the candidates are the tokens the clean run itself finds likeliest there (a decoder's
    prediction one position earlier, an encoder's at the position), the token already there left out; the
    positions nearest the answer come first, and no more of them are tried than `max_flops` allows.
    """
    ids = _ids(ids, "ids")
    position = len(ids) - 1 if position is None else position
    probe = PatchingPair(ids, ids, position, 0, 1)
    _check_model(model, probe)
    if model.has_encoder and model.has_decoder:
        raise ValueError("a sequence-to-sequence model's corruption changes its source: see task_pair")
    clean_logits = _run(model, torch.tensor([ids]), None)[0]                   # [T, V]
    right = int(clean_logits[position].argmax())
    causal = model.has_decoder
    nearest = sorted((p for p in range(len(ids)) if p != position and (p < position or not causal)),
                     key=lambda p: abs(p - position))
    changes = []                                                               # (position, token)
    for p in [position, *nearest]:                      # the answer's own token is a last resort, always tried
        if ids[p] < NUM_SPECIAL:
            continue
        likely = clean_logits[p - 1 if causal and p > 0 else p].argsort(descending=True).tolist()
        changes += [(p, token) for token in likely if token >= NUM_SPECIAL and token != ids[p]][:per_position]
    if max_flops is not None:
        changes = changes[:max(1, int(max_flops // _row_flops(model, len(ids), 0)))]
    if not changes:
        return []
    rows = torch.tensor([ids]).repeat(len(changes), 1)                          # [N, T]
    rows[torch.arange(len(changes)), torch.tensor([p for p, _ in changes])] = torch.tensor([t for _, t in changes])
    per_chunk = max(1, CHUNK_VALUES // (len(ids) * max(model.config.target_vocab_size, model.config.d_ff)))
    at = torch.cat([_run(model, rows[k:k + per_chunk], None)[:, position] for k in range(0, len(rows), per_chunk)])
    clean_at = clean_logits[position].double()
    found = []
    for (p, token), logits in zip(changes, at.double()):                      # logits [V]
        wrong = int(logits.argmax())
        if wrong == right:
            continue
        spread = float(clean_at[right] - clean_at[wrong] - (logits[right] - logits[wrong]))
        if spread >= MIN_SPREAD:
            corrupted = list(ids)
            corrupted[p] = token
            found.append((p == position, -spread, PatchingPair(ids, tuple(corrupted), position, right, wrong)))
    return [pair for *_, pair in sorted(found, key=lambda f: f[:2])]


# ----------------------------------------------------------------------------------------- running

def _source(ids: tuple[int, ...] | None) -> torch.Tensor | None:
    return None if ids is None else torch.tensor([ids])


def _run(model: nn.Module, ids: torch.Tensor, source: torch.Tensor | None, trace: Trace | None = None) -> torch.Tensor:
    """Logits [B, T, V] of any architecture: the encoder reads `source` when the model has a decoder to go with it."""
    memory = model.encode(source, trace) if source is not None else None
    return model.decode(ids, memory, None, trace)


def _check_model(model: nn.Module, pair: PatchingPair) -> None:
    seq2seq = model.has_encoder and model.has_decoder
    if seq2seq != (pair.clean_source is not None):
        raise ValueError("a sequence-to-sequence model reads a source: give clean_source and corrupted_source"
                         if seq2seq else f"a {model.config.arch} model reads no source; leave the sources out")
    config = model.config
    for name, ids, vocab in (("clean", pair.clean, config.target_vocab_size),
                             ("corrupted", pair.corrupted, config.target_vocab_size),
                             ("clean_source", pair.clean_source, config.vocab_size),
                             ("corrupted_source", pair.corrupted_source, config.vocab_size)):
        if ids is None:
            continue
        if max(ids) >= vocab:
            raise ValueError(f"{name} holds token id {max(ids)}, outside the model's vocabulary of {vocab}")
        if len(ids) > config.max_len and config.positional == "learned":
            raise ValueError(f"{name} has {len(ids)} tokens; the model reads at most {config.max_len}")
    for answer in (pair.right, pair.wrong):
        if answer >= config.target_vocab_size:
            raise ValueError(f"the answer {answer} is outside the model's vocabulary of {config.target_vocab_size}")


def _metric(logits: torch.Tensor, pair: PatchingPair) -> torch.Tensor:
    """logit[right] - logit[wrong] at the answer's position, per batch row.  [B]"""
    at = logits[:, pair.position].double()                                   # [B, V]
    return at[:, pair.right] - at[:, pair.wrong]


def _axes(name: str) -> tuple[int | None, int | None]:
    """(position axis, head axis) of a hook point's activation, the batch axis being 0."""
    part = name.rsplit(".", 1)[-1]
    if part in ("q", "k", "v", "scores", "weights"):
        return 2, 1                                                          # [B, H, T, ...]
    if part == "z":
        return 1, 2                                                          # [B, T, H, Dh]
    if part == "pos_embed":
        raise ValueError("the positional vectors are the same in both runs (and have no batch axis): nothing to patch")
    return 1, None                                                           # [B, T, ...]


def _index(patch: Patch, ndim: int) -> tuple:
    """The index of a patch's slice in one batch row of the activation ([...] without the batch axis)."""
    position_axis, head_axis = _axes(patch.name)
    index: list = [slice(None)] * (ndim - 1)
    if patch.position is not None:
        index[position_axis - 1] = patch.position
    if patch.head is not None:
        if head_axis is None:
            raise ValueError(f"{patch.name} has no head axis; patch a head at STACK.i.ATTN.z (or q, k, v, weights)")
        index[head_axis - 1] = patch.head
    return tuple(index)


def _trace_of(model: nn.Module, pair: PatchingPair, which: str, names: Sequence[str]) -> tuple[Trace, torch.Tensor]:
    trace = Trace(include=tuple(names))
    ids = pair.clean if which == "clean" else pair.corrupted
    source = pair.clean_source if which == "clean" else pair.corrupted_source
    logits = _run(model, torch.tensor([ids]), _source(source), trace)
    return trace, _metric(logits, pair)[0]


@torch.no_grad()
def patched_metrics(model: nn.Module, pair: PatchingPair, patches: Sequence[Patch],
                    clean: Trace | None = None) -> np.ndarray:
    """The raw metric (logit[right] - logit[wrong]) of the corrupted run with each patch applied, one
    patched run per patch, batched.  [N]

    `clean` holds the clean run's activations of every patched name (recorded when not given).
    """
    patches = list(patches)
    _check_model(model, pair)
    if not patches:
        return np.zeros(0)
    names = list(dict.fromkeys(p.name for p in patches))
    if clean is None:
        clean, _ = _trace_of(model, pair, "clean", names)
    missing = [n for n in names if n not in clean]
    if missing:
        raise ValueError(f"{missing[:3]} name no activation of this model (or were not recorded in `clean`)")
    width = max(int(np.prod(clean[n].shape[2:], dtype=np.int64)) for n in names)
    width = max(width, model.config.target_vocab_size, model.config.d_ff)
    length = max(len(pair.clean), len(pair.clean_source or ()))
    rows_per_chunk = max(1, CHUNK_VALUES // (length * width))
    out = []
    for start in range(0, len(patches), rows_per_chunk):
        out.append(_run_chunk(model, pair, patches[start:start + rows_per_chunk], clean))
    return torch.cat(out).numpy()


def _run_chunk(model: nn.Module, pair: PatchingPair, patches: list[Patch], clean: Trace) -> torch.Tensor:
    """One batched forward pass: row r is the corrupted input with patches[r] applied.  [rows]"""
    rows = len(patches)
    masks: dict[str, torch.Tensor] = {}
    for row, patch in enumerate(patches):
        value = clean[patch.name]                                            # [1, ...]
        if patch.name not in masks:
            masks[patch.name] = torch.zeros((rows, *value.shape[1:]), dtype=torch.bool)
        masks[patch.name][(row, *_index(patch, value.dim()))] = True

    def copy_from_clean(x: torch.Tensor, name: str) -> torch.Tensor:
        return torch.where(masks[name], clean[name], x)                    # clean [1, ...] broadcasts over rows

    ids = torch.tensor([pair.corrupted]).expand(rows, -1)                   # [rows, T]
    source = None if pair.corrupted_source is None else torch.tensor([pair.corrupted_source]).expand(rows, -1)
    with hooks(model, {name: copy_from_clean for name in masks}):
        return _metric(_run(model, ids, source), pair)


# ------------------------------------------------------------------------------------------ the view

def _stacks(model: nn.Module) -> list[tuple[str, int]]:
    """(stack name, number of blocks), encoder first."""
    config = model.config
    return [(stack, n) for stack, n, present in (("encoder", config.n_encoder_layers, model.has_encoder),
                                                 ("decoder", config.n_decoder_layers, model.has_decoder)) if present]


def _differs(clean: Trace, corrupted: Trace, patch: Patch) -> bool:
    index = (0, *_index(patch, clean[patch.name].dim()))
    return not torch.equal(clean[patch.name][index], corrupted[patch.name][index])


def _row_flops(model: nn.Module, length: int, source_length: int) -> float:
    """Forward FLOPs of one patched run: every token of the decoder input (and of the source) through the model."""
    config = model.config
    return float(flops_per_token(config, max(length, 1))["total"] * length
                 + flops_per_token(config, max(source_length, 1))["total"] * source_length)


def view_flops(model: nn.Module, length: int, source_length: int = 0, heads_by_position: bool = True) -> float:
    """FLOPs of the patched runs of a whole view of inputs of these lengths, at most (cells whose activations
    are equal in both runs are not run): layers x positions of each stack, heads, heads x positions."""
    config = model.config
    runs = 0
    for stack, n in _stacks(model):
        positions = source_length if stack == "encoder" and model.has_decoder else length
        runs += (n + 1) * positions
    for site in model.sites():
        n = config.n_encoder_layers if site.stack == "encoder" else config.n_decoder_layers
        positions = source_length if site.stack == "encoder" and model.has_decoder else length
        runs += n * config.n_heads * (1 + (positions if heads_by_position else 0))
    return runs * _row_flops(model, length, source_length)


@torch.no_grad()
def activation_patching(model: nn.Module, pair: PatchingPair, heads_by_position: bool = True,
                        max_flops: float | None = None) -> PatchingView:
    """Patch every layer x position of the residual stream and every head's output (at every position,
    and one position at a time when `heads_by_position`) from the clean run into the corrupted one.

    Values are normalised: (m_patched - m_corrupted) / (m_clean - m_corrupted). With `max_flops`, the head-by-
    position runs are left out when the whole view would need more (the view counts them), and
    PatchingTooCostly is raised when even the rest would.
    """
    if not isinstance(pair, PatchingPair):
        raise TypeError(f"pair must be a PatchingPair (see induction_pair, task_pair), got {type(pair).__name__}")
    _check_model(model, pair)
    residual_rows = {stack: [f"{stack}.{i}.resid_pre" for i in range(n)] + [f"{stack}.{n - 1}.resid_post"]
                     for stack, n in _stacks(model)}
    n_layers = dict(_stacks(model))
    sites = model.sites()
    names = [n for rows in residual_rows.values() for n in rows] + \
            [site.key(layer, "z") for site in sites for layer in range(n_layers[site.stack])]
    clean, clean_metric = _trace_of(model, pair, "clean", names)
    corrupted, corrupted_metric = _trace_of(model, pair, "corrupted", names)
    spread = float(clean_metric - corrupted_metric)
    if abs(spread) < 1e-6:
        raise ValueError("the clean and corrupted runs give the same logit difference, so nothing can be restored; "
                         "choose a corruption that changes the model's answer")

    cells: list[tuple[tuple, Patch]] = []                                    # (where the value goes, the patch)
    for stack, rows in residual_rows.items():
        for r, name in enumerate(rows):
            cells += [(("resid", stack, r, t), Patch(name, t)) for t in range(len(pair.tokens(stack)))]
    n_heads = model.config.n_heads
    for site in sites:
        for layer in range(n_layers[site.stack]):
            name = site.key(layer, "z")
            cells += [(("head", site, layer, h), Patch(name, None, h)) for h in range(n_heads)]
            if heads_by_position:
                cells += [(("head_at", site, layer, h, t), Patch(name, t, h))
                          for h in range(n_heads) for t in range(len(pair.tokens(site.stack)))]
    run = [(where, patch) for where, patch in cells if _differs(clean, corrupted, patch)]
    left_out = 0
    if max_flops is not None:
        row = _row_flops(model, len(pair.clean), len(pair.clean_source or ()))
        if len(run) * row > max_flops:
            kept = [(where, patch) for where, patch in run if where[0] != "head_at"]
            left_out, run = len(run) - len(kept), kept
        if len(run) * row > max_flops:
            raise PatchingTooCostly(len(run) * row, max_flops)
    metrics = patched_metrics(model, pair, [patch for _, patch in run], clean)
    normalised = {where: (float(m) - float(corrupted_metric)) / spread for (where, _), m in zip(run, metrics)}

    residual = []
    for stack, rows in residual_rows.items():
        values = np.zeros((len(rows), len(pair.tokens(stack))), dtype=np.float32)
        for (kind, *where), value in normalised.items():
            if kind == "resid" and where[0] == stack:
                values[where[1], where[2]] = value
        residual.append(ResidualPatching(stack, rows, values))
    heads = []
    for site in sites:
        values = np.zeros((n_layers[site.stack], n_heads), dtype=np.float32)
        by_position = np.zeros((*values.shape, len(pair.tokens(site.stack))), dtype=np.float32) \
            if heads_by_position and not left_out else None
        for (kind, *where), value in normalised.items():
            if where[0] != site:
                continue
            if kind == "head":
                values[where[1], where[2]] = value
            elif kind == "head_at":
                by_position[where[1], where[2], where[3]] = value
        heads.append(HeadPatching(site, values, by_position))
    return PatchingView(pair, float(clean_metric), float(corrupted_metric), residual, heads, left_out)

"""Seq2seq results broken down, as model cards report them: exact match and BLEU of greedy decodes
by source length (copy, reverse, sort) and by date format (formats seen in training, on the held-out
sources, and formats kept out of training).

A decode counts as exact when its text equals the target; BLEU is sacrebleu's corpus-level
character BLEU (playground.train.metrics.bleu), as in training.
"""
from __future__ import annotations

import datetime as dt
import random

from torch import nn

from playground.data import tasks
from playground.data.date_formats import HELD_OUT_FORMATS, iso
from playground.train.metrics import bleu
from playground.train.objectives import Objective

BLEU_MIN_LENGTH = 4         # character BLEU counts n-grams of up to 4 characters: shorter targets have none
PER_LENGTH = 100            # fresh sources measured per source length never trained on
HELD_OUT_PER_FORMAT = 125   # dates measured per format kept out of training

Pair = tuple[str, str]


def decode_scores(objective: Objective, model: nn.Module, pairs: list[Pair]) -> dict:
    """{"sources", "exact_match", "bleu"} of the greedy decodes of ``pairs``' sources; bleu is None
    when a target is shorter than BLEU_MIN_LENGTH."""
    decoded = objective.greedy(model.eval(), [source for source, _ in pairs])
    outputs = [objective.tokenizer.decode(ids) for ids in decoded]                    # eos is not text
    targets = [target for _, target in pairs]
    exact = sum(output == target for output, target in zip(outputs, targets)) / len(pairs)
    score = bleu(outputs, targets) if min(map(len, targets)) >= BLEU_MIN_LENGTH else None
    return {"sources": len(pairs), "exact_match": exact, "bleu": score}


def has_lengths(objective: Objective) -> bool:
    """True for a task of random letter strings whose length can be chosen (copy, reverse, sort)."""
    task = getattr(objective, "task", None)
    return task is not None and {"length", "min_length", "symbols"} <= set(task.knobs)


def longest_source(objective: Objective) -> int:
    """The longest source of a letter task whose source and target the model's context holds."""
    max_len = objective.model_config.max_len
    return max_len - 1 if objective.arch == "encoder_decoder" else (max_len - 1) // 2


def objective_for_length(objective: Objective, length: int) -> Objective:
    """The same kind of objective on the task with every source ``length`` letters long (its
    decodes stop one token past a target of that length)."""
    knobs = {**objective.task.knobs, "length": length, "min_length": length}
    return type(objective)(tasks.get(objective.task.name, **knobs), objective.model_config,
                           objective.train_config.replace(val_size=1, batch_size=1))


def measured_lengths(objective: Objective) -> list[int]:
    """The source lengths a card reports: 1 to twice the longest trained length, as far as the context holds."""
    return list(range(1, min(2 * objective.task.length, longest_source(objective)) + 1))


def length_rows(objective: Objective, model: nn.Module, per_length: int = PER_LENGTH,
                lengths: list[int] | None = None) -> list[dict]:
    """Exact match and BLEU for each source length (default: measured_lengths): trained lengths on the
    held-out sources of that length, the others on ``per_length`` fresh sources (every source there
    is, when fewer exist)."""
    task = objective.task
    rows = []
    for length in measured_lengths(objective) if lengths is None else lengths:
        trained = task.min_length <= length <= task.length
        if trained:
            pairs = [(source, target) for source, target in objective.held_out if len(source) == length]
        else:
            fixed = tasks.get(task.name, **{**task.knobs, "length": length, "min_length": length})
            pairs = fixed.held_out(min(per_length, task.symbols ** length), seed=objective.train_config.seed)
        if pairs:
            scores = decode_scores(objective_for_length(objective, length), model, pairs)
            rows.append({"length": length, "trained": trained, **scores})
    return rows


def format_of(source: str, target: str, formats: dict) -> str:
    """The first of ``formats`` that writes the target's date as ``source`` (a date in May reads the same
    in "d Mon yyyy" and "d Month yyyy")."""
    date = dt.date.fromisoformat(target)
    return next(name for name, write in formats.items() if write(date) == source)


def seen_format_rows(objective: Objective, model: nn.Module) -> dict[str, dict]:
    """Format name -> scores of the held-out sources written in it, for every format the task trains on."""
    formats = objective.task.formats
    by_format: dict[str, list[Pair]] = {name: [] for name in formats}
    for source, target in objective.held_out:
        by_format[format_of(source, target, formats)].append((source, target))
    return {name: decode_scores(objective, model, pairs) for name, pairs in by_format.items() if pairs}


def held_out_format_pairs(name: str, task_knobs: dict, n: int, seed: int) -> list[Pair]:
    """``n`` (source, target) pairs with distinct sources, every source written in the held-out format ``name``."""
    task = tasks.get("dates", **task_knobs)
    rng = random.Random(f"held-out-format/{name}/{seed}")
    pairs: dict[str, str] = {}
    while len(pairs) < n:
        date = task.random_date(rng)
        pairs.setdefault(HELD_OUT_FORMATS[name](date), iso(date))
    return list(pairs.items())


def held_out_format_rows(objective: Objective, model: nn.Module, task_knobs: dict, seed: int,
                         n: int = HELD_OUT_PER_FORMAT) -> dict[str, dict]:
    """Format name -> scores of ``n`` dates written in that format, for every format kept out of training."""
    return {name: decode_scores(objective, model, held_out_format_pairs(name, task_knobs, n, seed))
            for name in HELD_OUT_FORMATS}


def held_out_formats_exact_match(objective: Objective, model: nn.Module, task_knobs: dict, seed: int,
                                 n: int = HELD_OUT_PER_FORMAT) -> dict[str, float]:
    """Format name -> share of ``n`` dates written in that format (kept out of training) whose greedy
    decode is exactly right."""
    rows = held_out_format_rows(objective, model, task_knobs, seed, n)
    return {name: row["exact_match"] for name, row in rows.items()}

"""Measure a saved checkpoint again, without training, and rewrite its card and metadata.

    python -m playground.train --remeasure pretrained/copy

The stored weights are evaluated on the held-out set they were trained against (the card's
"Storage" metrics, BLEU included) and, for a seq2seq task, broken down by source length or by date
format; a language model whose preset names a prompt writes its sample again. Those sections of
the card are rewritten or added, the "Held-out results" get the final weights' BLEU where the
metadata allows it, and "Reproduce" keeps the training command and names the command that
measured again. Only card.md and the header of model.safetensors change: the
bytes of every tensor, the tokenizer and the timeline stay as they are.
"""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from torch import nn

from playground.checkpoint import Checkpoint, load, load_metadata, rewrite_card
from playground.data import LMData, MLMData, RepeatedSequences, load_corpus, tasks
from playground.train.card import (
    BLEU_LINE, json_ready, measured_sections, reproduce_lines, seq2seq_extras, with_section, written_sample,
)
from playground.train.config import TrainConfig
from playground.train.metrics import bleu
from playground.train.objectives import Objective, build_objective
from playground.train.presets import get_preset

TRAINING_COMMAND = "python -m playground.train --preset "
HELD_OUT_HEADING = "## Held-out results"
LAST_SECTIONS = ("## Training timeline", "## Wall time", "## Reproduce")    # measured sections go before these


def measured_objective(checkpoint: Checkpoint, meta: dict) -> Objective:
    """The objective a checkpoint saved by the training CLI was measured with, its held-out set included."""
    command = meta.get("command", "")
    if not command.startswith(TRAINING_COMMAND) or "--text" in command.split():
        raise ValueError(f"only checkpoints trained by `{TRAINING_COMMAND}NAME` on the preset's own data can be "
                         f"measured again; this one was made by {command!r}")
    preset = get_preset(meta["preset"])
    if meta.get("task") is not None:
        data = tasks.get(meta["task"], **meta["task_knobs"])
    elif preset.repeats is not None:
        data = RepeatedSequences(**preset.repeats)
    else:
        data_class = MLMData if meta["kind"] == "mlm" else LMData
        data = data_class(load_corpus(meta["corpus"]), checkpoint.tokenizer, meta["block_size"])
    return build_objective(data, checkpoint.config, TrainConfig.from_dict(meta["train_config"]))


def final_bleu(meta: dict, objective: Objective) -> tuple[float | None, tuple[str, ...]]:
    """The final weights' BLEU for the "Held-out results", and a note when it was not measured in training."""
    if meta.get("bleu") is not None or meta.get("task") is None:
        return meta.get("bleu"), ()
    if meta.get("exact_match") == 1.0:
        targets = [target for _, target in objective.held_out]
        value = bleu(targets, targets)
        return value, (f"The final weights' BLEU was not measured in training; their exact match of 100% (every "
                       f"greedy decode equals its target) makes it {value:.1f}.",)
    return None, ("The final weights' BLEU was not measured in training and cannot be without them; the stored "
                  "weights' BLEU is under Storage.",)


def with_bleu_line(card_text: str, value: float) -> str:
    """``card_text`` whose "Held-out results" give ``value`` as BLEU, after the exact match."""
    start = card_text.index(f"\n{HELD_OUT_HEADING}\n") + 1
    end = card_text.index("\n## ", start) + 1
    kept = [line for line in card_text[start:end].split("\n") if not line.startswith(f"- {BLEU_LINE}:")]
    at = next(i for i, line in enumerate(kept) if line.startswith("- exact match of greedy decodes:")) + 1
    lines = [*kept[:at], f"- {BLEU_LINE}: {value:.1f}", *kept[at:]]
    return card_text[:start] + "\n".join(lines) + card_text[end:]


def remeasured_card(card_text: str, meta: dict, extras: dict, command: str, objective: Objective) -> str:
    """The card with its measured sections made from ``extras`` and its "Reproduce" naming ``command``."""
    following = next(heading for heading in LAST_SECTIONS if f"\n{heading}\n" in card_text)
    for lines in reversed(measured_sections(extras)):                 # each one goes before the one after it
        card_text = with_section(card_text, lines, before=following)
        following = lines[0]
    value, notes = final_bleu(meta, objective)
    if value is not None:
        card_text = with_bleu_line(card_text, value)
    return with_section(card_text, reproduce_lines(meta["command"], command, notes), before="## Reproduce")


def measure(objective: Objective, model: nn.Module, meta: dict) -> dict:
    """What the card reports about the stored weights: held-out metrics, the seq2seq breakdowns, and
    the sample a language model writes after its preset's prompt."""
    extras = {"storage": {"dtype": meta.get("storage", {}).get("dtype", "float32"),
                          "metrics": asdict(objective.evaluate(model))}}
    if meta.get("task") is not None:
        extras.update(seq2seq_extras(objective, model, meta["task_knobs"], objective.train_config.seed))
    prompt = get_preset(meta["preset"]).sample_prompt
    if prompt is not None:
        extras["sample"] = written_sample(model, objective.tokenizer, prompt)
    return extras


def remeasure(directory: str | Path, command: str) -> dict:
    """Measure the checkpoint in ``directory`` again and rewrite its card and metadata, recording
    ``command``; returns the new metadata. ValueError for a checkpoint this cannot measure."""
    checkpoint, meta = load(directory), load_metadata(directory)
    objective = measured_objective(checkpoint, meta)
    extras = measure(objective, checkpoint.model, meta)
    if "held_out_formats" in extras:
        extras["held_out_formats_command"] = command
    card_text = remeasured_card(checkpoint.card, meta, extras, command, objective)
    meta = {**meta, **json_ready(extras), "remeasure_command": command}
    rewrite_card(directory, card_text, meta)
    return meta

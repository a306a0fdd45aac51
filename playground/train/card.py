"""The model card and metadata saved with a trained checkpoint."""
from __future__ import annotations

import datetime as dt
import random

import numpy as np
import torch
from torch import nn

from playground.analysis import head_scores
from playground.data import tasks
from playground.data.date_formats import HELD_OUT_FORMATS, iso
from playground.data.tokenizer import NUM_SPECIAL
from playground.model import Trace, count_parameters
from playground.train.events import Snapshot, TrainEvent
from playground.train.objectives import Objective
from playground.train.presets import Preset
from playground.train.trainer import Trainer


def data_description(preset: Preset, trainer: Trainer) -> str:
    """One paragraph on what the model was trained on and what it was measured on."""
    if preset.task is not None:
        knobs = ", ".join(f"{k}={v!r}" for k, v in preset.task_knobs.items()) or "default knobs"
        return (f"Synthetic `{preset.task}` task ({knobs}), fresh random pairs every step. "
                f"{trainer.config.val_size} held-out sources, never shown in training, measure it.")
    data = trainer.objective.data
    n_train, n_val = len(data.ids("train")), len(data.ids("val"))
    tokenizer = f"{type(trainer.tokenizer).__name__} with {trainer.tokenizer.vocab_size} tokens"
    masking = f"; {data.mask_prob:.0%} of the tokens are masked" if preset.masked else ""
    return (f"Corpus `{preset.corpus}`, {tokenizer}: {n_train:,} training tokens and, as validation, the last "
            f"{n_val:,} tokens ({data.val_fraction:.0%} of the text); windows of {data.block_size} tokens{masking}.")


def metrics_lines(event: TrainEvent) -> list[str]:
    lines = [f"- validation loss: {event.val_loss:.4f} (perplexity {event.perplexity:.3f})",
             f"- token accuracy: {event.accuracy:.2%}"]
    if event.exact_match is not None:
        lines.append(f"- exact match of greedy decodes: {event.exact_match:.2%}")
    return lines


def head_score_table(snapshot: Snapshot | None) -> list[str]:
    """The strongest head for every score on the probe input, as a markdown table."""
    if snapshot is None or not snapshot.head_scores:
        return ["No attention snapshot was taken."]
    rows = ["| score | strongest head (layer.head) | value |", "|---|---|---|"]
    for name, scores in snapshot.head_scores.items():
        layer, head = np.unravel_index(int(np.argmax(scores)), scores.shape)
        rows.append(f"| {name} | {layer}.{head} | {float(scores[layer, head]):.3f} |")
    return [f"Probe input: `{snapshot.probe}`", "", *rows]


REPEAT_LENGTH = 24        # random tokens in each half of the induction probe
REPEAT_SEED = 0
FIRST_LOSSES = 10         # step losses recorded in the metadata, to check that a re-run reproduces them


@torch.no_grad()
def repeated_sequence_scores(model: nn.Module, vocab_size: int, length: int = REPEAT_LENGTH,
                             seed: int = REPEAT_SEED) -> dict[str, np.ndarray]:
    """Self-attention scores of a decoder-only model on ``length`` random tokens written twice.

    The second half can only be predicted by looking up what followed the same token in the
    first half, so an induction head scores high here. Returns "previous_token" and "induction",
    each [L, H].
    """
    generator = torch.Generator().manual_seed(seed)
    half = torch.randint(NUM_SPECIAL, vocab_size, (length,), generator=generator)   # [T/2]
    ids = torch.cat([half, half])                                                    # [T]
    trace = Trace(include=("*.weights",))
    model.eval()
    model(ids[None], trace=trace)
    weights = trace.attention("decoder", "self_attn")[:, 0].float().numpy()          # [L, H, T, T]
    scores = head_scores(weights, "self", ids=ids.tolist(), causal=True)
    return {name: scores[name] for name in ("previous_token", "induction")}


HELD_OUT_PER_FORMAT = 125
EXAMPLE_DATE = dt.date(2026, 11, 21)
DATES_HEADING = "## Date formats never seen in training"


def held_out_format_pairs(name: str, task_knobs: dict, n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (source, target) pairs with distinct sources, every source written in the held-out format ``name``."""
    task = tasks.get("dates", **task_knobs)
    rng = random.Random(f"held-out-format/{name}/{seed}")
    pairs: dict[str, str] = {}
    while len(pairs) < n:
        date = task.random_date(rng)
        pairs.setdefault(HELD_OUT_FORMATS[name](date), iso(date))
    return list(pairs.items())


def held_out_formats_exact_match(objective: Objective, model: nn.Module, task_knobs: dict, seed: int,
                                 n: int = HELD_OUT_PER_FORMAT) -> dict[str, float]:
    """Format name -> share of ``n`` dates written in that format (kept out of training) whose greedy
    decode is exactly right."""
    shares = {}
    for name in HELD_OUT_FORMATS:
        pairs = held_out_format_pairs(name, task_knobs, n, seed)
        decoded = objective.greedy(model.eval(), [source for source, _ in pairs])
        shares[name] = sum(objective.tokenizer.decode(out) == target for out, (_, target) in zip(decoded, pairs)) / n
    return shares


def dates_extras(objective: Objective, model: nn.Module, task_knobs: dict, seed: int) -> dict:
    """The card's measurements on held-out date formats: per format, overall, and the sample size."""
    shares = held_out_formats_exact_match(objective, model, task_knobs, seed)
    return {"held_out_formats": shares, "held_out_formats_exact_match": float(np.mean(list(shares.values()))),
            "held_out_formats_size": HELD_OUT_PER_FORMAT}


def extra_measurements(preset: Preset, trainer: Trainer) -> dict:
    """What the card reports beyond the training events: induction probe scores (language models)
    and, for dates, exact match on each format never seen in training."""
    extras: dict = {}
    if preset.kind == "lm":
        extras["repeated_sequence_scores"] = repeated_sequence_scores(trainer.model, trainer.tokenizer.vocab_size)
    if preset.task == "dates":
        extras.update(dates_extras(trainer.objective, trainer.model, preset.task_knobs, trainer.config.seed))
    return extras


def strongest_heads(scores: dict[str, np.ndarray]) -> dict[str, dict]:
    """For each score, the strongest head: {"layer", "head", "value"}."""
    best = {}
    for name, values in scores.items():
        layer, head = np.unravel_index(int(np.argmax(values)), values.shape)
        best[name] = {"layer": int(layer), "head": int(head), "value": round(float(values[layer, head]), 4)}
    return best


def strongest_head_table(title: str, scores: dict[str, np.ndarray]) -> list[str]:
    rows = [title, "", "| score | strongest head (layer.head) | value |", "|---|---|---|"]
    for name, best in strongest_heads(scores).items():
        rows.append(f"| {name} | {best['layer']}.{best['head']} | {best['value']:.3f} |")
    return rows


def card(preset: Preset, trainer: Trainer, final: TrainEvent, command: str, extras: dict | None = None) -> str:
    """Markdown: what the model does, its data, config, training, final metrics, head scores, command."""
    config, train = trainer.model_config, trainer.config
    params = count_parameters(config)["total"]
    model_rows = "\n".join(f"| {k} | {v} |" for k, v in config.to_dict().items())
    train_rows = "\n".join(f"| {k} | {v} |" for k, v in train.to_dict().items())
    lines = [
        f"# {preset.name}",
        "",
        preset.description,
        "",
        "## Data",
        "",
        data_description(preset, trainer),
        "",
        f"## Model ({params:,} parameters)",
        "",
        "| field | value |", "|---|---|", model_rows,
        "",
        "## Training",
        "",
        f"AdamW, linear warm-up then cosine decay; {trainer.step:,} steps of batch {train.batch_size} "
        f"in {trainer.elapsed:.1f} s of training ({final.status}).",
        "",
        "| field | value |", "|---|---|", train_rows,
        "",
        "## Held-out results",
        "",
        *metrics_lines(final),
        "",
        "## Head scores",
        "",
        *head_score_table(trainer.last_snapshot),
        "",
        *extra_lines(extras or {}),
        "## Reproduce",
        "",
        "```",
        command,
        "```",
        "",
    ]
    return "\n".join(lines)


def extra_lines(extras: dict) -> list[str]:
    """Card sections for what the CLI measured beyond the training events (see cli.extra_measurements)."""
    lines = []
    if "repeated_sequence_scores" in extras:
        lines += [*strongest_head_table(
            f"On {REPEAT_LENGTH} random tokens written twice (seed {REPEAT_SEED}), where the second half "
            "can only be predicted by induction:",
            extras["repeated_sequence_scores"]), ""]
    if "held_out_formats" in extras:
        lines += dates_lines(extras)
    if "storage" in extras:
        storage = extras["storage"]
        lines += ["## Storage", "", f"Weights stored as {storage['dtype']}. Held-out metrics of the stored weights:",
                  "", *metric_dict_lines(storage["metrics"]), ""]
    if "timeline" in extras:
        lines += ["## Training timeline", "",
                  "Complete checkpoints in `timeline/`, from initialisation to the end of training:", "",
                  "| step | file | validation loss |", "|---|---|---|"]
        lines += [f"| {t['step']} | `{t['file']}` | {t['val_loss']:.4f} |" for t in extras["timeline"]]
        lines.append("")
    if "wall_seconds" in extras:
        lines += ["## Wall time", "",
                  f"{extras['wall_seconds']:.0f} s on this machine from start to saved files "
                  f"({extras['threads']} torch threads).", ""]
    return lines


def dates_lines(extras: dict) -> list[str]:
    """The card's section on held-out date formats: exact match per format, then overall."""
    shares, n = extras["held_out_formats"], extras["held_out_formats_size"]
    lines = [DATES_HEADING, "",
             f"Exact match of greedy decodes on {n} dates in each format kept out of training "
             f"({n * len(shares)} in all): {extras['held_out_formats_exact_match']:.2%} overall.", "",
             "| format | example | exact match |", "|---|---|---|"]
    lines += [f"| {name} | {HELD_OUT_FORMATS[name](EXAMPLE_DATE)} | {share:.2%} |" for name, share in shares.items()]
    if "held_out_formats_command" in extras:
        lines += ["", f"Measured on the stored weights by `{extras['held_out_formats_command']}`."]
    return [*lines, ""]


def with_dates_section(card_text: str, extras: dict) -> str:
    """``card_text`` with its held-out date formats section replaced by one made from ``extras``."""
    start = card_text.index(DATES_HEADING)
    end = card_text.index("\n## ", start) + 1
    return card_text[:start] + "\n".join(dates_lines(extras)) + "\n" + card_text[end:]


def metric_dict_lines(metrics: dict) -> list[str]:
    lines = [f"- validation loss: {metrics['val_loss']:.4f}", f"- token accuracy: {metrics['accuracy']:.2%}"]
    if metrics.get("exact_match") is not None:
        lines.append(f"- exact match of greedy decodes: {metrics['exact_match']:.2%}")
    return lines


def metadata(preset: Preset, trainer: Trainer, final: TrainEvent, command: str) -> dict:
    """Machine-readable training facts stored in the checkpoint header."""
    return {
        "preset": preset.name,
        "kind": preset.kind,
        "task": preset.task,
        "task_knobs": preset.task_knobs,
        "corpus": preset.corpus,
        "tokenizer": preset.tokenizer,
        "block_size": preset.block_size,
        "train_config": trainer.config.to_dict(),
        "steps": trainer.step,
        "train_seconds": round(trainer.elapsed, 2),
        "status": final.status,
        "val_loss": final.val_loss,
        "perplexity": final.perplexity,
        "accuracy": final.accuracy,
        "exact_match": final.exact_match,
        "command": command,
        "first_step_losses": trainer.step_losses[:FIRST_LOSSES],
    }

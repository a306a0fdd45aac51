"""The model card and metadata saved with a trained checkpoint."""
from __future__ import annotations

import datetime as dt
import random

import numpy as np
import torch
from torch import nn

from playground.analysis.head_scores import INDUCTION_THRESHOLD, SECOND_COPY_LOSS_RATIO
from playground.analysis.induction import (
    VERDICT_PERIOD, VERDICT_SEQUENCES, induction_verdict, measure_repeats, random_blocks,
)
from playground.data import Tokenizer, bundled_text, tasks
from playground.data.date_formats import HELD_OUT_FORMATS, iso
from playground.data.repeats import RepeatedSequences
from playground.data.tokenizer import NUM_SPECIAL
from playground.model import count_parameters
from playground.train.events import Snapshot, TrainEvent
from playground.train.objectives import Objective
from playground.train.presets import Preset
from playground.train.trainer import Trainer


def data_description(preset: Preset, trainer: Trainer) -> str:
    """One paragraph on what the model was trained on and what it was measured on."""
    if preset.repeats is not None:
        data = trainer.objective.data
        return (f"Repeated random sequences, fresh every step: each sequence is a random block of n tokens (uniform "
                f"over the {data.vocab_size - NUM_SPECIAL} printable characters and newline) written again and again "
                f"up to {data.block_size} tokens, n drawn from {data.min_period} to {data.max_period} for each batch. "
                f"{trainer.config.val_size} held-out sequences, periods spread over that range, measure it.")
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
    if event.bleu is not None:
        lines.append(f"- BLEU of greedy decodes (sacrebleu, characters, corpus-level): {event.bleu:.1f}")
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


def repeated_sequence_scores(model: nn.Module, vocab_size: int, length: int = REPEAT_LENGTH,
                             seed: int = REPEAT_SEED) -> dict[str, np.ndarray]:
    """Self-attention scores of a decoder-only model on ``length`` random tokens written twice.

    The second half can only be predicted by looking up what followed the same token in the
    first half, so an induction head scores high here. Returns "previous_token" and "induction",
    each [L, H].
    """
    measured = measure_repeats(model, random_blocks(1, length, vocab_size, seed), 2 * length)
    return {"previous_token": measured.previous_token, "induction": measured.induction}


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


SHORTER_PERIODS = (4, 6)         # repeat periods shorter and longer than any the induction preset trains on
LONGER_PERIODS = (40, 48)
REFERENCE_PERIOD = 16            # one period inside the training range, for comparison
REPEAT_SOURCES = ("random tokens", "random letters", "natural text")
REPEAT_SEQUENCES = 64            # sequences measured per source and period


def repeat_blocks(source: str, tokenizer: Tokenizer, period: int, n: int = REPEAT_SEQUENCES, seed: int = 0) -> torch.Tensor:
    """``n`` blocks of ``period`` tokens [n, period]: random ordinary tokens, random lowercase letters,
    or consecutive characters of the bundled English text at evenly spaced places."""
    if source == "random tokens":
        return random_blocks(n, period, tokenizer.vocab_size, seed)
    if source == "random letters":
        letters = torch.tensor(tokenizer.encode("abcdefghijklmnopqrstuvwxyz"))
        return letters[torch.randint(0, len(letters), (n, period), generator=torch.Generator().manual_seed(seed))]
    if source == "natural text":
        ids = torch.tensor(tokenizer.encode(" ".join(bundled_text().split())))   # whitespace runs as one space
        starts = torch.linspace(0, len(ids) - period, n).long()
        return ids[starts[:, None] + torch.arange(period)]
    raise ValueError(f"source must be one of {REPEAT_SOURCES}, got {source!r}")


def repeat_report(model: nn.Module, tokenizer: Tokenizer, block_size: int) -> list[dict]:
    """For every source and period (shorter, inside and longer than the training range), the block
    repeated to ``block_size`` tokens: the highest induction score and the first- and second-copy losses."""
    rows = []
    for source in REPEAT_SOURCES:
        for period in (*SHORTER_PERIODS, REFERENCE_PERIOD, *LONGER_PERIODS):
            m = measure_repeats(model, repeat_blocks(source, tokenizer, period), block_size)
            layer, head = np.unravel_index(int(np.argmax(m.induction)), m.induction.shape)
            rows.append({"source": source, "period": period, "layer": int(layer), "head": int(head),
                         "induction": round(float(m.induction[layer, head]), 4),
                         "uniform_induction": round(m.uniform_induction, 4),
                         "first_copy_loss": round(m.first_copy_loss, 4),
                         "second_copy_loss": round(m.second_copy_loss, 4)})
    return rows


def verdict_summary(model: nn.Module) -> dict:
    """The naming rule's verdict on a decoder-only model, as plain values."""
    verdict = induction_verdict(model)
    m = verdict.measurement
    return {"heads": [list(h) for h in verdict.heads], "best": list(verdict.best),
            "best_score": round(verdict.best_score, 4), "reason": verdict.reason,
            "first_copy_loss": round(m.first_copy_loss, 4), "second_copy_loss": round(m.second_copy_loss, 4)}


def extra_measurements(preset: Preset, trainer: Trainer, model: nn.Module | None = None) -> dict:
    """What the card reports beyond the training events: induction probe scores (language models),
    for the repeated-sequence preset the induction verdict and the report on periods never trained
    on, and for dates exact match on formats never seen in training. ``model``: the weights as
    stored (default: the trainer's)."""
    model = trainer.model if model is None else model
    extras: dict = {}
    if preset.kind == "lm":
        extras["repeated_sequence_scores"] = repeated_sequence_scores(model, trainer.tokenizer.vocab_size)
    if preset.repeats is not None:
        extras["induction_verdict"] = verdict_summary(model)
        extras["repeat_report"] = repeat_report(model, trainer.tokenizer, trainer.objective.data.block_size)
    if preset.task == "dates":
        extras.update(dates_extras(trainer.objective, model, preset.task_knobs, trainer.config.seed))
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
        f"AdamW, {schedule_words(train)}; {trainer.step:,} steps of batch {train.batch_size} "
        f"in {trainer.elapsed:.1f} s of training ({final.status}){where_trained(trainer)}.",
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
    if "induction_verdict" in extras:
        lines += induction_lines(extras["induction_verdict"], extras["repeat_report"])
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


def induction_lines(verdict: dict, report: list[dict]) -> list[str]:
    """Card sections: the induction heads found and how they do on periods and text never trained on."""
    heads = ", ".join(f"{layer}.{head}" for layer, head in verdict["heads"])
    rule = (f"a head is called an induction head when its induction score on {VERDICT_SEQUENCES} sequences of "
            f"{VERDICT_PERIOD} random tokens written twice is at least {INDUCTION_THRESHOLD} and the loss on the "
            f"second copy is at most {SECOND_COPY_LOSS_RATIO} times the loss on the first")
    found = f"Induction heads (layer.head): {heads}." if heads else "No head qualifies as an induction head."
    lines = ["## Induction heads", "", f"{found} The rule: {rule}. Measured: highest score "
             f"{verdict['best_score']:.3f} (head {verdict['best'][0]}.{verdict['best'][1]}), loss "
             f"{verdict['first_copy_loss']:.3f} on the first copy and {verdict['second_copy_loss']:.3f} on the second.",
             "", "## Repeat periods and text never trained on", "",
             f"Each sequence is a block of `period` tokens written again and again up to the context; "
             f"{REPEAT_SEQUENCES} sequences per row. Training used periods "
             f"{RepeatedSequences().min_period} to {RepeatedSequences().max_period} of random tokens only; "
             "letters are a few of those tokens, drawn with repeats inside a block, and natural text "
             "(the bundled English text, whitespace runs as one space) repeats letters and words inside a block. "
             "*First copy*: loss on tokens 2..period; *second copy*: loss on the next `period` tokens "
             "(cut at the context). *By chance*: the score of a head that spreads its weight evenly over "
             "what it can see (high for short periods, where many earlier copies hold the right key).", "",
             "| source | period | period trained on? | best induction head | score | by chance | loss, first copy "
             "| loss, second copy |",
             "|---|---|---|---|---|---|---|---|"]
    data = RepeatedSequences()
    for row in report:
        trained = "yes" if data.min_period <= row["period"] <= data.max_period else "no"
        lines.append(f"| {row['source']} | {row['period']} | {trained} | {row['layer']}.{row['head']} | "
                     f"{row['induction']:.3f} | {row['uniform_induction']:.3f} | {row['first_copy_loss']:.3f} | "
                     f"{row['second_copy_loss']:.3f} |")
    return [*lines, ""]


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


def where_trained(trainer: Trainer) -> str:
    """ " on cuda (bfloat16 autocast, TF32 matmuls) then cpu (float32)": each device type the steps ran on, in order."""
    places = " then ".join(f"{kind} ({how})" for kind, how in trainer.trained_on.items())
    return f" on {places}" if places else ""


def schedule_words(train) -> str:
    if train.warmup_steps == 0 and train.min_lr_ratio == 1.0:
        return "constant learning rate"
    return "linear warm-up then cosine decay"


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

"""The model card and metadata saved with a trained checkpoint."""
from __future__ import annotations

import datetime as dt

import numpy as np
import torch
from torch import nn

from playground.analysis.head_scores import INDUCTION_THRESHOLD, SECOND_COPY_LOSS_RATIO
from playground.analysis.induction import (
    VERDICT_PERIOD, VERDICT_SEQUENCES, induction_verdict, measure_repeats, random_blocks,
)
from playground.data import CORPUS_SOURCES, Tokenizer, bundled_text
from playground.data.date_formats import ALL_FORMATS, HELD_OUT_FORMATS
from playground.data.repeats import RepeatedSequences
from playground.data.tokenizer import NUM_SPECIAL
from playground.generate.batch import sample_continuation
from playground.model import count_parameters
from playground.train.breakdown import (
    BLEU_MIN_LENGTH, HELD_OUT_PER_FORMAT, PER_LENGTH, decode_scores, has_lengths, held_out_format_pairs,
    held_out_format_rows, length_rows, seen_format_rows,
)
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
    source = f" {CORPUS_SOURCES[preset.corpus]}" if preset.corpus in CORPUS_SOURCES else ""
    return (f"Corpus `{preset.corpus}`, {tokenizer}: {n_train:,} training tokens and, as validation, the last "
            f"{n_val:,} tokens ({data.val_fraction:.0%} of the text); windows of {data.block_size} tokens{masking}."
            f"{source}")


BLEU_LINE = "BLEU of greedy decodes (sacrebleu, characters, corpus-level)"


def metrics_lines(event: TrainEvent) -> list[str]:
    lines = [f"- validation loss: {event.val_loss:.4f} (perplexity {event.perplexity:.3f})",
             f"- token accuracy: {event.accuracy:.2%}"]
    if event.exact_match is not None:
        lines.append(f"- exact match of greedy decodes: {event.exact_match:.2%}")
    if event.bleu is not None:
        lines.append(f"- {BLEU_LINE}: {event.bleu:.1f}")
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


SAMPLE_TOKENS = 100       # tokens a card's sample writes after its prompt
SAMPLE_TEMPERATURE = 0.8
SAMPLE_SEED = 0
REPEAT_LENGTH = 24        # random tokens in each half of the induction probe
REPEAT_SEED = 0
FIRST_LOSSES = 10         # step losses recorded in the metadata, to check that a re-run reproduces them


def written_sample(model: nn.Module, tokenizer: Tokenizer, prompt: str, n: int = SAMPLE_TOKENS,
                   temperature: float = SAMPLE_TEMPERATURE, seed: int = SAMPLE_SEED) -> dict:
    """What a decoder-only model writes after ``prompt``: ``n`` tokens (fewer where its context ends)
    sampled at ``temperature`` by a generator seeded with ``seed``, with the settings that reproduce it."""
    prompt_ids = tokenizer.encode(prompt)
    n = min(n, model.config.max_len - len(prompt_ids))
    ids = sample_continuation(model.eval(), prompt_ids, n, temperature, torch.Generator().manual_seed(seed))
    return {"prompt": prompt, "tokens": n, "temperature": temperature, "seed": seed, "text": tokenizer.decode(ids)}


def repeated_sequence_scores(model: nn.Module, vocab_size: int, length: int = REPEAT_LENGTH,
                             seed: int = REPEAT_SEED) -> dict[str, np.ndarray]:
    """Self-attention scores of a decoder-only model on ``length`` random tokens written twice.

    The second half can only be predicted by looking up what followed the same token in the
    first half, so an induction head scores high here. Returns "previous_token" and "induction",
    each [L, H].
    """
    measured = measure_repeats(model, random_blocks(1, length, vocab_size, seed), 2 * length)
    return {"previous_token": measured.previous_token, "induction": measured.induction}


EXAMPLE_DATE = dt.date(2026, 11, 21)
DATES_HEADING = "## Date formats never seen in training"
SEEN_FORMATS_HEADING = "## Date formats seen in training"
LENGTHS_HEADING = "## Source lengths"


def dates_extras(objective: Objective, model: nn.Module, task_knobs: dict, seed: int) -> dict:
    """The card's measurements by date format: each format kept out of training (HELD_OUT_PER_FORMAT
    dates each), those formats together, and each format seen in training (on the held-out sources)."""
    rows = held_out_format_rows(objective, model, task_knobs, seed)
    pooled = [pair for name in rows for pair in held_out_format_pairs(name, task_knobs, HELD_OUT_PER_FORMAT, seed)]
    overall = decode_scores(objective, model, pooled)
    return {"held_out_formats": {name: row["exact_match"] for name, row in rows.items()},
            "held_out_formats_bleu": {name: row["bleu"] for name, row in rows.items()},
            "held_out_formats_exact_match": overall["exact_match"], "held_out_formats_overall_bleu": overall["bleu"],
            "held_out_formats_size": HELD_OUT_PER_FORMAT, "seen_formats": seen_format_rows(objective, model),
            "seen_formats_overall": decode_scores(objective, model, objective.held_out)}


def seq2seq_extras(objective: Objective, model: nn.Module, task_knobs: dict, seed: int) -> dict:
    """The card's results broken down for a seq2seq task: by date format, or by source length."""
    if objective.task.name == "dates":
        return dates_extras(objective, model, task_knobs, seed)
    if has_lengths(objective):
        return {"lengths": length_rows(objective, model)}
    return {}


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
    on, for seq2seq tasks the results by source length or date format, and a sample of the text a
    language model writes after its preset's prompt. ``model``: the weights as stored (default: the
    trainer's)."""
    model = trainer.model if model is None else model
    extras: dict = {}
    if preset.kind == "lm":
        extras["repeated_sequence_scores"] = repeated_sequence_scores(model, trainer.tokenizer.vocab_size)
    if preset.sample_prompt is not None:
        extras["sample"] = written_sample(model, trainer.tokenizer, preset.sample_prompt)
    if preset.repeats is not None:
        extras["induction_verdict"] = verdict_summary(model)
        extras["repeat_report"] = repeat_report(model, trainer.tokenizer, trainer.objective.data.block_size)
    if preset.task is not None:
        extras.update(seq2seq_extras(trainer.objective, model, preset.task_knobs, trainer.config.seed))
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
        *reproduce_lines(command),
    ]
    return "\n".join(lines)


def reproduce_lines(command: str, remeasured_by: str | None = None, notes: tuple[str, ...] = ()) -> list[str]:
    """The "Reproduce" section: the training command, and the command that measured the stored weights
    again (with ``notes`` on what it could not measure), if any."""
    lines = ["## Reproduce", "", "```", command, "```", ""]
    if remeasured_by is not None:
        lines += ["What this card reports of the stored weights was measured again, without training, by:", "",
                  "```", remeasured_by, "```", "", *[line for note in notes for line in (note, "")]]
    return lines


def extra_lines(extras: dict) -> list[str]:
    """Card sections for what the CLI measured beyond the training events (see cli.extra_measurements)."""
    lines = []
    if "repeated_sequence_scores" in extras:
        lines += [*strongest_head_table(
            f"On {REPEAT_LENGTH} random tokens written twice (seed {REPEAT_SEED}), where the second half "
            "can only be predicted by induction:",
            extras["repeated_sequence_scores"]), ""]
    if "sample" in extras:
        lines += sample_lines(extras["sample"])
    if "induction_verdict" in extras:
        lines += induction_lines(extras["induction_verdict"], extras["repeat_report"])
    if "lengths" in extras:
        lines += lengths_lines(extras)
    if "seen_formats" in extras:
        lines += seen_formats_lines(extras)
    if "held_out_formats" in extras:
        lines += dates_lines(extras)
    if "storage" in extras:
        lines += storage_lines(extras["storage"])
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


def sample_lines(sample: dict) -> list[str]:
    """The card's section with the text a language model writes after its prompt (see written_sample)."""
    return ["## Sample", "",
            f"{sample['tokens']} tokens the stored weights write after `{sample['prompt']}`, sampled at temperature "
            f"{sample['temperature']} (torch.Generator seeded with {sample['seed']}; "
            "playground.generate.batch.sample_continuation):", "",
            "```", sample["prompt"] + sample["text"], "```", ""]


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


def bleu_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


def lengths_lines(extras: dict) -> list[str]:
    """The card's section on source lengths: exact match and BLEU for each length, trained or not."""
    rows = extras["lengths"]
    trained = [row["length"] for row in rows if row["trained"]]
    if len(trained) == 1:
        scope = (f"The task has one fixed length: every source in training and in the held-out set has {trained[0]} "
                 f"letters. That length is measured on the held-out sources")
    else:
        scope = (f"Training drew each source's length from {trained[0]} to {trained[-1]} letters. Those lengths are "
                 f"measured on the held-out sources of each length")
    lines = [LENGTHS_HEADING, "",
             f"{scope}, every other length on {PER_LENGTH} fresh sources (all there are where fewer exist), none of "
             f"them seen in training. Exact match and BLEU of greedy decodes of the stored weights; a decode stops one "
             f"token past its target. BLEU counts n-grams of up to {BLEU_MIN_LENGTH} characters, so shorter targets "
             f"have none (n/a).", "",
             "| source length | seen in training? | sources | exact match | BLEU |", "|---|---|---|---|---|"]
    lines += [f"| {row['length']} | {'yes' if row['trained'] else 'no'} | {row['sources']} | "
              f"{row['exact_match']:.2%} | {bleu_text(row['bleu'])} |" for row in rows]
    return [*lines, ""]


def seen_formats_lines(extras: dict) -> list[str]:
    """The card's section on the date formats of training: each one's held-out sources, then all of them."""
    rows, seen = extras["seen_formats"], extras["seen_formats_overall"]
    lines = [SEEN_FORMATS_HEADING, "",
             f"The {seen['sources']} held-out sources (never shown in training) by the format each is written in, "
             f"on the stored weights: exact match {seen['exact_match']:.2%} and BLEU {bleu_text(seen['bleu'])} "
             f"overall, against {extras['held_out_formats_exact_match']:.2%} and BLEU "
             f"{bleu_text(extras['held_out_formats_overall_bleu'])} on the formats never seen in training (next "
             "section). A source that two formats write alike (a date in May) counts for the first of them.", "",
             "| format | example | held-out sources | exact match | BLEU |", "|---|---|---|---|---|"]
    lines += [f"| {name} | {ALL_FORMATS[name](EXAMPLE_DATE)} | {row['sources']} | {row['exact_match']:.2%} | "
              f"{bleu_text(row['bleu'])} |" for name, row in rows.items()]
    return [*lines, ""]


def dates_lines(extras: dict) -> list[str]:
    """The card's section on held-out date formats: exact match and BLEU per format, then overall."""
    shares, n, bleus = extras["held_out_formats"], extras["held_out_formats_size"], extras["held_out_formats_bleu"]
    lines = [DATES_HEADING, "",
             f"Exact match of greedy decodes on {n} dates in each format kept out of training "
             f"({n * len(shares)} in all): {extras['held_out_formats_exact_match']:.2%} overall (BLEU "
             f"{bleu_text(extras['held_out_formats_overall_bleu'])}).", "",
             "| format | example | exact match | BLEU |", "|---|---|---|---|"]
    lines += [f"| {name} | {HELD_OUT_FORMATS[name](EXAMPLE_DATE)} | {share:.2%} | {bleu_text(bleus[name])} |"
              for name, share in shares.items()]
    if "held_out_formats_command" in extras:
        lines += ["", f"Measured on the stored weights by `{extras['held_out_formats_command']}`."]
    return [*lines, ""]


def storage_lines(storage: dict) -> list[str]:
    return ["## Storage", "", f"Weights stored as {storage['dtype']}. Held-out metrics of the stored weights:",
            "", *metric_dict_lines(storage["metrics"]), ""]


def measured_sections(extras: dict) -> list[list[str]]:
    """The sections a re-measurement rewrites, each a list of lines that starts with its heading."""
    sections = [sample_lines(extras["sample"])] if "sample" in extras else []
    if "lengths" in extras:
        sections.append(lengths_lines(extras))
    if "seen_formats" in extras:
        sections += [seen_formats_lines(extras), dates_lines(extras)]
    return [*sections, storage_lines(extras["storage"])]


def with_section(card_text: str, lines: list[str], before: str) -> str:
    """``card_text`` with the section headed ``lines[0]`` replaced by ``lines``, or, when it has none,
    with ``lines`` inserted before the section headed ``before``."""
    text = "\n".join(lines)                                               # sections end with an empty line
    heading = f"\n{lines[0]}\n"
    if heading in card_text:
        start = card_text.index(heading) + 1
        end = card_text.find("\n## ", start)
        return card_text[:start] + text + ("" if end < 0 else "\n" + card_text[end + 1:])
    start = card_text.index(f"\n{before}\n") + 1
    return card_text[:start] + text + "\n" + card_text[start:]


def metric_dict_lines(metrics: dict) -> list[str]:
    lines = [f"- validation loss: {metrics['val_loss']:.4f}", f"- token accuracy: {metrics['accuracy']:.2%}"]
    if metrics.get("exact_match") is not None:
        lines.append(f"- exact match of greedy decodes: {metrics['exact_match']:.2%}")
    if metrics.get("bleu") is not None:
        lines.append(f"- {BLEU_LINE}: {metrics['bleu']:.1f}")
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
        "bleu": final.bleu,
        "command": command,
        "first_step_losses": trainer.step_losses[:FIRST_LOSSES],
    }


def json_ready(extras: dict) -> dict:
    """``extras`` with arrays as nested lists, for the checkpoint's JSON metadata."""
    def convert(value):
        if hasattr(value, "tolist"):
            return value.tolist()
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        return value
    return convert(extras)

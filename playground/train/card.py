"""The model card and metadata saved with a trained checkpoint."""
from __future__ import annotations

import numpy as np

from playground.model import count_parameters
from playground.train.events import Snapshot, TrainEvent
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


def card(preset: Preset, trainer: Trainer, final: TrainEvent, command: str) -> str:
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
        "## Reproduce",
        "",
        "```",
        command,
        "```",
        "",
    ]
    return "\n".join(lines)


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
    }

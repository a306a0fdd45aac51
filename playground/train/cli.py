"""`python -m playground.train --preset NAME --out DIR`: train a preset and save a checkpoint with a card.

`python -m playground.train --remeasure DIR` measures a checkpoint the CLI saved again, without
training, and rewrites its card and metadata (playground.train.remeasure; the weights stay byte for
byte as they are). `--recard DIR`, its former name, does the same.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

import torch

from playground.checkpoint import TIMELINE_DIR, from_bytes, save, to_bytes
from playground.data import CorpusUnavailable
from playground.train.card import card, extra_measurements, json_ready, metadata
from playground.train.events import TrainEvent
from playground.train.presets import PRESETS, get_preset
from playground.train.remeasure import remeasure
from playground.train.trainer import Trainer

LOG_EVERY_S = 10.0   # without a terminal, one progress line per this many seconds
DTYPES = {"float32": torch.float32, "float16": torch.float16}


def progress_line(event: TrainEvent, max_steps: int) -> str:
    """One line of progress, e.g. "step 120/2000  loss 1.234  val 1.301  acc 61.0%  lr 3.0e-03  9,876 tok/s  0:42"."""
    parts = [f"step {event.step}/{max_steps}", f"loss {event.loss:.4f}"]
    if event.val_loss is not None:
        parts += [f"val {event.val_loss:.4f}", f"acc {event.accuracy:.1%}"]
        if event.exact_match is not None:
            parts.append(f"exact {event.exact_match:.1%}")
    minutes, seconds = divmod(int(event.elapsed), 60)
    parts += [f"lr {event.lr:.1e}", f"{event.tokens_per_s:,.0f} tok/s", f"{minutes}:{seconds:02d}"]
    return "  ".join(parts)


class Progress:
    """A single line redrawn in place on a terminal; occasional plain lines otherwise."""

    def __init__(self, stream: TextIO, max_steps: int):
        self.stream = stream
        self.max_steps = max_steps
        self.live = stream.isatty()
        self.last_log = -LOG_EVERY_S
        self.width = 0

    def update(self, event: TrainEvent) -> None:
        line = progress_line(event, self.max_steps)
        if self.live:
            self.stream.write("\r" + line.ljust(self.width))
            self.width = len(line)
        elif event.status != "running" or time.monotonic() - self.last_log >= LOG_EVERY_S:
            self.stream.write(line + "\n")
            self.last_log = time.monotonic()
        self.stream.flush()

    def finish(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m playground.train", description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=list(PRESETS), help="what to train")
    parser.add_argument("--out", type=Path, help="directory for the checkpoint (created if needed)")
    parser.add_argument("--remeasure", type=Path, metavar="DIR",
                        help="instead of training: measure the checkpoint in DIR again (held-out metrics of the stored "
                             "weights, results by source length or date format) and rewrite its card and metadata; "
                             "the weights stay as they are")
    parser.add_argument("--recard", type=Path, dest="remeasure", help=argparse.SUPPRESS)   # the former name
    parser.add_argument("--steps", type=int, help="optimisation steps (default: the preset's); also sets the schedule")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds of training")
    parser.add_argument("--seed", type=int, help="random seed (default: the preset's)")
    parser.add_argument("--text", type=Path, help="train a language-model preset on this UTF-8 text file instead")
    parser.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's choice)")
    parser.add_argument("--dtype", choices=list(DTYPES), default="float32",
                        help="storage type of the saved weights; the card reports the metrics of the stored weights")
    parser.add_argument("--timeline", type=fractions,
                        help="also save complete checkpoints at these fractions of the steps into OUT/timeline/, "
                             "e.g. 0,0.01,0.05,0.2,1")
    parser.add_argument("--eval-every", type=float, dest="eval_every",
                        help="seconds of training between held-out evaluations (default: the preset's)")
    args = parser.parse_args(argv)
    if args.remeasure is None and (args.preset is None or args.out is None):
        parser.error("--preset and --out are required (or --remeasure DIR alone)")
    if args.remeasure is not None and args.preset is not None:
        parser.error("--remeasure rewrites an existing checkpoint's card; it takes no --preset")
    return args


def fractions(text: str) -> list[float]:
    """"0,0.05,1" -> [0.0, 0.05, 1.0]: sorted, unique, each in [0, 1]."""
    try:
        values = sorted({float(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of numbers, e.g. 0,0.01,0.2,1") from None
    if not values or not all(0 <= v <= 1 for v in values):
        raise argparse.ArgumentTypeError(f"timeline fractions must lie in [0, 1], e.g. 0,0.01,0.2,1; got {text!r}")
    return values


def timeline_steps(fractions_: list[float], max_steps: int) -> list[int]:
    """The distinct steps at which the timeline saves a checkpoint."""
    return sorted({round(f * max_steps) for f in fractions_})


def timeline_file(step: int) -> str:
    return f"step_{step:06d}.safetensors"


def train(trainer: Trainer, progress: "Progress", stops: list[int], on_stop) -> TrainEvent | None:
    """Run the trainer to the end, calling ``on_stop()`` whenever it reaches one of ``stops``; the final event."""
    final = None
    for stop in [*stops, None]:
        if stop is not None and stop < trainer.step:
            continue
        if trainer.failure is None and not trainer.finished and (stop is None or stop > trainer.step):
            for item in trainer.run(max_steps=None if stop is None else stop - trainer.step):
                if isinstance(item, TrainEvent):
                    progress.update(item)
                    final = item
        if trainer.failure is not None:
            break
        if stop is not None:
            on_stop()
    return final


def main(argv: list[str] | None = None, stream: TextIO | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    stream = sys.stderr if stream is None else stream
    args = parse_args(argv)
    command = "python -m playground.train " + shlex.join(argv)
    if args.remeasure is not None:
        return remeasure_command(args.remeasure, command, stream)
    preset = get_preset(args.preset)
    started = time.perf_counter()
    changes = {name: value for name, value in (("max_steps", args.steps), ("max_seconds", args.seconds),
                                               ("seed", args.seed), ("eval_every_s", args.eval_every))
               if value is not None}
    if args.threads is not None:
        if args.threads < 1:
            raise SystemExit("--threads must be at least 1")
        torch.set_num_threads(args.threads)
    text = args.text.read_text(encoding="utf-8") if args.text is not None else None
    try:
        trainer = preset.trainer(text=text, **changes)
    except ValueError as error:
        raise SystemExit(f"cannot train {preset.name}: {error}") from None

    dtype = DTYPES[args.dtype]
    timeline: list[dict] = []

    def save_timeline_checkpoint() -> None:
        val_loss = trainer.evaluate().val_loss
        entry = {"step": trainer.step, "file": f"{TIMELINE_DIR}/{timeline_file(trainer.step)}", "val_loss": val_loss}
        meta = {"preset": preset.name, "step": trainer.step, "max_steps": trainer.config.max_steps,
                "val_loss": val_loss, "command": command}
        text = f"# {preset.name}, step {trainer.step} of {trainer.config.max_steps}\n\nA point of the training timeline.\n"
        (args.out / TIMELINE_DIR).mkdir(parents=True, exist_ok=True)
        (args.out / entry["file"]).write_bytes(to_bytes(trainer.model, trainer.tokenizer, text, meta, dtype))
        if not timeline or timeline[-1]["step"] != trainer.step:
            timeline.append(entry)

    progress = Progress(stream, trainer.config.max_steps)
    stops = timeline_steps(args.timeline, trainer.config.max_steps) if args.timeline else []
    final = train(trainer, progress, stops, save_timeline_checkpoint)
    if args.timeline and timeline[-1]["step"] != trainer.step and trainer.failure is None:
        save_timeline_checkpoint()               # a time cap ended the run before its last fraction
    progress.finish()
    if final is None or final.status == "diverged":
        message = final.message if final is not None else trainer.failure
        stream.write(f"training diverged, nothing saved: {message}\n")
        return 1
    stored = from_bytes(to_bytes(trainer.model, trainer.tokenizer, dtype=dtype)).model
    extras = extra_measurements(preset, trainer, stored)
    extras["storage"] = {"dtype": args.dtype, "metrics": asdict(trainer.objective.evaluate(stored))}
    if timeline:
        extras["timeline"] = timeline
    extras["threads"] = torch.get_num_threads()
    extras["wall_seconds"] = time.perf_counter() - started
    remove_stale_timeline(args.out, {t["file"] for t in timeline})
    meta = {**metadata(preset, trainer, final, command), **json_ready(extras)}
    save(args.out, trainer.model, trainer.tokenizer, card(preset, trainer, final, command, extras), meta, dtype)
    stream.write(f"saved {preset.name} after {trainer.step} steps to {args.out}\n")
    return 0


def remeasure_command(directory: Path, command: str, stream: TextIO) -> int:
    """Measure the checkpoint in ``directory`` again and rewrite its card, recording ``command``."""
    try:
        meta = remeasure(directory, command)
    except (ValueError, CorpusUnavailable) as error:         # CheckpointError is a ValueError too
        stream.write(f"cannot measure {directory} again: {error}\n")
        return 1
    metrics = meta["storage"]["metrics"]
    stream.write(f"rewrote the card of {directory}: validation loss {metrics['val_loss']:.4f} of the stored weights\n")
    return 0


def remove_stale_timeline(out: Path, kept: set[str]) -> None:
    """Delete timeline checkpoints an earlier run left in ``out``, so the timeline is this run's alone."""
    for file in (out / TIMELINE_DIR).glob("step_*.safetensors"):
        if f"{TIMELINE_DIR}/{file.name}" not in kept:
            file.unlink()

"""`python -m playground.train --preset NAME --out DIR`: train a preset and save a checkpoint with a card."""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import TextIO

import torch

from playground.checkpoint import save
from playground.train.card import card, metadata
from playground.train.events import TrainEvent
from playground.train.presets import PRESETS, get_preset

LOG_EVERY_S = 10.0   # without a terminal, one progress line per this many seconds


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
    parser.add_argument("--preset", required=True, choices=list(PRESETS), help="what to train")
    parser.add_argument("--out", required=True, type=Path, help="directory for the checkpoint (created if needed)")
    parser.add_argument("--steps", type=int, help="optimisation steps (default: the preset's); also sets the schedule")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds of training")
    parser.add_argument("--seed", type=int, help="random seed (default: the preset's)")
    parser.add_argument("--text", type=Path, help="train a language-model preset on this UTF-8 text file instead")
    parser.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's choice)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, stream: TextIO | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    stream = sys.stderr if stream is None else stream
    args = parse_args(argv)
    command = "python -m playground.train " + shlex.join(argv)
    preset = get_preset(args.preset)
    changes = {name: value for name, value in (("max_steps", args.steps), ("max_seconds", args.seconds),
                                               ("seed", args.seed)) if value is not None}
    if args.threads is not None:
        if args.threads < 1:
            raise SystemExit("--threads must be at least 1")
        torch.set_num_threads(args.threads)
    text = args.text.read_text(encoding="utf-8") if args.text is not None else None
    try:
        trainer = preset.trainer(text=text, **changes)
    except ValueError as error:
        raise SystemExit(f"cannot train {preset.name}: {error}") from None

    progress = Progress(stream, trainer.config.max_steps)
    final = None
    for item in trainer.run():
        if isinstance(item, TrainEvent):
            progress.update(item)
            final = item
    progress.finish()
    if final.status == "diverged":
        stream.write(f"training diverged, nothing saved: {final.message}\n")
        return 1
    save(args.out, trainer.model, trainer.tokenizer, card(preset, trainer, final, command),
         metadata(preset, trainer, final, command))
    stream.write(f"saved {preset.name} after {trainer.step} steps to {args.out}\n")
    return 0

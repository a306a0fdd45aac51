"""`python -m playground.bench train`: wall time to reach quality on copy and tiny Shakespeare, stream cost.

copy_seconds_to_exact99: seconds from building the Trainer until exact match of greedy decodes on
    500 held-out sources (copy, length 10, 10 symbols) reaches 99%; evaluations count as time.
shakespeare_char_seconds_to_val_1_88: seconds from tokenizing the text until the loss on the last
    10% of tiny Shakespeare (every non-overlapping window of the validation text) is <= 1.88;
    evaluations count as time.
seed_rhyme_seconds_to_loss_0_3: seconds from building the Trainer until the training loss of
    the Train tab's character model on seed 000's 407-character rhyme (rhyme_preset: block 32,
    events every 0.5 s, evaluations every 2 s as in the tab) is <= 0.3, i.e. it has memorised the
    rhyme; the line also gives how many characters greedy generation from "Twinkle, twinkle,"
    writes back exactly.
stream_overhead_pct: steps per second lost by ``Trainer.run`` yielding an event every 0.5 s,
    against calling ``train_step`` in a bare loop, on the same trainer (alternating rounds).
induction_seconds_to_head: the Train tab's induction task with its default form on 2 threads, as
    Start runs it (snapshots every few seconds): seconds from building the Trainer until a snapshot's
    induction score (best head after layer 0, on the probe) reaches the induction-head threshold.
    Runs past the tab's per-run cap (a class would press Resume); ``steps_per_s`` says how busy the
    machine was.
induction_pretrained_score_unseen_period: pretrained/induction on random tokens repeated with
    periods shorter and longer than any it trained on: the lowest of the best heads' induction scores.
gpu_ms_per_iter_nanogpt_config, gpu_ms_per_iter_ratio_to_reference: our Trainer's time per
    iteration on nanoGPT's Shakespeare-char configuration, against nanoGPT's loop rebuilt in the
    bench, on the process's device (see playground.bench.nanogpt; `--device cuda` for a GPU).
A goal that is not reached within the schedule is reported with value null. Each measurement
runs on 1 or 2 intra-op threads, whichever trains faster on the machine at that moment (on a
shared 2-core CPU, two threads are often slower than one). Lines also give ``cpu_seconds``, the
process CPU time of the same span: on a busy machine it shows what the wall time would be on an
idle one.
"""
from __future__ import annotations

import math
import statistics
import time
from typing import Callable

import torch

from playground.analysis.head_scores import INDUCTION_THRESHOLD
from playground.checkpoint import load
from playground.data import CharTokenizer, LMData, rhyme_text, tasks, tiny_shakespeare
from playground.device import default_device
from playground.generate import Stepper
from playground.model import DECODER_SELF, ModelConfig
from playground.train import Snapshot, TrainConfig, Trainer, TrainEvent
from playground.train.card import LONGER_PERIODS, SHORTER_PERIODS, repeat_report
from playground.train.objectives import LanguageModelObjective
from playground.train.presets import rhyme_preset
from playground.train.recipes import Recipe, build_trainer, check_spec
from playground.zoo import pretrained_dir

from . import nanogpt
from .common import result, seconds

SUITE = "train"
INDUCTION_KEY = f"{DECODER_SELF.name}.induction"       # the snapshot's induction scores of decoder self-attention

COPY_TASK = dict(length=10, symbols=10)
COPY_MODEL = dict(arch="encoder_decoder", d_model=64, n_heads=4, n_encoder_layers=1, n_decoder_layers=1, d_ff=128,
                  max_len=16, tie_weights=False)
COPY_TRAIN = dict(lr=3e-3, warmup_steps=50, batch_size=64, max_steps=1500, val_size=500, eval_every_s=0.5,
                  event_every_s=0.5, snapshot_every_s=None)

SHAKESPEARE_BLOCK = 64
SHAKESPEARE_MODEL = dict(arch="decoder_only", d_model=128, n_heads=4, n_decoder_layers=2, d_ff=512,
                         max_len=SHAKESPEARE_BLOCK, positional="learned", scale_embedding=False)
SHAKESPEARE_TRAIN = dict(lr=5e-3, warmup_steps=50, batch_size=16, max_steps=1000, weight_decay=0.1,
                         val_size=128, eval_every_s=4.0, event_every_s=0.5, snapshot_every_s=None)
SHAKESPEARE_TARGET = 1.88
SAMPLE_MARGIN = 0.03        # check the whole validation text once the sample is this close to the target
SAMPLE_TOLERANCE = 0.005    # later checks: once the sample, corrected by the last seen gap, is this close


def _line(name: str, value: float | None, unit: str, goal: float, **context) -> dict:
    """A result line; value None when the goal was never reached."""
    return result(SUITE, name, value, unit, goal, "lower", **context)


def _alternate_both_clocks(first: Callable[[], object], second: Callable[[], object], rounds: int):
    """Median (wall, wall) and (CPU, CPU) seconds of ``first`` and ``second``, run alternately."""
    wall: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for i, fn in enumerate((first, second)):
            started, cpu_started = time.perf_counter(), time.process_time()
            fn()
            wall[i].append(time.perf_counter() - started)
            cpu[i].append(time.process_time() - cpu_started)
    return tuple(map(statistics.median, wall)), tuple(map(statistics.median, cpu))


def _use_fastest_threads(make_trainer: Callable[[], Trainer], steps: int = 4) -> int:
    """Set and return 1 or 2 threads, whichever runs ``steps`` training steps faster (best of two)."""
    trainer = make_trainer()
    trainer.train_step()                                                     # warm-up
    best = {1: math.inf, 2: math.inf}
    for threads in (1, 2, 1, 2):
        torch.set_num_threads(threads)
        best[threads] = min(best[threads], seconds(lambda: [trainer.train_step() for _ in range(steps)]))
    chosen = min(best, key=best.get)
    torch.set_num_threads(chosen)
    return chosen


def _copy_trainer(seed: int) -> Trainer:
    task = tasks.get("copy", **COPY_TASK)
    return Trainer(ModelConfig(vocab_size=task.tokenizer.vocab_size, **COPY_MODEL), TrainConfig(**COPY_TRAIN, seed=seed),
                   task)


def _shakespeare_trainer(data: LMData, **train_changes) -> Trainer:
    config = ModelConfig(vocab_size=data.vocab_size, **SHAKESPEARE_MODEL)
    return Trainer(config, TrainConfig(**{**SHAKESPEARE_TRAIN, **train_changes}), data)


def _shakespeare_data(text: str) -> LMData:
    return LMData(text, CharTokenizer.from_text(text), SHAKESPEARE_BLOCK, val_fraction=0.1)


def _first_event(trainer: Trainer, reached) -> TrainEvent | None:
    """Run until an evaluated event satisfies ``reached``; None when the run ends first."""
    for item in trainer.run():
        if isinstance(item, TrainEvent) and item.evaluated and reached(item):
            return item
    return None


def copy_seconds_to_exact99(seeds: list[int]) -> dict:
    threads = _use_fastest_threads(lambda: _copy_trainer(seed=99))
    times, cpu_times, steps = [], [], []
    for seed in seeds:
        started, cpu_started = time.perf_counter(), time.process_time()
        trainer = _copy_trainer(seed)
        event = _first_event(trainer, lambda e: e.exact_match >= 0.99)
        times.append(time.perf_counter() - started if event else None)
        cpu_times.append(round(time.process_time() - cpu_started, 2))
        steps.append(event.step if event else None)
    value = statistics.median(times) if None not in times else None
    return _line("copy_seconds_to_exact99", value, "s", 10,
                 seconds_per_seed=[None if t is None else round(t, 2) for t in times], cpu_seconds_per_seed=cpu_times,
                 steps_per_seed=steps,
                 seeds=seeds, model=COPY_MODEL, train=COPY_TRAIN, threads=threads)


def shakespeare_char_seconds_to_val(text: str) -> dict:
    """Training evaluates a spread sample of validation windows; when the sample comes within
    SAMPLE_MARGIN of the target, the whole validation text decides (its cost counts as time).
    After a miss, the next whole check waits until the sample, shifted by the gap between
    sample and whole text seen at that check, reaches the target."""
    threads = _use_fastest_threads(lambda: _shakespeare_trainer(_shakespeare_data(text[:100_000]), seed=99))
    started, cpu_started = time.perf_counter(), time.process_time()
    data = _shakespeare_data(text)
    trainer = _shakespeare_trainer(data)
    whole_validation = LanguageModelObjective(data, trainer.model_config, trainer.config.replace(val_size=100_000))
    checks: list[tuple[int, float]] = []
    gap = -SAMPLE_MARGIN                              # whole-text loss minus sample loss, as last seen

    def reached(event: TrainEvent) -> bool:
        nonlocal gap
        if event.val_loss + gap > SHAKESPEARE_TARGET + SAMPLE_TOLERANCE:
            return False
        trainer.model.eval()                          # train_step switches back to training mode
        whole = whole_validation.evaluate(trainer.model).val_loss
        checks.append((event.step, round(whole, 4)))
        gap = whole - event.val_loss
        return whole <= SHAKESPEARE_TARGET

    event = _first_event(trainer, reached)
    return _line("shakespeare_char_seconds_to_val_1_88", time.perf_counter() - started if event else None, "s", 80,
                 cpu_seconds=round(time.process_time() - cpu_started, 2), step=event.step if event else None,
                 whole_validation_checks=checks,
                 val_tokens=len(data.ids("val")), model=SHAKESPEARE_MODEL, train=SHAKESPEARE_TRAIN, threads=threads)


RHYME_TARGET = 0.3
RHYME_PROMPT = "Twinkle, twinkle,"
RHYME_TAB_CADENCE = dict(event_every_s=0.5, eval_every_s=2.0, snapshot_every_s=3.0)   # the Train tab's


def written_back(trainer: Trainer, text: str, prompt: str = RHYME_PROMPT) -> int:
    """How many characters greedy generation after ``prompt`` (as the Generate tab steps it)
    copies from the text that follows the prompt's first occurrence in ``text``."""
    expected = text[text.index(prompt) + len(prompt):]
    stepper = Stepper(trainer.model, trainer.tokenizer, prompt, trace_attention=False)
    written = ""
    for step in stepper.run(max_steps=len(expected)):
        written += trainer.tokenizer.decode([step.chosen])
        if not expected.startswith(written):
            return len(written) - 1
    return len(written)


def seed_rhyme_seconds_to_loss(max_seconds: float = 180.0) -> dict:
    text = rhyme_text()
    preset = rhyme_preset()
    threads = _use_fastest_threads(lambda: preset.trainer(text, seed=99))
    started, cpu_started = time.perf_counter(), time.process_time()
    trainer = preset.trainer(text, **RHYME_TAB_CADENCE)
    event = next((item for item in trainer.run(max_seconds=max_seconds)
                  if isinstance(item, TrainEvent) and item.loss <= RHYME_TARGET), None)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return _line("seed_rhyme_seconds_to_loss_0_3", wall if event else None, "s", 60, cpu_seconds=round(cpu, 2),
                 step=event.step if event else None, loss=round(event.loss, 4) if event else None,
                 characters_written_back=written_back(trainer, text), of_characters=len(text) - len(RHYME_PROMPT) - 5,
                 block_size=preset.block_size, model=preset.model_config.to_dict(), threads=threads)


def stream_overhead_pct(text: str, rounds: int, steps: int) -> dict:
    data = _shakespeare_data(text)

    def make() -> Trainer:
        return _shakespeare_trainer(data, val_size=8, eval_every_s=None, max_steps=1_000_000)

    threads = _use_fastest_threads(make)
    trainer = make()

    def bare() -> None:
        for _ in range(steps):
            trainer.train_step()

    def streamed() -> None:
        for _ in trainer.run(max_steps=steps):
            pass

    bare()                                                                   # warm-up
    (bare_s, streamed_s), (bare_cpu, streamed_cpu) = _alternate_both_clocks(bare, streamed, rounds)
    return result(SUITE, "stream_overhead_pct", 100 * (streamed_s / bare_s - 1), "%", 5, "lower",
                  cpu_overhead_pct=round(100 * (streamed_cpu / bare_cpu - 1), 2),
                  bare_steps_per_s=round(steps / bare_s, 2), streamed_steps_per_s=round(steps / streamed_s, 2),
                  steps_per_round=steps, rounds=rounds, event_every_s=trainer.config.event_every_s, threads=threads)


def induction_seconds_to_head(threads: int = 2, max_seconds: float | None = None) -> dict:
    """The live induction preset from Start until an induction head's score crosses the threshold
    (null when it has not within ``max_seconds`` of training, or by the preset's last step)."""
    torch.set_num_threads(threads)
    started, cpu_started = time.perf_counter(), time.process_time()
    spec = check_spec(Recipe.of("induction"))
    trainer = build_trainer(spec, None)
    crossed = None
    for item in trainer.run(max_seconds=max_seconds):
        if isinstance(item, Snapshot) and item.head_scores[INDUCTION_KEY][1:].max() >= INDUCTION_THRESHOLD:
            crossed = item
            break
    wall = time.perf_counter() - started
    train = spec.preset.train_config
    return _line("induction_seconds_to_head", wall if crossed else None, "s", 180,
                 cpu_seconds=round(time.process_time() - cpu_started, 2), step=crossed.step if crossed else None,
                 steps_per_s=round(trainer.step / trainer.elapsed, 2), threshold=INDUCTION_THRESHOLD,
                 snapshot_every_s=train.snapshot_every_s, max_steps=train.max_steps, threads=threads)


def induction_pretrained_score_unseen_period() -> dict:
    checkpoint = load(pretrained_dir() / "induction")
    rows = [row for row in repeat_report(checkpoint.model, checkpoint.tokenizer, checkpoint.config.max_len)
            if row["source"] == "random tokens" and row["period"] in (*SHORTER_PERIODS, *LONGER_PERIODS)]
    return result(SUITE, "induction_pretrained_score_unseen_period", min(row["induction"] for row in rows), "score",
                  0.5, "higher", per_period={row["period"]: row["induction"] for row in rows},
                  by_chance={row["period"]: row["uniform_induction"] for row in rows})


def run(quick: bool) -> list[dict]:
    text = tiny_shakespeare()
    lines = [
        copy_seconds_to_exact99([0] if quick else [0, 1, 2]),
        shakespeare_char_seconds_to_val(text),
        seed_rhyme_seconds_to_loss(),
        stream_overhead_pct(text, rounds=4 if quick else 10, steps=30 if quick else 60),
        induction_pretrained_score_unseen_period(),
        induction_seconds_to_head(),
        *nanogpt.run(quick, text),
    ]
    return [{**line, "device": str(default_device())} for line in lines]

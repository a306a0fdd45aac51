"""`python -m playground.bench labs`: how many labs the Labs tab offers and how long the slowest one takes.

Every lab preset is run in full, all variants, on one torch thread (as the app runs a request),
with no time budget, so the time is what the preset really costs on this machine (the load
average at the end is reported, as other work on the machine slows every lab). --quick trains
each lab for a fifth of its steps and scales the training phase up to the full step count; the
measured steps are reported beside the estimate.
length_generalisation_trained_exact_min: the lowest exact match at the trained length among the
length lab's encodings, from the same run; that lab runs all its steps under --quick too, as its
encodings are compared only once each has learned the trained length.
llm_block_steps_to_target: the 2017 block against the 2024 block at equal parameters, from the same run:
the first evaluated step at which each reached the lab's target loss (None: not within the run), the
2024 block's steps as the value (--quick: a fifth of the steps, so a block may not get there).
"""
from __future__ import annotations

import math
import os
import time

import torch

from playground.labs import LabRun, list_labs
from playground.labs.ablation_labs import LEARNED, TRAINED_LENGTH
from playground.labs.llm_block_lab import LLM_BLOCK_LAB, steps_to, target_loss

from .common import result

SUITE = "labs"
LENGTH_LAB = "length-generalisation"
GOAL_LABS = 17
GOAL_SECONDS = 60.0
QUICK_FRACTION = 5


def lab_seconds(lab, quick: bool) -> dict:
    """Wall seconds of one lab: building and measuring, training every variant, the end measurements."""
    run_lab = lab
    if quick and lab.id != LENGTH_LAB:
        steps = max(lab.rounds, lab.train_config.max_steps // QUICK_FRACTION)
        warmup = min(lab.train_config.warmup_steps, steps)
        run_lab = lab.resized(train_changes=dict(max_steps=steps, warmup_steps=warmup))
    run = LabRun(run_lab, budget_s=math.inf)
    started = time.perf_counter()
    marks = {}
    for progress in run.run():
        if progress.phase != "train":
            marks[progress.phase] = time.perf_counter() - started
    lab_result = run.result()
    total = time.perf_counter() - started
    training = marks["end"] - marks["start"]
    steps_done = run_lab.train_config.max_steps
    seconds = total + training * (lab.train_config.max_steps / steps_done - 1)
    timing = dict(seconds=seconds, measured_steps=steps_done, steps=lab.train_config.max_steps,
                  variants=len(lab.variants), within_budget=seconds <= lab.budget_s)
    trained = next((c.values for c in lab_result.checks if c.id == f"exact_match_length_{TRAINED_LENGTH}"), None)
    if lab.id == LLM_BLOCK_LAB.id:
        target = target_loss(lab.data.corpus)
        timing["to_target"] = dict(target=target, **{v.id: steps_to(v, target) for v in lab_result.variants},
                                   final_val_loss={v.id: round(v.final["val_loss"], 3) for v in lab_result.variants},
                                   parameters={v.id: v.parameters for v in lab_result.variants})
    return timing if trained is None else {**timing, "trained_exact": trained}


def run(quick: bool) -> list[dict]:
    labs = list_labs()                                                  # in the Labs tab's order
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        timings = {lab.id: lab_seconds(lab, quick) for lab in labs}
    finally:
        torch.set_num_threads(threads)
    trained = timings[LENGTH_LAB].pop("trained_exact", None)
    to_target = timings[LLM_BLOCK_LAB.id].pop("to_target", {})
    slowest = max(timings, key=lambda lab_id: timings[lab_id]["seconds"])
    return [
        result(SUITE, "labs_count", len(labs), "labs", GOAL_LABS, "higher",
               bugs=sum(lab.kind == "bug" for lab in labs), ablations=sum(lab.kind == "ablation" for lab in labs)),
        result(SUITE, "labs_seconds_max", timings[slowest]["seconds"], "s", GOAL_SECONDS, "lower", slowest=slowest,
               estimated=quick, threads=1, load_average=round(os.getloadavg()[0], 1),
               per_lab={lab_id: {**t, "seconds": round(t["seconds"], 1)} for lab_id, t in timings.items()}),
        result(SUITE, "length_generalisation_trained_exact_min",
               None if trained is None else round(min(trained.values()), 3), "share", LEARNED, "higher",
               per_encoding={k: round(v, 3) for k, v in (trained or {}).items()}, trained_length=TRAINED_LENGTH,
               steps=timings[LENGTH_LAB]["measured_steps"]),
        result(SUITE, "llm_block_steps_to_target", to_target.get(LLM_BLOCK_LAB.variants[1].id), "steps", None, "lower",
               **to_target, steps=timings[LLM_BLOCK_LAB.id]["measured_steps"], estimated_steps=quick,
               seconds=round(timings[LLM_BLOCK_LAB.id]["seconds"], 1)),
    ]

"""The benchmark suites report every metric they document, null for a goal not reached, and
measure what they say. Runs use tiny settings (monkeypatched sizes, fake measurements) to stay
cheap; `python -m playground.bench SUITE --quick` measures at full size."""
import os
import dataclasses
import inspect
import math
import random
import time
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from playground import viz
from playground.bench import app_training, attention_view, common, deep_link, generate, gpt2, labs, llm, model
from playground.bench import nanogpt, train
from playground.bench import app as bench_app
from playground.bench import viz as bench_viz
from playground.data import bundled_text
from playground.labs import get_lab
from playground.model import ModelConfig

from ..labs.helpers import tiny


def _names(lines):
    return [line["name"] for line in lines]


def test_a_line_with_no_value_is_null():
    assert common.result("s", "n", None, "s", 10, "lower")["value"] is None
    assert common.result("s", "n", 1.23456, "s", 10, "lower")["value"] == 1.235


def test_model_suite_reports_its_metrics(monkeypatch):
    throughput = model.train_throughput_ratio
    monkeypatch.setattr(model, "train_throughput_ratio", lambda name, *sizes: throughput(name, 16, 1, 2, 8, 2, 1))
    tiny_model = dict(vocab_size=65, d_model=8, n_heads=2, n_decoder_layers=1, d_ff=16)
    monkeypatch.setattr(model, "TRACE_MODEL", tiny_model)
    monkeypatch.setattr(model, "KV_MODEL", tiny_model)
    monkeypatch.setattr(gpt2, "PARITY_CONFIGS", gpt2.PARITY_CONFIGS[:1])     # parity itself: tests/hub
    monkeypatch.setattr(llm, "PARITY_CONFIGS", llm.PARITY_CONFIGS[:1])
    monkeypatch.setattr(model, "activation_patching_time", lambda rounds, real=model.activation_patching_time: real(1))
    threads = torch.get_num_threads()
    try:
        lines = model.run(quick=True)
    finally:
        torch.set_num_threads(threads)
    assert _names(lines) == ["train_throughput_ratio_small", "train_throughput_ratio_medium", "trace_overhead_pct",
                             "kv_cache_speedup_ctx256", "hostile_upload_refuse_ms", "gpt2_parity_max_abs_logit_diff",
                             "llama_parity_max_abs_logit_diff", "qwen2_parity_max_abs_logit_diff",
                             "activation_patching_ms"]
    assert all(line["value"] > 0 for line in lines if line["name"] != "trace_overhead_pct")


def test_the_attention_view_is_timed_cold_and_then_from_the_pass_cache(monkeypatch):
    small_gpt2 = {**attention_view.DEFAULTS, "vocab_size": 300, "n_positions": 64, "n_embd": 32, "n_layer": 6,
                  "n_head": 4, "eos_token_id": 299}                        # layer 5, head 3 exist, as the view asks
    monkeypatch.setattr(attention_view, "DEFAULTS", small_gpt2)
    views, real_view = [], attention_view.view

    def counted(entry, text):                               # (input, forward passes of the model it took)
        passes = []
        hook = entry.model.decoder.register_forward_pre_hook(lambda module, args: passes.append(args[0].shape))
        real_view(entry, text)
        hook.remove()
        views.append((text, len(passes)))

    monkeypatch.setattr(attention_view, "view", counted)
    cold, cached = attention_view.run(quick=True)
    assert (cold["name"], cold["suite"], cached["name"]) == (
        "gpt2_small_attention_view_ms", "app", "gpt2_small_attention_view_cached_ms")
    assert cold["value"] > 0 and cached["value"] > 0
    warm_up, timed = views[0], views[1:]
    assert len(timed) == cold["rounds"] + cached["rounds"]
    assert all(text != warm_up[0] and passes == 1 for text, passes in timed[:cold["rounds"]])   # the model ran
    assert len({text for text, _ in timed[:cold["rounds"]]}) == cold["rounds"]                 # on new inputs
    assert all(text == warm_up[0] and passes == 0 for text, passes in timed[cold["rounds"]:])  # the cache served


def test_generate_suite_reports_its_three_metrics(monkeypatch):
    monkeypatch.setattr(generate, "CONTEXT", 12)
    monkeypatch.setattr(generate, "CONFIG", ModelConfig(arch="decoder_only", vocab_size=65, d_model=16, n_heads=2,
                                                        n_decoder_layers=1, d_ff=32, max_len=12))
    lines = generate.run(quick=True)
    assert _names(lines) == ["step_ms_p50_traced_ctx256", "step_ms_p95_traced_ctx256",
                             "stepper_speedup_vs_recompute_ctx256"]
    assert lines[2]["same_tokens"] is True and lines[2]["value"] > 0


def test_the_stepper_speedup_times_the_prompt_on_both_sides(monkeypatch):
    """A clock that ticks once per token the model reads: each side's 'seconds' is the tokens it read
    while timed. Both must include the prompt; the Stepper reads it once, recomputing once per token."""
    tokens_read = [0]
    monkeypatch.setattr(generate, "time", SimpleNamespace(perf_counter=lambda: tokens_read[0]))
    config = ModelConfig(arch="decoder_only", vocab_size=65, d_model=16, n_heads=2, n_decoder_layers=1, d_ff=32,
                         max_len=32)
    net = generate.build_model(config).eval()
    net.decoder.register_forward_pre_hook(                                   # every path reads through the stack
        lambda module, args: tokens_read.__setitem__(0, tokens_read[0] + args[0].numel()))
    prompt, new = generate._prompt(10), 5
    stepper_tokens, _ = generate.stepper_seconds(net, prompt, new)
    recompute_tokens, _ = generate.recompute_seconds(net, prompt, new)
    assert stepper_tokens >= 10 + new - 1                                    # the prompt, then one token a step
    assert recompute_tokens == sum(10 + i for i in range(new))               # the whole sequence every step


def test_viz_suite_measures_every_figure_at_classroom_size(monkeypatch):
    figures = {name for name in viz.__all__
               if "Figure" in str(inspect.signature(getattr(viz, name)).return_annotation)}
    cases = bench_viz._classroom_cases(np.random.default_rng(0))
    assert {case.removesuffix("_classroom") for case in cases} == figures
    monkeypatch.setattr(bench_viz, "_measure", lambda build, repeats: (1.0, 1.0, 1.0))
    names = _names(bench_viz.run(quick=True))
    assert names == ["attention_grid_kb", "attention_grid_ms"] + [f"{c}_{unit}" for c in cases for unit in ("kb", "ms")]
    assert isinstance(cases["beam_tree"](), go.Figure)


def test_train_suite_reports_null_for_goals_not_reached(monkeypatch):
    monkeypatch.setattr(train, "tiny_shakespeare", bundled_text)
    monkeypatch.setattr(train, "COPY_MODEL", {**train.COPY_MODEL, "d_model": 16, "d_ff": 32})
    monkeypatch.setattr(train, "COPY_TRAIN", {**train.COPY_TRAIN, "max_steps": 2, "warmup_steps": 1, "batch_size": 4,
                                              "val_size": 8})
    monkeypatch.setattr(train, "SHAKESPEARE_MODEL", {**train.SHAKESPEARE_MODEL, "d_model": 16, "d_ff": 32})
    monkeypatch.setattr(train, "SHAKESPEARE_TRAIN", {**train.SHAKESPEARE_TRAIN, "max_steps": 2, "warmup_steps": 1,
                                                     "batch_size": 2, "val_size": 4})
    monkeypatch.setattr(train, "stream_overhead_pct",
                        lambda text, rounds, steps, real=train.stream_overhead_pct: real(text, 1, 2))
    monkeypatch.setattr(train, "seed_rhyme_seconds_to_loss",
                        lambda real=train.seed_rhyme_seconds_to_loss: real(max_seconds=0.5))
    monkeypatch.setattr(train, "induction_seconds_to_head",
                        lambda real=train.induction_seconds_to_head: real(threads=1, max_seconds=0.5))
    monkeypatch.setattr(nanogpt, "NANOGPT", TINY_NANOGPT)
    monkeypatch.setattr(train, "_use_fastest_threads",                      # one timed step a try, not four
                        lambda make_trainer, real=train._use_fastest_threads: real(make_trainer, steps=1))
    threads = torch.get_num_threads()
    try:
        lines = train.run(quick=True)
    finally:
        torch.set_num_threads(threads)
    assert _names(lines) == ["copy_seconds_to_exact99", "shakespeare_char_seconds_to_val_1_88",
                             "seed_rhyme_seconds_to_loss_0_3", "stream_overhead_pct",
                             "induction_pretrained_score_unseen_period", "induction_seconds_to_head",
                             "gpu_ms_per_iter_nanogpt_config", "gpu_ms_per_iter_ratio_to_reference"]
    assert lines[0]["value"] is None and lines[0]["seconds_per_seed"] == [None]
    assert lines[1]["value"] is None and lines[1]["step"] is None
    assert lines[2]["value"] is None and lines[2]["step"] is None            # half a second is not enough
    assert lines[3]["value"] is not None
    assert lines[4]["value"] >= 0.5                                           # the shipped model's own score
    assert lines[5]["value"] is None and lines[5]["step"] is None
    assert lines[6]["value"] > 0 and lines[6]["reference_ms"] > 0 and lines[6]["device"] == "cpu"
    assert lines[7]["value"] == pytest.approx(lines[6]["value"] / lines[6]["reference_ms"], rel=0.02)


TINY_NANOGPT = dict(n_layer=2, n_head=2, n_embd=16, block_size=16, batch_size=4, dropout=0.2)


def test_the_nanogpt_reference_is_the_same_model_as_ours_written_as_nanogpt_writes_it():
    text = bundled_text()
    trainer = nanogpt.our_trainer(text, TINY_NANOGPT)
    _, vocab_size = nanogpt._text_ids(text)
    reference = nanogpt.ReferenceGPT(trainer.model_config.vocab_size, 2, 2, 16, 16, 0.2)
    count = lambda model: sum(p.numel() for p in model.parameters())
    assert count(reference) == count(trainer.model)                  # the same shapes: no biases, a tied head
    steps = nanogpt.reference_steps(text, torch.device("cpu"), False, TINY_NANOGPT)
    first = steps(1)
    assert vocab_size == len(set(text)) and first == pytest.approx(math.log(vocab_size), rel=0.1)  # about uniform
    assert steps(200) < first - 0.5                                    # and it learns


def test_the_nanogpt_profile_tables_both_sides(monkeypatch):
    monkeypatch.setattr(nanogpt, "NANOGPT", TINY_NANOGPT)
    table = nanogpt.profile(steps=2, rows=5, text=bundled_text())
    assert "## ours (playground Trainer)" in table and "## reference (nanoGPT's loop)" in table
    assert table.count("Self CPU") >= 2 and "aten::" in table


def test_labs_suite_reports_the_count_and_the_slowest_lab(monkeypatch):
    real = labs.lab_seconds
    measured = real(tiny(get_lab("causal-mask"), steps=4, rounds=2), quick=False)
    assert measured["seconds"] > 0 and measured["measured_steps"] == 4 and measured["variants"] == 2
    monkeypatch.setattr(labs, "lab_seconds", lambda lab, quick: {**measured, "seconds": float(len(lab.id))})
    lines = labs.run(quick=True)
    assert _names(lines) == ["labs_count", "labs_seconds_max", "length_generalisation_trained_exact_min",
                             "llm_block_steps_to_target"]
    assert lines[0]["value"] == len(lines[1]["per_lab"]) and lines[1]["slowest"] == "decoder-only-vs-encoder-decoder"


def test_seconds_to_exact99_in_the_app_is_null_when_the_run_ends_first():
    missed = app_training.exact99_line(None, 301.5, 87.0, 900)
    assert missed["value"] is None and missed["reached"] is False and missed["elapsed_s"] == 301.5
    reached = app_training.exact99_line(12.25, 12.25, 99.2, 400)
    assert reached["value"] == 12.25 and reached["reached"] is True


def _training(steps, done):
    training = object.__new__(app_training.Training)
    training.steps, training.job = steps, SimpleNamespace(done=lambda: done)
    return training


@pytest.mark.parametrize("steps, done, running", [
    ([(1.0, 10), (5.0, 20), (9.0, 30)], False, True),
    ([(1.0, 10), (5.0, 20), (9.0, 30)], True, False),                       # its stream ended
    ([(1.0, 10), (2.0, 20)], False, False),                                  # no update since the window began
    ([(1.0, 20), (5.0, 20), (9.0, 20)], False, False),                      # updates, but no new steps
    ([(5.0, 3), (9.0, 8)], False, True),                                     # first update inside the window
])
def test_a_training_counts_as_running_only_if_it_advanced_until_the_end(steps, done, running):
    assert _training(steps, done).trained_throughout(start=4.0) is running


def test_a_training_ended_at_its_presets_last_step_ended_on_its_own():
    last = app_training.copy_train_form().steps
    assert _training([(1.0, last - 10), (5.0, last)], True).reached_its_last_step()
    assert not _training([(1.0, last - 10), (5.0, last)], False).reached_its_last_step()     # still streaming
    assert not _training([(1.0, 10), (5.0, 20)], True).reached_its_last_step()               # stopped short
    assert not _training([], True).reached_its_last_step()


def test_the_viewer_metric_is_null_unless_both_trainings_kept_running():
    times = [float(t) for t in range(1, 101)]
    assert app_training.viewer_line(times, [], [True, True])["value"] == pytest.approx(95.05)
    stalled = app_training.viewer_line(times, [], [True, False])
    assert stalled["value"] is None and stalled["trainings_running"] == [True, False]
    with pytest.raises(RuntimeError, match="no attention view"):
        app_training.viewer_line([], ["TimeoutError"], [True, True])


def test_lessons_suite_reports_its_metrics_and_counts_an_untranslated_text_and_a_mismatched_claim(monkeypatch):
    from playground.bench import lessons
    from playground.claims import Claim
    from playground.ui.course import LESSONS, Bilingual
    monkeypatch.setattr(lessons, "open_times_ms", lambda registry: [10.0] * 19 + [900.0])
    monkeypatch.setattr(lessons, "claims", lambda registry: [Claim("a", 1, 1), Claim("b", 0.2, 0.5), Claim("c", "x", "x")])
    monkeypatch.setattr(lessons, "run_claims", lambda quick: [Claim("run a", 1, 1), Claim("run b", 2, 3)])
    lines = lessons.run(quick=True)
    assert _names(lines) == ["lessons_count", "lesson_open_ms_p95", "lessons_missing_translations",
                             "lesson_claims_checked", "lesson_claims_mismatched", "run_claims_shown"]
    assert lines[0]["value"] == len(LESSONS) and lines[2]["value"] == 0
    assert lines[3]["value"] == 3 and lines[4]["value"] == 1 and lines[4]["mismatched"] == ["b"]
    assert lines[5]["value"] == 1 and len(lines[5]["mismatched"]) == 1          # a run's claim the run refutes
    assert 10.0 < lines[1]["value"] < 900.0
    untranslated = dataclasses.replace(LESSONS[0], title=Bilingual("Tokens and merges", "Tokens and merges"))
    monkeypatch.setattr(lessons, "LESSONS", (untranslated, *LESSONS[1:]))
    assert lessons.missing_translations() == 1


def test_a_class_student_clicks_the_page_examples_as_offered_unless_it_edits_them():
    from playground.bench.app import MIN_CUT, ClassStudent, PageChoices
    choices = PageChoices([("reverse", "abcdefghij")], [("shakespeare-char", "ROMEO: To be")], ["cross"],
                          ["diagonal"], ("done",))
    rng = random.Random(0)
    clicking, editing = ClassStudent(choices, "en", rng), ClassStudent(choices, "en", rng, edits=True)
    as_offered = [clicking.attention(rng)[1]["text"] for _ in range(20)]
    prompts = {clicking.generate_step(rng)[1]["prompt"] for _ in range(20)}
    assert set(as_offered) == {"abcdefghij"} and prompts == {"ROMEO: To be"}
    edited = [editing.attention(rng)[1]["text"] for _ in range(50)]
    assert all(MIN_CUT <= len(t) and t in "abcdefghij" for t in edited) and len(set(edited)) > 10
    step = editing.generate_step(rng)[1]
    assert step["prompt"] in "ROMEO: To be" and len(step["prompt"]) >= MIN_CUT


def test_the_view_lines_read_the_apps_own_attention_event():
    lines = {line["name"]: line for line in bench_app.view_lines(quick=True)}
    assert set(lines) == {"repeat_view_handler_ms_p50", "attention_grid_kb"}
    assert lines["repeat_view_handler_ms_p50"]["value"] > 0 and lines["attention_grid_kb"]["value"] > 1


@pytest.mark.parametrize("size", [deep_link.PageSize(blocks=41, events=12, chained=5),
                                  deep_link.PageSize(blocks=40, events=9, chained=0)])
def test_the_size_floor_page_has_the_blocks_and_events_it_is_given(size):
    assert deep_link.size_of(deep_link.floor_blocks(size).get_config_file()) == size


def test_the_size_floor_is_sized_from_the_apps_own_page():
    from playground.ui import create_app

    size = deep_link.size_of(create_app().get_config_file())
    # at most 130 events: each of the 9 tabs draws itself (a draw event and the browser step that ends its busy
    # mark: 18, where one draw event served every tab), the model a training leaves is handed to the browser by a
    # step chained after each training event (7), and the game and the Hub panel keep a refusal in place (3):
    # every event costs each page open
    assert size.blocks > 300 and 50 < size.events <= 130 and 0 < size.chained < size.events
    assert deep_link.size_of(deep_link.floor_blocks(size).get_config_file()) == size


def test_the_servers_cpu_counter_reads_a_25_ms_burst_to_the_millisecond():
    import subprocess
    import sys

    # the child says when it waits, so a loaded machine (this process runs at low priority beside the
    # browser tests) slows the burst down without moving it across a reading
    busy = ("import threading, time\n"
            "def spin(seconds):\n"
            "    end = time.thread_time() + seconds\n"
            "    while time.thread_time() < end: pass\n"
            "worker = threading.Thread(target=spin, args=(0.3,)); worker.start(); worker.join()\n"
            "print('waiting', flush=True); input(); spin(0.025); print('waiting', flush=True); input()\n")
    process = subprocess.Popen([sys.executable, "-c", busy], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        cpu = bench_app.ProcessCPU(process.pid)
        assert process.stdout.readline() == "waiting\n"     # the 0.3 s thread has ended
        time.sleep(0.2)                                     # and the child sits in input()
        before = cpu.seconds()
        process.stdin.write("\n")
        process.stdin.flush()
        assert process.stdout.readline() == "waiting\n"
        time.sleep(0.2)
        used = cpu.seconds() - before
        assert 0.023 < used < 0.029      # 10 ms ticks would read 0.02 or 0.03; the ended thread's 0.3 s is not counted
    finally:
        process.kill()
        process.wait()


def test_the_soaks_growth_is_the_last_minute_against_the_minute_ten_minutes_before():
    from playground.bench import soak

    levelled = [(t, 100.0 + min(t, 300)) for t in range(0, 1201, 5)]        # grows for 5 minutes, then flat
    assert soak.growth_over_window(levelled, end=1200) == 0
    rising = [(t, 100.0 + t / 10) for t in range(0, 1201, 5)]                 # 6 MiB a minute throughout
    assert 59 <= soak.growth_over_window(rising, end=1200) <= 61
    assert soak.growth_over_window(rising[-10:], end=1200) is None            # nothing read ten minutes before
    assert soak.rss_mib(os.getpid()) > 10


def test_the_largest_accepted_upload_is_at_the_limits_and_one_step_wider_is_refused():
    from playground.bench import uploads
    from playground.model import SizeLimitError, SizeLimits
    limits = SizeLimits(largest={"n_decoder_layers": 2, "n_heads": 4, "d_model": 256, "d_ff": 1024, "max_len": 64,
                                 "vocab_size": 3_000}, max_parameters=500_000)
    config = uploads.largest_accepted(limits)
    assert (config.vocab_size, config.n_decoder_layers, config.n_heads, config.max_len) == (3_000, 2, 4, 64)
    limits.check(config)
    with pytest.raises(SizeLimitError, match="parameters"):
        limits.check(config.replace(d_model=config.d_model + 4, d_ff=4 * (config.d_model + 4)))
    assert uploads.vocabulary(3_000).vocab_size == 3_000


def test_the_peak_memory_of_an_action_is_read_while_it_runs():
    from playground.bench import uploads

    def allocate():
        block = torch.ones(128 * 2**20 // 4)                                    # 128 MiB, freed before it returns
        time.sleep(0.3)                                 # long enough for the sampler to run on a loaded machine
        return float(block[0])
    mib, seconds = uploads.peak_growth(allocate)
    assert 100 <= mib < 300 and seconds >= 0.3

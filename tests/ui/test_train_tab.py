"""The Train tab's handlers as plain functions of a Workspace: start, stop, resume, step, reset,
a second start, bad settings and bad text files, and the model a run publishes."""
import re
import threading

import gradio as gr
import numpy as np
import pytest
import torch

from playground.checkpoint import from_bytes
from playground.data import CorpusUnavailable
from playground.model import count_parameters
from playground.train import recipes
from playground.ui.inputs.validation import MAX_TEXT_UPLOAD_BYTES, MAX_TRAIN_PARAMETERS, MAX_TRAIN_STEP_GFLOPS
from playground.ui.session import training
from playground.ui.session.training import (
    STEP_SIZE,
    build_trainer,
    check_size,
    read_text_file,
    training_text,
)
from playground.ui.session.workspace import Workspace, WorkspaceStore
from playground.ui.tabs.train import (
    all_views,
    check_can_train,
    estimate,
    reset,
    resume,
    select_view,
    start,
    step,
    stop,
    untrained_view_choices,
)
from playground.ui.tabs.train.form import TrainForm
from playground.ui.tabs.train.handlers import on_estimate

TINY = dict(layers=1, n_heads=2, d_model=16, d_ff=32, positional="sinusoidal", norm="pre", activation="gelu",
            dropout=0.0, tie_weights=False, lr=3e-3, warmup=5, batch_size=16, steps=30)
LM_TEXT = "the cat sat on the mat. the dog sat on the log. " * 40


def tiny_spec(task="copy", data="bundled", lang="en", **changes):
    return TrainForm(task=task, data=data, **{**TINY, **changes}).spec(lang)


def drain(views):
    return list(views)


def test_a_run_streams_progress_and_publishes_its_model_to_its_session_only(registry):
    workspace, other = Workspace("mine"), Workspace("other")
    views = drain(start(workspace, tiny_spec(), None, "en"))
    assert views[0] == {"status": "Preparing the data and the model…"}
    assert set(views[1]) >= {"status", "curves", "probe", "probe_kind", "score", "sample", "download"}
    assert any("probe" in v and v["probe"].data for v in views[2:])                 # the untrained snapshot
    final = views[-1]
    entry = final["published"]
    assert entry.name == "trained-copy" and entry.source == "session"
    assert "Finished" in final["status"] and "trained-copy" in final["status"]
    assert workspace.find_model(registry, "trained-copy") is entry
    assert other.find_model(registry, "trained-copy") is None
    session = workspace.training
    assert session.trainer.step == 30 and not session.running
    model, tokenizer, config, card = from_bytes(final["download"].read_bytes())
    assert config == entry.config and tokenizer.to_json() == entry.tokenizer.to_json()
    assert "exact match" in card and "## Held-out results" in card
    assert entry.held_out_loss == session.last_event.val_loss                         # its last validation loss
    assert f"- validation loss: {entry.held_out_loss:.4f}" in card
    for name, tensor in entry.model.state_dict().items():
        assert torch.equal(model.state_dict()[name], tensor)
    assert not any(p.requires_grad for p in entry.model.parameters())                 # frozen, safe to share


def test_the_curves_hold_every_progress_point_and_the_probe_every_head(registry):
    workspace = Workspace("s")
    drain(start(workspace, tiny_spec(layers=2, n_heads=4), None, "en"))
    views = all_views(workspace.training, "en")
    history = workspace.training.trainer.history
    loss = next(trace for trace in views["curves"].data if trace.name == "training loss")
    assert list(loss.x) == [e.step for e in history]
    np.testing.assert_allclose(list(loss.y), [e.loss for e in history], rtol=1e-6)
    assert len(views["probe"].data) == 2 * 4                                           # layers x heads
    assert views["probe_kind"][1] == "decoder.cross_attn" and views["score"][1] == "decoder.cross_attn.diagonal"
    assert "✓" in views["sample"] or "✗" in views["sample"]
    select_view(workspace.training, "encoder.self_attn", None, "en")
    assert "encoder" in all_views(workspace.training, "en")["probe"].layout.title.text


def test_the_learning_rate_panel_follows_the_rate_as_the_run_goes_on(monkeypatch):
    # The curves are drawn once and then updated in place: the rate panel's range, first fitted to the
    # warm-up's first rate, must follow the rate up to its peak. Progress at every step: the first
    # point is the warm-up's first step however fast the machine runs.
    monkeypatch.setattr(recipes, "EVENT_EVERY_S", 0.0)
    workspace = Workspace("s")
    views = drain(start(workspace, tiny_spec(steps=300, warmup=300), None, "en"))
    last = [v["curves"] for v in views if getattr(v.get("curves"), "data", ())][-1]
    rates = [event.lr for event in workspace.training.trainer.history]
    assert max(rates) > 2 * rates[0]                                     # the run rose past twice its first rate
    axis = last.layout.yaxis3
    assert axis.autorange is True or axis.range[1] >= max(rates), (axis.range, max(rates))


def test_closing_the_stream_stops_between_steps_and_resume_continues_exactly():
    spec = tiny_spec(steps=2000)
    workspace = Workspace("s")
    stream = start(workspace, spec, None, "en")
    for views in stream:
        if "curves" in views and views["curves"].data:
            break                                                                    # a progress event mid-run
    stream.close()                                       # what Gradio does on Stop: the worker stops at its next item
    stopped = stop(workspace, "en")                      # waits for it
    session = workspace.training
    stopped_at = session.trainer.step
    assert not session.running and session.state == "stopped" and 0 < stopped_at < 2000
    assert "Stopped" in stopped["status"] and stopped["published"].name == "trained-copy"
    assert stopped["published"] is workspace.models["trained-copy"]
    drain(step(workspace, spec, None, "en"))
    assert session.trainer.step == stopped_at + STEP_SIZE and session.state == "stepped"

    uninterrupted = build_trainer(spec, None, "en")
    for _ in uninterrupted.run(max_steps=stopped_at + STEP_SIZE):
        pass
    assert session.trainer.step_losses == uninterrupted.step_losses
    for mine, theirs in zip(session.trainer.model.parameters(), uninterrupted.model.parameters()):
        assert torch.equal(mine, theirs)


def test_stop_from_another_thread_ends_the_run_and_publishes():
    workspace = Workspace("s")
    stream = start(workspace, tiny_spec(steps=2000), None, "en")
    while not getattr(next(stream).get("curves"), "data", ()):                # until the curves have data
        pass
    result = {}
    stopper = threading.Thread(target=lambda: result.update(stop(workspace, "en")))
    stopper.start()
    rest = drain(stream)                                             # ends at the worker's next item
    stopper.join(timeout=60)
    assert rest[-1]["published"] is result["published"] is workspace.models["trained-copy"]
    session = workspace.training
    assert session.state == "stopped" and "Stopped" in result["status"]
    stopped_at = session.trainer.step
    continued = drain(step(workspace, tiny_spec(steps=2000), None, "en"))
    assert session.trainer.step == stopped_at + STEP_SIZE
    assert continued[-1]["published"] is workspace.models["trained-copy"] is not result["published"]


def test_a_second_start_while_one_runs_is_refused():
    workspace = Workspace("s")
    first = start(workspace, tiny_spec(steps=2000), None, "en")
    next(first)
    next(first)                                                      # the worker runs
    with pytest.raises(gr.Error, match="already running"):
        next(start(workspace, tiny_spec(), None, "en"))
    with pytest.raises(gr.Error, match="already running"):
        check_can_train(workspace, "en")
    with pytest.raises(gr.Error, match="已经有一个训练"):
        next(resume(workspace, "zh-CN"))
    first.close()
    stop(workspace, "en")
    assert drain(start(workspace, tiny_spec(), None, "en"))[-1]["published"].name == "trained-copy"


def test_step_trains_a_few_steps_at_a_time_and_reset_forgets_the_training():
    workspace = Workspace("s")
    drain(step(workspace, tiny_spec(), None, "en"))
    assert workspace.training.trainer.step == STEP_SIZE
    views = drain(step(workspace, tiny_spec(), None, "en"))
    assert workspace.training.trainer.step == 2 * STEP_SIZE
    assert f"Trained {STEP_SIZE} more steps" in views[-1]["status"]
    cleared = reset(workspace, "en")
    assert not cleared["curves"].data and not cleared["probe"].data and "Start" in cleared["status"]
    assert "press Start" in cleared["curves"].layout.annotations[0].text
    assert workspace.training.trainer is None and "trained-copy" in workspace.models


def test_resume_needs_a_training_that_can_continue():
    workspace = Workspace("s")
    with pytest.raises(gr.Error, match="no training to continue"):
        next(resume(workspace, "en"))
    drain(start(workspace, tiny_spec(steps=12), None, "en"))
    with pytest.raises(gr.Error, match="all 12 of its steps"):
        next(resume(workspace, "en"))


def test_a_forgotten_session_stops_its_training_and_deletes_its_download():
    store = WorkspaceStore()
    workspace = store.get("tab")
    drain(step(workspace, tiny_spec(), None, "en"))
    download = workspace.training.download
    stream = start(workspace, tiny_spec(steps=2000), None, "en")
    next(stream)
    next(stream)
    store.drop("tab")
    drain(stream)
    assert not download.exists() and workspace.training.state == "stopped" and not workspace.training.running


def test_language_models_train_on_pasted_or_bundled_text():
    workspace = Workspace("s")
    lm = tiny_spec("char-lm", "pasted", batch_size=4)
    views = drain(step(workspace, lm, LM_TEXT, "en"))
    session = workspace.training
    assert session.trainer.model_config.arch == "decoder_only" and session.view_kind == "decoder.self_attn"
    assert views[-1]["published"].name == "trained-char-lm"
    assert "temperature" in all_views(session, "en")["sample"]
    drain(step(Workspace("t"), tiny_spec("masked-lm", "bundled", batch_size=4), None, "en"))


@pytest.mark.parametrize("changes, fragment", [
    (dict(d_model=30, n_heads=4), "multiple of the number of heads"),
    (dict(d_model=24, n_heads=8, positional="rope"), "must be even (it is 3)"),
    (dict(warmup=50, steps=20), "longer than the whole training"),
    (dict(lr=1.0), "between 1e-05 and 0.1"),
    (dict(layers=7), "between 1 and 6"),
    (dict(batch_size=2.5), "whole number"),
    (dict(positional="alibi"), "sinusoidal, learned, rope, none"),
    (dict(tie_weights="yes"), "Weight tying"),
    (dict(task="translate"), "copy, reverse, sort, dates, char-lm, bpe-lm, masked-lm"),
])
def test_bad_settings_are_refused_with_what_to_change(changes, fragment):
    task = changes.pop("task", "copy")
    with pytest.raises(gr.Error) as refused:
        tiny_spec(task, **changes)
    assert fragment in refused.value.message


def test_a_model_too_large_for_the_shared_cpu_is_refused_before_training():
    big = tiny_spec(layers=6, d_model=512, d_ff=2048, n_heads=8)
    with pytest.raises(gr.Error) as refused:
        next(start(Workspace("s"), big, None, "en"))
    params = count_parameters(big.preset.model_config)["total"]
    assert f"{params:,}" in refused.value.message and f"{MAX_TRAIN_PARAMETERS:,}" in refused.value.message
    slow = tiny_spec("dates", d_model=128, d_ff=512, layers=2, batch_size=256, n_heads=4)
    with pytest.raises(gr.Error, match=f"at most {MAX_TRAIN_STEP_GFLOPS:.0f}"):
        check_size(slow, slow.preset.model_config.vocab_size, "en")
    assert refused.value.message in estimate(big, None, "en")


def test_the_estimate_counts_parameters_and_explains_a_bad_form():
    spec = tiny_spec()
    params = count_parameters(spec.preset.model_config)["total"]
    assert f"**{params:,}** parameters" in estimate(spec, None, "en")
    bad = TrainForm(**{**TINY, "n_heads": 4, "d_model": 30})
    assert "倍数" in on_estimate(Workspace("s"), bad, "zh-CN")["estimate"]


def test_text_files_are_checked_before_training(tmp_path):
    good = tmp_path / "story.txt"
    good.write_bytes("\ufeffOnce upon a time".encode("utf-8"))
    assert read_text_file(good, "en") == "Once upon a time"
    cases = [
        (None, "Choose a .txt file"),
        (tmp_path / "weights.pt", ".txt file"),
        (tmp_path / "latin1.txt", "not UTF-8 text (byte 3"),
        (tmp_path / "empty.txt", "empty"),
        (tmp_path / "huge.txt", f"limited to {MAX_TEXT_UPLOAD_BYTES // 2**20} MB"),
    ]
    (tmp_path / "weights.pt").write_bytes(b"\x80\x04")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / "empty.txt").write_text("  \n")
    (tmp_path / "huge.txt").write_bytes(b"a" * (MAX_TEXT_UPLOAD_BYTES + 1))
    for path, fragment in cases:
        with pytest.raises(gr.Error) as refused:
            read_text_file(path, "en")
        assert fragment in refused.value.message


def test_a_text_too_short_for_the_windows_is_refused_with_what_to_change():
    with pytest.raises(gr.Error, match="The text is too short: it has"):
        drain(step(Workspace("s"), tiny_spec("char-lm", "pasted"), "too short", "en"))


def test_missing_tiny_shakespeare_suggests_another_text(monkeypatch):
    def unavailable(allow_download=True):
        raise CorpusUnavailable("offline")

    monkeypatch.setattr(training, "tiny_shakespeare", unavailable)
    monkeypatch.setattr(training, "_shakespeare", {})
    with pytest.raises(gr.Error, match="bundled text"):
        training_text(tiny_spec("char-lm", "tiny_shakespeare"), None, "en")


def test_the_tang_poems_train_a_character_model_of_their_characters():
    from playground.data import CharTokenizer, tang_poems_text
    from playground.ui.session.training import estimated_vocab

    spec = tiny_spec("char-lm", "tang_poems")
    assert training_text(spec, None, "zh-CN") == tang_poems_text()
    assert estimated_vocab(spec) == CharTokenizer.from_text(tang_poems_text()).vocab_size > 2_000   # not the preset's
    params, _ = check_size(spec, estimated_vocab(spec), "en")
    assert params == count_parameters(spec.preset.model_config.replace(vocab_size=estimated_vocab(spec)))["total"]


def test_training_handlers_run_with_autograd_and_closing_them_closes_the_run():
    from playground.ui.page.runtime import guarded_training

    closed = []

    @guarded_training
    def handler(lang):
        try:
            while True:
                yield torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
        finally:
            closed.append(True)

    with torch.inference_mode():
        stream = handler("en")
        assert next(stream) and next(stream)
    stream.close()
    assert closed == [True]


@pytest.mark.parametrize("changes, fragment", [
    (dict(block_size=1), "Block size"),
    (dict(block_size=40.5), "whole number"),
    (dict(schedule="exponential"), "constant, step, linear, cosine, inverse_sqrt"),
    (dict(decay_every=0), "Steps between drops"),
    (dict(decay_factor=1.5), "Drop factor"),
    (dict(clip="on"), "Gradient clipping"),
    (dict(grad_clip=0.0), "Clipping threshold"),
    (dict(schedule="inverse_sqrt", warmup=0), "warm-up of at least 1 step"),
])
def test_bad_block_schedule_and_clipping_settings_are_refused_with_what_to_change(changes, fragment):
    with pytest.raises(gr.Error) as refused:
        tiny_spec("char-lm", "rhyme", **changes)
    assert fragment in refused.value.message


def test_a_bad_block_size_is_refused_in_chinese_too():
    with pytest.raises(gr.Error, match="块大小"):
        tiny_spec("char-lm", "rhyme", block_size=1000, lang="zh-CN")


def test_the_form_sets_block_size_schedule_and_clipping_of_the_run():
    spec = tiny_spec("char-lm", "rhyme", block_size=24, schedule="step", decay_every=7, decay_factor=0.3, clip=False)
    train = spec.preset.train_config
    assert spec.preset.block_size == 24 and spec.preset.model_config.max_len == 24
    assert (train.schedule, train.decay_every, train.decay_factor, train.grad_clip) == ("step", 7, 0.3, None)
    assert tiny_spec("char-lm", "rhyme", grad_clip=0.5).preset.train_config.grad_clip == 0.5
    assert tiny_spec("copy", block_size=24).preset.block_size is None                 # tasks make their own sequences


def test_the_seed_rhyme_trains_at_its_block_and_is_refused_at_64_with_the_block_that_fits():
    with pytest.raises(gr.Error, match="set “Block size” to at most 40"):
        drain(step(Workspace("s"), tiny_spec("char-lm", "rhyme", block_size=64, batch_size=4), None, "en"))
    workspace = Workspace("t")
    drain(step(workspace, tiny_spec("char-lm", "rhyme", block_size=32, batch_size=4), None, "en"))
    trainer = workspace.training.trainer
    assert len(trainer.objective.data.ids("val")) == 41 and trainer.history[-1].val_loss is not None
    views = all_views(workspace.training, "en")
    assert "perplexity" in views["status"]
    names = {trace.name for trace in views["curves"].data}
    assert {"validation perplexity", "gradient norm (before clipping)"} <= names


def test_the_schedule_is_drawn_before_start():
    from playground.train import learning_rate
    from playground.ui.views.training import schedule_figure

    spec = tiny_spec("char-lm", "rhyme", schedule="inverse_sqrt", warmup=5, steps=30)
    figure = schedule_figure(spec, "zh-CN")
    assert list(figure.data[0].x)[0] == 1 and list(figure.data[0].x)[-1] == 30
    expected = [learning_rate(s - 1, spec.preset.train_config, spec.preset.model_config.d_model) for s in figure.data[0].x]
    np.testing.assert_allclose(figure.data[0].y, expected)
    assert "平方根倒数" in figure.layout.title.text


def test_seq2seq_status_shows_bleu_beside_exact_match():
    workspace = Workspace("s")
    drain(step(workspace, tiny_spec(), None, "en"))
    status = all_views(workspace.training, "en")["status"]
    assert "exact match" in status and "BLEU" in status and "perplexity" in status


def test_before_any_training_the_view_choices_follow_the_language():
    english, chinese = untrained_view_choices("copy", "en"), untrained_view_choices("copy", "zh-CN")
    assert [key for _, key in english["score"][0]] == [key for _, key in chinese["score"][0]]
    assert english["score"][1] == chinese["score"][1]
    assert all(re.search(r"[\u4e00-\u9fff]", shown) for shown, _ in chinese["score"][0])
    assert not any(re.search(r"[\u4e00-\u9fff]", shown) for shown, _ in english["score"][0])


@pytest.mark.parametrize("reason, english_says, chinese_says", [
    ("gpu_quota", "your daily GPU quota is spent", "配额已用完"),
    ("gpu_signed_out", "not signed in", "没有登录"),
    ("gpu_outside_hf", "opened outside huggingface.co", "不是在 huggingface.co 上打开的"),
    ("gpu_busy", "No GPU is free right now", "现在没有空闲的 GPU"),
])
def test_a_refused_gpu_says_which_case_it_is_in_the_sessions_language(monkeypatch, reason, english_says, chinese_says):
    from playground.train.events import GpuRefusal
    from playground.ui.views.training import gpu_refusal_text

    monkeypatch.setenv("SPACE_ID", "teacher/playground-demo")
    refusal = GpuRefusal(reason, "ZeroGPU quota exceeded: <b>now</b>", 3, "5:12:00")
    english, chinese = gpu_refusal_text(refusal, "en"), gpu_refusal_text(refusal, "zh-CN")
    assert english_says in english and chinese_says in chinese and "CPU" in english and "CPU" in chinese
    assert "<b>" not in english and "&lt;b&gt;" in english                     # the platform's words, as text
    assert ("sign in" in english.lower()) == (reason in ("gpu_signed_out", "gpu_outside_hf"))
    assert ("5:12:00" in english) == ("5:12:00" in chinese) == (reason in ("gpu_quota", "gpu_signed_out"))
    link = "[huggingface.co/spaces/teacher/playground-demo](https://huggingface.co/spaces/teacher/playground-demo)"
    assert (link in english) == (link in chinese) == (reason == "gpu_outside_hf")

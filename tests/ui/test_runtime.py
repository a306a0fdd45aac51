import html

import gradio as gr
import pytest
import torch

from playground.ui.page.runtime import guarded
from playground.ui.session.threads import torch_threads


def test_bad_input_keeps_its_message_and_a_crash_gets_a_message_in_the_session_language():
    @guarded
    def refuses(value, lang):
        raise ValueError("top_k must be >= 1, got 0")

    @guarded
    def crashes(value, lang):
        raise RuntimeError("a bug")

    with pytest.raises(gr.Error) as refused:
        refuses(1, "en")
    assert html.unescape(refused.value.message) == "top_k must be >= 1, got 0"       # shown as written
    with pytest.raises(gr.Error) as crashed:
        crashes(1, lang="zh-CN")
    assert "RuntimeError" in crashed.value.message and "会话仍然可用" in crashed.value.message


def test_handlers_run_without_autograd_also_between_generator_steps():
    @guarded
    def steps(n, lang):
        for _ in range(n):
            yield torch.is_inference_mode_enabled()
        raise ValueError("stopped after the steps")

    results = steps(2, "en")
    assert next(results) and next(results)
    with pytest.raises(gr.Error, match="stopped after the steps"):
        next(results)
    assert not torch.is_inference_mode_enabled()


def test_thread_count_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("PLAYGROUND_TORCH_THREADS", raising=False)
    assert torch_threads() == 1
    monkeypatch.setenv("PLAYGROUND_TORCH_THREADS", "2")
    assert torch_threads() == 2
    monkeypatch.setenv("PLAYGROUND_TORCH_THREADS", "two")
    with pytest.raises(ValueError, match="whole number"):
        torch_threads()

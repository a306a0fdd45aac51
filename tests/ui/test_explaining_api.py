"""The API endpoints of the panels that explain an answer, called through gradio_client on the shipped
models as independent sessions: activation patching, the logit lens with direct logit attribution,
probes, and the guessing game of Generate and of lesson 1; refusals come back in the caller's language."""
import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from playground.ui import create_app

from .serving import serve

REPEAT = "q7#Lm2x!Vb&Kp q7#Lm2x!Vb&Kp"
ATTENTION = dict(model="induction", text=REPEAT, target="", kind="decoder", layer=0, head=0, mean=False,
                 score="induction", ho_heads=[], ho_how="zero", dla_token="", pt_corrupted="",
                 pr_property="inside")
GENERATE = dict(model="tang-poems-char", prompt="白日依山尽，", strategy="greedy", temperature=1.0, top_k=0, top_p=1.0,
                seed=0, max_new=40, beam_width=3, layer=0, head=0, ho_heads=[], ho_how="zero",
                xb_target="", dla_token="", gg_guess="", gg_step=None)


@pytest.fixture(scope="module")
def server(shipped):
    yield from serve(create_app())


def session(url: str) -> Client:
    return Client(url, verbose=False)


def test_patching_fills_the_suggested_corruption_and_refuses_another_length_in_chinese(server):
    client = session(server)
    corrupted, residual, source, heads, positions, summary, link = client.predict(
        **ATTENTION, lang="en", api_name="/attention_patching")
    assert corrupted != REPEAT and len(corrupted) == len(REPEAT) and "Right answer" in summary
    assert "pt_corrupted=" in link and "view=attention" in link
    with pytest.raises(AppError, match="损坏输入有 3 个词元"):
        client.predict(**{**ATTENTION, "pt_corrupted": "abc"}, lang="zh-CN", api_name="/attention_patching")


def test_the_logit_lens_endpoint_splits_the_logit_too(server):
    lens, bars, summary, _ = session(server).predict(**{**ATTENTION, "dla_token": "Z"}, lang="zh-CN",
                                                     api_name="/attention_logit_lens")
    assert "各部分之和为" in summary and "**Z**" in summary


def test_probes_come_back_with_their_sentence(server):
    plot, summary, _ = session(server).predict(**{**ATTENTION, "model": "reverse", "text": "abcdefghij",
                                                  "kind": "cross", "score": "anti_diagonal",
                                                  "pr_property": "letter"}, lang="en", api_name="/attention_probes")
    assert "reads it at" in summary and "chance" in summary
    with pytest.raises(AppError, match="No probe is offered for copy"):
        session(server).predict(**{**ATTENTION, "model": "copy", "text": "abc", "kind": "cross",
                                   "score": "diagonal"}, lang="en", api_name="/attention_probes")


def test_two_sessions_play_their_own_games_in_generate(server):
    a, b = session(server), session(server)
    context, result, *_ = a.predict(**GENERATE, lang="zh-CN", api_name="/generate_guess")
    assert "第 1 / 10 轮" in context and "新的一局" in result
    b.predict(**GENERATE, lang="en", api_name="/generate_guess")
    b.predict(**{**GENERATE, "gg_guess": "春"}, lang="en", api_name="/generate_guess")
    context, result, *_ = a.predict(**{**GENERATE, "gg_guess": "春"}, lang="zh-CN", api_name="/generate_guess")
    assert "第 2 / 10 轮" in context and "1 / 10 轮后" in result
    context, result, *_ = b.predict(**{**GENERATE, "gg_step": 0}, lang="en", api_name="/generate_guess")
    assert "Round 1 of 10" in context and "**Rematch** on the same 10 rounds" in result
    with pytest.raises(AppError, match="恰好一个字符"):
        a.predict(**{**GENERATE, "gg_guess": "春风"}, lang="zh-CN", api_name="/generate_guess")


def test_lesson_1s_game_is_played_through_its_endpoint(server):
    client = session(server)
    context, result, guess, step = client.predict("", None, "zh-CN", api_name="/lesson_guess")
    assert "tang-poems-char" in context and guess == ""
    context, result, *_ = client.predict("春", None, "zh-CN", api_name="/lesson_guess")
    assert "第 1 轮" in result
    with pytest.raises(AppError, match="exactly one character"):
        client.predict("ab", None, "en", api_name="/lesson_guess")

"""The app served in this process and driven through gradio_client, as independent sessions."""
import gc
import io
import runpy
import shutil
import weakref
from types import SimpleNamespace
from pathlib import Path

import gradio as gr
import httpx
import pytest
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError

from playground import checkpoint
from playground.generate import SamplingConfig, Stepper
from playground.ui import launch_kwargs
from playground.ui.header.own_models import load_own_model
from playground.ui.page.links import PRIVATE_LINK, copy_message
from playground.ui.text.i18n import STRINGS
from playground.ui.inputs.validation import MAX_FILE_BYTES

from ..test_checkpoint import HOSTILE, PRETRAINED_COPY, forbidden, resident_bytes, with_config
from .test_page_load import page_event

REPO = Path(__file__).resolve().parents[2]
GREEDY = ("greedy", 1.0, 0, 1.0, 0, 40, 3)          # strategy, temperature, top-k, top-p, seed, max new, beam width


@pytest.fixture(scope="module")
def app(served):
    return served.app


@pytest.fixture(scope="module")
def server(served):
    return served.url


def session(url: str) -> Client:
    return Client(url, verbose=False)


def generate(client: Client, action: str, model: str, prompt: str, settings=GREEDY, lang="en"):
    """(tokens as (text, kind) pairs, status) after one Generate action."""
    output, status, *_ = client.predict(model, prompt, *settings, 0, 0, lang, api_name=f"/generate_{action}")
    return [(span["token"], span["class_or_confidence"]) for span in output], status


def greedy_tokens(registry, model: str, prompt: str, n: int) -> list[str]:
    entry = registry.get(model)
    stepper = Stepper(entry.model, entry.tokenizer, prompt, SamplingConfig(), trace_attention=False)
    return [stepper.step().token_text for _ in range(n)]


def generated(tokens) -> list[str]:
    return [text for text, kind in tokens if kind in ("generated", "newest")]


def test_two_sessions_step_independently(server, registry):
    a, b = session(server), session(server)
    generate(a, "step", "tiny-gpt", "abc")
    generate(b, "step", "tiny-gpt", "cab")
    generate(a, "step", "tiny-gpt", "abc")
    generate(b, "back", "tiny-gpt", "cab")
    tokens_a, status_a = generate(a, "step", "tiny-gpt", "abc")
    tokens_b, status_b = generate(b, "step", "tiny-gpt", "cab")
    assert [t for t, kind in tokens_a if kind == "prompt"] == list("abc")
    assert generated(tokens_a) == greedy_tokens(registry, "tiny-gpt", "abc", 3) and status_a.startswith("Step 3")
    assert [t for t, kind in tokens_b if kind == "prompt"] == list("cab")
    assert generated(tokens_b) == greedy_tokens(registry, "tiny-gpt", "cab", 1) and status_b.startswith("Step 1")


def test_concurrent_steps_of_two_sessions_do_not_interfere(server, registry):
    a, b = session(server), session(server)
    generate(a, "reset", "copy", "abcd")
    generate(b, "reset", "tiny-gpt", "jig")
    jobs = [(a if i % 2 else b).submit("copy" if i % 2 else "tiny-gpt", "abcd" if i % 2 else "jig", *GREEDY, 0, 0,
                                        "en", api_name="/generate_step") for i in range(8)]
    for job in jobs:
        job.result(timeout=60)
    tokens_a, status_a = generate(a, "step", "copy", "abcd")
    tokens_b, status_b = generate(b, "step", "tiny-gpt", "jig")
    assert generated(tokens_a) == greedy_tokens(registry, "copy", "abcd", 5)
    assert generated(tokens_b) == greedy_tokens(registry, "tiny-gpt", "jig", 5)


def test_a_bad_input_is_refused_and_the_session_stays_usable(server):
    a = session(server)
    generate(a, "step", "tiny-gpt", "abc")
    with pytest.raises(AppError, match="empty"):
        generate(a, "step", "tiny-gpt", "")
    with pytest.raises(AppError, match="'z'"):
        generate(a, "step", "tiny-gpt", "xyz")
    with pytest.raises(AppError, match="5.0"):
        generate(a, "step", "tiny-gpt", "abc", settings=("sample", 50.0, 0, 1.0, 0, 40, 3))
    with pytest.raises(AppError, match="Run"):
        generate(a, "step", "tiny-gpt", "abc", settings=("beam", 1.0, 0, 1.0, 0, 40, 3))
    tokens, status = generate(a, "step", "tiny-gpt", "abc")
    assert status.startswith("Step 2") and len(generated(tokens)) == 2


def test_server_text_follows_each_sessions_language(server):
    english, chinese = session(server), session(server)
    *_, summary_en = english.predict("copy", "abc", "", "cross", 0, 0, False, "diagonal", "en",
                                                    api_name="/attention")
    *_, summary_zh = chinese.predict("copy", "abc", "", "cross", 0, 0, False, "diagonal", "zh-CN",
                                                    api_name="/attention")
    assert "encoder-decoder" in summary_en and "编码器-解码器" in summary_zh
    with pytest.raises(AppError, match="没有名为"):
        chinese.predict("nope", "abc", "", "cross", 0, 0, False, "diagonal", "zh-CN", api_name="/attention")


def test_an_uploaded_model_belongs_to_its_session_only(server, pretrained_dir, tmp_path):
    upload = tmp_path / "my model.safetensors"
    shutil.copy(pretrained_dir / "tiny-gpt" / "model.safetensors", upload)
    owner, other = session(server), session(server)
    status = owner.predict(handle_file(str(upload)), "en", api_name="/upload_model")
    assert "mine-my-model" in status
    tokens, _ = generate(owner, "step", "mine-my-model", "abc")
    assert len(generated(tokens)) == 1
    with pytest.raises(AppError, match="mine-my-model"):
        generate(other, "step", "mine-my-model", "abc")
    pickle = tmp_path / "weights.safetensors"
    pickle.write_bytes(b"\x80\x04\x95 a pickle in disguise")
    with pytest.raises(AppError, match="pickle"):
        owner.predict(handle_file(str(pickle)), "en", api_name="/upload_model")


def test_a_hostile_upload_is_refused_from_its_header_and_the_session_then_loads_a_model(server, monkeypatch,
                                                                                       tmp_path):
    crafted = tmp_path / "crafted.safetensors"
    crafted.write_bytes(with_config(PRETRAINED_COPY.read_bytes(), **HOSTILE))
    client = session(server)
    with monkeypatch.context() as patched:          # the server runs in this process
        patched.setattr(checkpoint, "build_model", forbidden)
        patched.setattr(checkpoint, "safetensors_load", forbidden)
        before = resident_bytes()
        with pytest.raises(AppError, match=r"n_encoder_layers is 1,000, the limit is 6"):
            client.predict(handle_file(str(crafted)), "en", api_name="/upload_model")
        assert resident_bytes() - before < 50 * 2**20
        for changes, field in ((dict(d_model=100_000), "d_model 为 100,000，上限是 512"),
                               (dict(max_len=10**9), "max_len 为 1,000,000,000，上限是 1,024")):
            crafted.write_bytes(with_config(PRETRAINED_COPY.read_bytes(), **changes))
            with pytest.raises(AppError, match=field):
                client.predict(handle_file(str(crafted)), "zh-CN", api_name="/upload_model")
    status = client.predict(handle_file(str(PRETRAINED_COPY)), "en", api_name="/upload_model")
    assert "mine-model" in status and "encoder-decoder" in status


def test_uploads_queue_apart_and_gradio_refuses_a_file_over_the_limit_as_it_arrives(app, server):
    upload = next(fn for fn in app.fns.values() if fn.api_name == "upload_model")
    assert upload.concurrency_id == "upload"
    too_large = io.BytesIO(b"\0" * (MAX_FILE_BYTES + 1))
    response = httpx.post(f"{server}gradio_api/upload", files={"files": ("big.safetensors", too_large)}, timeout=60)
    assert response.status_code == 413


def test_app_py_builds_the_app_and_leaves_the_address_to_gradio(pretrained_dir, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_PRETRAINED_DIR", str(pretrained_dir))
    namespace = runpy.run_path(str(REPO / "app.py"), run_name="app")
    demo = namespace["demo"]
    assert isinstance(demo, gr.Blocks)
    picker = next(block for block in demo.blocks.values() if getattr(block, "elem_id", None) == "attention-model")
    assert ("tiny-gpt", "tiny-gpt") in picker.choices
    assert not {"server_name", "server_port"} & set(launch_kwargs())      # GRADIO_SERVER_NAME / _PORT apply


def test_the_attention_api_keeps_its_order_and_the_new_panels_are_called_by_name(server):
    client = session(server)
    names = [p["parameter_name"] for p in client.view_api(print_info=False, return_format="dict")
             ["named_endpoints"]["/attention"]["parameters"]]
    assert names == ["model", "text", "target", "kind", "layer", "head", "mean", "score", "lang", "ho_heads", "ho_how",
                     "dla_token", "pt_corrupted", "pr_property"]
    figure, summary, link = client.predict("tiny-gpt", "abc ab", "", "decoder", 0, 0, False, "diagonal", "zh-CN",
                                     ["decoder.1.0"], "mean", api_name="/attention_heads_off")
    assert "KL" in summary and "nats" not in summary and "ho_heads=decoder.1.0" in link   # in Chinese, linked
    _, _, note, _ = client.predict(emb_model="tiny-gpt", emb_token="a", lang="en", api_name="/inside_emb")
    assert "Closest to" in note
    with pytest.raises(AppError, match="not one token"):
        client.predict(emb_model="tiny-gpt", emb_token="abc", lang="en", api_name="/inside_emb")


def test_gradio_rebuilds_its_monitoring_summary_rarely_not_after_every_event(app, server):
    """Gradio's default rebuilds a pandas summary of up to 10,000 past events after each event,
    a cost per call that grows with the events served; the app asks for it once per 1000."""
    queue = app._queue
    rebuilt_at = queue.event_count_at_last_cache
    client = session(server)
    for k in range(3):
        assert client.predict(f"echo {k}", api_name="/echo") == f"echo {k}"
    assert queue.events_recorded >= rebuilt_at + 3
    assert queue.event_count_at_last_cache == rebuilt_at


def test_gradio_queue_looks_for_new_events_every_few_milliseconds_not_every_one(app):
    """Gradio's default polls every 1 ms while idle: ~10% of a core on a server doing nothing."""
    assert app._queue.sleep_when_free >= 0.005 and app._queue.progress_update_sleep_when_free >= 0.05


def test_waiting_events_get_their_place_on_a_timer_not_each_time_an_event_starts(app):
    """Gradio's default sends every waiting event its place each time any event starts: with a
    class's events waiting, a message per waiting event per event started."""
    assert app._queue.live_updates is False and 0.5 <= app._queue.update_intervals <= 2


def test_the_generate_api_keeps_its_order_and_its_panels_are_called_by_name(server):
    client = session(server)
    endpoints = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    settings = ["strategy", "temperature", "top_k", "top_p", "seed", "max_new", "beam_width", "layer", "head"]
    for name in ("/generate_step", "/generate_heads_off", "/generate_exposure"):
        assert [p["parameter_name"] for p in endpoints[name]["parameters"]] == \
            ["model", "prompt", *settings, "lang", "ho_heads", "ho_how", "xb_target", "dla_token", "gg_guess", "gg_step",
             "repetition_penalty"]
    tokens, _ = generate(client, "step", "tiny-gpt", "abc")              # by position, without the panels' fields
    assert len(generated(tokens)) == 1
    figure, summary, link = client.predict("tiny-gpt", "abc ab", *GREEDY, 0, 0, "zh-CN", ["decoder.1.0"], "mean",
                                           api_name="/generate_heads_off")
    assert "KL" in summary and "nats" not in summary and "ho_heads=decoder.1.0" in link   # in Chinese, linked
    _, explanation, link = client.predict("tiny-gpt", "abc", *GREEDY, 0, 0, "en", [], "zero", "defgh",
                                          api_name="/generate_exposure")
    assert "Teacher forcing" in explanation and "xb_target=defgh" in link
    with pytest.raises(AppError, match="at least one head"):
        client.predict("tiny-gpt", "abc", *GREEDY, 0, 0, "en", [], "zero", "", api_name="/generate_heads_off")


def test_the_header_says_an_uploads_message_again_in_the_language_picked(app, pretrained_dir, tmp_path):
    upload_file = tmp_path / "my model.safetensors"
    shutil.copy(pretrained_dir / "tiny-gpt" / "model.safetensors", upload_file)
    upload = next(fn for fn in app.fns.values() if fn.api_name == "upload_model")
    language = page_event(app, "on_language")
    status = upload.outputs[0]
    assert status in language.outputs
    request = SimpleNamespace(session_hash="header-says-again", headers={}, query_params={})
    assert "Loaded **mine-my-model**" in upload.fn(str(upload_file), "en", request)[status]
    said = language.fn("zh-CN", request)
    assert said[status].startswith("已载入 **mine-my-model**") and "解码器" in said[status]
    assert "Loaded **mine-my-model**" in language.fn("en", request)[status]
    other = SimpleNamespace(session_hash="header-says-nothing", headers={}, query_params={})
    assert status not in language.fn("zh-CN", other)          # a session that uploaded nothing: left as it is
    workspace = app.workspaces.get("header-says-again")
    first = weakref.ref(workspace.models["mine-my-model"])
    for name in ("second", "third"):        # two models from elsewhere (a training, the Hub): the upload goes
        shutil.copy(upload_file, tmp_path / f"{name}.safetensors")
        workspace.add_model(load_own_model(tmp_path / f"{name}.safetensors", "en"))
    gc.collect()
    assert "mine-my-model" not in workspace.models and first() is None     # its message holds no model
    assert "Loaded **mine-my-model**" in language.fn("en", request)[status]


def test_what_copy_link_or_the_qr_code_said_is_said_again_in_the_language_picked(app):
    copy, show, language = (page_event(app, name) for name in ("on_copy", "on_show", "on_language"))
    panel, status = show.outputs
    assert copy.outputs == [status] and status in language.outputs and panel not in language.outputs
    request = SimpleNamespace(session_hash="copy-and-qr", headers={}, query_params={})
    payload = "view=attention\nhttps://example.org/?view=attention&lang=en"
    assert copy.fn(payload, "en", request)[status] == copy_message(*payload.split("\n"), "en")
    assert language.fn("zh-CN", request)[status] == copy_message(*payload.split("\n"), "zh-CN")
    private = f"{PRIVATE_LINK}\nhttps://example.org/?view=attention&lang=zh-CN"    # a view of one's own model
    assert show.fn(private, "zh-CN", request)[status] == STRINGS["zh-CN"]["link_private"]
    assert language.fn("en", request)[status] == STRINGS["en"]["link_private"]

"""Text from a link or an uploaded file never becomes markup: every payload (HTML tags, Markdown links
and images, autolinks, style attributes, Plotly tags, an overlong name) is put through every link
parameter (names and values, every tab's form) and through every token-showing view of uploaded
models whose vocabularies hold the payloads, in English and Chinese. What the app produces is read
as the page would read it: Markdown (which Gradio renders with HTML), toasts (HTML) and Plotly text
must hold no tag, link, image or autolink that a payload describes (see tests/payloads.py).
"""
import dataclasses
import html

import gradio as gr
import pytest

from playground.ui.page.forms import encode_query
from playground.ui.page.links import MAX_NOTED, note_text, parse_link
from playground.ui.page.refusals import refusal_figures
from playground.ui.header.own_models import load_own_model
from playground.ui.session.workspace import Workspace
from playground.ui.tabs import architecture, attention, generate, inside, labs, lessons, positional, tokenizer, train
from playground.ui.tabs.architecture import handlers as architecture_handlers
from playground.ui.tabs.attention import handlers as attention_handlers
from playground.ui.tabs.generate import handlers as generate_handlers
from playground.ui.tabs.inside import handlers as inside_handlers
from playground.ui.tabs.positional import handlers as positional_handlers
from playground.ui.tabs.tokenizer import handlers as tokenizer_handlers
from playground.ui.tabs.train import handlers as train_handlers

from ..payloads import (
    LONG_NAME,
    PAYLOADS,
    markdown_problems,
    payload_bpe,
    payload_chars,
    payload_checkpoint,
    plotly_problems,
    strings,
    update_problems,
)

LANGS = ("en", "zh-CN")
FORMS = {"lessons": lessons.LessonsForm, "attention": attention.AttentionForm, "inside": inside.InsideForm,
         "generate": generate.GenerateForm, "train": train.TrainForm, "labs": labs.LabsForm,
         "positional": positional.PositionalForm, "tokenizer": tokenizer.TokenizerForm,
         "architecture": architecture.ArchitectureForm}
TABS = tuple(FORMS)
TYPED = PAYLOADS[2] + " " + PAYLOADS[7]           # typed text: a Markdown link and Plotly tags
# each tab's opening draw, for a link that opens it
OPENINGS = {"attention": attention_handlers.draw, "generate": generate_handlers.open_tab,
            "inside": inside_handlers.draw, "positional": positional_handlers.draw,
            "tokenizer": tokenizer_handlers.draw, "architecture": architecture_handlers.draw,
            "train": train_handlers.on_open}


def problems(updates: dict, form_type) -> list[str]:
    """What is wrong in a handler's updates (a form field's own value is a textbox's plain text)."""
    return update_problems({name: value for name, value in updates.items() if name not in form_type.params()})


def drawn_or_refused(draw, workspace, form, lang: str) -> list[str]:
    """The problems of what `draw` shows for `form`, or of the message it refuses it with (a toast)."""
    try:
        updates = draw(workspace, form, lang)
        if not isinstance(updates, dict):                                  # a stream: every update it sends
            return [p for sent in updates for p in problems(sent, type(form))]
        return problems(updates, type(form))
    except gr.Error as error:
        return markdown_problems(error.message) + [p for figure in refusal_figures(["x"], error.message, lang).values()
                                                   for s in strings(figure) for p in plotly_problems(s)]


# Links ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("view", TABS)
def test_a_payload_in_any_name_or_value_of_a_link_is_shown_literally_in_the_note(registry, view, lang):
    for payload in (*PAYLOADS, LONG_NAME):
        queries = [{"view": view, name: payload} for name in FORMS[view].params()]
        queries += [{"view": view, payload: "1"}, {"view": payload}, {"view": view, "lang": payload},
                    {"view": view, "present": payload}]
        for query in queries:
            page = parse_link("?" + encode_query(query), TABS, FORMS, registry)
            note = note_text(page.ignored, lang)
            assert not markdown_problems(note), (query, note)
            assert LONG_NAME[:100] not in note and len(note) < 2_000


@pytest.mark.parametrize("lang", LANGS)
def test_a_link_with_thousands_of_parameters_lists_a_few_and_counts_the_rest(registry, lang):
    query = "&".join(f"p{i}=<img src=http://evil.example/{i}.png>" for i in range(5_000))
    page = parse_link("?view=attention&" + query, TABS, FORMS, registry)
    note = note_text(page.ignored, lang)
    assert len(page.ignored) == 5_000 and len(note.splitlines()) == 1 + MAX_NOTED + 1
    assert "4988" in note and not markdown_problems(note)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("view", [view for view in TABS if view in OPENINGS])
def test_a_link_whose_texts_are_payloads_opens_its_tab_without_markup(registry, view, lang):
    """Every text parameter of the tab at once (one payload each), as the page's load draws it."""
    form_type = FORMS[view]
    texts = [name for name, spec in form_type.params().items() if type(spec).__name__ == "String"]
    for offset in range(len(PAYLOADS)):
        query = {"view": view, **{name: PAYLOADS[(offset + k) % len(PAYLOADS)] for k, name in enumerate(texts)}}
        page = parse_link("?" + encode_query(query), TABS, FORMS, registry)
        assert not markdown_problems(note_text(page.ignored, lang))
        workspace = Workspace(f"link-{view}", registry)
        assert not drawn_or_refused(OPENINGS[view], workspace, page.form, lang), query


# Uploads ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def uploads(tmp_path_factory):
    """Payload checkpoints loaded as a session's uploads are: a GPT and a BERT whose BPE vocabulary
    holds each payload as one token, a GPT of the payloads' characters and a seq2seq model; and each
    GPT also under a payload name (a name from a file, should one ever pass the upload's cleaning)."""
    directory = tmp_path_factory.mktemp("payloads")
    made = {}
    for name, arch, tokenizer_of in (("gpt-bpe", "decoder_only", payload_bpe),
                                     ("gpt-chars", "decoder_only", payload_chars),
                                     ("bert-bpe", "encoder_only", payload_bpe),
                                     ("seq2seq-bpe", "encoder_decoder", payload_bpe)):
        entry = load_own_model(payload_checkpoint(directory, arch, tokenizer_of(), name), "en")
        made[name] = entry
    made["named"] = dataclasses.replace(made["gpt-bpe"], name=PAYLOADS[0])
    return made


@pytest.fixture
def workspace(registry, uploads):
    """A session holding every upload at once (more than a session keeps, for the Inside tab's five pickers)."""
    workspace = Workspace("payloads", registry)
    workspace.models.update((entry.name, entry) for entry in uploads.values())
    return workspace


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("model", ["gpt-bpe", "gpt-chars", "seq2seq-bpe", "named"])
def test_the_attention_tab_of_an_upload_shows_its_tokens_literally(workspace, uploads, model, lang):
    name = uploads[model].name
    heads = ["decoder.0.0", "decoder.1.1"] if model != "seq2seq-bpe" else ["cross.0.0", "cross.1.1"]
    for target in ("", TYPED):
        form = attention.AttentionForm(model=name, text=TYPED, target=target, kind="decoder"
                                       if model != "seq2seq-bpe" else "cross", ho_heads=tuple(heads),
                                       dla_token=PAYLOADS[0], pt_corrupted=PAYLOADS[7] + " " + PAYLOADS[2])
        for draw in (attention_handlers.draw, attention_handlers.heads_off, attention_handlers.lens,
                     attention_handlers.patching, attention_handlers.suggest_patching, attention_handlers.probes):
            assert not drawn_or_refused(draw, workspace, form, lang), (draw.__name__, target)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("model", ["gpt-bpe", "gpt-chars", "seq2seq-bpe", "named"])
def test_the_generate_tab_of_an_upload_shows_its_tokens_literally(workspace, uploads, model, lang):
    name = uploads[model].name
    heads = ("decoder.0.0",) if model != "seq2seq-bpe" else ("cross.0.0",)
    form = generate.GenerateForm(model=name, prompt=TYPED, max_new=8, ho_heads=heads, xb_target=PAYLOADS[7],
                                 dla_token=PAYLOADS[0], gg_guess=PAYLOADS[7][:8])
    h = generate_handlers
    for draw in (h.open_tab, h.step, h.step, h.step, h.heads_off, h.lens, h.exposure, h.run, h.game_new, h.game_guess):
        assert not drawn_or_refused(draw, workspace, form, lang), draw.__name__
    beam = dataclasses.replace(form, strategy="beam", beam_width=3)
    for draw in (h.draw, h.run):
        assert not drawn_or_refused(draw, workspace, beam, lang), draw.__name__
    if model != "gpt-chars":                             # a payload token is what it wrote, shown as written
        status = html.unescape(h.step(workspace, form, lang)["status"])
        assert any(payload.replace(" ", "␣") in status for payload in PAYLOADS), status


@pytest.mark.parametrize("lang", LANGS)
def test_patching_attribution_and_the_game_show_typed_markup_literally_on_shipped_models(shipped, lang):
    """The induction model reads every printable character: a repeated payload is patched (its tokens on the
    axes, the answers in the summary) and its logit split; a guess of markup is echoed in the game's table."""
    repeat = PAYLOADS[7][:12] + " " + PAYLOADS[7][:12]
    workspace = Workspace("payloads-shipped", shipped)
    form = attention.AttentionForm(model="induction", text=repeat, kind="decoder", score="induction",
                                   dla_token="<")
    for draw in (attention_handlers.patching, attention_handlers.lens):
        updates = draw(workspace, form, lang)
        assert updates and not problems(updates, attention.AttentionForm), draw.__name__
    assert "&lt;" in updates["dla_plot"].layout.title.text                  # the token, drawn as written
    game = generate.GenerateForm(model="tang-poems-char")
    generate_handlers.game_new(workspace, game, lang)
    for guess in ("<", "*", "[", "`"):
        updates = generate_handlers.game_guess(workspace, dataclasses.replace(game, gg_guess=guess), lang)
        assert not problems(updates, generate.GenerateForm), guess


@pytest.mark.parametrize("lang", LANGS)
def test_the_inside_tab_of_uploads_shows_their_tokens_literally(workspace, uploads, lang):
    token = PAYLOADS[0].replace(" ", "␣")          # a token as the page shows it
    form = inside.InsideForm(emb_model=uploads["gpt-bpe"].name, emb_token=token,
                             worked_model=uploads["seq2seq-bpe"].name, worked_text=TYPED, worked_site="cross",
                             mask_model=uploads["gpt-chars"].name, mask_first=TYPED[:10], mask_second=TYPED[:4],
                             norm_model=uploads["named"].name, norm_text=TYPED, norm_position=2,
                             fill_model=uploads["bert-bpe"].name, fill_text=PAYLOADS[7] + "_x_" + PAYLOADS[3])
    drawn = inside_handlers.draw(workspace, form, lang)
    assert not problems(drawn, inside.InsideForm)
    assert drawn["emb_neighbours"].data, drawn["emb_note"]                    # drawn, not refused
    assert "PWN" in " ".join(drawn["emb_neighbours"].data[0].y)              # its neighbours: the payload tokens
    for part in ("emb_note", "worked_note", "norm_note", "fill_note"):
        assert "refused" not in drawn[part] and "拒绝" not in drawn[part], drawn[part]
    refused = dataclasses.replace(form, emb_token=PAYLOADS[1][:40], fill_model=uploads["named"].name)
    assert not problems(inside_handlers.draw(workspace, refused, lang), inside.InsideForm)


@pytest.mark.parametrize("lang", LANGS)
def test_the_positional_tab_of_an_upload_names_it_literally(workspace, uploads, lang):
    form = positional.PositionalForm(model=uploads["named"].name, shuffle_text=PAYLOADS[9])
    assert not problems(positional_handlers.draw(workspace, form, lang), positional.PositionalForm)

import random

import gradio as gr
import pytest

from playground.ui.page.forms import decode_query, encode_query
from playground.ui.inputs.validation import BPE_VOCAB_RANGE, MAX_TOKENIZER_CHARS
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.tokenizer import TokenizerForm, handlers, tokenize_views, utf8_note
from playground.ui.views.tokenizer import CORPUS_CHOICES


def test_both_tokenizers_cover_the_text_and_counts_agree():
    char_figure, bpe_figure, counts, merges, note = tokenize_views("the theme", "bundled", 400, "en")
    assert "9** characters" in counts
    assert "Characters: 9 tokens" in char_figure.layout.title.text
    n_bpe = int(bpe_figure.layout.title.text.split(": ")[1].split()[0])
    assert 1 <= n_bpe < 9 and f"**{n_bpe}** BPE tokens" in counts
    assert len(merges.data[0].cells.values[0]) == 40
    assert note == ""


def test_chinese_is_unknown_to_characters_but_written_as_bytes_by_bpe():
    char_figure, bpe_figure, counts, _, note = tokenize_views("注意", "bundled", 300, "zh-CN")
    assert "<unk>" in counts and "'注'" in counts
    assert "E6 B3 A8" in note and "3 个字节" in note
    hover_pieces = [row[0] for row in bpe_figure.data[0].customdata]
    assert all(piece.startswith("&lt;") for piece in hover_pieces)          # byte tokens such as <E6>


def test_training_on_the_text_itself_caps_a_small_vocabulary():
    _, _, counts, _, _ = tokenize_views("aaab", "this_text", 400, "en")
    assert "fewer than the 400 asked for" in counts


@pytest.mark.parametrize("args, fragment", [
    (("", "bundled", 300), "empty"),
    (("x" * (MAX_TOKENIZER_CHARS + 1), "bundled", 300), str(MAX_TOKENIZER_CHARS)),
    (("abc", "bundled", 100), "262"),
    (("abc", "wikipedia", 300), "bundled"),
])
def test_bad_input_is_refused(args, fragment):
    with pytest.raises(gr.Error) as excinfo:
        tokenize_views(*args, "en")
    assert fragment in excinfo.value.message


def test_utf8_note_lists_each_character_once():
    note = utf8_note("é中中", "en")
    assert note.count("“中”") == 1 and "C3 A9" in note and "E4 B8 AD" in note


def random_tokenizer_form(rng):
    chars = "abc xyz&=?#%+/\n中文é"
    return TokenizerForm(text="".join(rng.choice(chars) for _ in range(rng.randint(0, 40))),
                         corpus=rng.choice(CORPUS_CHOICES), vocab_size=rng.randint(*BPE_VOCAB_RANGE))


def test_random_tokenizer_forms_survive_the_trip_through_a_query_string():
    rng = random.Random(5)
    for _ in range(200):
        form = random_tokenizer_form(rng)
        back, ignored = TokenizerForm.from_query(dict(decode_query("?" + encode_query(form.to_query()))))
        assert (back, ignored) == (form, [])


@pytest.mark.parametrize("name, raw, fragment", [
    ("vocab_size", "400.5", "whole number"),
    ("vocab_size", "100", "262"),
    ("corpus", "wikipedia", "bundled"),
    ("text", "x" * (MAX_TOKENIZER_CHARS + 1), str(MAX_TOKENIZER_CHARS)),
])
def test_a_bad_tokenizer_link_value_keeps_its_default_and_is_named(name, raw, fragment):
    form, ignored = TokenizerForm.from_query({name: raw})
    assert getattr(form, name) == TokenizerForm.params()[name].default
    assert [error.param for error in ignored] == [name] and fragment in str(ignored[0])


def test_the_tokenizer_handlers_draw_the_form_and_explain_a_refusal(registry):
    workspace = Workspace("tok", registry)
    drawn = handlers.draw(workspace, TokenizerForm(text="the theme", vocab_size=400), "en")
    assert set(drawn) == set(handlers.VIEWS) and "9** characters" in drawn["counts"]
    shown = handlers.refused(workspace, TokenizerForm(text=""), "zh-CN")
    assert set(shown) == set(handlers.VIEWS)
    for name in handlers.FIGURES:
        assert shown[name].data == () and "文本" in shown[name].layout.annotations[0].text   # no earlier text's spans

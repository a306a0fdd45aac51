import gradio as gr
import pytest

from playground.ui.tabs.tokenizer import tokenize_views, utf8_note
from playground.ui.validation import MAX_TOKENIZER_CHARS


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
    assert note.count("`中`") == 1 and "C3 A9" in note and "E4 B8 AD" in note

"""What the page says a model accepts, against the shipped models' own training data."""

from playground.ui.views.inputs import input_note, trained_lengths


def test_the_copy_model_warns_about_inputs_of_another_length(shipped):
    copy = shipped.get("copy")
    assert trained_lengths(shipped, copy) == (10, 10)
    note = input_note(shipped, copy, "abc", "en")
    assert "a b c d e f g h i j" in note and "exactly 10" in note and "has 3" in note
    assert "⚠" not in input_note(shipped, copy, "abcdefghij", "en")
    assert "恰好 10" in input_note(shipped, copy, "abc", "zh-CN")


def test_a_text_model_has_no_length_warning(shipped):
    assert trained_lengths(shipped, shipped.get("shakespeare-char")) is None
    assert "⚠" not in input_note(shipped, shipped.get("shakespeare-char"), "x" * 150, "en")

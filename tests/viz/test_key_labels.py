"""The key axis of an enlarged head: labels of one character stand upright however many there are (turned
90° by Plotly where they crowded, they overran the room reserved for them once presenter mode enlarged
them); longer tokens keep Plotly's own choice."""
import numpy as np

from playground.viz.attention import attention_head


def head(tokens: list[str]):
    n = len(tokens)
    weights = np.tril(np.ones((n, n), dtype=np.float32))
    return attention_head(weights / weights.sum(axis=1, keepdims=True), tokens, tokens)


def test_a_long_input_of_characters_keeps_its_key_labels_upright():
    layout = head(list("To be, or not to be, that i")).layout                 # 27 characters, space shown as ␣
    assert layout.xaxis.tickangle == 0
    assert list(layout.xaxis.ticktext)[2] == "␣"


def test_tokens_longer_than_a_character_keep_plotlys_choice():
    layout = head(["To", " be", ",", " or", " not", " to"]).layout
    assert layout.xaxis.tickangle is None

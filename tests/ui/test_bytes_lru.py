"""The byte-bounded map's size estimate counts text as Python holds it, and components as they are held."""
import gc
import tracemalloc

import gradio as gr
import pytest

from playground.ui.server.bytes_lru import BytesLRU, size_of


def test_text_counts_at_the_width_python_keeps_it():
    """A str takes 1, 2 or 4 bytes a character by its widest one: tokens in Chinese or with a
    byte-level marker (Ġ) take twice their length, so counting the length would let the cache
    hold twice its bound."""
    assert size_of("x" * 1000) >= 1000
    assert size_of("Ġ" + "x" * 999) >= 2000
    assert size_of(["中文" * 500, "😀" * 10]) >= 2000 + 40
    kept = BytesLRU(max_bytes=10_000, name="test cache")
    for key in range(10):
        kept.put(key, "词" * 2000, size_of("词" * 2000))
    assert kept.bytes <= 10_000 and len(kept) == 2


def test_an_object_met_twice_counts_once_and_a_cycle_ends():
    """A figure's parts refer to one another (a parent, a shared template): each is counted once, and
    an object that holds itself does not recurse without end."""
    class Node:
        def __init__(self):
            self.text = "x" * 10_000
            self.me = self

    node = Node()
    assert 10_000 <= size_of(node) < 11_000
    assert size_of([node, node]) < 11_000 + size_of([None, None])


@pytest.mark.parametrize("make", [
    lambda: gr.Radio(choices=["first", "second", "third"], value="first", label="Layer", render=False),
    lambda: gr.Slider(minimum=0, maximum=5, step=1, label="Head", render=False),
    lambda: gr.Dropdown(choices=[f"model-{i}" for i in range(20)], label="Model", render=False),
], ids=["radio", "slider", "dropdown"])
def test_a_component_counts_about_what_it_holds(make):
    """The view cache keeps the controls a view updates beside its figures: counted by their
    arguments alone (a fifth of a component's memory), a cache of them held several times its bound."""
    for _ in range(50):
        make()
    copies = 300
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        made = [make() for _ in range(copies)]
        held = (tracemalloc.get_traced_memory()[0] - before) / copies
    finally:
        tracemalloc.stop()
        gc.enable()
    assert 0.75 * held <= size_of(made[0]) <= 1.5 * held

"""The allocator is bounded and trimmed where glibc runs the process, and left alone elsewhere."""
import platform

from playground.ui.server import memory
from playground.ui.server.session_state import LeanStateHolder
from playground.ui.session.workspace import WorkspaceStore


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_trims_after_a_burst_and_at_most_every_so_often_while_busy():
    clock, trims = Clock(), []
    trimmer = memory.Trimmer(lambda: trims.append(clock.now) or True, every_s=60, clock=clock)
    assert not trimmer.tick(served=0, busy=False)          # nothing served: nothing freed
    clock.now = 5
    assert not trimmer.tick(served=40, busy=True)           # a burst under way
    assert trimmer.tick(served=40, busy=False)              # ... and over
    assert not trimmer.tick(served=40, busy=False)          # nothing new since
    for second in range(10, 130, 5):                        # steady load: once a minute
        clock.now = second
        trimmer.tick(served=40 + second, busy=True)
    assert trims == [5, 65, 125]


def test_glibc_is_bounded_and_trimmed_and_other_allocators_are_left_alone(monkeypatch):
    on_glibc = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert memory.available() is on_glibc
    assert memory.bound_arenas() is on_glibc
    memory.trim()
    monkeypatch.setattr(memory, "_libc", None)              # as on macOS or Windows
    assert memory.bound_arenas() is False and memory.trim() is False


MAPPED_AFTER_A_LARGE_FREE = """
import ctypes, importlib.util, sys
spec = importlib.util.spec_from_file_location("memory", sys.argv[2])   # alone: without Gradio's import time
memory = importlib.util.module_from_spec(spec)
spec.loader.exec_module(memory)

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]

libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
libc.mallinfo2.restype = MallInfo2
if sys.argv[1] == "bounded":
    memory.bound_arenas()
libc.free(libc.malloc(8 << 20))                  # a large block freed, as after a big reply
mapped_before = libc.mallinfo2().hblks
block = libc.malloc(2 << 20)                     # the next large block
print(libc.mallinfo2().hblks - mapped_before)    # 1: a mapping of its own, given back when freed
libc.free(block)
"""


def test_large_blocks_stay_out_of_the_arenas_after_a_large_block_is_freed():
    """glibc raises its mmap threshold to the size of each large block freed, so later large blocks
    land in the arenas, where freed ones stay resident; bounded, they keep their own mappings."""
    import subprocess
    import sys

    import pytest
    if not memory.available():
        pytest.skip("glibc only")

    def mapped(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", MAPPED_AFTER_A_LARGE_FREE, mode, memory.__file__],
                              capture_output=True, text=True, check=True, timeout=120)
        return int(done.stdout.split()[-1])

    assert mapped("left to glibc") == 0          # what the server did before
    assert mapped("bounded") == 1


def test_new_sessions_never_push_out_the_gradio_state_of_a_session_the_app_keeps(pretrained_dir):
    from playground.ui import create_app
    demo = create_app(pretrained_dir)
    store = WorkspaceStore()
    holder = LeanStateHolder()
    holder.blocks, holder.capacity, holder.store = demo, 3, store
    store.get("student", opens_page=True)
    holder["student"]
    for i in range(10):
        holder[f"passer-{i}"]
    assert "student" in holder and len(holder.session_data) == 3


def test_the_readme_gives_the_memory_budget_that_the_bounds_add_up_to():
    from pathlib import Path

    from playground.ui.budget import budget
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for tabs in (30, 100):
        without, with_hub = (sum(budget(tabs, hub).values()) / 2**30 for hub in (False, True))
        assert f"| {tabs} | {without:.1f} GB | {with_hub:.1f} GB |" in readme
    assert sum(budget(100).values()) > sum(budget(30).values()) and all(v >= 0 for v in budget(30).values())


def test_one_sessions_state_in_the_budget_holds_a_copy_of_every_component_events_update(demo):
    """Gradio keeps, per session, its own copy of each component an event updated (its choices, label,
    visibility), so a session that used the whole page holds a copy of every output: the budget's
    state of one session covers that, measured by making those copies as Gradio makes them."""
    import gc
    import tracemalloc

    from gradio.components import Component, State
    from gradio.components.api_component import Api

    from playground.ui import budget
    outputs = {block._id: block for fn in demo.fns.values() for block in fn.outputs
               if isinstance(block, Component) and not isinstance(block, (State, Api))}   # gr.api's answer no update
    gc.collect()
    tracemalloc.start()
    try:
        copies = [type(block)(**{**block.constructor_args, "render": False}) for block in outputs.values()]
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(copies) == len(outputs) > 100
    assert held <= budget.SESSION_STATE_BYTES, f"{len(copies)} copies hold {held / 2**20:.2f} MiB"

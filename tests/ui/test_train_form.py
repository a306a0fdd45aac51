"""The Train tab's form and its handlers of (workspace, form, language): links, refusals, a task's
preset, an uploaded text and a run through the form."""
import random
from dataclasses import replace

import gradio as gr
import pytest

from playground.model import ACTIVATIONS, NORM_PLACEMENTS, POSITIONAL_ENCODINGS
from playground.train.config import SCHEDULES
from playground.ui.inputs.validation import TRAIN_LIMITS, refusal_text
from playground.ui.page.forms import Refused, encode_query
from playground.ui.page.links import parse_link
from playground.ui.session.training import DATA_SOURCES, TASK_PRESETS, form_defaults, stability_defaults
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.train import TrainForm, handlers

TABS = ("attention", "train")
FORMS = {"train": TrainForm}
TEXT_CHARS = "abc xyz&=?#%+/\n中文é"
TINY = TrainForm(layers=1, n_heads=2, d_model=16, d_ff=32, lr=3e-3, warmup=5, batch_size=16, steps=30)


def random_form(rng: random.Random) -> TrainForm:
    """A form every field of which is drawn in range, its fields consistent with one another."""
    n_heads = rng.randint(*TRAIN_LIMITS["n_heads"])
    d_model = n_heads * 2 * rng.randint(4, TRAIN_LIMITS["d_model"][1] // (n_heads * 2))   # an even head size
    steps = rng.randint(*TRAIN_LIMITS["steps"])
    return TrainForm(
        task=rng.choice(list(TASK_PRESETS)), data=rng.choice(DATA_SOURCES),
        pasted="".join(rng.choice(TEXT_CHARS) for _ in range(rng.randint(0, 40))),
        layers=rng.randint(*TRAIN_LIMITS["layers"]), n_heads=n_heads, d_model=d_model,
        d_ff=rng.randint(*TRAIN_LIMITS["d_ff"]), positional=rng.choice(POSITIONAL_ENCODINGS),
        norm=rng.choice(NORM_PLACEMENTS), activation=rng.choice(ACTIVATIONS),
        dropout=rng.uniform(*TRAIN_LIMITS["dropout"]), tie_weights=rng.random() < 0.5,
        lr=rng.uniform(*TRAIN_LIMITS["lr"]), warmup=rng.randint(0, min(steps, TRAIN_LIMITS["warmup"][1])),
        batch_size=rng.randint(*TRAIN_LIMITS["batch_size"]), steps=steps,
        block_size=rng.randint(*TRAIN_LIMITS["block_size"]), schedule=rng.choice(SCHEDULES),
        decay_every=rng.randint(*TRAIN_LIMITS["decay_every"]), decay_factor=rng.uniform(*TRAIN_LIMITS["decay_factor"]),
        clip=rng.random() < 0.5, grad_clip=rng.uniform(*TRAIN_LIMITS["grad_clip"]))


def test_random_train_forms_survive_the_trip_through_a_query_string(registry):
    rng = random.Random(16)
    for _ in range(200):
        form = random_form(rng)
        query = encode_query({"view": "train", **form.to_query()})
        page = parse_link("?" + query, TABS, FORMS, registry)
        assert (page.view, page.form, page.ignored) == ("train", form, [])


@pytest.mark.parametrize("query, name, fragment", [
    ("d_model=7", "d_model", "between 8 and 512"),
    ("layers=2.5", "layers", "whole number"),
    ("lr=1", "lr", "between"),
    ("task=poetry", "task", "copy, reverse"),
    ("data=upload", "data", "bundled, tiny_shakespeare"),
    ("clip=yes", "clip", "1 or 0"),
    ("schedule=sideways", "schedule", "cosine"),
])
def test_a_bad_value_in_a_train_link_is_refused_by_name(registry, query, name, fragment):
    page = parse_link(f"?view=train&{query}", TABS, FORMS, registry)
    assert page.form == TrainForm()
    assert [error.param for error in page.ignored] == [name]
    assert fragment in str(page.ignored[0])


def test_settings_that_do_not_fit_together_are_refused_by_name_and_never_reach_the_page(registry):
    page = parse_link("?view=train&d_model=30", TABS, FORMS, registry)          # 30 is not a multiple of 4 heads
    assert [error.param for error in page.ignored] == ["n_heads"]
    assert page.form.validated() == page.form and page.form.d_model % page.form.n_heads == 0
    assert "30" in refusal_text(page.ignored[0], "en") and "30" in refusal_text(page.ignored[0], "zh-CN")
    page = parse_link("?view=train&n_heads=8&d_model=34", TABS, FORMS, registry)   # still 34 % 4 after the default
    assert [error.param for error in page.ignored] == ["n_heads"] and page.form.settings() == form_defaults("copy")
    page = parse_link("?view=train&warmup=900&steps=100", TABS, FORMS, registry)
    assert [error.param for error in page.ignored] == ["warmup"] and page.form.validated() == page.form
    with pytest.raises(Refused) as excinfo:
        TrainForm.from_values({"d_model": 64, "n_heads": 3})
    assert excinfo.value.param == "n_heads"


def test_a_link_naming_only_a_task_opens_its_presets_defaults(registry):
    page = parse_link("?view=train&task=induction", TABS, FORMS, registry)
    defaults = form_defaults("induction")
    assert page.ignored == [] and page.form.task == "induction"
    assert page.form.settings() == defaults
    assert (page.form.n_heads, page.form.lr, page.form.warmup) == (2, 1e-3, 0)
    assert page.form.spec("en").preset.repeats is not None                  # the induction preset's own data
    language_model = parse_link("?view=train&task=char-lm", TABS, FORMS, registry).form
    assert language_model.block_size == stability_defaults("char-lm")["block_size"]
    named = parse_link("?view=train&task=induction&d_model=32", TABS, FORMS, registry).form
    assert named.d_model == 32 and named.n_heads == TrainForm().n_heads      # a named setting is kept as given


def test_choosing_a_task_fills_its_preset_and_shows_its_text_settings():
    updates = handlers.on_task(Workspace("s"), TrainForm(task="char-lm"), "en")
    for name, value in form_defaults("char-lm").items():
        assert updates[name] == value
    assert updates["data_group"].constructor_args["visible"] is True
    assert "parameters" in updates["estimate"]
    assert updates["probe_kind"].constructor_args["value"] == "decoder.self_attn"
    copy = handlers.on_task(Workspace("s"), TrainForm(task="copy"), "zh-CN")
    assert copy["data_group"].constructor_args["visible"] == "hidden"
    assert copy["probe_kind"].constructor_args["value"] == "decoder.cross_attn"


def test_pasted_text_shows_its_box_and_a_rhyme_gets_a_block_size_it_can_hold():
    pasted = handlers.on_data(Workspace("s"), TrainForm(task="char-lm", data="pasted"), "en")
    assert pasted["pasted"].constructor_args["visible"] is True and "block_size" not in pasted
    rhyme = handlers.on_data(Workspace("s"), TrainForm(task="char-lm", data="rhyme"), "en")
    assert rhyme["pasted"].constructor_args["visible"] is False and rhyme["block_size"] < TrainForm().block_size


def test_an_uploaded_text_becomes_the_pasted_text(tmp_path):
    good = tmp_path / "story.txt"
    good.write_text("Once upon a time", encoding="utf-8")
    assert handlers.uploaded_text(str(good), "en") == {"pasted": "Once upon a time"}
    empty = tmp_path / "empty.txt"
    empty.write_text("  ", encoding="utf-8")
    with pytest.raises(gr.Error, match="empty"):
        handlers.uploaded_text(str(empty), "en")


def test_the_estimate_follows_the_form_and_says_what_to_change():
    drawn = handlers.on_estimate(Workspace("s"), TINY, "en")
    assert "parameters" in drawn["estimate"] and drawn["schedule_plot"].data
    too_big = handlers.on_estimate(Workspace("s"), replace(TINY, layers=6, d_model=512, d_ff=2048, n_heads=8), "en")
    assert "too large" in too_big["estimate"] or "GFLOP" in too_big["estimate"]


def test_a_run_through_the_form_streams_component_updates_and_publishes(registry):
    workspace = Workspace("s")
    assert handlers.on_queued(workspace, TINY, "en")["status"].startswith("Waiting for a free training slot")
    updates = list(handlers.on_start(workspace, TINY, "en"))
    assert isinstance(updates[1]["probe_kind"], gr.Radio) and isinstance(updates[1]["score"], gr.Dropdown)
    final = updates[-1]
    assert workspace.current_model == "trained-copy" and workspace.training.trainer.step == 30
    assert "published" not in final                                # it has no component: the session has it
    assert final["download"].constructor_args["value"].endswith("trained-copy.safetensors")
    with pytest.raises(gr.Error, match="all 30 of its steps"):
        handlers.on_resume_queued(workspace, TINY, "en")
    list(handlers.on_step(workspace, TINY, "en"))                        # a finished training starts afresh
    assert workspace.training.trainer.step == 10 and workspace.newest_model().name == "trained-copy"
    assert workspace.newest_model() is workspace.training.entry
    cleared = handlers.on_reset(workspace, TINY, "en")
    assert cleared["download"].constructor_args["interactive"] is True and workspace.training.trainer is None

"""Activation patching works on the input every shipped model opens with, its suggestion changes exactly as
many tokens as the panel says, and the two runs it normalises between differ by more than noise."""
import re
from pathlib import Path

import pytest

from playground.analysis import MIN_SPREAD, pair_metrics
from playground.ui.session.examples import ATTENTION_EXAMPLES, examples_for
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import AttentionForm
from playground.ui.tabs.attention import handlers
from playground.ui.views.patching import patching_pair, read_ids

SHIPPED = sorted(p.name for p in (Path(__file__).resolve().parents[2] / "pretrained").iterdir() if p.is_dir())
CHANGED = {"en": r"differs from the clean one in \*\*(\d+)\*\* token", "zh-CN": r"有 \*\*(\d+)\*\* 个词元不同"}


def changed_tokens(entry, clean: str, corrupted: str) -> int:
    return sum(a != b for a, b in zip(read_ids(entry, clean, "en", "input"), read_ids(entry, corrupted, "en", "input")))


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_models_first_example_is_patched_with_a_corruption_that_flips_its_answer(shipped, name, lang):
    workspace = Workspace(f"patching-{name}", shipped)
    entry = workspace.model(name)
    text = next(iter(examples_for(entry, ATTENTION_EXAMPLES)))
    drawn = handlers.patching(workspace, AttentionForm(model=name, text=text), lang)
    corrupted = drawn["pt_corrupted"]
    said = int(re.search(CHANGED[lang], drawn["pt_summary"])[1])
    assert said == changed_tokens(entry, text, corrupted) >= 1
    clean_metric, corrupted_metric = pair_metrics(entry.model, patching_pair(entry, text, corrupted, lang))
    assert clean_metric - corrupted_metric >= MIN_SPREAD
    assert all(abs(v) <= 40 for v in drawn["pt_residual"].data[0].z.ravel())


def test_the_suggestion_for_a_text_whose_last_token_repeats_says_how_many_tokens_it_changed(shipped):
    """shakespeare-char on "To be, or not to be": the suggestion once changed 3 tokens under a text saying one,
    and normalised by a difference of -0.015 ("restores 796%")."""
    workspace = Workspace("patching-to-be", shipped)
    text = "To be, or not to be"
    drawn = handlers.patching(workspace, AttentionForm(model="shakespeare-char", text=text), "en")
    said = int(re.search(CHANGED["en"], drawn["pt_summary"])[1])
    assert said == changed_tokens(workspace.model("shakespeare-char"), text, drawn["pt_corrupted"])
    clean, corrupted = (float(v) for v in re.findall(r"\*\*(-?\d+\.\d+)\*\*", drawn["pt_summary"])[:2])
    assert clean - corrupted >= MIN_SPREAD

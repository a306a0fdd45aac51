"""The Lessons tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import os

import gradio as gr

from ...course import LESSONS
from ...page.widgets import MathMarkdown
from ...text.i18n import label
from ...views.by_hand import MAX_TYPED_CHARS, SEED_D_K
from ...views.guessing import game_panel
from .form import LESSON_IDS

FIGURE_SLOTS = 6        # figures a lesson shows at most (its views together)
OUTCOME_SLOTS = 3       # figures an experiment's outcome shows at most
STORAGE_KEY = "playground-lessons"
# The browser keeps the learner's place and answers encrypted with this secret. A fixed one lets a
# restarted server (a Space restarts on every sleep, rebuild and update) read what the browser kept;
# Gradio's default is a new secret per process, which lost every learner's progress at each restart.
STATE_SECRET_ENV_VAR = "PLAYGROUND_STATE_SECRET"
DEFAULT_STATE_SECRET = "transformer-playground-lessons"      # stable, public: set the variable to keep it private


def state_secret() -> str:
    """The secret the browser's lesson record is kept under: $PLAYGROUND_STATE_SECRET, else the stable default."""
    return os.environ.get(STATE_SECRET_ENV_VAR) or DEFAULT_STATE_SECRET


def markdown(elem_id: str, **kwargs) -> gr.Markdown:
    return MathMarkdown(elem_id=elem_id, **kwargs)


def layout() -> dict[str, gr.components.Component]:
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        c["previous"] = gr.Button(label("btn_previous"), elem_id="lesson-previous", scale=0)
        c["lesson"] = gr.Dropdown([(lesson.title.en, lesson.id) for lesson in LESSONS], value=LESSON_IDS[0],
                                  label=label("lbl_lesson"), elem_id="lesson-picker", scale=3)
        c["position"] = gr.Markdown(elem_id="lesson-position")
        c["next"] = gr.Button(label("btn_next"), elem_id="lesson-next", scale=0)
    c["title"] = markdown("lesson-title")
    c["explanation"] = markdown("lesson-explanation", elem_classes="explanation")
    for k in range(FIGURE_SLOTS):
        c[f"figure_{k}"] = gr.Plot(show_label=False, visible=False, elem_id=f"lesson-figure-{k}")
    c["notes"] = markdown("lesson-notes")
    # Lessons 4 and 7: a box to work softmax or LayerNorm on typed numbers (see views.by_hand).
    with gr.Group(visible="hidden", elem_id="lesson-by-hand") as c["bh_panel"]:
        c["bh_intro"] = markdown("lesson-by-hand-intro")
        with gr.Row():
            c["bh_numbers"] = gr.Textbox("", label=label("lbl_by_hand_numbers"), max_lines=1,
                                         max_length=MAX_TYPED_CHARS, elem_id="lesson-by-hand-numbers", scale=3)
            c["bh_dk"] = gr.Number(SEED_D_K, label=label("lbl_by_hand_dk"), precision=0, elem_id="lesson-by-hand-dk",
                                   scale=1)
            c["bh_run"] = gr.Button(label("btn_by_hand"), elem_id="lesson-by-hand-run", scale=0)
        c["bh_result"] = markdown("lesson-by-hand-result")
    c.update(game_panel("lesson", open_=True))                          # lesson 1 (the first shown) has the game
    c["look_for"] = markdown("lesson-look-for")
    c["experiment_heading"] = markdown("lesson-experiment-heading")
    c["prediction"] = gr.Radio([], label=label("lbl_prediction"), elem_id="lesson-prediction")
    with gr.Row():
        c["run"] = gr.Button(label("btn_lesson_run_wait"), variant="primary", interactive=False, elem_id="lesson-run")
        c["run_live"] = gr.Button(label("btn_lesson_run_wait"), variant="primary", interactive=False, visible=False,
                                  elem_id="lesson-run-live")
        c["stop"] = gr.Button(label("btn_stop"), visible=False, elem_id="lesson-stop", scale=0)
    c["live_status"] = markdown("lesson-live-status")
    for k in range(OUTCOME_SLOTS):
        c[f"outcome_{k}"] = gr.Plot(show_label=False, visible=False, elem_id=f"lesson-outcome-{k}")
    c["verdict"] = markdown("lesson-verdict")
    c["reveal"] = markdown("lesson-reveal")
    c["check_heading"] = markdown("lesson-check-heading")
    c["answer"] = gr.Radio([], label=label("lbl_check_answer"), elem_id="lesson-answer")
    c["feedback"] = markdown("lesson-feedback")
    c["explore"] = gr.Markdown(elem_id="lesson-explore")
    # A first visit keeps nothing (the first lesson is then the tab's own start, see initial_form).
    c["progress"] = gr.BrowserState({}, storage_key=STORAGE_KEY, secret=state_secret())
    return c

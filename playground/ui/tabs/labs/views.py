"""What the Labs tab shows, in the session's language: a lab's card, the status of its run, the
variants' curves overlaid, their attention side by side on the same input, what the run showed,
and the session's kept results compared.
"""
from __future__ import annotations

from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.labs import Lab, LabProgress, LabResult, VariantResult, compare_results, list_labs, summarize
from playground.labs.lab import corpus_text
from playground.viz.theme import TITLE_LINE_PX

from ...text.i18n import text
from ...text.markup import literal
from ...views.training import SERIES, SHORT_KIND, probe_kinds
from .session import LabSession

METRICS = {"losses": ("loss", "val_loss"), "accuracy": ("accuracy",), "exact_match": ("exact_match",)}
STAGES = ("end", "start")
TITLE_LINES_MARGIN = 105       # px above an attention grid: its title has two lines
TITLE_TOP_PX = 8 + TITLE_LINE_PX   # where a two-line title is anchored: Plotly lifts its first line by one line
GRID_HEIGHT = 400              # px of a variant's attention grid
CURVES_HEIGHT = 420            # px of the curves and of the comparison
SAMPLES_SHOWN = 2             # outputs per variant in the summary
SAMPLE_CHARS = 60             # each cut to this many characters


def lab_choices(lang: str) -> list[tuple[str, str]]:
    """(kind · title, id) of every lab in display order: the lab picker."""
    return [(f"{text(lang, f'lab_kind_{lab.kind}')} · {lab.title.get(lang)}", lab.id) for lab in list_labs()]


def metric_choices(lab: Lab, lang: str) -> list[tuple[str, str]]:
    """The curves a lab can show: exact match only for seq2seq tasks, whose outputs are whole sequences."""
    keys = ("losses", "accuracy", "exact_match") if lab.data.task is not None else ("losses", "accuracy")
    return [(text(lang, f"lab_metric_{key}"), key) for key in keys]


def variant_choices(lab: Lab, lang: str) -> list[tuple[str, str]]:
    """The variants compared with the reference (every one but the reference)."""
    return [(variant.name.get(lang), variant.id) for variant in lab.variants[1:]]


def kind_choices(lab: Lab, lang: str) -> list[tuple[str, str]]:
    """The attention kinds of the lab's reference, the most telling first (cross-attention for
    seq2seq), as the Train tab orders them."""
    return [(text(lang, f"kind_{SHORT_KIND[kind]}"), kind) for kind in probe_kinds(lab.model_config)]


def stage_choices(lang: str) -> list[tuple[str, str]]:
    return [(text(lang, f"lab_stage_{stage}"), stage) for stage in STAGES]


def card_text(lab: Lab, lang: str) -> str:
    """The lab's card: kind and title, the question, what differs, the data, the size and the variants."""
    t = partial(text, lang)
    model, train = lab.model_config, lab.train_config
    layers = " + ".join(str(n) for n in (model.n_encoder_layers, model.n_decoder_layers) if n)
    return "\n\n".join([
        f"### {lab.title.get(lang)}",
        t("lab_card_question", kind=t(f"lab_kind_{lab.kind}"), question=lab.question.get(lang)),
        t("lab_card_varies", varies=", ".join(f"`{name}`" for name in lab.varies), data=data_text(lab, lang)),
        t("lab_card_size", layers=layers, d_model=model.d_model, heads=model.n_heads, steps=train.max_steps,
          batch=train.batch_size, lr=train.lr, seed=train.seed, budget=lab.budget_s),
        t("lab_card_variants", reference=lab.reference.name.get(lang),
          others=t("list_separator").join(variant.name.get(lang) for variant in lab.variants[1:])),
    ])


def data_text(lab: Lab, lang: str) -> str:
    """What the lab trains on, e.g. "copy (length=8, symbols=8)" or "tiny Shakespeare, one token per
    character, windows of 32" (the bundled text when tiny Shakespeare cannot be read)."""
    data = lab.data
    if data.task is not None:
        knobs = ", ".join(f"{key}={value}" for key, value in data.knobs.items())
        return text(lang, "lab_data_task", task=text(lang, f"task_{data.task}"), knobs=knobs)
    corpus = corpus_text(data.corpus)[1]
    return text(lang, "lab_data_corpus", corpus=text(lang, f"corpus_{corpus}"), block=data.block_size)


def status_text(session: LabSession, lab: Lab, lang: str) -> str:
    """Where the lab shown stands: idle, running (step, seconds), stopping, or the kept result's end."""
    t = partial(text, lang)
    progress = session.progress
    if session.runs_lab(lab.id):
        if session.stopping:
            return t("lab_status_stopping")
        if progress is None:
            return t("lab_status_building")
        return t("lab_status_running", percent=progress.fraction, elapsed=progress.elapsed,
                 budget=lab.budget_s) + _variant_progress(progress, lang)
    result = session.latest(lab.id)
    if result is None:
        return t("lab_status_idle", budget=lab.budget_s)
    key = "lab_status_stopped" if result.steps_done < result.steps_planned else "lab_status_done"
    return t(key, step=result.steps_done, steps=result.steps_planned, seconds=result.seconds)


def _variant_progress(progress: LabProgress, lang: str) -> str:
    if progress.variant is None or progress.loss is None:
        return ""
    return text(lang, "lab_status_variant", step=progress.step, steps=progress.max_steps, loss=progress.loss)


def curves_figure(runs: dict[str, dict[str, list]], lab: Lab, metric: str, lang: str) -> go.Figure:
    """The variants' curves of ``metric`` ("losses", "accuracy" or "exact_match") overlaid."""
    if not runs or not any(len(history["step"]) for history in runs.values()):
        return viz.placeholder(text(lang, "empty_lab_curves"), height=CURVES_HEIGHT)
    t = partial(text, lang)
    return viz.compare_runs(runs, metrics=METRICS[metric], title=t("fig_lab_curves", title=lab.title.get(lang)),
                            metric_names={key: t(name) for key, name in SERIES.items()}, step_label=t("w_step"),
                            height=CURVES_HEIGHT)


def attention_figure(variant: VariantResult | None, kind: str, stage: str, lang: str) -> go.Figure:
    """Every layer x head of one variant on the lab's probe input, ``stage`` "start" or "end" of training.

    A variant without ``kind`` (a decoder-only model has no cross-attention) shows its own first
    kind, named in the title. Without a variant (no run yet), what will appear there.
    """
    snapshot = None if variant is None else variant.start if stage == "start" else variant.end
    if snapshot is None or not snapshot.attention:
        return viz.placeholder(text(lang, "empty_lab_attention"), height=GRID_HEIGHT)
    t = partial(text, lang)
    title = t("fig_lab_attention", variant=variant.name.get(lang), stage=t(f"lab_stage_{stage}"), step=snapshot.step)
    if kind not in snapshot.attention:
        kind = next(iter(snapshot.attention))
        title += " · " + t(f"kind_{SHORT_KIND[kind]}")
    queries, keys = snapshot.tokens[kind]
    figure = viz.attention_grid(snapshot.attention[kind], queries, keys, title=title, layer_label=t("w_layer"),
                                head_label=t("w_head"), query_label=t("w_query"), key_label=t("w_key"),
                                weight_label=t("w_weight"), block_label=t("w_block"), height=GRID_HEIGHT)
    return figure.update_layout(margin_t=TITLE_LINES_MARGIN, title_y=1 - TITLE_TOP_PX / GRID_HEIGHT,
                                title_yanchor="top")


def summary_text(result: LabResult | None, lab: Lab, lang: str) -> str:
    """What the lab's runs showed: the lab's explanation, then this run's numbers and outputs."""
    t = partial(text, lang)
    explanation = t("lab_explanation_heading") + "\n\n" + lab.explanation.get(lang)
    if result is None:
        return explanation + "\n\n" + t("lab_no_result")
    return "\n\n".join([t("lab_this_run", seed=result.seed, data=data_text(lab, lang)), summarize(result, lang),
                        _samples(result, lang), explanation])


def _samples(result: LabResult, lang: str) -> str:
    lines = [text(lang, "lab_samples_heading")]
    expected_word = text(lang, "lab_sample_expected")
    for variant in result.variants:
        for sample in variant.end.samples[:SAMPLES_SHOWN]:
            shown = _short(sample.output)
            expected = f" ({expected_word} {_short(sample.target)})" if sample.target else ""
            lines.append(f"- {variant.name.get(lang)}: {_short(sample.input)} → {shown}{expected}")
    return "\n".join(lines)


def _short(value: str) -> str:
    """A model's output in one line of at most SAMPLE_CHARS characters, written literally."""
    shown = value.replace("\n", "↵")
    return literal(shown if len(shown) <= SAMPLE_CHARS else shown[:SAMPLE_CHARS - 1] + "…")


def kept_choices(session: LabSession, lang: str) -> list[tuple[str, int]]:
    """One checkbox per kept result: "#n title · seconds · steps"."""
    return [(text(lang, "lab_kept_item", number=number, title=result.title.get(lang), seconds=result.seconds,
                  step=result.steps_done), number)
            for number, result in session.kept.items()]


def compare_figure(results: list[LabResult], lang: str) -> go.Figure:
    """The validation loss of every variant of the chosen kept results, in one figure."""
    if not results:
        return viz.placeholder(text(lang, "empty_lab_compare"), height=CURVES_HEIGHT)
    t = partial(text, lang)
    return viz.compare_runs(compare_results(results, lang), metrics=("val_loss",), title=t("fig_lab_compare"),
                            metric_names={"val_loss": t("w_val_loss")}, step_label=t("w_step"), height=CURVES_HEIGHT)

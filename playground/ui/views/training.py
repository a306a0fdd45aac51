"""What the Train tab shows of a TrainingSession, in the session's language: a status, the live
curves, the probe input's attention, head scores over training and what the model writes now.

The curves are redrawn at every progress event, so the figure is built once per training and
language and then only its data is replaced; the other figures are built at each snapshot.
"""
from __future__ import annotations

import threading
from functools import partial

import numpy as np
import plotly.graph_objects as go

from playground import viz
from playground.analysis import CROSS_SCORES, SELF_SCORES
from playground.analysis.head_scores import INDUCTION_THRESHOLD
from playground.model import SITES, AttentionSite, ModelConfig
from playground.train import Snapshot, TrainEvent
from playground.train.events import GpuRefusal
from playground.train.objectives import LM_SAMPLE_TEMPERATURE
from playground.train.schedule import schedule_curve
from playground.viz.theme import line_mode

from ..page.sharing import space_page
from ..inputs.validation import MAX_TRAIN_PARAMETERS, MAX_TRAIN_STEP_GFLOPS
from ..session.training import RUN_SECONDS, STEP_SIZE, TrainingSession, TrainSpec
from ..text.i18n import text
from ..text.markup import literal
from .meaning import exact_and_bleu, loss_meaning, training_unigram

CURVE_POINTS = 400            # progress points drawn at most; evaluated ones are always kept
SHORT_KIND = {site.name: site.id for site in SITES}     # a probe kind (a site's name) -> the site's id
DEFAULT_SCORE = {"copy": "diagonal", "reverse": "anti_diagonal", "sort": "entropy", "dates": "entropy",
                 "char-lm": "previous_token", "bpe-lm": "previous_token", "masked-lm": "previous_token",
                 "induction": "induction"}
TASK_NAMES = {"copy": "task_copy", "reverse": "task_reverse", "sort": "task_sort", "dates": "task_dates",
              "char-lm": "task_char_lm", "bpe-lm": "task_bpe_lm", "masked-lm": "task_masked_lm",
              "induction": "task_induction"}
STATE_TEXT = {"running": "train_state_running", "paused": "train_state_paused", "stepped": "train_state_stepped",
              "stopped": "train_state_stopped", "finished": "train_state_finished",
              "diverged": "train_state_diverged"}
SERIES = {"loss": "w_train_loss", "val_loss": "w_val_loss", "accuracy": "w_accuracy", "exact_match": "w_exact_match",
          "lr": "w_learning_rate", "tokens_per_s": "w_tokens_per_s", "perplexity": "w_val_perplexity",
          "grad_norm": "w_grad_norm"}
PANELS = ("w_loss", "w_accuracy", "w_learning_rate", "w_tokens_per_s", "w_val_perplexity", "w_grad_norm")
SAMPLE_HEADINGS = {"seq2seq": "train_sample_seq2seq", "lm": "train_sample_lm", "mlm": "train_sample_mlm",
                   "repeats": "train_sample_repeats"}


def probe_kinds(config: ModelConfig) -> tuple[str, ...]:
    """The names of a model's attention sites (a snapshot's keys), the most telling first
    (cross-attention for seq2seq)."""
    return tuple(site.name for site in sorted(config.sites(), key=lambda site: not site.is_cross))


def kinds_of(spec: TrainSpec) -> tuple[str, ...]:
    """The probe's attention kinds of a training."""
    return probe_kinds(spec.preset.model_config)


def score_keys(spec: TrainSpec) -> list[str]:
    """Every head score a snapshot carries: "KIND.SCORE"."""
    return [f"{kind}.{score}" for kind in kinds_of(spec)
            for score in (CROSS_SCORES if AttentionSite.parse(kind).is_cross else SELF_SCORES)]


def default_view(spec: TrainSpec) -> tuple[str, str]:
    """(probe kind, head score key) shown when a training starts."""
    kind = kinds_of(spec)[0]
    score = DEFAULT_SCORE[spec.task]
    return kind, f"{kind}.{score}" if f"{kind}.{score}" in score_keys(spec) else score_keys(spec)[0]


def kind_choices(spec: TrainSpec | None, lang: str) -> list[tuple[str, str]]:
    if spec is None:
        return []
    return [(text(lang, f"kind_{SHORT_KIND[kind]}"), kind) for kind in kinds_of(spec)]


def score_label(key: str, lang: str) -> str:
    kind, score = key.rsplit(".", 1)
    return f"{text(lang, f'kind_{SHORT_KIND[kind]}')} · {text(lang, f'score_{score}')}"


def score_choices(spec: TrainSpec | None, lang: str) -> list[tuple[str, str]]:
    return [] if spec is None else [(score_label(key, lang), key) for key in score_keys(spec)]


def task_name(task: str, lang: str) -> str:
    return text(lang, TASK_NAMES[task])


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def status_text(session: TrainingSession, lang: str) -> str:
    """Where the training stands: its state, the latest progress, the latest held-out results."""
    t = partial(text, lang)
    trainer, event = session.trainer, session.last_event
    if trainer is None:
        return t("train_status_idle")
    config = trainer.config
    lines = [t(STATE_TEXT.get(session.state, "train_state_running"), seconds=RUN_SECONDS, n=STEP_SIZE,
               steps=config.max_steps, message=literal(trainer.failure or ""))]
    if event is None:
        lines.append(t("train_status_started", task=task_name(session.spec.task, lang),
                       params=f"{sum(p.numel() for p in trainer.model.parameters()):,}"))
    else:
        lines.append(t("train_progress", step=event.step, steps=config.max_steps, elapsed=event.elapsed,
                       loss=event.loss, lr=event.lr, tokens_per_s=event.tokens_per_s))
    evaluated = next((e for e in reversed(trainer.history) if e.evaluated), None)
    if evaluated is not None:
        exact = "" if evaluated.exact_match is None else t("train_exact", exact=_percent(evaluated.exact_match))
        if evaluated.bleu is not None:
            exact += t("train_bleu", bleu=evaluated.bleu)
        lines.append(t("train_heldout", step=evaluated.step, val_loss=evaluated.val_loss,
                       perplexity=evaluated.perplexity, accuracy=_percent(evaluated.accuracy), exact=exact))
        vocab = trainer.model_config.target_vocab_size
        lines.append(loss_meaning(evaluated.val_loss, vocab, training_unigram(trainer.objective), lang))
        if evaluated.exact_match is not None:
            lines.append(exact_and_bleu(evaluated.exact_match, evaluated.bleu, lang))
    if trainer.trained_on:
        lines.append(t("train_computed", where=", ".join(t("train_computed_on", device=device, how=how)
                                                       for device, how in trainer.trained_on.items())))
    refusal = next((e.gpu_refusal for e in reversed(trainer.history) if e.gpu_refusal is not None), None)
    if refusal is not None:
        lines.append(gpu_refusal_text(refusal, lang))
    if session.entry is not None and session.state != "running":
        lines.append(t("train_published", name=literal(session.entry.name)))
        if session.download_best is not None and trainer.best is not None:
            lines.append(t("train_best", step=trainer.best.step, val_loss=trainer.best.val_loss))
    return "\n\n".join(lines)


def gpu_refusal_text(refusal: GpuRefusal, lang: str) -> str:
    """Why a run on a ZeroGPU Space goes on on the CPU, and how to get the GPU back (the platform's own
    words beside it, written literally)."""
    t = partial(text, lang)
    when = t("train_gpu_retry", retry_in=literal(refusal.retry_in)) if refusal.retry_in else ""
    left = t("train_gpu_left", seconds=refusal.quota_left_s) if refusal.quota_left_s is not None else ""
    page = space_page()
    link = f"[{page.removeprefix('https://')}]({page})" if page else t("train_gpu_space_page")
    return t(f"train_{refusal.reason}", when=when, left=left, link=link, detail=literal(refusal.detail))


def _thinned(events: list[TrainEvent]) -> list[TrainEvent]:
    """At most about CURVE_POINTS events: every evaluated one, the others evenly spaced."""
    if len(events) <= CURVE_POINTS:
        return events
    stride = -(-len(events) // CURVE_POINTS)
    return [e for i, e in enumerate(events) if e.evaluated or i % stride == 0 or i == len(events) - 1]


def _history(session: TrainingSession) -> dict[str, list]:
    events = _thinned(session.trainer.history)
    columns = ["step", "loss", "val_loss", "accuracy", "lr", "tokens_per_s", "perplexity", "grad_norm"]
    if session.spec.seq2seq:
        columns.insert(4, "exact_match")
    return {name: [getattr(e, name) for e in events] for name in columns}


class LiveCurves:
    """The training curves figure of one training, built once per language and then updated in place."""

    def __init__(self):
        self._lock = threading.Lock()
        self._figure: go.Figure | None = None
        self._lang: str | None = None
        self._columns: dict[str, str] = {}       # trace name -> history column

    def figure(self, session: TrainingSession, lang: str) -> go.Figure | None:
        if session.trainer is None or not session.trainer.history:
            return None
        history = _history(session)
        with self._lock:
            if self._figure is None or self._lang != lang:
                t = partial(text, lang)
                names = {column: t(key) for column, key in SERIES.items()}
                self._figure = viz.training_curves(
                    history, title=t("fig_train_curves", task=task_name(session.spec.task, lang)),
                    panel_titles=[t(key) for key in PANELS], series_names=names, step_label=t("w_step"), height=700,
                    grad_clip=session.trainer.config.grad_clip, clip_label=t("w_clip_threshold"))
                self._lang, self._columns = lang, {name: column for column, name in names.items()}
                return self._figure
            steps = np.asarray(history["step"], dtype=np.float32)
            mode = line_mode(len(steps))
            with self._figure.batch_update():
                for trace in self._figure.data:
                    if trace.name not in self._columns:        # the clipping threshold: a fixed line
                        continue
                    column = history[self._columns[trace.name]]
                    trace.update(x=steps, y=np.array([np.nan if v is None else v for v in column], dtype=np.float32),
                                 mode=mode)
                if "lr" in history:                        # its first points may have been one constant rate
                    viz.fit_rate_axis(self._figure, history["lr"])
            return self._figure


def curves_figure(session: TrainingSession, lang: str) -> go.Figure:
    """Loss and validation loss, accuracy (and exact match), learning rate, tokens/s, validation
    perplexity and the gradient norm (with the clipping threshold) so far (before a run: what will
    appear and how)."""
    curves = session.figures.setdefault("curves", LiveCurves())
    return curves.figure(session, lang) or viz.placeholder(text(lang, "empty_train_curves"))


def layer_label(group: str, two_stacks: bool, lang: str) -> str:
    """A gradient group's name (playground.train.gradients) as a legend label: "embeddings", "block 0"
    ("encoder block 0" / "decoder block 0" in a model with both stacks), "head"."""
    if group in ("embeddings", "head"):
        return text(lang, f"w_grads_{group}")
    stack, _, index = group.split(".")
    return text(lang, f"w_grads_{stack}_block" if two_stacks else "w_grads_block", i=int(index))


def layer_grads_figure(session: TrainingSession, lang: str) -> go.Figure:
    """Each layer's gradient norm (before clipping) at every progress event so far, one line per layer."""
    trainer = session.trainer
    events = [] if trainer is None else [e for e in _thinned(trainer.history) if e.layer_grad_norms]
    if not events:
        return viz.placeholder(text(lang, "empty_train_layer_grads"))
    groups = list(events[-1].layer_grad_norms)
    two_stacks = any(g.startswith("encoder.") for g in groups) and any(g.startswith("decoder.") for g in groups)
    norms = {layer_label(g, two_stacks, lang): [e.layer_grad_norms.get(g) for e in events] for g in groups}
    t = partial(text, lang)
    return viz.layer_gradient_norms([e.step for e in events], norms, title=t("fig_train_layer_grads"),
                                    step_label=t("w_step"), norm_label=t("w_grad_norm"))


def probe_figure(session: TrainingSession, lang: str) -> go.Figure:
    """The latest snapshot's attention on the probe input: every layer x head of the chosen kind."""
    snapshot, kind = session.snapshot, session.view_kind
    if snapshot is None or kind not in snapshot.attention:
        return viz.placeholder(text(lang, "empty_train_probe"))
    queries, keys = snapshot.tokens[kind]
    t = partial(text, lang)
    return viz.attention_grid(snapshot.attention[kind], queries, keys,
                              title=t("fig_train_probe", kind=t(f"kind_title_{SHORT_KIND[kind]}"), step=snapshot.step),
                              layer_label=t("w_layer"), head_label=t("w_head"), query_label=t("w_query"),
                              key_label=t("w_key"), weight_label=t("w_weight"), block_label=t("w_block"),
                              height=420)


INDUCTION_KEY = "decoder.self_attn.induction"
PREVIOUS_KEY = "decoder.self_attn.previous_token"
DIAGONAL_KEY = "decoder.cross_attn.diagonal"


def scores_figure(session: TrainingSession, lang: str) -> go.Figure:
    """The chosen head score of every head at every snapshot so far; following the induction score
    of a decoder with two layers or more draws how an induction head forms instead (before a run:
    what will appear and how)."""
    key = session.view_score
    history = [(step, scores[key]) for step, scores in session.score_history if key in scores]
    if not history:
        return viz.placeholder(text(lang, "empty_train_scores"))
    t = partial(text, lang)
    if key == INDUCTION_KEY and history[0][1].shape[0] >= 2:
        return formation_figure(session, lang)
    score = t(f"score_{key.rsplit('.', 1)[1]}")
    return viz.head_scores_over_steps([step for step, _ in history], np.stack([s for _, s in history]),
                                      score_name=score_label(key, lang), title=t("fig_train_scores", score=score),
                                      step_label=t("w_step"), head_label=t("w_head"))


def formation_figure(session: TrainingSession, lang: str) -> go.Figure:
    """Over the snapshots: the previous-token score of layer 0's best head and the induction score of
    the best head of the later layers, the naming threshold and the step where it is first reached."""
    history = [(step, scores) for step, scores in session.score_history if INDUCTION_KEY in scores]
    t = partial(text, lang)
    return viz.induction_formation(
        [step for step, _ in history], [scores[PREVIOUS_KEY][0].max() for _, scores in history],
        [scores[INDUCTION_KEY][1:].max() for _, scores in history], INDUCTION_THRESHOLD,
        title=t("fig_train_formation"), previous_name=t("w_formation_previous"),
        induction_name=t("w_formation_induction"), threshold_name=t("w_formation_threshold"),
        crossed_name=t("w_formation_crossed"), step_label=t("w_step"), score_label=t("w_formation_score"))


def _cell(value: str | None) -> str:
    """Text written by a model for a Markdown table cell: line breaks drawn, written literally."""
    if value is None:
        return "–"
    return literal(value.replace("\n", "↵")) if value.strip() else "∅"


def sample_text(session: TrainingSession, lang: str) -> str:
    """What the model writes now: held-out decodes, a sampled continuation or filled-in masks."""
    snapshot: Snapshot | None = session.snapshot
    if snapshot is None or not snapshot.samples:
        return ""
    t = partial(text, lang)
    kind = "repeats" if session.spec.preset.repeats is not None else session.spec.preset.kind
    lines = [t(SAMPLE_HEADINGS[kind], step=snapshot.step, temperature=LM_SAMPLE_TEMPERATURE), ""]
    if kind == "lm":
        sample = snapshot.samples[0]
        return "\n".join([*lines, f"> {_cell(sample.input)} → {_cell(sample.output)}"])
    headers = (t("col_train_input"), t("col_train_output"), t("col_train_expected"), "")
    lines += ["| " + " | ".join(headers) + " |", "|---|---|---|---|"]
    for sample in snapshot.samples:
        mark = "✓" if sample.output == sample.target else "✗"
        lines.append(f"| {_cell(sample.input)} | {_cell(sample.output)} | {_cell(sample.target)} | {mark} |")
    return "\n".join(lines)


def schedule_figure(spec: TrainSpec, lang: str) -> go.Figure:
    """The learning rate of every step the form asks for, drawn before Start."""
    t = partial(text, lang)
    config = spec.preset.train_config
    steps, rates = schedule_curve(config, spec.preset.model_config.d_model)
    return viz.learning_rate_schedule(steps, rates, title=t("fig_lr_schedule", schedule=t(f"schedule_{config.schedule}")),
                                      step_label=t("w_step"), rate_label=t("w_learning_rate"), height=300)


def estimate_text(params: int, gflops: float, vocab: int, problem: str | None, lang: str) -> str:
    """The size of the model the form describes, against the limits, with the refusal if it is too large."""
    lines = [text(lang, "train_estimate", params=f"{params:,}", gflops=gflops, vocab=vocab,
                  max_params=f"{MAX_TRAIN_PARAMETERS:,}", max_gflops=MAX_TRAIN_STEP_GFLOPS)]
    if problem:
        lines.append(f"**{problem}**")
    return "\n\n".join(lines)

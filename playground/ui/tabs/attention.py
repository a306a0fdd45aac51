"""Attention tab: every layer x head of a model on your input, one head enlarged, head scores to
find the head that copies, the forward pass as a table of tensor shapes, and, for pretrained
models saved with a training timeline, the same views at any saved step of training."""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from functools import partial

import gradio as gr
import numpy as np
import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis import CROSS_SCORES, SELF_SCORES, head_scores, shape_walkthrough
from playground.data import BOS_ID, EOS_ID
from playground.model import Trace
from playground.train.decoding import greedy_seq2seq

from ..context import LATEX, PRIVATE, QUIET, AppContext, light
from ..examples import ATTENTION_EXAMPLES, attention_examples, suitable_input
from ..i18n import label, text
from ..registry import ModelEntry, ModelRegistry
from ..runtime import guarded
from ..shapes import shape_rows
from ..validation import MAX_INPUT_CHARS, check_known_chars, check_number, check_text, fail

GREEDY_TARGETS_KEPT = 256      # per model: the greedy outputs of its latest sources
MAX_ATTENTION_TOKENS = 80      # tokens drawn per axis; more makes every heatmap unreadable on a projector
KINDS = {"encoder_only": ("encoder",), "decoder_only": ("decoder",), "encoder_decoder": ("encoder", "decoder", "cross")}


@dataclass(frozen=True)
class AttentionPass:
    """One recorded forward pass: the trace of every tensor and the ids on each side.

    source_ids: what the encoder read (empty for decoder-only); target_ids: what the decoder read
    (the text for decoder-only; bos + target for encoder-decoder); generated: whether the model
    wrote the target itself (greedily).
    """

    entry: ModelEntry
    trace: Trace
    source_ids: list[int]
    target_ids: list[int]
    generated: bool


def kinds_of(entry: ModelEntry) -> tuple[str, ...]:
    """The attention kinds a model has: "encoder", "decoder" (self-attention) and "cross"."""
    return KINDS[entry.config.arch]


def _encode_checked(entry: ModelEntry, value: str, lang: str, what: str, room: int) -> list[int]:
    check_known_chars(value, entry.tokenizer, entry.name, lang)
    ids = entry.tokenizer.encode(value)
    limit = min(room, MAX_ATTENTION_TOKENS)
    if len(ids) > limit:
        raise fail(lang, "err_too_many_tokens", what=text(lang, f"what_{what}"), n=len(ids), limit=limit)
    return ids


_greedy_targets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # model -> OrderedDict(source -> target)
_greedy_targets_lock = threading.Lock()


def _greedy_target(entry: ModelEntry, source_ids: list[int]) -> list[int]:
    """The model's own greedy output for the source, without the final eos.

    A class clicks the same examples again and again, so the last GREEDY_TARGETS_KEPT outputs of
    each model are kept (models are never changed once shown; a forgotten model takes its own
    with it).
    """
    key = tuple(source_ids)
    with _greedy_targets_lock:
        kept = _greedy_targets.setdefault(entry.model, OrderedDict())
        if key in kept:
            kept.move_to_end(key)
            return list(kept[key])
    budget = min(entry.config.max_len - 1, MAX_ATTENTION_TOKENS - 1)
    decoded = greedy_seq2seq(entry.model, torch.tensor([source_ids]), budget)[0]
    target = [i for i in decoded if i != EOS_ID]
    with _greedy_targets_lock:
        kept[key] = tuple(target)
        while len(kept) > GREEDY_TARGETS_KEPT:
            kept.popitem(last=False)
    return target


def forward_pass(entry: ModelEntry, value, target, lang: str) -> AttentionPass:
    """Validate the input (and target), run the model once, recording every tensor."""
    value = check_text(value, lang, MAX_INPUT_CHARS)
    config = entry.config
    trace = Trace(("*",))
    if config.arch == "decoder_only":
        ids = _encode_checked(entry, value, lang, "input", config.max_len)
        entry.model(torch.tensor([ids]), trace=trace)
        return AttentionPass(entry, trace, [], ids, False)
    source = _encode_checked(entry, value, lang, "input", config.max_len)
    if config.arch == "encoder_only":
        entry.model(torch.tensor([source]), trace=trace)
        return AttentionPass(entry, trace, source, [], False)
    generated = not (isinstance(target, str) and target.strip())
    if generated:
        target_ids = _greedy_target(entry, source)
    else:
        target = check_text(target, lang, MAX_INPUT_CHARS, what="target")
        target_ids = _encode_checked(entry, target, lang, "target", config.max_len - 1)
    decoder_ids = [BOS_ID, *target_ids]
    entry.model(torch.tensor([source]), torch.tensor([decoder_ids]), trace=trace)
    return AttentionPass(entry, trace, source, decoder_ids, generated)


def weights_of(attention: AttentionPass, kind: str) -> tuple[np.ndarray, list[str], list[str], list[int]]:
    """(weights [L, H, Tq, Tk], query tokens, key tokens, key ids) of one attention kind."""
    stack, sublayer = {"encoder": ("encoder", "self_attn"), "decoder": ("decoder", "self_attn"),
                       "cross": ("decoder", "cross_attn")}[kind]
    weights = attention.trace.attention(stack, sublayer)[:, 0].float().numpy()   # [L, H, Tq, Tk]
    piece = attention.entry.tokenizer.id_to_piece
    queries = attention.source_ids if kind == "encoder" else attention.target_ids
    keys = attention.target_ids if kind == "decoder" else attention.source_ids
    return weights, [piece(i) for i in queries], [piece(i) for i in keys], keys


def score_names(kind: str) -> tuple[str, ...]:
    return CROSS_SCORES if kind == "cross" else SELF_SCORES


def scores_of(attention: AttentionPass, kind: str) -> dict[str, np.ndarray]:
    """Every head score of one kind: name -> [L, H] in [0, 1]."""
    weights, _, _, key_ids = weights_of(attention, kind)
    if kind == "cross":
        return head_scores(weights, "cross")
    return head_scores(weights, "self", ids=key_ids, causal=kind == "decoder")


def best_heads_text(scores: dict[str, np.ndarray], lang: str) -> str:
    """One line per score: the head with the highest value."""
    lines = []
    for name, values in scores.items():
        layer, head = np.unravel_index(int(np.argmax(values)), values.shape)
        lines.append(text(lang, "best_head_line", score=text(lang, f"score_{name}"), layer=int(layer), head=int(head),
                          value=float(values[layer, head])))
    return text(lang, "best_heads_intro") + "\n" + "\n".join(f"- {line}" for line in lines)


def _check_kind(entry: ModelEntry, kind: str, lang: str) -> str:
    if kind not in kinds_of(entry):
        raise fail(lang, "err_bad_choice", name=text(lang, "param_kind"), value=kind,
                   choices=", ".join(kinds_of(entry)))
    return kind


def head_view(attention: AttentionPass, kind: str, layer, head, mean: bool, lang: str) -> go.Figure:
    """One head (or the mean over a layer's heads) enlarged, with token labels."""
    weights, queries, keys, _ = weights_of(attention, kind)
    n_layers, n_heads = weights.shape[:2]
    layer = check_number(layer, lang, "layer", 0, n_layers - 1, integer=True)
    t = partial(text, lang)
    words = dict(query_label=t("w_query"), key_label=t("w_key"), weight_label=t("w_weight"))
    if mean:
        return viz.attention_mean(weights[layer], queries, keys,
                                  title=t("fig_attention_mean", kind=t(f"kind_{kind}"), layer=layer), **words)
    head = check_number(head, lang, "head", 0, n_heads - 1, integer=True)
    return viz.attention_head(weights[layer, head], queries, keys,
                              title=t("fig_attention_head", kind=t(f"kind_{kind}"), layer=layer, head=head), **words)


def scores_view(attention: AttentionPass, kind: str, score: str, lang: str) -> tuple[go.Figure, str]:
    """The chosen head score as an L x H heatmap, and the best head for every score."""
    scores = scores_of(attention, kind)
    if score not in scores:
        raise fail(lang, "err_bad_choice", name=text(lang, "param_score"), value=score, choices=", ".join(scores))
    t = partial(text, lang)
    figure = viz.head_scores_heatmap(scores[score], score_name=t(f"score_{score}"),
                                     title=t("fig_head_scores", score=t(f"score_{score}"), kind=t(f"kind_{kind}")),
                                     layer_label=t("w_layer"), head_label=t("w_head"))
    return figure, best_heads_text(scores, lang)


def timeline_of(registry: ModelRegistry, entry: ModelEntry) -> list[int]:
    """The training steps a model can be shown at: its timeline when it is a pretrained one, else none."""
    if entry.source != "pretrained" or registry.get(entry.name) is not entry:
        return []
    return registry.timeline_steps(entry.name)


def entry_at_step(registry: ModelRegistry, entry: ModelEntry, step) -> ModelEntry:
    """`entry` as it was at training `step` of its timeline; the final model for no step, the last
    step, or a step the model's timeline does not have (e.g. one chosen for another model)."""
    steps = timeline_of(registry, entry)
    if step is None or not steps or step == steps[-1] or step not in steps:
        return entry
    return registry.timeline_entry(entry.name, step)


def timeline_update(registry: ModelRegistry, entry: ModelEntry, step) -> gr.Radio:
    """The step picker for `entry`: its timeline steps, shown only when it has some."""
    steps = timeline_of(registry, entry)
    value = step if step in steps else (steps[-1] if steps else None)
    return gr.Radio(choices=[(str(s), s) for s in steps], value=value, visible=bool(steps))


def summary_text(attention: AttentionPass, lang: str, at_step: tuple[int, int] | None = None) -> str:
    """What was run: the model's shape, the tokens, the target the model wrote, and, for a timeline
    checkpoint, ``at_step`` = (its training step, the timeline's last step)."""
    entry, config = attention.entry, attention.entry.config
    t = partial(text, lang)
    lines = [t("attention_summary", model=entry.name, arch=t(f"arch_{config.arch}"), d_model=config.d_model,
               heads=config.n_heads, enc=config.n_encoder_layers, dec=config.n_decoder_layers,
               params=f"{entry.n_parameters:,}", n=len(attention.source_ids or attention.target_ids))]
    if attention.generated:
        written = entry.tokenizer.decode(attention.target_ids[1:])
        lines.append(t("attention_generated", target=written or "∅"))
    if entry.source == "untrained":
        lines.append(t("attention_untrained"))
    if at_step is not None:
        lines.append(t("attention_timeline_step", step=at_step[0], last=at_step[1]))
    return "\n\n".join(lines)


@dataclass(frozen=True)
class AttentionViews:
    grid: go.Figure
    head: go.Figure
    scores: go.Figure
    best_heads: str
    shapes: go.Figure
    summary: str
    n_layers: int
    n_heads: int


def attention_views(entry: ModelEntry, value, target, kind, layer, head, mean, score, lang: str,
                    at_step: tuple[int, int] | None = None) -> AttentionViews:
    """Everything the tab shows for one input: grid, enlarged head, head scores, shapes, summary
    (``at_step``: see summary_text)."""
    kind = _check_kind(entry, kind, lang)
    attention = forward_pass(entry, value, target, lang)
    weights, queries, keys, _ = weights_of(attention, kind)
    n_layers, n_heads = weights.shape[:2]
    t = partial(text, lang)
    grid = viz.attention_grid(weights, queries, keys, title=t("fig_attention_grid", kind=t(f"kind_{kind}")),
                              layer_label=t("w_layer"), head_label=t("w_head"), query_label=t("w_query"),
                              key_label=t("w_key"), weight_label=t("w_weight"))
    layer, head = min(int(layer or 0), n_layers - 1), min(int(head or 0), n_heads - 1)
    if score not in score_names(kind):
        score = score_names(kind)[0]
    scores_figure, best = scores_view(attention, kind, score, lang)
    shapes = viz.shape_table(shape_rows(shape_walkthrough(attention.trace, entry.config), entry.config, lang),
                             title=t("fig_shapes"), headers=(t("w_stage"), t("w_tensor"), t("w_shape"), t("w_note")))
    return AttentionViews(grid, head_view(attention, kind, layer, head, bool(mean), lang), scores_figure, best, shapes,
                          summary_text(attention, lang, at_step), n_layers, n_heads)


def kind_choices(entry: ModelEntry, lang: str) -> list[tuple[str, str]]:
    return [(text(lang, f"kind_{kind}"), kind) for kind in kinds_of(entry)]


def score_choices(kind: str, lang: str) -> list[tuple[str, str]]:
    return [(text(lang, f"score_{name}"), name) for name in score_names(kind)]


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    lang = ctx.language
    start = ctx.registry.get(ctx.registry.default())
    examples = attention_examples(ctx.registry)
    first_text = next((e[1] for e in examples if e[0] == start.name), "")
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                model = ctx.model_picker("attention-model", label=label("lbl_model"), scale=1)
                value = gr.Textbox(first_text, label=label("lbl_attention_text"), max_lines=2,
                                   max_length=MAX_INPUT_CHARS, elem_id="attention-text", scale=2)
                target = gr.Textbox("", label=label("lbl_attention_target"), max_lines=2, max_length=MAX_INPUT_CHARS,
                                    visible=start.config.arch == "encoder_decoder", elem_id="attention-target",
                                    scale=2)
            with gr.Row():
                kind = gr.Radio(kind_choices(start, "en"), value=kinds_of(start)[-1], label=label("lbl_attention_kind"),
                                elem_id="attention-kind", scale=3)
                run = gr.Button(label("btn_show_attention"), variant="primary", elem_id="attention-run", scale=1)
            grid = gr.Plot(show_label=False, elem_id="attention-grid")
        with gr.Column(scale=2):
            summary = gr.Markdown(elem_id="attention-summary")
            gr_examples = gr.Examples(examples, [model, value], label=label("lbl_examples"),
                                      example_labels=[f"{m} · {v}" for m, v in examples],
                                      elem_id="attention-examples", cache_examples=False,
                                      examples_per_page=len(examples))   # on one page: Gradio's "Pages:" is not translated
            start_steps = timeline_of(ctx.registry, start)
            with gr.Group(visible=bool(start_steps), elem_id="attention-timeline-panel") as timeline_panel:
                step_picker = gr.Radio([(str(s), s) for s in start_steps],
                                       value=start_steps[-1] if start_steps else None,
                                       label=label("lbl_timeline"), elem_id="attention-timeline")
                gr.Markdown(label("timeline_explanation"), elem_id="timeline-explanation",
                            elem_classes="explanation")
            gr.Markdown(label("attention_explanation"), elem_id="attention-explanation", latex_delimiters=LATEX,
                        elem_classes="explanation")
    with gr.Row():
        with gr.Column(scale=3):
            head_plot = gr.Plot(show_label=False, elem_id="attention-head-plot")
        with gr.Column(scale=2):
            layer = gr.Slider(0, 1, value=0, step=1, label=label("lbl_layer"), elem_id="attention-layer")
            head = gr.Slider(0, 1, value=0, step=1, label=label("lbl_head"), elem_id="attention-head")
            mean = gr.Checkbox(False, label=label("lbl_mean_heads"), elem_id="attention-mean")
    with gr.Row():
        with gr.Column(scale=3):
            score = gr.Radio(score_choices(kinds_of(start)[-1], "en"), value=score_names(kinds_of(start)[-1])[0],
                             label=label("lbl_score"), elem_id="attention-score")
            scores_plot = gr.Plot(show_label=False, elem_id="attention-scores")
        with gr.Column(scale=2):
            best_heads = gr.Markdown(elem_id="attention-best-heads")
            best_button = gr.Button(label("btn_best_head"), elem_id="attention-best-head")
            gr.Markdown(label("scores_explanation"), elem_id="scores-explanation", elem_classes="explanation")
    with gr.Accordion(label("lbl_shapes"), open=False, elem_id="attention-shapes-panel"):
        shapes = gr.Plot(show_label=False, elem_id="attention-shapes")

    step = gr.State(None)             # the chosen timeline step; None = the final model

    def entry_of(name, step, lang, request):
        """The chosen model, at the chosen step of its training timeline when it has one."""
        return entry_at_step(ctx.registry, ctx.find_model(ctx.workspace(request), name, lang), step)

    def views_of(name, value, target, kind, layer, head, mean, score, lang, step, request):
        """The model, the kind and score shown (the model's own when it lacks the ones asked), and the views."""
        final = ctx.find_model(ctx.workspace(request), name, lang)
        entry = entry_at_step(ctx.registry, final, step)
        at_step = (step, timeline_of(ctx.registry, final)[-1]) if entry is not final else None
        if kind not in kinds_of(entry):
            kind = kinds_of(entry)[-1]
        if score not in score_names(kind):
            score = score_names(kind)[0]
        return entry, kind, score, attention_views(entry, value, target, kind, layer, head, mean, score, lang, at_step)

    @guarded
    def on_show(name, value, target, kind, layer, head, mean, score, lang, step, request: gr.Request):
        """The views only: the button redraws for the model and controls the page already shows, so
        no control is updated (each update costs the server as much as a small figure)."""
        *_, views = views_of(name, value, target, kind, layer, head, mean, score, lang, step, request)
        return views.grid, views.head, views.scores, views.best_heads, views.shapes, views.summary

    @guarded
    def on_view(name, value, target, kind, layer, head, mean, score, lang, step, request: gr.Request):
        """The views and the controls that follow the model and kind: kinds, scores, layer and head
        ranges, the target box."""
        entry, kind, score, views = views_of(name, value, target, kind, layer, head, mean, score, lang, step, request)
        stack_layers = views.n_layers - 1
        return (views.grid, views.head, views.scores, views.best_heads, views.shapes, views.summary,
                gr.Radio(choices=kind_choices(entry, lang), value=kind),
                gr.Radio(choices=score_choices(kind, lang), value=score),
                gr.Slider(maximum=max(stack_layers, 1), value=min(int(layer or 0), stack_layers),
                          interactive=stack_layers > 0),
                gr.Slider(maximum=max(views.n_heads - 1, 1), value=min(int(head or 0), views.n_heads - 1),
                          interactive=views.n_heads > 1),
                gr.Textbox(visible=entry.config.arch == "encoder_decoder"))

    @guarded
    def on_head(name, value, target, kind, layer, head, mean, lang, step, request: gr.Request):
        entry = entry_of(name, step, lang, request)
        attention = forward_pass(entry, value, target, lang)
        return head_view(attention, _check_kind(entry, kind, lang), layer, head, bool(mean), lang)

    @guarded
    def on_scores(name, value, target, kind, score, lang, step, request: gr.Request):
        entry = entry_of(name, step, lang, request)
        attention = forward_pass(entry, value, target, lang)
        return scores_view(attention, _check_kind(entry, kind, lang), score, lang)

    @guarded
    def on_model(name, value, lang, request: gr.Request):
        """A suitable input for the newly chosen model, shown as trained to the end."""
        return suitable_input(entry_of(name, None, lang, request), value, ATTENTION_EXAMPLES), None

    @guarded
    def on_timeline(name, lang, request: gr.Request):
        """The step picker of the model now chosen, at its final step; hidden when it has no timeline."""
        entry = ctx.find_model(ctx.workspace(request), name, lang)
        return timeline_update(ctx.registry, entry, None), gr.Group(visible=bool(timeline_of(ctx.registry, entry)))

    @guarded
    def on_best(name, value, target, kind, score, lang, step, request: gr.Request):
        entry = entry_of(name, step, lang, request)
        attention = forward_pass(entry, value, target, lang)
        kind = _check_kind(entry, kind, lang)
        values = scores_of(attention, kind).get(score)
        if values is None:
            raise fail(lang, "err_bad_choice", name=text(lang, "param_score"), value=score,
                       choices=", ".join(score_names(kind)))
        best_layer, best_head = (int(i) for i in np.unravel_index(int(np.argmax(values)), values.shape))
        return best_layer, best_head, False, head_view(attention, kind, best_layer, best_head, False, lang)

    view_inputs = [model, value, target, kind, layer, head, mean, score, lang, step]
    shown_outputs = [grid, head_plot, scores_plot, best_heads, shapes, summary]
    view_outputs = [*shown_outputs, kind, score, layer, head, target]
    head_inputs = [model, value, target, kind, layer, head, mean, lang, step]
    ctx.on_open(on_view, view_inputs, view_outputs, grid)
    run.click(on_show, view_inputs, shown_outputs, api_name="attention", **light(grid))
    model.input(on_model, [model, value, lang], [value, step], **QUIET, **PRIVATE).then(
        on_view, view_inputs, view_outputs, **light(grid), **PRIVATE)
    model.change(on_timeline, [model, lang], [step_picker, timeline_panel], **QUIET, **PRIVATE)
    step_picker.input(_chosen_step, [step_picker], [step], **QUIET, **PRIVATE).then(
        on_view, view_inputs, view_outputs, **light(grid), **PRIVATE)
    for trigger in (value.submit, target.submit, kind.input, gr_examples.load_input_event.then):
        trigger(on_view, view_inputs, view_outputs, **light(grid), **PRIVATE)
    for trigger in (layer.release, head.release, mean.input):
        trigger(on_head, head_inputs, [head_plot], **QUIET, **PRIVATE)
    score.input(on_scores, [model, value, target, kind, score, lang, step], [scores_plot, best_heads],
                **QUIET, **PRIVATE)
    best_button.click(on_best, [model, value, target, kind, score, lang, step], [layer, head, mean, head_plot],
                      api_name="attention_best_head", **light(head_plot))


def _chosen_step(step):
    """The timeline step picked in the radio, kept in the session's state."""
    return step

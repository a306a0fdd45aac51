"""Generate tab: step through decoding token by token (Step / Run / Back / Reset) with greedy,
seeded sampling or beam search; the candidates before and after temperature, top-k and top-p;
the new token's attention; the causal matrix filling in; the beam tree."""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

import gradio as gr
import plotly.graph_objects as go

from playground import viz
from playground.generate import SamplingConfig, Step, Stepper, beam_search
from playground.model import CROSS, DECODER_SELF, AttentionSite
from playground.viz.labels import visible_token

from ..context import LATEX, PRIVATE, QUIET, AppContext, heavy, light
from ..examples import GENERATE_EXAMPLES, generate_examples, suitable_input
from ..i18n import label, text
from ..markup import literal
from ..registry import ModelEntry
from ..runtime import guarded
from ..validation import (
    MAX_BEAM_WIDTH,
    MAX_INPUT_CHARS,
    MAX_NEW_TOKENS,
    MAX_SEED,
    MAX_TOP_K,
    TEMPERATURE_RANGE,
    TOP_P_RANGE,
    check_choice,
    check_known_chars,
    check_number,
    check_text,
    fail,
)
from ..workspace import Workspace

STRATEGIES = ("greedy", "sample", "beam")
TOP_CANDIDATES = 10
RUN_REFRESH_SECONDS = 0.4      # Run redraws at most this often while it goes
DEFAULTS = dict(strategy="greedy", temperature=1.0, top_k=0, top_p=1.0, seed=0, max_new=40, beam_width=3)


@dataclass(frozen=True)
class Settings:
    """The decoding controls, validated: top_k 0 and top_p 1 mean "off"."""

    strategy: str
    temperature: float
    top_k: int
    top_p: float
    seed: int
    max_new: int
    beam_width: int

    def sampling(self) -> SamplingConfig:
        return SamplingConfig(strategy="sample" if self.strategy == "sample" else "greedy",
                              temperature=self.temperature, top_k=self.top_k or None,
                              top_p=self.top_p if self.top_p < 1 else None, seed=self.seed,
                              max_new_tokens=self.max_new)


def check_settings(strategy, temperature, top_k, top_p, seed, max_new, beam_width, vocab_size: int,
                   lang: str) -> Settings:
    """Every decoding control in range, or a gr.Error naming the limit."""
    return Settings(
        strategy=check_choice(strategy, STRATEGIES, lang, "strategy"),
        temperature=check_number(temperature, lang, "temperature", *TEMPERATURE_RANGE),
        top_k=check_number(top_k, lang, "top_k", 0, min(MAX_TOP_K, vocab_size), integer=True),
        top_p=check_number(top_p, lang, "top_p", *TOP_P_RANGE),
        seed=check_number(seed, lang, "seed", 0, MAX_SEED, integer=True),
        max_new=check_number(max_new, lang, "max_new", 1, MAX_NEW_TOKENS, integer=True),
        beam_width=check_number(beam_width, lang, "beam_width", 1, MAX_BEAM_WIDTH, integer=True),
    )


def check_prompt(entry: ModelEntry, prompt, lang: str) -> str:
    """A non-empty prompt the model's tokenizer can write and its context can hold."""
    prompt = check_text(prompt, lang, MAX_INPUT_CHARS, what="prompt")
    check_known_chars(prompt, entry.tokenizer, entry.name, lang)
    n_tokens = len(entry.tokenizer.encode(prompt))
    if n_tokens > entry.config.max_len:
        raise fail(lang, "err_prompt_context", n=n_tokens, limit=entry.config.max_len, model=entry.name)
    return prompt


@dataclass
class Generation:
    """A session's step-by-step generation: the model, the prompt, the settings and the Stepper.

    pieces: the display text of every vocabulary id (the candidate bars' labels).
    """

    entry: ModelEntry
    prompt: str
    settings: Settings
    stepper: Stepper
    pieces: list[str]

    @classmethod
    def start(cls, entry: ModelEntry, prompt: str, settings: Settings) -> "Generation":
        stepper = Stepper(entry.model, entry.tokenizer, prompt, settings.sampling())
        pieces = [entry.tokenizer.id_to_piece(i) for i in range(entry.tokenizer.vocab_size)]
        return cls(entry, prompt, settings, stepper, pieces)

    @property
    def last_step(self) -> Step | None:
        return self.stepper.steps[-1] if self.stepper.steps else None


def current_generation(workspace: Workspace, entry: ModelEntry, prompt: str, settings: Settings) -> Generation:
    """The session's generation, continued when model and prompt are unchanged (new settings apply
    from the next step), else started afresh."""
    generation = workspace.generation
    if generation is None or generation.entry is not entry or generation.prompt != prompt:
        generation = Generation.start(entry, prompt, settings)
        workspace.generation = generation
    elif generation.settings != settings:
        generation.stepper.settings = settings.sampling()
        generation.settings = settings
    return generation


def _stage_names(lang: str) -> dict[str, str]:
    return {name: text(lang, f"stage_{name.replace('-', '_')}") for name in ("raw", "temperature", "top-k", "top-p")}


def candidates_figure(generation: Generation, lang: str) -> go.Figure | None:
    """The last step's candidates: raw probabilities and after each active filter, the chosen one marked."""
    step = generation.last_step
    if step is None:
        return None
    names = _stage_names(lang)
    stages = {names["raw"]: step.raw_probs, **{names[k]: v for k, v in step.stages.items()}}
    t = partial(text, lang)
    return viz.candidate_bars(generation.pieces, stages, step.token_id, top_n=TOP_CANDIDATES,
                              title=t("fig_candidates", index=step.index + 1, token=visible_token(step.token_text)),
                              chosen_label=t("w_chosen"), token_label=t("w_token"),
                              probability_label=t("w_probability"))


def token_attention_figure(generation: Generation, site: AttentionSite, lang: str) -> go.Figure | None:
    """Where the newest token looks, one row per layer and head: [L * H, Tk]."""
    step = generation.last_step
    if step is None or site not in step.attention:
        return None
    rows = step.attention[site]                                              # [L, H, Tk]
    n_layers, n_heads, n_keys = rows.shape
    stepper = generation.stepper
    keys = stepper.source_tokens if site.is_cross else stepper.window_tokens[:n_keys]
    t = partial(text, lang)
    heads = [t("w_layer_head", layer=layer, head=head) for layer in range(n_layers) for head in range(n_heads)]
    return viz.attention_head(rows.reshape(n_layers * n_heads, n_keys), heads, keys,
                              title=t("fig_token_attention_cross" if site.is_cross else "fig_token_attention_self",
                                      token=step.token_text),
                              query_label=t("w_layer_and_head"), key_label=t("w_key"), weight_label=t("w_weight"))


def filling_figure(generation: Generation, layer, head, lang: str) -> go.Figure:
    """The decoder's causal self-attention of one head, filled in up to the newest row."""
    stepper = generation.stepper
    matrix = stepper.attention_matrix()                                # [L, H, W, W]
    n_layers, n_heads = matrix.shape[:2]
    layer = check_number(layer, lang, "layer", 0, n_layers - 1, integer=True)
    head = check_number(head, lang, "head", 0, n_heads - 1, integer=True)
    tokens = stepper.window_tokens
    t = partial(text, lang)
    return viz.attention_filling(matrix[layer, head], tokens, len(tokens) - 1,
                                 title=t("fig_filling", layer=layer, head=head), query_label=t("w_query"),
                                 key_label=t("w_key"), weight_label=t("w_weight"))


def output_spans(generation: Generation, lang: str) -> list[tuple[str, str]]:
    """(token, kind) pairs for the output box: the prompt, the generated tokens, the newest one."""
    stepper = generation.stepper
    prompt_kind, generated_kind, new_kind = text(lang, "span_prompt"), text(lang, "span_generated"), text(lang, "span_new")
    spans = [(piece, prompt_kind) for piece in (stepper.source_tokens or stepper.tokens[:stepper.prompt_length])]
    generated = stepper.tokens[stepper.prompt_length:]
    if stepper.source_tokens:
        spans.append((" → ", None))
    spans += [(piece, new_kind if i == len(generated) - 1 else generated_kind) for i, piece in enumerate(generated)]
    return spans


def status_text(generation: Generation, lang: str) -> str:
    """What happened at the last step and where decoding stands."""
    stepper, step = generation.stepper, generation.last_step
    t = partial(text, lang)
    config = generation.entry.config
    lines = []
    if step is None:
        lines.append(t("status_ready", model=generation.entry.name,
                       n=len(stepper.source_ids) if stepper.source_ids else stepper.prompt_length))
    else:
        probability = float(step.probs[step.token_id])
        lines.append(t("status_step", index=step.index + 1, token=literal(step.token_text), p=probability,
                       raw=float(step.raw_probs[step.token_id]), strategy=t(f"strategy_{generation.settings.strategy}")))
    lines.append(t("status_context", used=stepper.cache_length, max_len=config.max_len,
                   generated=len(stepper.generated_ids)))
    if step is not None and step.slid:
        lines.append(t("status_slid", start=stepper.window_start))
    if stepper.finished:
        lines.append(t(f"reason_{stepper.reason}"))
    return "\n\n".join(lines)


@dataclass(frozen=True)
class GenerateViews:
    output: list
    status: str
    candidates: go.Figure | None
    token_self: go.Figure | None
    token_cross: go.Figure | None
    filling: go.Figure | None
    tree: go.Figure | None
    n_layers: int
    n_heads: int


def stepper_views(generation: Generation, layer, head, lang: str) -> GenerateViews:
    """Everything the tab shows for a Stepper generation."""
    matrix_shape = generation.stepper.attention_matrix().shape         # [L, H, W, W]
    layer, head = min(int(layer or 0), matrix_shape[0] - 1), min(int(head or 0), matrix_shape[1] - 1)
    return GenerateViews(
        output_spans(generation, lang), status_text(generation, lang), candidates_figure(generation, lang),
        token_attention_figure(generation, DECODER_SELF, lang), token_attention_figure(generation, CROSS, lang),
        filling_figure(generation, layer, head, lang), None, matrix_shape[0], matrix_shape[1])


def beam_views(entry: ModelEntry, prompt: str, settings: Settings, lang: str) -> GenerateViews:
    """Beam search from the prompt: the tree with the best path marked, and the best output."""
    result = beam_search(entry.model, entry.tokenizer, prompt, settings.beam_width, settings.max_new)
    best = set(result.best_path)
    nodes = [viz.BeamNode(n.id, n.parent, n.token_text, n.logprob, n.score, n.finished, n.id in best)
             for n in result.tree]
    t = partial(text, lang)
    tree = viz.beam_tree(nodes, title=t("fig_beam_tree", width=settings.beam_width), step_label=t("w_step"),
                         score_label=t("w_score"), logprob_label=t("w_logprob"))
    lines = [t("beam_best", text=result.best.text or "∅", logprob=result.best.logprob, score=result.best.score)]
    lines += [t("beam_hypothesis", rank=i + 1, text=h.text or "∅", score=h.score, reason=t(f"reason_short_{h.reason}"))
              for i, h in enumerate(result.finished[:settings.beam_width])]
    output = [(prompt, t("span_prompt")), (" → " if entry.config.arch == "encoder_decoder" else "", None),
              (result.best.text, t("span_generated"))]
    return GenerateViews(output, "\n".join(lines), None, None, None, None, tree, 1, 1)


def waiting_for_beam(prompt: str, entry: ModelEntry, lang: str) -> GenerateViews:
    """Beam search is chosen but not run yet: only the prompt and a hint to press Run."""
    output = [(prompt, text(lang, "span_prompt"))]
    return GenerateViews(output, text(lang, "status_beam_ready", model=entry.name), None, None, None, None, None, 1, 1)


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    lang = ctx.language
    start = ctx.registry.get(ctx.registry.default(generative_only=True))
    examples = generate_examples(ctx.registry)
    first_prompt = next((e[1] for e in examples if e[0] == start.name), "")
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                model = ctx.model_picker("generate-model", generative_only=True, label=label("lbl_model"), scale=1)
                prompt = gr.Textbox(first_prompt, label=label("lbl_prompt"), max_lines=3, max_length=MAX_INPUT_CHARS,
                                    elem_id="generate-prompt", scale=2)
            with gr.Row():
                step_button = gr.Button(label("btn_step"), variant="primary", elem_id="generate-step")
                run_button = gr.Button(label("btn_run"), elem_id="generate-run")
                stop_button = gr.Button(label("btn_stop"), variant="stop", elem_id="generate-stop")
                back_button = gr.Button(label("btn_back"), elem_id="generate-back")
                reset_button = gr.Button(label("btn_reset"), elem_id="generate-reset")
            output = gr.HighlightedText(label=label("lbl_output"), combine_adjacent=False, show_legend=True,
                                        elem_id="generate-output")
            status = gr.Markdown(elem_id="generate-status")
            candidates = gr.Plot(show_label=False, visible=False, elem_id="generate-candidates")
            tree = gr.Plot(show_label=False, visible=False, elem_id="generate-beam-tree")
        with gr.Column(scale=2):
            strategy = gr.Radio([(label(f"strategy_{s}"), s) for s in STRATEGIES], value=DEFAULTS["strategy"],
                                label=label("lbl_strategy"), elem_id="generate-strategy")
            with gr.Row():
                temperature = gr.Slider(*TEMPERATURE_RANGE, value=DEFAULTS["temperature"], step=0.05,
                                        label=label("lbl_temperature"), info=label("info_temperature"),
                                        elem_id="generate-temperature")
                top_k = gr.Slider(0, 100, value=DEFAULTS["top_k"], step=1, label=label("lbl_top_k"),
                                  info=label("info_top_k"), elem_id="generate-top-k")
            with gr.Row():
                top_p = gr.Slider(*TOP_P_RANGE, value=DEFAULTS["top_p"], step=0.01, label=label("lbl_top_p"),
                                  info=label("info_top_p"), elem_id="generate-top-p")
                seed = gr.Number(DEFAULTS["seed"], precision=0, label=label("lbl_seed"),
                                 info=label("info_seed"), elem_id="generate-seed")
            with gr.Row():
                max_new = gr.Slider(1, MAX_NEW_TOKENS, value=DEFAULTS["max_new"], step=1, label=label("lbl_max_new"),
                                    info=label("info_max_new"), elem_id="generate-max-new")
                beam_width = gr.Slider(1, MAX_BEAM_WIDTH, value=DEFAULTS["beam_width"], step=1,
                                       label=label("lbl_beam_width"), info=label("info_beam_width"),
                                       elem_id="generate-beam-width")
            gr_examples = gr.Examples(examples, [model, prompt], label=label("lbl_examples"),
                                      example_labels=[f"{m} · {p!r}" for m, p in examples],
                                      elem_id="generate-examples", cache_examples=False,
                                      examples_per_page=len(examples))   # on one page: Gradio's "Pages:" is not translated
            with gr.Accordion(label("lbl_explanation"), open=True, elem_id="generate-explanation-panel"):
                gr.Markdown(label("generate_explanation"), elem_id="generate-explanation", latex_delimiters=LATEX,
                            elem_classes="explanation")
    with gr.Row():
        token_self = gr.Plot(show_label=False, visible=False, elem_id="generate-token-attention")
        token_cross = gr.Plot(show_label=False, elem_id="generate-token-cross",
                              visible=start.config.arch == "encoder_decoder")
    with gr.Row():
        with gr.Column(scale=3):
            filling = gr.Plot(show_label=False, elem_id="generate-filling")
        with gr.Column(scale=1):
            layer = gr.Slider(0, 1, value=0, step=1, label=label("lbl_layer"), elem_id="generate-layer")
            head = gr.Slider(0, 1, value=0, step=1, label=label("lbl_head"), elem_id="generate-head")

    controls = [strategy, temperature, top_k, top_p, seed, max_new, beam_width]
    stepped_outputs = [output, status, candidates, token_self, token_cross, filling]
    outputs = [*stepped_outputs, tree, layer, head, step_button, back_button]

    def prepare(workspace: Workspace, name, prompt_value, settings_values, lang) -> tuple[ModelEntry, str, Settings]:
        entry = ctx.find_model(workspace, name, lang, generative_only=True)
        prompt_value = check_prompt(entry, prompt_value, lang)
        return entry, prompt_value, check_settings(*settings_values, entry.tokenizer.vocab_size, lang)

    def shown(views: GenerateViews, entry: ModelEntry, settings: Settings, layer_value, head_value):
        beam = settings.strategy == "beam"
        return (views.output, views.status, gr.Plot(views.candidates, visible=views.candidates is not None),
                gr.Plot(views.token_self, visible=views.token_self is not None),
                gr.Plot(views.token_cross, visible=views.token_cross is not None),
                gr.Plot(views.filling, visible=views.filling is not None),
                gr.Plot(views.tree, visible=views.tree is not None),
                gr.Slider(maximum=max(views.n_layers - 1, 1), value=min(int(layer_value or 0), views.n_layers - 1),
                          visible=not beam),
                gr.Slider(maximum=max(views.n_heads - 1, 1), value=min(int(head_value or 0), views.n_heads - 1),
                          visible=not beam),
                gr.Button(interactive=not beam), gr.Button(interactive=not beam))

    def stepped(views: GenerateViews, first_step: bool) -> tuple:
        """The text and figures of a step. Step and Back keep the model and strategy, so the layout
        stays as the last Show or Reset left it, except that the figures of the newest token appear
        with the first step and go with the last Back: only then are they sent as visibility
        updates (an update costs the server as much as a small figure)."""
        plots = (views.candidates, views.token_self, views.token_cross)
        if first_step:
            plots = tuple(gr.Plot(plot, visible=plot is not None) for plot in plots)
        return (views.output, views.status, *plots, views.filling)

    def act(action: str, name, prompt_value, settings_values, layer_value, head_value, lang, request):
        """Step / Back / Reset / show on the session's generation, under its lock: every output for
        Reset and show, the text and figures for Step and Back."""
        workspace = ctx.workspace(request)
        entry, prompt_value, settings = prepare(workspace, name, prompt_value, settings_values, lang)
        with workspace.lock:
            if settings.strategy == "beam":
                if action in ("step", "back"):
                    raise fail(lang, "err_beam_steps")
                workspace.generation = None
                return shown(waiting_for_beam(prompt_value, entry, lang), entry, settings, 0, 0)
            if action == "reset":
                workspace.generation = None
            generation = current_generation(workspace, entry, prompt_value, settings)
            if action == "step":
                if generation.stepper.finished:
                    raise fail(lang, "err_generation_finished", reason=text(lang, f"reason_short_{generation.stepper.reason}"))
                generation.stepper.step()
            elif action == "back":
                if not generation.stepper.steps:
                    raise fail(lang, "err_nothing_to_undo")
                generation.stepper.back()
            views = stepper_views(generation, layer_value, head_value, lang)
            if action in ("step", "back"):
                return stepped(views, len(generation.stepper.steps) <= 1)
            return shown(views, entry, settings, layer_value, head_value)

    def action_handler(action: str):
        """The handler of one button that acts on this session's generation ("step", "back", ...)."""
        @guarded
        def handler(name, prompt_value, strategy, temperature, top_k, top_p, seed, max_new, beam_width,
                    layer_value, head_value, lang, request: gr.Request):
            return act(action, name, prompt_value, (strategy, temperature, top_k, top_p, seed, max_new, beam_width),
                       layer_value, head_value, lang, request)
        return handler

    on_step, on_back, on_reset, on_show = (action_handler(a) for a in ("step", "back", "reset", "show"))

    @guarded
    def on_run(name, prompt_value, strategy, temperature, top_k, top_p, seed, max_new, beam_width, layer_value,
               head_value, lang, request: gr.Request):
        settings_values = (strategy, temperature, top_k, top_p, seed, max_new, beam_width)
        workspace = ctx.workspace(request)
        entry, prompt_value, settings = prepare(workspace, name, prompt_value, settings_values, lang)
        if settings.strategy == "beam":
            with workspace.lock:
                workspace.generation = None
                views = beam_views(entry, prompt_value, settings, lang)
            yield shown(views, entry, settings, 0, 0)
            return
        with workspace.lock:
            generation = current_generation(workspace, entry, prompt_value, settings)
            if generation.stepper.finished:
                raise fail(lang, "err_generation_finished",
                           reason=text(lang, f"reason_short_{generation.stepper.reason}"))
        shown_at = time.monotonic()
        views = None
        while True:
            with workspace.lock:
                if generation.stepper.finished or workspace.generation is not generation:
                    break
                generation.stepper.step()
                due = time.monotonic() - shown_at >= RUN_REFRESH_SECONDS or generation.stepper.finished
                views = stepper_views(generation, layer_value, head_value, lang) if due else None
            if views is not None:
                shown_at = time.monotonic()
                yield shown(views, entry, settings, layer_value, head_value)

    @guarded
    def on_filling(name, prompt_value, strategy, temperature, top_k, top_p, seed, max_new, beam_width, layer_value,
                   head_value, lang, request: gr.Request):
        workspace = ctx.workspace(request)
        with workspace.lock:
            generation = workspace.generation
            if generation is None:
                return gr.Plot()
            return filling_figure(generation, layer_value, head_value, lang)

    inputs = [model, prompt, *controls, layer, head, lang]
    ctx.on_open(on_show, inputs, outputs, output)
    step_button.click(on_step, inputs, stepped_outputs, api_name="generate_step", **light(output))
    back_button.click(on_back, inputs, stepped_outputs, api_name="generate_back", **light(output))
    reset_button.click(on_reset, inputs, outputs, api_name="generate_reset", **light(output))
    run_event = run_button.click(on_run, inputs, outputs, api_name="generate_run", **heavy(output))
    stop_button.click(None, None, None, cancels=[run_event], **PRIVATE)
    @guarded
    def on_model(name, prompt_value, lang, request: gr.Request):
        entry = ctx.find_model(ctx.workspace(request), name, lang, generative_only=True)
        return suitable_input(entry, prompt_value, GENERATE_EXAMPLES)

    model.input(on_model, [model, prompt, lang], [prompt], **QUIET, **PRIVATE).then(
        on_reset, inputs, outputs, **light(output), **PRIVATE)
    for trigger in (prompt.submit, gr_examples.load_input_event.then):
        trigger(on_reset, inputs, outputs, **light(output), **PRIVATE)
    strategy.input(on_show, inputs, outputs, **light(output), **PRIVATE)
    for trigger in (layer.release, head.release):
        trigger(on_filling, inputs, [filling], **QUIET, **PRIVATE)

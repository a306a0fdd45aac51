"""The Generate tab's views, which the Lessons draw too: a session's step-by-step generation (greedy or
seeded sampling) with the candidates before and after temperature, top-k and top-p, the new token's
attention and the causal matrix filling in; beam search with its tree."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import plotly.graph_objects as go

from playground import viz
from playground.analysis.cost import kv_cache_against_multi_head
from playground.generate import STRATEGIES, BeamResult, SamplingConfig, Step, Stepper, beam_search  # noqa: F401
from playground.model import CROSS, DECODER_SELF, AttentionSite
from playground.viz.labels import visible_token

from ..inputs.validation import MAX_INPUT_CHARS, check_known_chars, check_number, check_text, fail
from playground.zoo import ModelEntry
from ..session.workspace import Workspace
from ..text.i18n import text
from ..text.markup import literal, visible_controls
from .prompts import started

TOP_CANDIDATES = 10
BEAM_CANDIDATES = 4_000_000    # candidates a beam search scores in all (width x vocabulary per token): each step
                               # ranks width x V continuations, about 1 s on one CPU core at this many
DEFAULTS = dict(strategy="greedy", temperature=1.0, top_k=0, top_p=1.0, seed=0, max_new=40, beam_width=3,
                repetition_penalty=1.0)
REPETITION_PENALTY_RANGE = (1.0, 5.0)    # 1 = off; the library takes up to 10, past 5 a seen token hardly returns


def stepping(settings: SamplingConfig) -> SamplingConfig:
    """The settings a Stepper decodes with: beam search's step as greedy decoding (a beam form is run
    at once, never stepped)."""
    return settings.replace(strategy="greedy") if settings.strategy == "beam" else settings


def check_prompt(entry: ModelEntry, prompt, lang: str) -> str:
    """A non-empty prompt the model's tokenizer can write and its context can hold."""
    prompt = check_text(prompt, lang, MAX_INPUT_CHARS, what="prompt")
    check_known_chars(prompt, entry.tokenizer, entry.name, lang)
    n_tokens = len(entry.tokenizer.encode(prompt))
    if n_tokens > entry.config.max_len:
        raise fail(lang, "err_prompt_context", n=n_tokens, limit=entry.config.max_len, model=entry.name)
    return prompt


class Pieces(Sequence):
    """The display text of every vocabulary id, each looked up only when asked for (the candidate
    bars read the few they show; a GPT-2 vocabulary has 50k ids)."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __len__(self) -> int:
        return self.tokenizer.vocab_size

    def __getitem__(self, token_id):
        if isinstance(token_id, slice):
            return [self[i] for i in range(*token_id.indices(len(self)))]
        return self.tokenizer.id_to_piece(int(token_id))


@dataclass
class Generation:
    """A session's step-by-step generation: the model, the prompt, the settings and the Stepper."""

    entry: ModelEntry
    prompt: str
    settings: SamplingConfig
    stepper: Stepper

    @classmethod
    def start(cls, entry: ModelEntry, prompt: str, settings: SamplingConfig) -> "Generation":
        """A new generation: a shipped model's prompt is read once, and forked for each (see prompts)."""
        return cls(entry, prompt, settings, started(entry, prompt, stepping(settings)))

    @property
    def last_step(self) -> Step | None:
        return self.stepper.steps[-1] if self.stepper.steps else None


def current_generation(workspace: Workspace, entry: ModelEntry, prompt: str, settings: SamplingConfig) -> Generation:
    """The session's generation, continued when model and prompt are unchanged (new settings apply
    from the next step), else started afresh."""
    generation = workspace.generation
    if generation is None or generation.entry is not entry or generation.prompt != prompt:
        generation = Generation.start(entry, prompt, settings)
        workspace.generation = generation
    elif generation.settings != settings:
        generation.stepper.settings = stepping(settings)
        generation.settings = settings
    return generation


def _stage_names(lang: str) -> dict[str, str]:
    return {name: text(lang, f"stage_{name.replace('-', '_')}")
            for name in ("raw", "repetition", "temperature", "top-k", "top-p")}


def settings_text(settings: SamplingConfig, lang: str) -> str:
    """The decoding settings a step was drawn with: "greedy", or "sampling at temperature 0.5, top-k 10"."""
    t = partial(text, lang)
    if settings.strategy != "sample":
        parts = [t("settings_greedy")]
    else:
        parts = [t("settings_sample", temperature=f"{settings.temperature:g}")]
        if settings.top_k is not None:
            parts.append(t("settings_top_k", k=settings.top_k))
        if settings.top_p is not None:
            parts.append(t("settings_top_p", p=f"{settings.top_p:g}"))
    if settings.repetition_penalty != 1:
        parts.append(t("settings_repetition", penalty=f"{settings.repetition_penalty:g}"))
    return t("settings_join").join(parts)


def candidates_figure(generation: Generation, lang: str, title: str | None = None) -> go.Figure | None:
    """The last step's candidates: raw probabilities and after each active filter, the chosen one marked;
    the title names the step and the settings it was drawn with (or is `title`)."""
    step = generation.last_step
    if step is None:
        return None
    names = _stage_names(lang)
    stages = {names["raw"]: step.raw_probs, **{names[k]: v for k, v in step.stages.items()}}
    t = partial(text, lang)
    chosen = visible_token(step.token_text)
    heading = t("fig_candidates", index=step.index + 1, settings=settings_text(generation.stepper.settings, lang),
                token=chosen) if title is None else t("fig_candidates_titled", title=title, token=chosen)
    return viz.candidate_bars(Pieces(generation.entry.tokenizer), stages, step.token_id, top_n=TOP_CANDIDATES,
                              title=heading, chosen_label=t("w_chosen"), token_label=t("w_token"),
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
                                      token=visible_token(step.token_text)),
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
    """(token, kind) pairs for the output box: the prompt, the generated tokens, the newest one (a
    bidirectional control in a token shown as its code point, so it cannot reorder the tokens after it)."""
    stepper = generation.stepper
    prompt_kind, generated_kind, new_kind = text(lang, "span_prompt"), text(lang, "span_generated"), text(lang, "span_new")
    spans = [(visible_controls(piece), prompt_kind)
             for piece in (stepper.source_tokens or stepper.tokens[:stepper.prompt_length])]
    generated = stepper.tokens[stepper.prompt_length:]
    if stepper.source_tokens:
        spans.append((" → ", None))
    spans += [(visible_controls(piece), new_kind if i == len(generated) - 1 else generated_kind)
              for i, piece in enumerate(generated)]
    return spans


def status_text(generation: Generation, lang: str) -> str:
    """What happened at the last step and where decoding stands."""
    stepper, step = generation.stepper, generation.last_step
    t = partial(text, lang)
    config = generation.entry.config
    lines = []
    if step is None:
        lines.append(t("status_ready", model=literal(generation.entry.name),
                       n=len(stepper.source_ids) if stepper.source_ids else stepper.prompt_length))
    else:
        probability = float(step.probs[step.token_id])
        lines.append(t("status_step", index=step.index + 1, token=literal(step.token_text), p=probability,
                       raw=float(step.raw_probs[step.token_id]), strategy=t(f"strategy_{generation.settings.strategy}")))
        raw = step.raw_probs[step.raw_probs > 0].astype(np.float64)
        lines.append(t("status_unsure", n=float(np.exp(-(raw * np.log(raw)).sum())),
                       p=float(step.raw_probs[step.token_id])))
    lines.append(t("status_context", used=stepper.cache_length, max_len=config.max_len,
                   generated=len(stepper.generated_ids)))
    lines.append(kv_cache_text(generation, lang))
    if step is not None and step.slid:
        lines.append(t("status_slid", start=stepper.window_start))
    if stepper.finished:
        lines.append(t(f"reason_{stepper.reason}"))
    return "\n\n".join(lines)


def _sized(n_bytes: float) -> str:
    """Bytes as B, KiB or MiB, whichever keeps the number under 1024."""
    if n_bytes < 2**10:
        return f"{n_bytes:.0f} B"
    return f"{n_bytes / 2**10:.1f} KiB" if n_bytes < 2**20 else f"{n_bytes / 2**20:.1f} MiB"


def kv_cache_text(generation: Generation, lang: str) -> str:
    """The KV cache the Stepper keeps now (tokens x bytes per token, in the weights' precision); for a
    grouped-query model, beside what full multi-head attention would keep for the same tokens."""
    config, tokens = generation.entry.config, generation.stepper.cache_length
    element_bytes = next(generation.entry.model.parameters()).element_size()
    kv = kv_cache_against_multi_head(config, element_bytes)
    sizes = dict(tokens=tokens, per_token=_sized(kv["bytes"]), total=_sized(tokens * kv["bytes"]))
    if kv["saving"] == 1:
        return text(lang, "status_kv_cache", **sizes)
    return text(lang, "status_kv_cache_grouped", **sizes, n_heads=config.n_heads, n_kv_heads=config.n_kv_heads,
                full=_sized(tokens * kv["multi_head_bytes"]), saving=f"{kv['saving']:g}")


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


@dataclass(frozen=True)
class BeamRun:
    """A beam search the session ran: what it was run for and its result, drawn again (in the page's
    language) whenever the tab is drawn for the same model, prompt and settings."""

    entry: ModelEntry
    prompt: str
    settings: SamplingConfig
    result: BeamResult

    @classmethod
    def of(cls, entry: ModelEntry, prompt: str, settings: SamplingConfig) -> "BeamRun":
        return cls(entry, prompt, settings, beam_search(entry.model, entry.tokenizer, prompt, settings.beam_width,
                                                        beam_tokens(entry, settings)))

    def ran_for(self, entry: ModelEntry, prompt: str, settings: SamplingConfig) -> bool:
        return self.entry is entry and self.prompt == prompt and self.settings == settings


def beam_tokens(entry: ModelEntry, settings: SamplingConfig) -> int:
    """The tokens a beam search writes at most: the asked number, within BEAM_CANDIDATES for the model's
    vocabulary and the width."""
    per_token = settings.beam_width * entry.config.target_vocab_size
    return max(1, min(settings.max_new_tokens, BEAM_CANDIDATES // per_token))


def _three_places(value: float) -> float:
    """`value` rounded to the 3 places the text shows, without the sign of a negative zero ("-0.000")."""
    return round(value, 3) + 0.0


def beam_views(entry: ModelEntry, prompt: str, settings: SamplingConfig, lang: str,
               result: BeamResult | None = None) -> GenerateViews:
    """Beam search from the prompt (`result`: one run already): the tree with the best path marked, and the
    best output."""
    if result is None:
        result = BeamRun.of(entry, prompt, settings).result
    best = set(result.best_path)
    nodes = [viz.BeamNode(n.id, n.parent, n.token_text, n.logprob, n.score, n.finished, n.id in best)
             for n in result.tree]
    t = partial(text, lang)
    tree = viz.beam_tree(nodes, title=t("fig_beam_tree", width=settings.beam_width), step_label=t("w_step"),
                         score_label=t("w_score"), logprob_label=t("w_logprob"))
    lines = [t("beam_best", text=_shown_text(result.best.text), logprob=_three_places(result.best.logprob),
               score=_three_places(result.best.score))]
    lines += [t("beam_hypothesis", rank=i + 1, text=_shown_text(h.text), score=_three_places(h.score),
                reason=t(f"reason_short_{h.reason}"))
              for i, h in enumerate(result.finished[:settings.beam_width])]
    if beam_tokens(entry, settings) < settings.max_new_tokens:
        lines.append(t("beam_capped", n=beam_tokens(entry, settings), asked=settings.max_new_tokens,
                       vocab=entry.config.target_vocab_size, width=settings.beam_width))
    output = [(prompt, t("span_prompt")), (" → " if entry.config.arch == "encoder_decoder" else "", None),
              (result.best.text, t("span_generated"))]
    return GenerateViews(output, "\n".join(lines), None, None, None, None, tree, 1, 1)


def _shown_text(value: str) -> str:
    """Generated text for Markdown, written literally ("∅" when there is none)."""
    return literal(value) if value else "∅"


def waiting_for_beam(prompt: str, entry: ModelEntry, lang: str) -> GenerateViews:
    """Beam search is chosen but not run yet: only the prompt and a hint to press Run."""
    output = [(prompt, text(lang, "span_prompt"))]
    status = text(lang, "status_beam_ready", model=literal(entry.name))
    return GenerateViews(output, status, None, None, None, None, None, 1, 1)

"""Lesson 16's live views, from the 2017 Transformer to today's LLMs, and the claims each checks
against its own figures (registered with the other lessons' in views.VIEWS and claims.CLAIMS).

No Qwen weights or tokenizer are on the server, so a view that needs weights reads a shipped model
or a small stand-in of Qwen2's kind with seeded random weights, and says which; parameter counts and
KV caches come from the published shapes, a cache measured on PyTorch's meta device (shapes only).
"""
from __future__ import annotations

import functools
import re
from functools import partial

import numpy as np
import torch
import torch.nn.functional as F

from playground import viz
from playground.analysis.cost import kv_cache_per_token
from playground.claims import Claim
from playground.data import BPETokenizer, load_corpus
from playground.model import ModelConfig, Trace, build_model, count_parameters, gpt2_small_config
from playground.model.blocks import RMSNorm, activation_function
from playground.zoo import seeded_model

from ...course.llms import CHINESE_VOCAB, KV_TOKENS, LLMS
from ...text.i18n import text
from ...views.architecture import GPT2_PRESET, LLM_PRESETS, nested_parameter_counts, presets
from ...views.attention import attention_views
from .views import Shown

QWEN = "Qwen2.5-0.5B"
STAND_IN = "qwen2-style-small"         # a small Qwen2-like shape: the stand-in's config, with seeded random weights
STAND_IN_LEN = 64                      # positions the stand-in is built for (its rotary tables)
NORM_MODEL, NORM_TEXT, NORM_BLOCK = "shakespeare-char", "To be, or not", 1
ROTARY_TEXT = "ab" * 16                # the pair (b, a) again and again: only the positions change
GATE_RANGE = (-4.0, 4.0)
CHINESE_MODEL, CHINESE_CORPUS = "tang-poems-char", "tang_poems"
HELD_OUT = 0.1                         # the last tenth of the poems: the line read comes from it


def _entry(registry, name: str):
    entry = registry.get(name)
    if entry is None:
        raise LookupError(f"the lesson's model {name!r} is not shipped")
    return entry


# ------------------------------------------------------------------ parameters

def norm_count(config: ModelConfig) -> int:
    """Norms of a pre-norm decoder-only stack: two per block and the final one."""
    return 2 * config.n_decoder_layers + 1


def llm_parameters(registry, lang):
    """GPT-2 small's and Qwen2.5-0.5B's parameters as treemaps, from their published shapes."""
    t = partial(text, lang)
    configs = presets(registry)
    figures, facts = [], {}
    for name in (GPT2_PRESET, QWEN):
        config = configs[name]
        counts = count_parameters(config)
        figures.append(viz.parameter_treemap(nested_parameter_counts(config, lang), root_label=t("tm_model"),
                                             title=t("fig_lesson_llm_treemap", model=name, total=f"{counts['total']:,}")))
        facts[name] = dict(counts, n_norms=norm_count(config), d_model=config.d_model, norm_type=config.norm_type,
                           vocab=config.vocab_size)
    gpt2, qwen = facts[GPT2_PRESET], facts[QWEN]
    note = t("lesson_llm_parameters_note", gpt2=f"{gpt2['total']:,}", qwen=f"{qwen['total']:,}",
             gpt2_norms=gpt2["n_norms"], gpt2_norm_params=f"{gpt2['norms']:,}", gpt2_d=gpt2["d_model"],
             qwen_norms=qwen["n_norms"], qwen_norm_params=f"{qwen['norms']:,}", qwen_d=qwen["d_model"],
             qwen_embedding=qwen["token_embeddings"] / qwen["total"], gpt2_embedding=gpt2["token_embeddings"] / gpt2["total"],
             qwen_ffn=qwen["feed_forward"] / qwen["total"], gpt2_ffn=gpt2["feed_forward"] / gpt2["total"])
    return Shown(figures, note, facts)


def _treemap_total(figure) -> int:
    trace = figure.data[0]
    return int(max(trace.values))


def llm_parameters_claims(shown: Shown, lang: str) -> list[Claim]:
    stated = [int(n.replace(",", "")) for n in re.findall(r"\*\*([\d,]{9,})\*\*", LLMS.explanation.en)]
    claims = []
    for figure, name in zip(shown.figures, (GPT2_PRESET, QWEN)):
        facts = shown.facts[name]
        claims += [
            Claim(f"lesson 16: {name}'s parameters (the explanation)", stated[0 if name == GPT2_PRESET else 1],
                  _treemap_total(figure)),
            Claim(f"lesson 16: {name}'s norms hold (2 for LayerNorm, 1 for RMSNorm) x D each (the note)",
                  facts["n_norms"] * (2 if facts["norm_type"] == "layernorm" else 1) * facts["d_model"],
                  facts["norms"])]
    claims.append(Claim("lesson 16: Qwen's vocabulary (what to look for)", 151_936, shown.facts[QWEN]["vocab"]))
    return claims


# ------------------------------------------------------------------ RMSNorm

def llm_norms(registry, lang):
    """A residual vector of a shipped model through LayerNorm and RMSNorm (neither with its learned weight)."""
    entry = _entry(registry, NORM_MODEL)
    ids = torch.tensor([entry.tokenizer.encode(NORM_TEXT)])                       # [1, T]
    key = f"decoder.{NORM_BLOCK}.resid_pre"
    trace = Trace((key,))
    with torch.no_grad():
        entry.model.decode(ids, None, None, trace)
    x = trace[key][0, -1].double()                                                # [D]
    eps = entry.config.norm_eps
    with torch.no_grad():
        layer_norm = F.layer_norm(x, x.shape, eps=eps)                            # centred, then scaled
        rms_norm = RMSNorm(x.numel(), eps).double()(x)                            # scaled only
        rms_of_centred = RMSNorm(x.numel(), eps).double()(x - x.mean())
    t = partial(text, lang)
    fig = viz.line_chart(list(range(x.numel())), {"LayerNorm": layer_norm.tolist(), "RMSNorm": rms_norm.tolist()},
                         title=t("fig_lesson_llm_norms", model=entry.name, block=NORM_BLOCK, text=NORM_TEXT),
                         x_label=t("w_dimension"), y_label=t("w_value"))
    mean, std = float(x.mean()), float(x.std(unbiased=False))
    rms = float(x.pow(2).mean().sqrt())
    facts = dict(mean=mean, std=std, rms=rms, gap=float((rms_of_centred - layer_norm).abs().max()),
                 rms_mean=float(rms_norm.mean()), ln_mean=float(layer_norm.mean()), d=x.numel())
    note = t("lesson_llm_norms_note", model=entry.name, d=x.numel(), mean=mean, std=std, rms=rms,
             rms_mean=facts["rms_mean"], gap=facts["gap"], share=abs(mean) / std)
    return Shown([fig], note, facts)


def llm_norms_claims(shown: Shown, lang: str) -> list[Claim]:
    layer_norm, rms_norm = (np.asarray(trace.y, dtype=float) for trace in shown.figures[0].data)
    facts = shown.facts
    return [Claim("lesson 16: LayerNorm's output has mean 0 (the figure)", 0.0, float(layer_norm.mean()), tolerance=1e-9),
            Claim("lesson 16: RMSNorm keeps the mean, mu / rms (the note)", facts["rms_mean"], float(rms_norm.mean()),
                  tolerance=1e-9),
            Claim("lesson 16: mean of x^2 = sigma^2 + mu^2 (the explanation)", facts["rms"] ** 2,
                  facts["std"] ** 2 + facts["mean"] ** 2, tolerance=1e-9 * facts["rms"] ** 2),
            Claim("lesson 16: on a centred vector RMSNorm is LayerNorm (the explanation)", True, facts["gap"] < 1e-6),
            Claim("lesson 16: in this trained vector |mu| is a small share of sigma, so the curves nearly coincide (the note)",
                  True, abs(facts["mean"]) < 0.1 * facts["std"]
                  and float(np.abs(layer_norm - rms_norm).max()) < 0.1 * float(np.abs(layer_norm).max()))]


# ------------------------------------------------------------------ SwiGLU's gate

def llm_gate(registry, lang):
    """GELU against silu, the activation of SwiGLU's gate, and how open the gate is, sigma(z)."""
    z = torch.linspace(*GATE_RANGE, 161, dtype=torch.float64)
    gelu, silu = activation_function("gelu")(z), activation_function("silu")(z)
    t = partial(text, lang)
    fig = viz.line_chart(z.tolist(), {t("w_llm_gelu"): gelu.tolist(), t("w_llm_silu"): silu.tolist(),
                                      t("w_llm_opening"): torch.sigmoid(z).tolist()},
                         title=t("fig_lesson_llm_gate"), x_label=t("w_input_z"), y_label=t("w_output"))
    config = LLM_PRESETS[QWEN]
    facts = dict(silu_min=float(silu.min()), silu_at=float(z[silu.argmin()]), gelu_min=float(gelu.min()),
                 gelu_at=float(z[gelu.argmin()]), silu_left=float(silu[0]), z_left=GATE_RANGE[0],
                 qwen_width=config.d_ff / config.d_model, qwen_d=config.d_model, qwen_ff=config.d_ff)
    note = t("lesson_llm_gate_note", silu_min=facts["silu_min"], silu_at=facts["silu_at"], gelu_min=facts["gelu_min"],
             gelu_at=facts["gelu_at"], z=GATE_RANGE[0], silu_left=facts["silu_left"], d=config.d_model,
             ff=config.d_ff, ratio=facts["qwen_width"])
    return Shown([fig], note, facts)


def llm_gate_claims(shown: Shown, lang: str) -> list[Claim]:
    gelu, silu, opening = (np.asarray(trace.y, dtype=float) for trace in shown.figures[0].data)
    facts = shown.facts
    return [Claim("lesson 16: silu's lowest value (the note)", round(facts["silu_min"], 3), round(float(silu.min()), 3)),
            Claim("lesson 16: silu dips lower than GELU (the note)", True, silu.min() < gelu.min()),
            Claim("lesson 16: silu = z * sigma(z) (the explanation)", 0.0,
                  float(np.abs(silu - np.asarray(shown.figures[0].data[0].x, dtype=float) * opening).max()),
                  tolerance=1e-9),
            Claim("lesson 16: a SwiGLU of width 8D/3 costs what GELU's 4D does (the explanation)", 2 * 4, 3 * 8 / 3)]


# ------------------------------------------------------------------ rotary against learned positions

@functools.lru_cache(maxsize=1)
def stand_in():
    """The small Qwen2-like model with seeded random weights: (config, model)."""
    config = LLM_PRESETS[STAND_IN].replace(max_len=STAND_IN_LEN)
    return config, seeded_model(config).eval()


def _first_layer_offset_scores(model, ids: list[int]) -> list[float]:
    """Layer 0, head 0: the score of each query at an odd position with the key one position back.  [T // 2]"""
    trace = Trace(("decoder.0.self_attn.scores",))
    with torch.no_grad():
        model.decode(torch.tensor([ids]), None, None, trace)
    scores = trace["decoder.0.self_attn.scores"][0, 0].double()                  # [T, T]
    return [float(scores[m, m - 1]) for m in range(1, len(ids), 2)]


def llm_rotary(registry, lang):
    """The same pair of tokens, one position apart, moved along the input: how its first-layer score
    changes with learned positions (a shipped model) and with rotary ones (the stand-in)."""
    entry = _entry(registry, NORM_MODEL)
    learned = _first_layer_offset_scores(entry.model, entry.tokenizer.encode(ROTARY_TEXT))
    config, model = stand_in()
    rotary = _first_layer_offset_scores(model, [10, 11] * (len(ROTARY_TEXT) // 2))
    positions = list(range(1, len(ROTARY_TEXT), 2))
    t = partial(text, lang)
    series = {t("w_llm_learned", model=entry.name): [s - learned[0] for s in learned],
              t("w_llm_rotary", model=STAND_IN): [s - rotary[0] for s in rotary]}
    fig = viz.line_chart(positions, series, title=t("fig_lesson_llm_rotary"), x_label=t("w_llm_query_position"),
                         y_label=t("w_llm_score_change"))
    facts = dict(learned=max(learned) - min(learned), rotary=max(rotary) - min(rotary), pairs=len(positions))
    note = t("lesson_llm_rotary_note", model=entry.name, stand_in=STAND_IN, pairs=len(positions),
             learned=facts["learned"], rotary=facts["rotary"])
    return Shown([fig], note, facts)


def llm_rotary_claims(shown: Shown, lang: str) -> list[Claim]:
    learned, rotary = (np.asarray(trace.y, dtype=float) for trace in shown.figures[0].data)
    return [Claim("lesson 16: with rotary positions the score depends only on the offset (flat)", True,
                  float(np.ptp(rotary)) < 1e-4),
            Claim("lesson 16: with learned positions the score moves along the text", True, float(np.ptp(learned)) > 1e-2),
            Claim("lesson 16: the note's spread with learned positions is the figure's", round(shown.facts["learned"], 4),
                  round(float(np.ptp(learned)), 4))]


# ------------------------------------------------------------------ the KV cache

def measured_cache_bytes(config: ModelConfig, device: str) -> float:
    """Bytes per token the model's KV cache holds after reading KV_TOKENS tokens, counted from its tensors
    (on "meta" the model has shapes only: nothing is allocated)."""
    with torch.device(device):
        model = build_model(config)
        cache = model.new_cache()
        with torch.no_grad():
            model.decode(torch.zeros(1, KV_TOKENS, dtype=torch.long), None, cache)
    return sum((layer.k.numel() + layer.v.numel()) * layer.k.element_size() for layer in cache.self_attn) / cache.length


@functools.lru_cache(maxsize=1)
def _cache_sizes() -> dict:
    """name -> (config, bytes per token as built, bytes per token with one key/value head per query head)."""
    configs = {GPT2_PRESET: gpt2_small_config(), QWEN: LLM_PRESETS[QWEN]}
    out = {name: (config, measured_cache_bytes(config, "meta"), measured_cache_bytes(config.replace(n_kv_heads=None), "meta"))
           for name, config in configs.items()}
    config = stand_in()[0]
    out[STAND_IN] = (config, measured_cache_bytes(config, "cpu"), measured_cache_bytes(config.replace(n_kv_heads=None), "cpu"))
    return out


def llm_kv_cache(registry, lang):
    """KV cache per token, measured from the caches the models keep, with and without grouped queries."""
    sizes = _cache_sizes()
    t = partial(text, lang)
    names = list(sizes)
    fig = viz.grouped_bars(names, {t("w_llm_as_built"): [sizes[n][1] for n in names],
                                   t("w_llm_multi_head"): [sizes[n][2] for n in names]},
                           title=t("fig_lesson_llm_kv", tokens=KV_TOKENS), category_label=t("w_model"),
                           value_label=t("w_llm_bytes_per_token"), value_format=",.0f", log_y=True)
    qwen_config, qwen_own, qwen_full = sizes[QWEN]
    facts = {name: dict(own=own, full=full, heads=config.n_heads, kv_heads=config.kv_heads,
                        formula=kv_cache_per_token(config)) for name, (config, own, full) in sizes.items()}
    note = t("lesson_llm_kv_note", tokens=KV_TOKENS, qwen_own=f"{qwen_own:,.0f}", qwen_full=f"{qwen_full:,.0f}",
             saving=qwen_full / qwen_own, heads=qwen_config.n_heads, kv_heads=qwen_config.kv_heads,
             gpt2=f"{sizes[GPT2_PRESET][1]:,.0f}", stand_in=STAND_IN,
             stand_in_saving=sizes[STAND_IN][2] / sizes[STAND_IN][1],
             qwen_mib=qwen_own * 32_768 / 2**20, full_mib=qwen_full * 32_768 / 2**20, context=32_768)
    return Shown([fig], note, facts)


def llm_kv_cache_claims(shown: Shown, lang: str) -> list[Claim]:
    own, full = (np.asarray(trace.y, dtype=float) for trace in shown.figures[0].data)
    names = list(shown.figures[0].data[0].x)
    facts = shown.facts
    claims = [Claim(f"lesson 16: {name}'s measured cache is 2 x layers x key/value width x 4 bytes", facts[name]["formula"],
                    own[i]) for i, name in enumerate(names)]
    qwen = names.index(QWEN)
    check = next(c for c in LLMS.check.choices if c.correct).text.en
    claims += [Claim("lesson 16: Qwen2.5-0.5B's cache is 7 times smaller (the check question)",
                     float(check.split()[0]), round(full[qwen] / own[qwen], 6)),
               Claim("lesson 16: 14 query heads and 2 key/value heads (the explanation)", (14, 2),
                     (facts[QWEN]["heads"], facts[QWEN]["kv_heads"]))]
    return claims


# ------------------------------------------------------------------ Chinese through byte-level BPE

@functools.lru_cache(maxsize=1)
def _chinese_tokenizers() -> tuple[str, BPETokenizer, BPETokenizer]:
    """(a held-out line of the Tang poems, a BPE learned on the bundled English text, a BPE learned on the
    poems' first nine tenths), both of CHINESE_VOCAB tokens at most."""
    poems = load_corpus(CHINESE_CORPUS)
    cut = int(len(poems) * (1 - HELD_OUT))
    english = BPETokenizer.train(load_corpus("bundled"), CHINESE_VOCAB)
    chinese = BPETokenizer.train(poems[:cut], CHINESE_VOCAB)
    return poems[cut:], english, chinese


def held_out_line(held_out: str, tokenizer) -> str:
    """The first line of `held_out` with at least 10 characters and a comma that `tokenizer` reads without an
    unknown character."""
    return next(line for line in held_out.splitlines()
                if len(line) >= 10 and "，" in line and not tokenizer.unknown_chars(line))


def llm_chinese(registry, lang):
    """A held-out Tang line through a byte-level BPE learned on English and one learned on Chinese, and the
    attention of the shipped Chinese character model on it."""
    entry = _entry(registry, CHINESE_MODEL)
    held_out, english, chinese = _chinese_tokenizers()
    line = held_out_line(held_out, entry.tokenizer)
    t = partial(text, lang)
    words = dict(id_label=t("w_id"), piece_label=t("w_piece"), offsets_label=t("w_characters"))
    figures, facts = [], dict(chars=len(line), bytes=len(line.encode("utf-8")))
    for key, tokenizer, corpus in (("english", english, "bundled"), ("chinese", chinese, CHINESE_CORPUS)):
        spans = [(s.piece, s.start, s.end, s.id) for s in tokenizer.token_spans(line)]
        figures.append(viz.token_spans(line, spans, title=t("fig_lesson_llm_bpe", corpus=t(f"w_llm_corpus_{corpus}"),
                                                            vocab=tokenizer.vocab_size, n=len(spans)), **words))
        facts[key] = dict(tokens=len(spans), vocab=tokenizer.vocab_size, per_char=len(spans) / len(line))
    views = attention_views(entry, line, "", "decoder", 0, 0, False, "", lang)
    figures.append(views.grid)
    note = t("lesson_llm_chinese_note", line=line, chars=len(line), bytes=facts["bytes"],
             english=facts["english"]["tokens"], english_vocab=facts["english"]["vocab"],
             english_ratio=facts["english"]["per_char"], chinese=facts["chinese"]["tokens"],
             chinese_vocab=facts["chinese"]["vocab"], chinese_ratio=facts["chinese"]["per_char"], model=entry.name)
    return Shown(figures, note, facts)


def llm_chinese_claims(shown: Shown, lang: str) -> list[Claim]:
    chars = shown.facts["chars"]
    english, chinese = (len(figure.layout.shapes) / chars for figure in shown.figures[:2])
    right = next(c for c in LLMS.experiment.predict.choices if c.correct).text.en
    about = [float(n) for n in re.findall(r"[Aa]bout (\d)", right)]
    return [Claim("lesson 16: the English BPE's tokens per character (the right prediction: about 3)", about[0],
                  round(english)),
            Claim("lesson 16: the Chinese BPE's tokens per character (the right prediction: about 1)", about[1],
                  round(chinese)),
            Claim("lesson 16: the note's token counts are the figures'", (shown.facts["english"]["tokens"],
                  shown.facts["chinese"]["tokens"]), tuple(len(f.layout.shapes) for f in shown.figures[:2])),
            Claim("lesson 16: each character of the line takes 3 bytes (the prediction's feedback)", 3.0,
                  shown.facts["bytes"] / chars)]


LLM_VIEWS = {view.__name__: view for view in (llm_parameters, llm_norms, llm_gate, llm_rotary, llm_kv_cache,
                                              llm_chinese)}
LLM_CLAIMS = {"llm_parameters": llm_parameters_claims, "llm_norms": llm_norms_claims, "llm_gate": llm_gate_claims,
              "llm_rotary": llm_rotary_claims, "llm_kv_cache": llm_kv_cache_claims, "llm_chinese": llm_chinese_claims}

"""The claims each lesson makes, checked against the data its figures draw.

Three kinds:
- view claims: CLAIMS[view key](shown, lang) compares what a view's note states (its facts) and what
  the lesson's text says about that view with the view's figures, read back from their traces;
- text claims: TEXT_CLAIMS[lesson id](registry) compares a number typed in a lesson's text (the
  rhyme's length, GPT-2's parameters, a preset's width) with the data or code it describes;
- run claims: the findings of a live run (run_findings.py), made when the run ends.

`lesson_claims(registry, lesson, lang)` gathers the first two for one lesson; the tests and
`python -m playground.bench lessons` evaluate the same lists.
"""
from __future__ import annotations

import math
import re
from functools import partial
from typing import Callable

import numpy as np
import plotly.graph_objects as go

from playground.analysis.head_scores import INDUCTION_THRESHOLD
from playground.claims import Claim
from playground.data import CharTokenizer, rhyme_text
from playground.model import build_model
from playground.train.presets import INDUCTION_REPEATS
from playground.zoo import ModelRegistry

from ...course import LESSONS, Lesson
from ...course.syllabus import DECODING_TEMPERATURES, REPETITION_TOKENS
from ...text.i18n import text
from . import live
from .views import PROBED_PROPERTIES, REPETITION_STRATEGIES, VIEWS, Shown
from .llm_lesson import LLM_CLAIMS        # lesson 16 (after views, which registers its views)

BY_ID = {lesson.id: lesson for lesson in LESSONS}
NUMBER = r"(\d[\d,]*(?:\.\d+)?)"


def stated(text: str, pattern: str) -> float:
    """The number `pattern`'s group (NUMBER) captures in `text`, commas dropped."""
    match = re.search(pattern, text)
    if match is None:
        raise ValueError(f"the text no longer says {pattern!r}; update the claim with the text")
    return float(match.group(1).replace(",", ""))


def _values(figure: go.Figure, index: int = 0, axis: str = "y") -> list[float]:
    return [float(v) for v in getattr(figure.data[index], axis)]


def _title(figure: go.Figure) -> str:
    return figure.layout.title.text or ""


# ------------------------------------------------------------------ view claims

def tokens_chinese(shown: Shown, lang: str) -> list[Claim]:
    spans = len(shown.figures[0].layout.shapes)
    right = next(c for c in BY_ID["tokens"].experiment.predict.choices if c.correct)
    return [
        Claim("lesson 1: the note's BPE token count is the figure's", shown.facts["tokens"], spans),
        Claim("lesson 1: the right prediction (more than 3, up to 9 tokens)", True,
              stated(right.text.en, r"More than (\d)") < spans <= stated(right.text.en, r"up to (\d)")),
        Claim("lesson 1: a Chinese character takes 3 bytes (the reveal)",
              stated(BY_ID["tokens"].experiment.reveal.en, r"takes (\d) bytes"),
              shown.facts["bytes"] / shown.facts["chars"]),
    ]


def embeddings_untrained_vs_trained(shown: Shown, lang: str) -> list[Claim]:
    start, end = shown.facts["start"], shown.facts["end"]
    first_bars, last_bars = (_values(figure, axis="x") for figure in shown.figures)
    right = next(c for c in BY_ID["embeddings"].experiment.predict.choices if c.correct)
    return [
        Claim("lesson 2: the untrained nearest neighbour's cosine is well below 0.5 (the right prediction)", True,
              max(first_bars) < stated(right.text.en, r"well below (0\.\d)")),
        Claim("lesson 2: the note's first cosine is the first figure's top bar", start["cosine"], first_bars[0],
              tolerance=1e-6),
        Claim("lesson 2: the note's last cosine is the second figure's top bar", end["cosine"], last_bars[0],
              tolerance=1e-6),
        Claim("lesson 2: the figures name their steps", True,
              f"step {start['step']}" in _title(shown.figures[0]) and f"step {end['step']}" in _title(shown.figures[1])
              if lang == "en" else all(str(f["step"]) in _title(fig) for f, fig in zip((start, end), shown.figures))),
        Claim("lesson 2: after training more neighbours are tokens used alike (the reveal)", True,
              end["vowels"] > start["vowels"] and end["cases"] > start["cases"]),
        Claim("lesson 2: after training the nearest neighbours are closer (the reveal)", True,
              end["mean_nearest"] > start["mean_nearest"]),
    ]


def positions_shuffle(shown: Shown, lang: str) -> list[Claim]:
    cells = shown.figures[0].data[0].cells.values
    differences = dict(zip(("none", "sinusoidal", "learned", "rope"), (float(v) for v in cells[1])))
    return [Claim("lesson 3: without positions the outputs only move with the shuffle (the reveal)", True,
                  differences["none"] < 1e-4),
            Claim("lesson 3: with positions the outputs change", True,
                  min(differences[k] for k in ("sinusoidal", "learned", "rope")) > 1e-2)]


def positions_add_vs_concat(shown: Shown, lang: str) -> list[Claim]:
    k = shown.facts["k"]
    token, position, random = (_values(shown.figures[0], i)[k - 1] for i in range(3))
    return [Claim("lesson 3: the note's position share is the figure's", shown.facts["position"], position,
                  tolerance=1e-9),
            Claim("lesson 3: the note's token share is the figure's", shown.facts["token"], token, tolerance=1e-9),
            Claim("lesson 3: positions lie mostly outside the tokens' directions (below random)", True,
                  position < random)]


def attention_by_hand_causal(shown: Shown, lang: str) -> list[Claim]:
    weights = np.asarray(shown.figures[1].data[-1].z, dtype=float)          # the softmax panel [Tq, Tk]
    return [Claim("lesson 4: the first row's weight on the first token is 1.0 (the reveal)", 1.0, float(weights[0, 0]),
                  tolerance=1e-6),
            Claim("lesson 4: the first row has exactly one non-zero weight (the right prediction)", 1,
                  int((weights[0] > 0).sum()))]


def heads_shapes(shown: Shown, lang: str) -> list[Claim]:
    cells = shown.figures[0].data[0].cells.values
    shapes = dict(zip(cells[1], cells[2]))
    n, h = shown.facts["tokens"], shown.facts["heads"]
    reveal = BY_ID["heads"].experiment.reveal.en
    return [Claim("lesson 5: the weights are [1, H, 10, 10] (the reveal)", f"[1, {h}, {n}, {n}]",
                  shapes["encoder.0.self_attn.weights"]),
            Claim("lesson 5: the reveal's sequence length is the probe's", stated(reveal, r"\[1, H, (\d+), "), n),
            Claim("lesson 5: the note's weights are the table's", shown.facts["weights"],
                  shapes["encoder.0.self_attn.weights"])]


def heads_fused(shown: Shown, lang: str) -> list[Claim]:
    cells = shown.figures[0].data[0].cells.values
    return [Claim("lesson 5: per-head and fused queries are the same", True, shown.facts["difference"] < 1e-5),
            Claim("lesson 5: the same parameters either way", shown.facts["per_head"], shown.facts["fused"]),
            Claim("lesson 5: the table's parameters are the note's", f"{shown.facts['fused']:,}", cells[1][1])]


def masks_nan(shown: Shown, lang: str) -> list[Claim]:
    return [Claim("lesson 6: the fully masked row is NaN (the reveal)", True, "NaN" in shown.note)]


def layernorm_by_hand(shown: Shown, lang: str) -> list[Claim]:
    normalised = np.asarray(shown.figures[0].data[1].y, dtype=float)
    return [Claim("lesson 7: the normalised vector has mean 0.000 (the reveal)", 0.0, float(normalised.mean()),
                  tolerance=5e-4),
            Claim("lesson 7: the normalised vector has variance 1.000 (the reveal)", 1.0, float(normalised.var()),
                  tolerance=1e-3)]


def block_activations(shown: Shown, lang: str) -> list[Claim]:
    histograms = {trace.name.split(" · ")[0]: np.asarray(trace.x, dtype=float) for trace in shown.figures[0].data
                  if trace.type == "histogram"}
    drawn = {name.lower(): int((values <= 0).sum()) for name, values in histograms.items()}
    more = "relu" if drawn["relu"] > drawn["gelu"] else "gelu" if drawn["gelu"] > drawn["relu"] else "same"
    return [Claim("lesson 7: the note's ReLU count is the histogram's", shown.facts["relu"], drawn["relu"]),
            Claim("lesson 7: the note's GELU count is the histogram's", shown.facts["gelu"], drawn["gelu"]),
            Claim("lesson 7: which activation left more units without a positive input", shown.facts["more"], more)]


def block_gradients(shown: Shown, lang: str) -> list[Claim]:
    blocks = len(shown.facts["blocks"])
    bars = {trace.name: _values(shown.figures[0], i)[1:1 + blocks] for i, trace in enumerate(shown.figures[0].data)}
    pre, post, none = bars.values()
    spread = shown.facts["spread"]
    return [Claim("lesson 7: the note's pre-norm range is the figure's", shown.facts["ranges"]["pre"],
                  (min(pre), max(pre))),
            Claim("lesson 7: with residuals every block gets about the same gradient", True,
                  max(max(pre) / min(pre), max(post) / min(post)) < 1.25),
            Claim("lesson 7: without residuals the gradients spread more", True,
                  max(none) / min(none) > spread["pre"] and min(none) > max(pre))]


def block_init(shown: Shown, lang: str) -> list[Claim]:
    claims = []
    for trace in shown.figures[0].data:
        scheme, width = trace.name.split(", D = ")
        width, values = int(width), [float(v) for v in trace.y]
        gain = (values[-1] / values[0]) ** (1 / (len(values) - 1))
        expected = 0.02 * math.sqrt(width) if scheme.startswith("N(") else 1.0
        claims.append(Claim(f"lesson 7: {trace.name} scales the signal per layer as the note says", expected, gain,
                            tolerance=0.05 * expected))
    return claims


def architectures_reverse_cross(shown: Shown, lang: str) -> list[Claim]:
    best = shown.facts["best"]
    return [Claim("lesson 8: the strongest pattern is the anti-diagonal (the reveal)", True,
                  best["anti_diagonal"] > best["diagonal"]),
            Claim("lesson 8: the probe is like the reverse model's training inputs (no warning)", False,
                  "trained" in shown.note and "letters" in shown.note and "unlike" in shown.note)]


def _timeline(lesson_id: str, step_word: str):
    def claims(shown: Shown, lang: str) -> list[Claim]:
        titles = [_title(figure) for figure in shown.figures]
        return [Claim(f"lesson {lesson_id}: each figure names its step", True,
                      all(f"{step_word} {step}" in title for step, title in zip(shown.facts["steps"], titles))
                      if lang == "en" else all(str(step) in title for step, title in zip(shown.facts["steps"], titles))),
                Claim(f"lesson {lesson_id}: no two figures share a title", len(titles), len(set(titles))),
                Claim(f"lesson {lesson_id}: three checkpoints (the explanation)",
                      3 if "three checkpoints" in BY_ID[lesson_id].explanation.en else 0, len(shown.figures))]
    return claims


def char_lm_timeline(shown: Shown, lang: str) -> list[Claim]:
    steps = shown.facts["steps"]
    return [Claim("lesson 10: the first figure is before training", 0, steps[0]),
            Claim("lesson 10: each figure names its step", True,
                  all(str(step) in _title(figure) for step, figure in zip(steps, shown.figures)))]


def char_lm_window(shown: Shown, lang: str) -> list[Claim]:
    shown_inputs, shown_targets = (list(row) for row in shown.figures[0].data[0].text)
    window = shown.facts["inputs"] + shown.facts["targets"][-1]
    block = int(stated(text(lang, "fig_lesson_window", block=shown.facts["block"]), NUMBER))
    return [Claim("lesson 10: each target is the next input (the window's note)", shown_inputs[1:], shown_targets[:-1]),
            Claim("lesson 10: the window is the rhyme's own text, one character further for the targets", True,
                  window in rhyme_text() and shown.facts["targets"] == window[1:]),
            Claim("lesson 10: the window is as long as the title says", block, len(shown_inputs))]


def copy_scheduled_sampling(shown: Shown, lang: str) -> list[Claim]:
    figure, scores = shown.figures[0], shown.facts["scores"]
    drawn = {trace.name: [float(v) for v in trace.y] for trace in figure.data}
    names = {"teacher_forcing": text(lang, "w_teacher_forcing"), "scheduled_sampling": text(lang, "w_scheduled_sampling")}
    keys = ("teacher_forced_accuracy", "free_running_accuracy", "free_running_exact")
    exact = {name: values["free_running_exact"] for name, values in scores.items()}
    better = max(exact, key=exact.get) if len(set(exact.values())) > 1 else "same"
    return [Claim(f"lesson 9: the bars of {name} are its scores (the note)", [round(100 * scores[name][k], 6) for k in keys],
                  [round(100 * v, 6) for v in drawn[names[name]]]) for name in names] + [
        Claim("lesson 9: the verdict names the model with more sequences exactly right", better, shown.facts["better"])]


def _temperature_of(figure: go.Figure) -> float:
    """The temperature that turns the figure's raw bars into its "after temperature" bars:
    log p_T(i) - log p_T(j) = (log p(i) - log p(j)) / T for the two most likely tokens."""
    raw, after = (np.asarray(trace.y, dtype=float) for trace in figure.data[:2])
    i, j = np.argsort(-raw)[:2]
    return float((math.log(raw[i]) - math.log(raw[j])) / (math.log(after[i]) - math.log(after[j])))


def decoding_temperature(shown: Shown, lang: str) -> list[Claim]:
    claims = []
    for temperature, figure in zip(DECODING_TEMPERATURES, shown.figures):
        claims.append(Claim(f"lesson 11: the bars were drawn at temperature {temperature}", temperature,
                            _temperature_of(figure), tolerance=1e-3 * temperature))
        claims.append(Claim(f"lesson 11: the title names temperature {temperature}", True,
                            f"{temperature:g}" in _title(figure)))
        after = np.asarray(figure.data[1].y, dtype=float)
        claims.append(Claim(f"lesson 11: the note's top share at {temperature} is the figure's",
                            round(shown.facts[temperature]["top_share"], 6), round(float(after.max()), 6),
                            tolerance=1e-5))
    low, high = sorted(DECODING_TEMPERATURES)
    raw = float(np.max(shown.figures[0].data[0].y))
    claims.append(Claim("lesson 11: below 1 sharper, above 1 flatter (the explanation)", True,
                        shown.facts[low]["top_share"] > raw > shown.facts[high]["top_share"]))
    return claims


def decoding_candidates(shown: Shown, lang: str) -> list[Claim]:
    figure = shown.figures[0]
    kept = {trace.name: int((np.asarray(trace.y, dtype=float) > 0).sum()) for trace in figure.data[2:]}
    return [Claim("lesson 11: the note's top-p count is the figure's", shown.facts["kept"]["top-p"],
                  list(kept.values())[-1])]


def decoding_beam(shown: Shown, lang: str) -> list[Claim]:
    return [Claim("lesson 11: the beam's best output is the right reversal", shown.facts["right"],
                  shown.facts["best"])]


def decoding_repetition(shown: Shown, lang: str) -> list[Claim]:
    figure = shown.figures[0]
    means = {name: float(np.mean(np.asarray(trace.y, dtype=float))) for name, trace in
             zip(REPETITION_STRATEGIES, figure.data)}
    lesson = BY_ID["decoding"]
    right = lesson.experiment.predict.choices[lesson.experiment.predict.answer]
    answers = {"Greedy": "greedy", "Beam search": "beam", "Sampling at temperature 1": "sample"}
    return [Claim("lesson 11: the strategy that repeats most (the right prediction)", answers[right.text.en],
                  max(means, key=means.get)),
            Claim("lesson 11: the note names the strategy that repeats most", shown.facts["most"],
                  max(means, key=means.get)),
            Claim("lesson 11: the tokens the prediction names", stated(lesson.experiment.predict.prompt.en,
                                                                      r"writes (\d+) tokens"), REPETITION_TOKENS),
            Claim("lesson 11: a penalty and sampling repeat less than greedy (the reveal)", True,
                  means["penalty"] < means["greedy"] and means["sample"] < means["greedy"])]


def measuring_table(shown: Shown, lang: str) -> list[Claim]:
    cells = shown.figures[0].data[0].cells.values
    claims = []
    for row, name in enumerate(cells[0]):
        found = shown.facts["models"][name]
        if found["loss"] is not None:
            claims.append(Claim(f"lesson 12: {name}'s perplexity column is e^loss", math.exp(found["loss"]),
                                float(cells[4][row]), tolerance=0.006))
        if found["bleu"] is not None:
            claims.append(Claim(f"lesson 12: {name}'s BLEU is its card's", round(found["bleu"], 1),
                                float(cells[7][row])))
        if found["exact"] is not None:
            claims.append(Claim(f"lesson 12: {name}'s exact match is its card's", round(100 * found["exact"], 1),
                                float(cells[6][row].rstrip("%"))))
    exact_and_bleu = [(float(cells[6][row].rstrip("%")), float(cells[7][row])) for row in range(len(cells[0]))
                      if cells[6][row] != "–" and cells[7][row] != "–"]
    claims.append(Claim("lesson 12: a row shows exact match and BLEU apart (the note)", True,
                        any(abs(exact - bleu) >= 5 for exact, bleu in exact_and_bleu)))
    return claims


def measuring_perplexity(shown: Shown, lang: str) -> list[Claim]:
    prompt = BY_ID["measuring"].experiment.predict
    right = prompt.choices[prompt.answer]
    loss = stated(prompt.prompt.en, r"loss (\d\.\d+) nats")
    cells = shown.figures[0].data[0].cells.values
    return [Claim("lesson 12: the prediction's perplexity is e^loss", stated(right.text.en, NUMBER), math.exp(loss),
                  tolerance=0.05),
            Claim("lesson 12: the table's perplexity is e^loss", float(cells[2][0]), math.exp(float(cells[1][0])),
                  tolerance=0.001)]


def measuring_probes(shown: Shown, lang: str) -> list[Claim]:
    inside, offset = (shown.facts[prop] for prop in PROBED_PROPERTIES)
    drawn = {prop: (_values(figure, 0), _values(figure, 1)) for prop, figure in zip(PROBED_PROPERTIES, shown.figures)}
    claims = []
    for prop, found in shown.facts.items():
        accuracy, control = drawn[prop]
        claims += [Claim(f"lesson 12: the note's best accuracy ({prop}) is the figure's", round(found["accuracy"], 6),
                         round(max(accuracy), 6), tolerance=1e-5),
                   Claim(f"lesson 12: the note's control ({prop}) is the figure's at that layer",
                         round(found["control"], 6), round(control[accuracy.index(max(accuracy))], 6), tolerance=1e-5),
                   Claim(f"lesson 12: the control ({prop}) stays near chance (the explanation)", True,
                         max(abs(c - found["chance"]) for c in control) < 0.05)]
    return claims + [
        Claim("lesson 12: inside a repeat is read far above the control and chance (what to look for)", True,
              inside["first"] is not None and inside["accuracy"] - max(inside["control"], inside["chance"]) > 0.1),
        Claim("lesson 12: the offset inside the repeat is read at no layer (what to look for)", None, offset["first"])]


def heads_form_patching(shown: Shown, lang: str) -> list[Claim]:
    facts = shown.facts
    residual = np.asarray(shown.figures[0].data[0].z, dtype=float)            # [layers + 1, T]
    heads = np.asarray(shown.figures[1].data[0].z, dtype=float)               # [L, H]
    return [Claim("lesson 14: the answer enters the first block at the changed position (what to look for)",
                  facts["changed"], int(np.argmax(residual[0]))),
            Claim("lesson 14: the answer leaves the last block at the last position (what to look for)",
                  facts["last"], int(np.argmax(residual[-1]))),
            Claim("lesson 14: the note's positions are the map's", (facts["first_position"], facts["last_position"]),
                  (int(np.argmax(residual[0])), int(np.argmax(residual[-1])))),
            Claim("lesson 14: the head that restores most is in layer 1 (what to look for)", 1,
                  int(np.unravel_index(int(np.argmax(heads)), heads.shape)[0])),
            Claim("lesson 14: the note's best head restores what the head map shows",
                  round(facts["best_head_value"], 5), round(float(heads.max()), 5), tolerance=1e-4)]


def heads_form_attribution(shown: Shown, lang: str) -> list[Claim]:
    bars = dict(zip(shown.figures[0].data[0].x, _values(shown.figures[0])))
    heads = {layer: sum(v for name, v in bars.items() if re.fullmatch(rf"L{layer}·H\d+", name)) for layer in (0, 1)}
    return [Claim("lesson 14: the parts sum to the model's logit (the note)", round(shown.facts["logit"], 3),
                  round(shown.facts["total"], 3), tolerance=1e-3),
            Claim("lesson 14: the bars add up to the note's sum", round(shown.facts["total"], 3),
                  round(sum(bars.values()), 3), tolerance=1e-3),
            Claim("lesson 14: layer 1's heads add far more than layer 0's (what to look for)", True,
                  heads[1] > 1.0 and heads[1] > 3 * abs(heads[0])),
            Claim("lesson 14: the layer-1 MLP adds the largest single share (what to look for)", "L1·MLP",
                  max(bars, key=bars.get))]


def _treemap(shown: Shown, lang: str) -> dict[str, int]:
    """The treemap's values by path in English ("model/decoder/block 0"), whatever the figure's language."""
    trace = next(figure.data[0] for figure in shown.figures if figure.data and figure.data[0].type == "treemap")
    t = partial(text, lang)
    names = {t("tm_model"): "model", t("tm_decoder"): "decoder", t("tm_token_embedding"): "token embedding",
             t("tm_block", i=0): "block 0"}
    return {"/".join(names.get(part, part) for part in path.split("/")): int(value)
            for path, value in zip(trace.ids, trace.values)}


def cost_gpt2(shown: Shown, lang: str) -> list[Claim]:
    values = _treemap(shown, lang)
    lesson = BY_ID["cost"]
    reveal = lesson.experiment.reveal.en
    return [Claim("lesson 15: the token embedding's parameters (the reveal)",
                  stated(reveal, NUMBER + r" parameters in the token embedding"),
                  values["model/decoder/token embedding"]),
            Claim("lesson 15: each block's parameters (the reveal)", stated(reveal, NUMBER + r" in each block"),
                  values["model/decoder/block 0"]),
            Claim("lesson 15: GPT-2 small's parameters (the explanation)",
                  stated(lesson.explanation.en, r"\*\*" + NUMBER + r"\*\*"), values["model"]),
            Claim("lesson 15: 38.6 million in the token embedding (the explanation)",
                  stated(lesson.explanation.en, r"(\d+\.\d) million"),
                  round(values["model/decoder/token embedding"] / 1e6, 1)),
            Claim("lesson 15: about 7.1 M per block (the prediction)",
                  stated(lesson.experiment.predict.choices[0].text.en, r"about (\d+\.\d) M"),
                  round(values["model/decoder/block 0"] / 1e6, 1))]


def cost_recurrence(shown: Shown, lang: str) -> list[Claim]:
    attention, recurrent = (np.asarray(trace.y, dtype=float) for trace in shown.figures[0].data)
    lengths = [int(v) for v in shown.figures[0].data[0].x]
    ratio = {n: round(a / r, 2) for n, a, r in zip(lengths, attention, recurrent)}
    facts = shown.facts
    return [Claim("lesson 15: a whole recurrent layer is cheaper at every length (the explanation)", True,
                  bool((attention > recurrent).all())),
            Claim("lesson 15: the note's ratio at the shortest length is the figure's", facts["ratio0"], ratio[facts["n0"]]),
            Claim("lesson 15: the note's ratio at n = D is the figure's", facts["ratio"], ratio[facts["n"]])]


CLAIMS: dict[str, Callable[[Shown, str], list[Claim]]] = {
    "tokens_chinese": tokens_chinese,
    "embeddings_untrained_vs_trained": embeddings_untrained_vs_trained,
    "positions_shuffle": positions_shuffle,
    "positions_add_vs_concat": positions_add_vs_concat,
    "attention_by_hand_causal": attention_by_hand_causal,
    "heads_shapes": heads_shapes,
    "heads_fused": heads_fused,
    "masks_nan": masks_nan,
    "layernorm_by_hand": layernorm_by_hand,
    "block_activations": block_activations,
    "block_gradients": block_gradients,
    "block_init": block_init,
    "architectures_reverse_cross": architectures_reverse_cross,
    "train_copy": _timeline("copy-training", "step"),
    "heads_form_timeline": _timeline("heads-form", "step"),
    "char_lm_timeline": char_lm_timeline,
    "char_lm_window": char_lm_window,
    "copy_scheduled_sampling": copy_scheduled_sampling,
    "decoding_temperature": decoding_temperature,
    "decoding_candidates": decoding_candidates,
    "decoding_beam": decoding_beam,
    "decoding_repetition": decoding_repetition,
    "measuring_table": measuring_table,
    "measuring_perplexity": measuring_perplexity,
    "measuring_probes": measuring_probes,
    "heads_form_patching": heads_form_patching,
    "heads_form_attribution": heads_form_attribution,
    "cost_gpt2": cost_gpt2,
    "cost_treemap": cost_gpt2,
    "cost_recurrence": cost_recurrence,
}
CLAIMS.update(LLM_CLAIMS)                   # lesson 16


# ------------------------------------------------------------------ text claims

def _preset(key: str):
    return live.LIVE[key].form


def copy_text(registry: ModelRegistry) -> list[Claim]:
    text, form = BY_ID["copy-training"].explanation.en, _preset("copy")
    return [Claim("lesson 9: the copy preset's layers", (stated(text, r"\((\d) encoder"), stated(text, r"and (\d) decoder")),
                  (form.layers, form.layers)),
            Claim("lesson 9: the copy preset's width", stated(text, r"width (\d+)"), form.d_model),
            Claim("lesson 9: the goal", stated(text, r"reaches (\d+)%"), round(live.COPY_GOAL * 100))]


def rhyme_text_claims(registry: ModelRegistry) -> list[Claim]:
    lesson, form = BY_ID["char-lm"], _preset("rhyme")
    text = lesson.explanation.en
    rhyme = rhyme_text()
    vocab = CharTokenizer.from_text(rhyme).vocab_size
    spec = form.spec("en")
    parameters = sum(p.numel() for p in build_model(spec.preset.model_config.replace(vocab_size=vocab)).parameters())
    return [Claim("lesson 10: the rhyme's characters", stated(text, r"(\d+)-character rhyme"), len(rhyme)),
            Claim("lesson 10: the rhyme's characters (the prediction)",
                  stated(lesson.experiment.predict.prompt.en, r"(\d+)-character"), len(rhyme)),
            Claim("lesson 10: the rhyme's tokens (what to look for)", stated(lesson.look_for.en, r"\((\d+) tokens"), vocab),
            Claim("lesson 10: ln V of the rhyme's tokens", stated(lesson.look_for.en, r"\\approx (\d\.\d)"),
                  round(math.log(vocab), 1)),
            Claim("lesson 10: about 400,000 parameters (the prediction's feedback)",
                  stated(lesson.experiment.predict.choices[0].feedback.en, r"about " + NUMBER + " parameters"),
                  parameters, tolerance=0.25 * parameters),
            Claim("lesson 10: the preset's layers and width", (stated(text, r"\((\d) layers"), stated(text, r"width (\d+)")),
                  (form.layers, form.d_model)),
            Claim("lesson 10: the preset's blocks", stated(text, r"blocks of (\d+) characters"), form.block_size),
            Claim("lesson 10: the goal", stated(text, r"loss is (\d\.\d+) or less"), live.RHYME_GOAL)]


def induction_text(registry: ModelRegistry) -> list[Claim]:
    text, form = BY_ID["heads-form"].explanation.en, _preset("induction")
    return [Claim("lesson 14: the preset's layers, heads and width",
                  (stated(text, r"\((\d) layers"), stated(text, r"of (\d) heads"), stated(text, r"width (\d+)")),
                  (form.layers, form.n_heads, form.d_model)),
            Claim("lesson 14: the repeated blocks' lengths", (stated(text, r"blocks of (\d+) to"), stated(text, r"to (\d+)\s+tokens")),
                  (INDUCTION_REPEATS["min_period"], INDUCTION_REPEATS["max_period"])),
            Claim("lesson 14: the induction threshold", stated(text, r"score reaches (\d\.\d+)"), INDUCTION_THRESHOLD)]


TEXT_CLAIMS: dict[str, Callable[[ModelRegistry], list[Claim]]] = {
    "copy-training": copy_text,
    "char-lm": rhyme_text_claims,
    "heads-form": induction_text,
}


def view_keys(lesson: Lesson) -> tuple[str, ...]:
    """Every view a lesson shows: its own, then its experiment's."""
    return tuple(dict.fromkeys((*lesson.views, *((lesson.experiment.view,) if lesson.experiment.view else ()))))


def lesson_claims(registry: ModelRegistry, lesson: Lesson, lang: str) -> list[Claim]:
    """Every claim of a lesson's views and typed numbers, evaluated on `registry`'s shipped models."""
    claims = []
    for key in view_keys(lesson):
        if key in CLAIMS:
            claims += CLAIMS[key](VIEWS[key](registry, lang), lang)
    if lesson.id in TEXT_CLAIMS:
        claims += TEXT_CLAIMS[lesson.id](registry)
    return claims

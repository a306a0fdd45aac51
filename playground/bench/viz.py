"""Benchmark suite "viz": JSON size and build time of every figure.

The attention grid is measured at 4 layers x 4 heads x 64 tokens against its goals
(<= 300 KB, <= 50 ms); every figure is also measured at classroom size (128 tokens, 6 layers x
8 heads), where only the attention grid's size has a goal (<= 250 KB: the grid shows no more cells
than a screen can, see viz.attention.MIN_CELL_PX). Size is len(fig.to_json()) / 1024; time is the
median build time of the figure function, with the median to_json time alongside as context.
"""
import statistics
import time

import numpy as np

from playground import viz

SUITE = "viz"
CLASS_LAYERS, CLASS_HEADS, CLASS_TOKENS, CLASS_D_MODEL = 6, 8, 128, 256
CLASSROOM_KB_GOALS = {"attention_grid_classroom": 250}
TEXT = ("First Citizen: Before we proceed any further, hear me speak. All: Speak, speak. "
        "First Citizen: You are all resolved rather to die than to famish? 你好，世界。")


def _softmax(shape: tuple, rng: np.random.Generator, causal: bool) -> np.ndarray:
    """Random attention weights [..., Tq, Tk] (float32, rows sum to 1), causal when asked."""
    scores = rng.normal(size=shape) * 2.0
    if causal:
        scores = np.where(np.tril(np.ones(shape[-2:], dtype=bool)), scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def _sinusoidal(n_positions: int, d_model: int) -> np.ndarray:
    position = np.arange(n_positions)[:, None]
    rate = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n_positions, d_model), dtype=np.float32)  # [T, d]
    pe[:, 0::2] = np.sin(position * rate)
    pe[:, 1::2] = np.cos(position * rate)
    return pe


def _history(n: int, rng: np.random.Generator) -> dict:
    steps = np.arange(n) * 10
    loss = 3.0 * np.exp(-np.arange(n) / (n / 4)) + 0.5 + rng.normal(size=n) * 0.02
    return {
        "step": steps.tolist(),
        "loss": loss.tolist(),
        "val_loss": [float(v) + 0.1 if i % 10 == 0 else None for i, v in enumerate(loss)],
        "accuracy": (1 - loss / 4).tolist(),
        "lr": np.minimum(1.0, np.arange(n) / 50).tolist(),
        "tokens_per_s": (4000 + rng.normal(size=n) * 100).tolist(),
    }


def _beam_nodes(beam: int, steps: int) -> list[tuple]:
    """A beam tree: at each step every live hypothesis extends by two tokens, the best `beam` survive."""
    nodes = [(0, None, "<s>", 0.0, 0.0, False, False)]
    live = [0]
    for step in range(steps):
        children = []
        for parent in live:
            for k in range(2):
                node_id = len(nodes)
                score = nodes[parent][4] - 0.3 * (k + 1) - 0.01 * step
                nodes.append((node_id, parent, f"w{node_id}", -0.3 * (k + 1), score, step == steps - 1, False))
                children.append(node_id)
        live = sorted(children, key=lambda i: -nodes[i][4])[:beam]
    best = live[0]
    on_path = set()
    while best is not None:
        on_path.add(best)
        best = nodes[best][1]
    return [n[:6] + (n[0] in on_path,) for n in nodes]


def _classroom_cases(rng: np.random.Generator) -> dict:
    """Figure name -> zero-argument builder at classroom size."""
    L, H, T, d = CLASS_LAYERS, CLASS_HEADS, CLASS_TOKENS, CLASS_D_MODEL
    tokens = list((TEXT * 2)[:T])
    weights = _softmax((L, H, T, T), rng, causal=True)  # [L, H, T, T]
    snapshots = _softmax((10, T, T), rng, causal=True)  # [S, T, T]
    pe = _sinusoidal(T, d)
    vocab = 2000
    logits = rng.normal(size=vocab) * 2
    raw = np.exp(logits - logits.max())
    raw /= raw.sum()
    hot = raw ** 2 / (raw ** 2).sum()
    top_k = np.where(hot >= np.sort(hot)[-40], hot, 0.0)
    top_k /= top_k.sum()
    stages = {"raw": raw, "temperature": hot, "top-k": top_k}
    vocab_texts = [f"tok{i}" for i in range(vocab)]
    history = _history(1000, rng)
    block = {"attention": 4 * (d * d + d), "feed_forward": 2 * 4 * d * d + 5 * d, "norms": 4 * d}
    counts = {"embedding": {"token": vocab * d, "position": 1024 * d},
              "blocks": {f"block {i}": dict(block) for i in range(L)}, "final norm": 2 * d}
    config = dict(arch="encoder_decoder", vocab_size=vocab, tgt_vocab_size=None, d_model=d, n_heads=H,
                  n_encoder_layers=L, n_decoder_layers=L, d_ff=4 * d, positional="sinusoidal", norm="pre",
                  activation="gelu", tie_weights=True)
    shape_rows = [(f"layer {i}", name, (1, H, T, T) if "weights" in name else (1, T, d), "")
                  for i in range(L) for name in ("input", "attention weights", "output")]
    char_spans = [(ch, i, i + 1, ord(ch) % 1000) for i, ch in enumerate(TEXT[:T])]
    merges = [(f"a{i}", f"b{i}") for i in range(200)]
    mask_tokens = [tokens[:12], tokens[12:20] + ["<pad>"] * 4]               # two inputs, 12 and 8 tokens
    padding = np.array([[True] * 12, [True] * 8 + [False] * 4])              # [B, Tk]
    causal = np.tril(np.ones((12, 12), dtype=bool))                          # [Tq, Tk]
    masks = np.stack([np.broadcast_to(padding[:, None, :], (2, 12, 12)), np.broadcast_to(causal, (2, 12, 12)),
                      padding[:, None, :] & causal], axis=1)                 # [B, 3, Tq, Tk]
    d_k = d // H
    worked = [(name, rng.normal(size=(4, d_k)), tokens[:4], [str(k) for k in range(d_k)])
              for name in ("Q", "K", "V", "output")]                         # a 4-token worked example
    x_token = rng.normal(size=d).astype(np.float32)
    x_hat = (x_token - x_token.mean()) / np.sqrt(x_token.var() + 1e-5)
    stage_names = [f"{stack} {stage}" for stack in ("encoder", "decoder")
                   for stage in ("embedding", *(f"block {i}" for i in range(L)), "final norm")]
    stage_norms = [np.abs(rng.normal(loc=4.0 + i, size=T)).astype(np.float32) for i in range(len(stage_names))]
    points = rng.normal(size=(vocab, 2)).astype(np.float32)
    blanks = [(f"blank {k + 1}", [f"tok{i}" for i in rng.choice(vocab, 5, replace=False)],
               np.sort(rng.dirichlet(np.ones(5)))[::-1]) for k in range(8)]
    free = tokens[:T // 2] + ["x"] * (T - T // 2)
    p_teacher, p_free = rng.random(T), rng.random(T)
    similarities = np.sort(rng.uniform(0.2, 0.9, 10))[::-1]
    lens_probs = rng.random((L, T)).astype(np.float32)
    lens_top = [[vocab_texts[i] for i in rng.integers(0, vocab, T)] for _ in range(L)]
    patched = rng.uniform(-0.3, 1.0, (L + 1, T)).astype(np.float32)          # layers of the stream x positions
    parts = [f"L{layer} H{head}" for layer in range(L) for head in range(H)] + [f"L{layer} MLP" for layer in range(L)]
    schedule_steps = np.arange(5000)
    rates = 3e-4 * np.minimum(1.0, (schedule_steps + 1) / 200) * (0.5 + 0.5 * np.cos(np.pi * schedule_steps / 5000))
    return {
        "attention_grid_classroom": lambda: viz.attention_grid(weights, tokens, tokens),
        "attention_head": lambda: viz.attention_head(weights[0, 0], tokens, tokens),
        "attention_mean": lambda: viz.attention_mean(weights[0], tokens, tokens),
        "attention_filling": lambda: viz.attention_filling(weights[0, 0], tokens, T // 2),
        "attention_snapshots": lambda: viz.attention_snapshots(list(range(0, 1000, 100)), snapshots, tokens, tokens),
        "positional_heatmap": lambda: viz.positional_heatmap(pe),
        "positional_curves": lambda: viz.positional_curves(pe, [0, 1, 10, 100]),
        "position_similarity": lambda: viz.position_similarity(pe),
        "rope_rotation": lambda: viz.rope_rotation(d, [0, 8, 32, 96], T),
        "training_curves": lambda: viz.training_curves(history),
        "compare_runs": lambda: viz.compare_runs({"correct": history, "broken": history}),
        "head_scores_over_steps": lambda: viz.head_scores_over_steps(
            list(range(0, 5000, 100)), rng.random((50, L, H)).astype(np.float32)),
        "head_scores_heatmap": lambda: viz.head_scores_heatmap(rng.random((L, H)).astype(np.float32)),
        "candidate_bars": lambda: viz.candidate_bars(vocab_texts, stages, int(np.argmax(top_k)), top_n=10),
        "beam_tree": lambda: viz.beam_tree(_beam_nodes(beam=4, steps=20)),
        "parameter_treemap": lambda: viz.parameter_treemap(counts),
        "architecture_diagram": lambda: viz.architecture_diagram(config),
        "shape_table": lambda: viz.shape_table(shape_rows),
        "token_spans": lambda: viz.token_spans(TEXT, char_spans),
        "merges_table": lambda: viz.merges_table(merges),
        "mask_grid": lambda: viz.mask_grid(masks, ["input 1", "input 2"], ["padding", "causal", "combined"],
                                           mask_tokens, mask_tokens),
        "matrix_panels": lambda: viz.matrix_panels(worked, stacked=True),
        "layer_norm_vector": lambda: viz.layer_norm_vector(
            {"input": x_token, "normalised": x_hat, "output": 1.1 * x_hat + 0.05}),
        "residual_norms": lambda: viz.residual_norms(stage_names, stage_norms, [tokens] * len(stage_names),
                                                     groups=[n.split()[0] for n in stage_names]),
        "embedding_map": lambda: viz.embedding_map(points, vocab_texts, list(range(11))),
        "neighbour_bars": lambda: viz.neighbour_bars(vocab_texts[1:11], similarities),
        "blank_candidates": lambda: viz.blank_candidates(blanks),
        "two_decodings": lambda: viz.two_decodings(tokens, tokens, free, p_teacher, p_free, T // 2),
        "logit_lens_heatmap": lambda: viz.logit_lens_heatmap(lens_probs, lens_top, tokens),
        "induction_formation": lambda: viz.induction_formation(
            list(range(0, 5000, 100)), np.linspace(0.1, 0.9, 50), np.linspace(0.0, 0.8, 50) ** 2 * 1.4, 0.4),
        "learning_rate_schedule": lambda: viz.learning_rate_schedule(schedule_steps.tolist(), rates.tolist()),
        "patching_heatmap": lambda: viz.patching_heatmap(patched, [f"block {i}" for i in range(L + 1)], tokens),
        "head_patching_heatmap": lambda: viz.head_patching_heatmap(patched[:L, :H]),
        "logit_attribution_bars": lambda: viz.logit_attribution_bars(parts, rng.normal(size=len(parts)), 3.0),
        "probe_accuracy": lambda: viz.probe_accuracy([f"block {i}" for i in range(L + 1)], rng.uniform(0.5, 1, L + 1),
                                                     rng.uniform(0.45, 0.55, L + 1), 0.5),
        "placeholder": lambda: viz.placeholder("Train a model to see its loss curves here: press Start above."),
        "line_chart": lambda: viz.line_chart(list(range(1, 129)), {"tokens": np.linspace(0.1, 1, 128),
                                                                 "positions": np.linspace(0, 0.2, 128)},
                                             "Energy by direction", "k", "share", marker_x=34, marker_label="k = 34"),
        "grouped_bars": lambda: viz.grouped_bars([f"block {i}" for i in range(L)],
                                                 {"pre": rng.random(L), "post": rng.random(L)},
                                                 "Gradient norms", "layer", "norm", log_y=True),
        "layer_gradient_norms": lambda: viz.layer_gradient_norms(
            list(range(0, 5000, 100)), {name: rng.uniform(0.01, 1.0, 50) for name in
                                        ["embeddings", *(f"block {i}" for i in range(L)), "head"]}),
        "shifted_window": lambda: viz.shifted_window(tokens[:-1], tokens[1:]),
        "activation_comparison": lambda: viz.activation_comparison(
            np.linspace(-4, 4, 201), {"ReLU": np.maximum(np.linspace(-4, 4, 201), 0)},
            {"ReLU": (np.linspace(-4, 4, 201) > 0).astype(float)}, {"ReLU": rng.normal(size=4 * d)},
            {"ReLU": 100}, "ReLU and its units"),
    }


def _measure(build, repeats: int) -> tuple[float, float, float]:
    """(JSON size in KB, median build ms, median to_json ms) over `repeats` builds."""
    build_ms, json_ms = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        fig = build()
        built = time.perf_counter()
        text = fig.to_json()
        build_ms.append((built - start) * 1000)
        json_ms.append((time.perf_counter() - built) * 1000)
    return len(text) / 1024, statistics.median(build_ms), statistics.median(json_ms)


def _line(name: str, value: float, unit: str, goal: float | None, **context) -> dict:
    line = {"suite": SUITE, "name": name, "value": round(float(value), 3), "unit": unit, "goal": goal, "better": "lower"}
    line.update(context)
    return line


def run(quick: bool) -> list[dict]:
    """Measure every figure; quick uses fewer repeats (every metric is still reported)."""
    repeats = 5 if quick else 21
    rng = np.random.default_rng(0)
    tokens = list(TEXT[:64])
    grid_weights = _softmax((4, 4, 64, 64), rng, causal=True)  # [L, H, T, T]
    kb, ms, json_ms = _measure(lambda: viz.attention_grid(grid_weights, tokens, tokens), repeats)
    shape = "4 layers x 4 heads x 64 tokens"
    lines = [
        _line("attention_grid_kb", kb, "KB", 300, shape=shape),
        _line("attention_grid_ms", ms, "ms", 50, shape=shape, to_json_ms=round(json_ms, 3), repeats=repeats),
    ]
    classroom = f"{CLASS_TOKENS} tokens, {CLASS_LAYERS} layers x {CLASS_HEADS} heads, d_model {CLASS_D_MODEL}"
    for name, build in _classroom_cases(rng).items():
        kb, ms, json_ms = _measure(build, max(3, repeats // 3))
        lines.append(_line(f"{name}_kb", kb, "KB", CLASSROOM_KB_GOALS.get(name), size=classroom))
        lines.append(_line(f"{name}_ms", ms, "ms", None, size=classroom, to_json_ms=round(json_ms, 3)))
    return lines

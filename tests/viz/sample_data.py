"""Small random inputs shaped like the real ones: softmax rows, causal masks."""
import base64
import json

import numpy as np


def softmax_weights(shape: tuple, causal: bool = False, seed: int = 0) -> np.ndarray:
    """Random attention weights of `shape` [..., Tq, Tk] as float32; rows sum to 1."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=shape) * 2.0
    if causal:
        n_query, n_key = shape[-2:]
        allowed = np.tril(np.ones((n_query, n_key), dtype=bool))
        scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def sinusoidal(n_positions: int, d_model: int) -> np.ndarray:
    """The sinusoidal encoding [T, d]: sin on even dimensions, cos on odd ones."""
    position = np.arange(n_positions)[:, None]
    rate = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n_positions, d_model), dtype=np.float32)
    pe[:, 0::2] = np.sin(position * rate)
    pe[:, 1::2] = np.cos(position * rate)
    return pe


def figure_json_array(fig, trace: int, key: str) -> np.ndarray:
    """Decode a typed array (dtype + base64 bdata) as the browser receives it in the figure's JSON."""
    spec = json.loads(fig.to_json())["data"][trace][key]
    flat = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=np.dtype(spec["dtype"]))
    if "shape" in spec:
        return flat.reshape([int(n) for n in spec["shape"].split(",")])
    return flat

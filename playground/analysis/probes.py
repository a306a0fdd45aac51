"""Linear probes: at which layer does a property become readable from the residual stream by a straight line?

The residual stream at one position of one layer is a vector of D numbers. A probe is a logistic
regression from that vector to a label (say, "is the next character a vowel?"), trained on some
positions and measured on held-out ones. High held-out accuracy means the layer holds the property
in a linearly readable form.

Two baselines say what a probe's score means. The control task gives the same vectors the labels
shuffled among the positions, so the vectors carry nothing about them: its held-out score is what a
probe of this size reaches by chance. The position-only baseline reads nothing but the position: it
answers the commonest training label at each position, the best any rule of the position alone does
on the training rows, so a property that is mostly position is not credited to the layers. The
dashed line is the share of the commonest label (what always guessing it scores).

Work is bounded: at most MAX_PROBE_SEQUENCES sequences of at most MAX_PROBE_LENGTH tokens.

Every probe of every layer, the real ones and the controls, is trained at once as one batch of
linear maps, full-batch, from zero weights: the result depends only on the seed (which positions
are held out, how the control's labels are shuffled).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
from torch import nn

from playground.data import BOS_ID, Tokenizer
from playground.data.tasks import Task
from playground.data.tokenizer import NUM_SPECIAL
from playground.model import Trace

from .logit_lens import read_stack

MAX_PROBE_SEQUENCES = 128        # sequences (windows, sources) a probe reads at most
MAX_PROBE_LENGTH = 128           # tokens of each
VOWELS = frozenset("aeiouAEIOU")
LINE_ENDS = "，。？！；"             # what ends a line of a Chinese poem (full-width punctuation)


@dataclass
class ProbeData:
    """Features of every layer at the probed positions, and their labels."""

    layers: list[str]            # the hook names read: STACK.{i}.resid_pre of every block, then the last resid_post
    features: torch.Tensor       # [L, N, D]
    labels: torch.Tensor         # [N] class indices
    classes: list[str]           # the class names, by index
    groups: torch.Tensor         # [N] which sequence each position comes from (held out together)
    positions: torch.Tensor | None = None    # [N] each probed position's index in its sequence


@dataclass
class ProbeResult:
    layers: list[str]
    classes: list[str]
    accuracy: np.ndarray         # [L] held-out accuracy of the probe of each layer
    control: np.ndarray          # [L] held-out accuracy of the control task's probe (labels shuffled)
    train_accuracy: np.ndarray   # [L] the probe's accuracy on the positions it learned from
    chance: float                # the share of the commonest label among the held-out positions
    n_train: int
    n_test: int
    position_only: float | None = None   # held-out accuracy of the commonest training label at each position
    held_out: np.ndarray | None = None   # [N] bool: the rows the held-out scores are measured on
    control_labels: np.ndarray | None = None   # [N] the control task's labels


# ------------------------------------------------------------------------------------------ training

def _split(groups: torch.Tensor, test_fraction: float, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Boolean masks [N] of the training and held-out positions; a sequence goes wholly to one side."""
    unique = torch.unique(groups)
    order = unique[torch.randperm(len(unique), generator=generator)]
    n_test = max(1, round(len(unique) * test_fraction))
    if n_test >= len(unique):
        raise ValueError(f"{len(unique)} sequence(s) cannot be split into training and held-out parts; give more")
    test = torch.isin(groups, order[:n_test])
    return ~test, test


def position_only(labels: torch.Tensor, positions: torch.Tensor, train: torch.Tensor, n_classes: int) -> torch.Tensor:
    """Each row's answer from its position alone: the commonest training label at that position (the
    commonest training label overall where no training row has that position; ties to the lower class).  [N]"""
    overall = int(torch.bincount(labels[train], minlength=n_classes).argmax())
    counts = torch.zeros(int(positions.max()) + 1, n_classes, dtype=torch.long)
    counts.index_put_((positions[train], labels[train]), torch.ones(int(train.sum()), dtype=torch.long), accumulate=True)
    answer = counts.argmax(dim=1)                                             # [P] first maximum: the lower class
    answer[counts.sum(dim=1) == 0] = overall
    return answer[positions]


def fit_probes(data: ProbeData, seed: int = 0, test_fraction: float = 0.25, steps: int = 100, lr: float = 0.1,
               weight_decay: float = 1e-3, held_out: Sequence[int] | None = None) -> ProbeResult:
    """Train a probe and a control-task probe per layer on `data`; measure them, and the position-only
    baseline, on held-out sequences (drawn with the seed, or the groups `held_out`)."""
    if not isinstance(data, ProbeData):
        raise TypeError(f"data must be a ProbeData (see the *_probe_data functions), got {type(data).__name__}")
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must be between 0 and 1, got {test_fraction!r}")
    n_layers, n, _ = data.features.shape
    n_classes = len(data.classes)
    if n_classes < 2 or data.labels.shape != (n,) or data.groups.shape != (n,):
        raise ValueError("a probe needs at least two classes, and one label and one group per position")
    generator = torch.Generator().manual_seed(seed)
    train, test = _split(data.groups, test_fraction, generator)
    if held_out is not None:
        test = torch.isin(data.groups, torch.tensor(list(held_out), dtype=data.groups.dtype))
        train = ~test
        if not test.any() or not train.any():
            raise ValueError("held_out must name some, but not all, of the groups")
    shuffled = data.labels[torch.randperm(n, generator=generator)]            # [N] the control's labels
    x = data.features.float()
    mean, std = x[:, train].mean(dim=1, keepdim=True), x[:, train].std(dim=1, keepdim=True) + 1e-6
    x = torch.cat([(x - mean) / std] * 2)                                     # [2L, N, D]: probes, then controls
    labels = torch.cat([data.labels.expand(n_layers, n), shuffled.expand(n_layers, n)])   # [2L, N]
    with torch.inference_mode(False), torch.enable_grad():      # trainable even when called under inference_mode
        x_train, labels_train = x[:, train].clone(), labels[:, train].flatten().clone()   # ordinary tensors
        weight = torch.zeros(2 * n_layers, x.size(-1), n_classes, requires_grad=True)    # [2L, D, C]
        bias = torch.zeros(2 * n_layers, 1, n_classes, requires_grad=True)
        optimizer = torch.optim.Adam([weight, bias], lr=lr)
        for _ in range(steps):
            logits = torch.baddbmm(bias, x_train, weight)                    # [2L, n_train, C]
            loss = nn.functional.cross_entropy(logits.flatten(0, 1), labels_train) * 2 * n_layers \
                + weight_decay * weight.pow(2).sum()
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        right = (torch.baddbmm(bias, x, weight).argmax(-1) == labels).float()    # [2L, N]
    counts = torch.bincount(data.labels[test], minlength=n_classes)
    by_position = None
    if data.positions is not None:
        guess = position_only(data.labels, data.positions, train, n_classes)
        by_position = float((guess[test] == data.labels[test]).float().mean())
    return ProbeResult(data.layers, data.classes, right[:n_layers, test].mean(1).numpy(),
                       right[n_layers:, test].mean(1).numpy(), right[:n_layers, train].mean(1).numpy(),
                       float(counts.max()) / int(test.sum()), int(train.sum()), int(test.sum()), by_position,
                       test.numpy(), shuffled.numpy())


def thinned(data: ProbeData, max_rows: int) -> ProbeData:
    """`data` with every k-th probed position kept, the smallest k leaving at most `max_rows` of them: every
    sequence stays (held out whole as before), each with fewer positions; the work of fitting grows with them."""
    stride = -(-len(data.labels) // max(1, max_rows))
    if stride <= 1:
        return data
    keep = torch.arange(0, len(data.labels), stride)                          # [N / stride]
    return ProbeData(data.layers, data.features[:, keep], data.labels[keep], data.classes, data.groups[keep],
                     None if data.positions is None else data.positions[keep])


# ------------------------------------------------------------------------------------------ features

def residual_layers(model: nn.Module, stack: str | None = None) -> list[str]:
    """The residual stream entering every block of `stack` (default: the one the head reads), then leaving the last."""
    stack = stack or read_stack(model).name
    n = model.config.n_encoder_layers if stack == "encoder" else model.config.n_decoder_layers
    return [f"{stack}.{i}.resid_pre" for i in range(n)] + [f"{stack}.{n - 1}.resid_post"]


@torch.no_grad()
def residual_features(model: nn.Module, ids: torch.Tensor, positions: torch.Tensor, source: torch.Tensor | None = None,
                      stack: str | None = None) -> tuple[list[str], torch.Tensor]:
    """(layer names, features [L, N, D]) of the residual stream at the positions where `positions` [B, T] is True."""
    layers = residual_layers(model, stack)
    trace = Trace(include=tuple(layers))
    memory = model.encode(source, trace) if source is not None else None
    model.decode(ids, memory, None, trace)
    return layers, torch.stack([trace[name][positions] for name in layers])


def _groups(positions: torch.Tensor) -> torch.Tensor:
    return torch.arange(positions.size(0))[:, None].expand_as(positions)[positions]


def _indices(positions: torch.Tensor) -> torch.Tensor:
    """Each probed position's index in its sequence ([B, T] mask -> [N])."""
    return torch.arange(positions.size(1)).expand_as(positions)[positions]


def _bounded(count: int, length: int, name: str) -> None:
    if not 1 <= count <= MAX_PROBE_SEQUENCES:
        raise ValueError(f"{name} must be between 1 and {MAX_PROBE_SEQUENCES}, got {count}")
    if not 2 <= length <= MAX_PROBE_LENGTH:
        raise ValueError(f"a probe reads sequences of 2 to {MAX_PROBE_LENGTH} tokens, got {length}")


def induction_probe_data(model: nn.Module, property: str = "offset", n_sequences: int = 128, length: int | None = None,
                         periods: Sequence[int] = tuple(range(8, 33)), seed: int = 0) -> ProbeData:
    """Random blocks repeated (a period drawn per sequence from `periods`), probed at every position t >= 1 for

        "offset": the position inside the repeat, t mod period (positions t >= period, inside a repeat);
        "inside": whether t is inside a repeat at all (t >= period: its block was seen before).

    Both are properties of the sequence, not of the position alone, since the period varies.
    """
    if property not in ("offset", "inside"):
        raise ValueError(f'property must be "offset" or "inside", got {property!r}')
    length = length or min(model.config.max_len, MAX_PROBE_LENGTH)
    _bounded(n_sequences, length, "n_sequences")
    periods = sorted(set(periods))
    if not periods or periods[0] < 2 or periods[-1] >= length:
        raise ValueError(f"periods must lie between 2 and length - 1 = {length - 1}, got {periods}")
    rng = random.Random(f"induction-probe/{seed}")
    vocab = model.config.vocab_size
    ids = torch.zeros(n_sequences, length, dtype=torch.long)
    positions = torch.zeros(n_sequences, length, dtype=torch.bool)
    labels = []
    for row in range(n_sequences):
        period = rng.choice(periods)
        block = [rng.randrange(NUM_SPECIAL, vocab) for _ in range(period)]
        ids[row] = torch.tensor([block[t % period] for t in range(length)])
        first = period if property == "offset" else 1
        positions[row, first:] = True
        labels += [t % period if property == "offset" else int(t >= period) for t in range(first, length)]
    layers, features = residual_features(model, ids, positions)
    classes = [str(i) for i in range(periods[-1])] if property == "offset" else ["first copy", "repeat"]
    return ProbeData(layers, features, torch.tensor(labels), classes, _groups(positions), _indices(positions))


def reverse_probe_data(model: nn.Module, task: Task, tokenizer: Tokenizer | None = None, property: str = "index",
                       n_sources: int = MAX_PROBE_SEQUENCES, seed: int = 0) -> ProbeData:
    """Held-out sources of the reverse task, probed in the decoder at each target position for

        "index": the source index being copied there (len(source) - 1 - position);
        "letter": the source letter being copied there (the answer the decoder must produce).
    """
    if task.name != "reverse":
        raise ValueError(f"this probe reads the reverse task; got {task.name}")
    if property not in ("index", "letter"):
        raise ValueError(f'property must be "index" or "letter", got {property!r}')
    tokenizer = tokenizer or task.tokenizer
    _bounded(n_sources, 2, "n_sources")
    pairs = task.held_out(n_sources, seed=seed)
    width = max(len(s) for s, _ in pairs)
    src = torch.zeros(len(pairs), width, dtype=torch.long)
    tgt = torch.zeros(len(pairs), width, dtype=torch.long)
    positions = torch.zeros(len(pairs), width, dtype=torch.bool)
    labels = []
    for row, (source, target) in enumerate(pairs):
        answer = tokenizer.encode(target)
        src[row, :len(source)] = torch.tensor(tokenizer.encode(source))
        tgt[row, :len(target)] = torch.tensor([BOS_ID, *answer[:-1]])       # the decoder's input
        positions[row, :len(target)] = True
        labels += [len(source) - 1 - j for j in range(len(target))] if property == "index" else answer
    layers, features = residual_features(model, tgt, positions, src, stack="decoder")
    if property == "index":
        classes = [str(i) for i in range(width)]
    else:
        letters = sorted(set(labels))
        labels = [letters.index(token) for token in labels]
        classes = [tokenizer.id_to_piece(token) for token in letters]
    return ProbeData(layers, features, torch.tensor(labels), classes, _groups(positions), _indices(positions))


def _character_windows(length: int, tokenizer: Tokenizer, text: str, stream: str,
                       n_windows: int) -> tuple[list[int], torch.Tensor]:
    """`n_windows` random windows of `length` characters of `text` (one more character follows each), drawn
    from the random stream named `stream`: their starts and their ids [B, T]. Refused for a tokenizer that
    is not one token per character, or a text too short."""
    ids = tokenizer.encode(text)
    if len(ids) != len(text):
        raise ValueError("this probe reads one token per character; the model's tokenizer is not a character tokenizer")
    if len(text) < length + 1:
        raise ValueError(f"the text has {len(text)} characters; the probe needs at least {length + 1}")
    rng = random.Random(stream)
    starts = [rng.randrange(len(text) - length) for _ in range(n_windows)]
    return starts, torch.tensor([ids[s:s + length] for s in starts])          # [B, T]


def next_vowel_probe_data(model: nn.Module, tokenizer: Tokenizer, text: str, n_windows: int = 64,
                          seed: int = 0, length: int | None = None) -> ProbeData:
    """Windows of `length` characters (default: the model's context, at most MAX_PROBE_LENGTH) of `text` (held-out
    text of the model's corpus), probed at every position whose next character is a letter: is it a vowel
    (a, e, i, o, u) or a consonant?"""
    length = length or min(model.config.max_len, MAX_PROBE_LENGTH)
    _bounded(n_windows, length, "n_windows")
    starts, windows = _character_windows(length, tokenizer, text, f"vowel-probe/{seed}", n_windows)
    nexts = [text[s + 1:s + length + 1] for s in starts]                      # the character after each position
    positions = torch.tensor([[ch.isalpha() and ch.isascii() for ch in following] for following in nexts])
    labels = [int(ch in VOWELS) for following in nexts for ch in following if ch.isalpha() and ch.isascii()]
    layers, features = residual_features(model, windows, positions)
    return ProbeData(layers, features, torch.tensor(labels), ["consonant", "vowel"], _groups(positions),
                     _indices(positions))


def line_end_probe_data(model: nn.Module, tokenizer: Tokenizer, text: str, ends: str = LINE_ENDS, n_windows: int = 64,
                        seed: int = 0, length: int | None = None) -> ProbeData:
    """Windows of `text` (held-out text of a poetry corpus), probed at every position that is itself inside a
    line (not a line end, not a newline): does the next character end the line (one of `ends`)?

    A line of a Tang poem has 5 or 7 characters, so the answer depends on how far the line has come, which
    a single character does not tell: a model that counts makes it readable in later layers. Windows are
    `length` characters long (default: the model's context, at most MAX_PROBE_LENGTH)."""
    length = length or min(model.config.max_len, MAX_PROBE_LENGTH)
    _bounded(n_windows, length, "n_windows")
    starts, windows = _character_windows(length, tokenizer, text, f"line-end-probe/{seed}", n_windows)
    inside = [[ch not in ends and ch != "\n" for ch in text[s:s + length]] for s in starts]
    positions = torch.tensor(inside)                                          # [B, T]
    labels = [int(text[s + 1 + t] in ends) for s, row in zip(starts, inside) for t, probed in enumerate(row) if probed]
    layers, features = residual_features(model, windows, positions)
    return ProbeData(layers, features, torch.tensor(labels), ["inside the line", "line ends next"], _groups(positions),
                     _indices(positions))

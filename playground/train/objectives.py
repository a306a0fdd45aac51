"""What a model learns from a kind of data: batches, the loss targets, held-out metrics, the probe.

An objective pairs a data object with an architecture:

    seq2seq task (playground.data.tasks)  + encoder_decoder -> Seq2SeqObjective
    seq2seq task                          + decoder_only    -> PromptedSeq2SeqObjective
                                            (source, <bos>, target, <eos> read as one sequence)
    LMData                                + decoder_only    -> LanguageModelObjective
    MLMData                               + encoder_only    -> MaskedLMObjective
    RepeatedSequences                     + decoder_only    -> RepeatedSequenceObjective

Each owns its training-data random stream, so a trainer that keeps the objective keeps its
place in the data. Every check that can fail runs in the constructor, before any training.
"""
from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from playground.analysis import head_scores
from playground.data import BOS_ID, EOS_ID, IGNORE_INDEX, PAD_ID, LMData, MLMData, Tokenizer, pad_sequences
from playground.data.repeats import RepeatedSequences, repeat_to_length
from playground.data.tasks import Task
from playground.data.tokenizer import NUM_SPECIAL
from playground.device import model_device
from playground.generate.batch import bos, greedy, sample_continuation
from playground.model import (
    CROSS, DECODER_SELF, ENCODER_SELF, AttentionSite, ModelConfig, MultiHeadAttention, Trace, causal_mask,
)
from playground.train.config import TrainConfig
from playground.train.events import Sample
from playground.train.metrics import bleu

EVAL_CHUNK = 256          # sequences per forward pass while evaluating
PROBE_MAX_TOKENS = 32     # attention maps larger than this are unreadable
PROBE_PERIOD = 12         # repeat period of the repeated-sequence probe: 12 + 12 + 8 tokens
N_SAMPLES = 3             # held-out decodes shown per snapshot
LM_SAMPLE_TOKENS = 120
LM_SAMPLE_TEMPERATURE = 0.8


@dataclass(frozen=True)
class Batch:
    """Model inputs, targets [B, T] (IGNORE_INDEX where no loss is taken) and input tokens read."""

    inputs: tuple[torch.Tensor, ...]
    targets: torch.Tensor
    n_tokens: int

    def to(self, device: torch.device) -> Batch:
        """The same batch with its tensors on ``device`` (to a GPU from pinned memory, without waiting for it)."""
        return Batch(tuple(_moved(x, device) for x in self.inputs), _moved(self.targets, device), self.n_tokens)


def _moved(tensor: torch.Tensor, device: torch.device) -> torch.Tensor:
    if device.type == "cuda" and tensor.device.type == "cpu":
        return tensor.pin_memory().to(device, non_blocking=True)
    return tensor.to(device)


@dataclass(frozen=True)
class Metrics:
    """Held-out results; bleu (0-100, characters, of greedy decodes) for seq2seq tasks only."""

    val_loss: float
    accuracy: float
    exact_match: float | None
    bleu: float | None = None


@dataclass(frozen=True)
class Probe:
    """Attention of one fixed input: kind -> [L, H, Tq, Tk], with axis tokens and head scores."""

    text: str
    attention: dict[str, np.ndarray]
    tokens: dict[str, tuple[list[str], list[str]]]
    head_scores: dict[str, np.ndarray]


class Objective(ABC):
    """Training batches, loss targets and held-out evaluation for one kind of data."""

    arch: str
    tokenizer: Tokenizer
    measures_exact_match: bool = False       # every held-out example has one right answer

    def __init__(self, model_config: ModelConfig, train_config: TrainConfig):
        if model_config.arch != self.arch:
            raise ValueError(f"{self.describe()} needs arch={self.arch!r}, got {model_config.arch!r}")
        smallest = min(model_config.vocab_size, model_config.target_vocab_size)
        if smallest < self.tokenizer.vocab_size:
            raise ValueError(
                f"the tokenizer has {self.tokenizer.vocab_size} tokens but the model's vocabulary has {smallest}; "
                f"set vocab_size (and tgt_vocab_size) to at least {self.tokenizer.vocab_size}"
            )
        self.model_config = model_config
        self.train_config = train_config

    @abstractmethod
    def describe(self) -> str:
        """A short phrase for messages, e.g. "the copy task"."""

    @abstractmethod
    def next_batch(self) -> Batch:
        """The next training batch, drawn from the objective's own random stream."""

    def to(self, device: torch.device) -> None:
        """Draw the next batches for a model on ``device``. Batches are made on the CPU unless an
        objective draws them on the device itself."""

    @abstractmethod
    def forward(self, model: nn.Module, inputs: tuple[torch.Tensor, ...], trace: Trace | None = None) -> torch.Tensor:
        """Logits [B, T, V] for a batch's inputs."""

    @abstractmethod
    def val_batches(self) -> list[Batch]:
        """The fixed held-out set, in chunks."""

    @abstractmethod
    def probe(self, model: nn.Module) -> Probe:
        """Attention on the fixed probe input."""

    @abstractmethod
    def samples(self, model: nn.Module) -> list[Sample]:
        """A few outputs of the model, for people to read."""

    def loss(self, model: nn.Module, batch: Batch) -> torch.Tensor:
        """Mean cross-entropy over the positions that have a target."""
        batch = batch.to(model_device(model))
        logits = self.forward(model, batch.inputs)                          # [B, T, V]
        return F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(), ignore_index=IGNORE_INDEX)

    @torch.no_grad()
    def evaluate(self, model: nn.Module) -> Metrics:
        """Held-out loss and token accuracy (teacher forced), plus exact match where it applies.

        Exact match of greedy decodes comes from the same teacher-forced pass: a greedy decode
        equals the target exactly when every teacher-forced prediction (eos included) is right,
        because greedy decoding then feeds itself exactly the teacher's prefix, and it differs
        as soon as one is wrong.
        """
        total_loss, correct, count, exact, examples = 0.0, 0, 0, 0, 0
        device = model_device(model)
        for batch in self.val_batches():
            batch = batch.to(device)
            logits = self.forward(model, batch.inputs)                      # [B, T, V]
            counted = batch.targets != IGNORE_INDEX                          # [B, T]
            right = logits.argmax(-1) == batch.targets                       # [B, T]
            total_loss += float(F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(),
                                                ignore_index=IGNORE_INDEX, reduction="sum"))
            correct += int(right[counted].sum())
            count += int(counted.sum())
            exact += int((right | ~counted).all(dim=1).sum())
            examples += len(batch.targets)
        return Metrics(total_loss / count, correct / count, exact / examples if self.measures_exact_match else None)

    def _traced(self, model: nn.Module, inputs: tuple[torch.Tensor, ...]) -> Trace:
        trace = Trace(include=tuple(site.pattern() for site in model.sites()))
        with torch.no_grad():
            self.forward(model, tuple(x.to(model_device(model)) for x in inputs), trace)
        return trace

    def _pieces(self, ids: list[int]) -> list[str]:
        return [self.tokenizer.id_to_piece(i) for i in ids]


def _attention(trace: Trace, site: AttentionSite) -> np.ndarray:
    """Weights of the one probe sequence: [L, H, Tq, Tk] float32."""
    return trace.attention(site)[:, 0].float().cpu().numpy()


def _scores(site: AttentionSite, weights: np.ndarray, **kwargs) -> dict[str, np.ndarray]:
    """Head scores of one site's probe weights, keyed "SITE_NAME.SCORE" (e.g. "decoder.cross_attn.diagonal")."""
    kind = "cross" if site.is_cross else "self"
    return {f"{site.name}.{score}": value for score, value in head_scores(weights, kind, **kwargs).items()}


def decoder_is_causal(model: nn.Module) -> bool:
    """True when each decoder prediction depends only on earlier tokens by construction: the
    reference causal mask and reference attention pieces. Only then does the teacher-forced pass
    give the exact match of greedy decoding; an experiment that swaps one of them breaks that."""
    decoder = getattr(model, "decoder", None)
    if decoder is None or decoder.mask_builder is not causal_mask:
        return False
    return all(m.uses_reference_pieces() for m in decoder.modules() if isinstance(m, MultiHeadAttention))


def _with_ignored_pads(ids: torch.Tensor) -> torch.Tensor:
    return ids.masked_fill(ids == PAD_ID, IGNORE_INDEX)


class _TaskObjective(Objective):
    """Shared by both seq2seq objectives: a held-out set of distinct sources kept out of training."""

    measures_exact_match = True

    def __init__(self, task: Task, model_config: ModelConfig, train_config: TrainConfig):
        self.task = task
        self.tokenizer = task.tokenizer
        super().__init__(model_config, train_config)
        self._check_length(model_config)
        try:
            # The sources left after the held-out set must fill at least one batch.
            pairs = task.held_out(train_config.val_size + train_config.batch_size, seed=train_config.seed)
        except ValueError as error:
            raise ValueError(
                f"{self.describe()} has too few distinct examples for val_size={train_config.val_size} held-out "
                f"plus a batch of batch_size={train_config.batch_size}; lower val_size or batch_size, or make the "
                f"task larger ({error})"
            ) from None
        self.held_out = pairs[: train_config.val_size]
        self._held_out_sources = frozenset(source for source, _ in self.held_out)
        self._val = [self._batch(self.held_out[i:i + EVAL_CHUNK]) for i in range(0, len(self.held_out), EVAL_CHUNK)]
        self.rng = random.Random(f"train/{task.name}/{train_config.seed}")

    def describe(self) -> str:
        return f"the {self.task.name} task"

    @abstractmethod
    def _check_length(self, model_config: ModelConfig) -> None:
        """Raise ValueError when the task's sequences do not fit the model's context."""

    def next_batch(self) -> Batch:
        pairs = self.task.sample_pairs(self.train_config.batch_size, self.rng, exclude=self._held_out_sources)
        return self._batch(pairs)

    @abstractmethod
    def _batch(self, pairs: list[tuple[str, str]]) -> Batch:
        """Tensors for (source, target) pairs."""

    def val_batches(self) -> list[Batch]:
        return self._val

    @abstractmethod
    def greedy(self, model: nn.Module, sources: list[str]) -> list[list[int]]:
        """Greedy decodes (ids up to and including eos) of ``sources``."""

    @torch.no_grad()
    def evaluate(self, model: nn.Module) -> Metrics:
        """As Objective.evaluate, plus the BLEU of the greedy decodes; a decoder that can see later
        tokens gets its exact match from those decodes too."""
        metrics = super().evaluate(model)
        decoded = self.greedy(model, [source for source, _ in self.held_out])
        outputs = [self.tokenizer.decode(ids) for ids in decoded]                # eos is not text
        metrics = replace(metrics, bleu=bleu(outputs, [target for _, target in self.held_out]))
        return metrics if decoder_is_causal(model) else replace(metrics, exact_match=self.decoded_exact_match(model))

    @torch.no_grad()
    def decoded_exact_match(self, model: nn.Module) -> float:
        """The share of held-out sources whose greedy decode is exactly target + eos."""
        decoded = self.greedy(model, [source for source, _ in self.held_out])
        wanted = [self.tokenizer.encode(target) + [EOS_ID] for _, target in self.held_out]
        return sum(out == want for out, want in zip(decoded, wanted)) / len(self.held_out)

    def samples(self, model: nn.Module) -> list[Sample]:
        pairs = self.held_out[:N_SAMPLES]
        decoded = self.greedy(model, [source for source, _ in pairs])
        return [Sample(source, self.tokenizer.decode(out), target) for out, (source, target) in zip(decoded, pairs)]


class Seq2SeqObjective(_TaskObjective):
    """Encoder-decoder on a seq2seq task: the encoder reads the source, the decoder writes the target."""

    arch = "encoder_decoder"

    def _check_length(self, model_config: ModelConfig) -> None:
        longest = max(self.task.max_source_len, self.task.max_target_len + 1)
        if longest > model_config.max_len:
            raise ValueError(
                f"{self.describe()} needs sequences of up to {longest} tokens (source {self.task.max_source_len}, "
                f"target {self.task.max_target_len} + <bos>) but the model's max_len is {model_config.max_len}; "
                f"raise max_len to at least {longest} or make the task shorter"
            )

    def _batch(self, pairs):
        batch = self.task.batch(pairs)
        n_tokens = int((batch.src != PAD_ID).sum() + (batch.tgt_in != PAD_ID).sum())
        return Batch((batch.src, batch.tgt_in), _with_ignored_pads(batch.tgt_out), n_tokens)

    def forward(self, model, inputs, trace=None):
        src, tgt_in = inputs
        return model(src, tgt_in, trace=trace)

    def greedy(self, model, sources):
        src = pad_sequences([self.tokenizer.encode(s) for s in sources])   # [B, S]
        return greedy(model, bos(src.size(0)), self.task.max_target_len + 1, src)

    def probe(self, model):
        source, target = self.held_out[0]
        src_ids, tgt_ids = self.task.encode_pair(source, target)
        tgt_in = [BOS_ID, *tgt_ids]
        trace = self._traced(model, (torch.tensor([src_ids]), torch.tensor([tgt_in])))
        src_pieces, tgt_pieces = self._pieces(src_ids), self._pieces(tgt_in)
        attention = {site.name: _attention(trace, site) for site in (ENCODER_SELF, DECODER_SELF, CROSS)}
        tokens = {
            ENCODER_SELF.name: (src_pieces, src_pieces),
            DECODER_SELF.name: (tgt_pieces, tgt_pieces),
            CROSS.name: (tgt_pieces, src_pieces),
        }
        scores = {
            **_scores(ENCODER_SELF, attention[ENCODER_SELF.name], ids=src_ids, causal=False),
            **_scores(DECODER_SELF, attention[DECODER_SELF.name], ids=tgt_in, causal=True),
            **_scores(CROSS, attention[CROSS.name]),
        }
        return Probe(f"{source} -> {target}", attention, tokens, scores)


class PromptedSeq2SeqObjective(_TaskObjective):
    """Decoder-only on a seq2seq task: reads ``source <bos> target <eos>`` as one sequence and
    learns only the part after <bos>; decoding continues the prompt ``source <bos>``."""

    arch = "decoder_only"

    def _check_length(self, model_config: ModelConfig) -> None:
        longest = self.task.max_source_len + 1 + self.task.max_target_len
        if longest > model_config.max_len:
            raise ValueError(
                f"a decoder-only model reads {self.describe()}'s source, <bos> and target as one sequence of up to "
                f"{longest} tokens, but its max_len is {model_config.max_len}; raise max_len to at least {longest}"
            )

    def _sequence(self, source: str, target: str) -> list[int]:
        src_ids, tgt_ids = self.task.encode_pair(source, target)
        return [*src_ids, BOS_ID, *tgt_ids, EOS_ID]

    def _batch(self, pairs):
        rows = [self._sequence(s, t) for s, t in pairs]
        ids = pad_sequences(rows)                                            # [B, T+1]
        targets = ids[:, 1:].clone()                                         # [B, T]
        for row, (source, _) in enumerate(pairs):
            targets[row, : len(source)] = IGNORE_INDEX                       # the source and <bos> are given
        targets = _with_ignored_pads(targets)
        return Batch((ids[:, :-1],), targets, sum(len(r) - 1 for r in rows))

    def forward(self, model, inputs, trace=None):
        (ids,) = inputs
        return model(ids, trace=trace)

    def greedy(self, model, sources):
        decoded: dict[int, list[int]] = {}
        by_length: dict[int, list[int]] = {}
        for i, source in enumerate(sources):
            by_length.setdefault(len(self.tokenizer.encode(source)), []).append(i)
        for indices in by_length.values():
            prompt = torch.tensor([[*self.tokenizer.encode(sources[i]), BOS_ID] for i in indices])  # [B, P]
            for i, out in zip(indices, greedy(model, prompt, self.task.max_target_len + 1)):
                decoded[i] = out
        return [decoded[i] for i in range(len(sources))]

    def probe(self, model):
        source, target = self.held_out[0]
        ids = self._sequence(source, target)[:-1]
        trace = self._traced(model, (torch.tensor([ids]),))
        weights = _attention(trace, DECODER_SELF)
        pieces = self._pieces(ids)
        return Probe(f"{source} -> {target}", {DECODER_SELF.name: weights},
                     {DECODER_SELF.name: (pieces, pieces)},
                     _scores(DECODER_SELF, weights, ids=ids, causal=True))


class _TextObjective(Objective):
    """Shared by the language-model objectives: windows of a text, a batch must fit the training text."""

    def __init__(self, data: LMData | MLMData, model_config: ModelConfig, train_config: TrainConfig, window: int):
        self.data = data
        self.tokenizer = data.tokenizer
        super().__init__(model_config, train_config)
        if data.block_size > model_config.max_len:
            raise ValueError(
                f"the data's block_size ({data.block_size} tokens) is longer than the model's max_len "
                f"({model_config.max_len}); lower block_size or raise max_len"
            )
        n_windows = len(data.ids("train")) - window + 1
        if train_config.batch_size > n_windows:
            raise ValueError(
                f"batch_size={train_config.batch_size} is larger than the data: the training text has only "
                f"{n_windows} windows of {window} tokens; lower batch_size or block_size, or use a longer text"
            )
        self.generator = torch.Generator().manual_seed(train_config.seed)   # batch positions drawn on the CPU
        self._gpu_stream: torch.Generator | torch.Tensor | None = None      # on CUDA: its generator; else its state

    def to(self, device: torch.device) -> None:
        """On CUDA the windows are drawn there, from a stream of their own (seeded like the CPU's, and
        kept while the trainer visits the CPU), so a step copies nothing from the CPU."""
        stream = self._gpu_stream
        state = stream.get_state() if isinstance(stream, torch.Generator) else stream
        if device.type != "cuda":
            self._gpu_stream = state
            return
        generator = torch.Generator(device)
        if state is None:
            generator.manual_seed(self.train_config.seed)
        else:
            generator.set_state(state)
        self._gpu_stream = generator

    def next_batch(self) -> Batch:
        stream = self._gpu_stream if isinstance(self._gpu_stream, torch.Generator) else self.generator
        x, y = self.data.batch("train", self.train_config.batch_size, stream)  # [B, T] each, on the stream's device
        return Batch((x,), y, x.numel())

    def forward(self, model, inputs, trace=None):
        (ids,) = inputs
        return model(ids, trace=trace)


class LanguageModelObjective(_TextObjective):
    """Next-token prediction with a decoder-only model."""

    arch = "decoder_only"

    def __init__(self, data: LMData, model_config: ModelConfig, train_config: TrainConfig):
        super().__init__(data, model_config, train_config, window=data.block_size + 1)
        self._val = self._val_windows(train_config.val_size)

    def describe(self) -> str:
        return "next-token prediction (LMData)"

    def _val_windows(self, val_size: int) -> list[Batch]:
        """Non-overlapping windows of the validation text, evenly spread when there are more than val_size."""
        ids, T = self.data.ids("val"), self.data.block_size
        n_windows = max(1, (len(ids) - 1) // T)
        chosen = np.unique(np.linspace(0, n_windows - 1, min(val_size, n_windows)).round().astype(int))
        windows = torch.stack([ids[i * T: i * T + T + 1] for i in chosen])  # [N, T+1]
        return [Batch((w[:, :-1],), w[:, 1:], w[:, :-1].numel()) for w in windows.split(EVAL_CHUNK)]

    def val_batches(self):
        return self._val

    def _probe_ids(self) -> list[int]:
        return self.data.ids("val")[: min(self.data.block_size, PROBE_MAX_TOKENS)].tolist()

    def probe(self, model):
        ids = self._probe_ids()
        trace = self._traced(model, (torch.tensor([ids]),))
        weights = _attention(trace, DECODER_SELF)
        pieces = self._pieces(ids)
        return Probe(self.tokenizer.decode(ids), {DECODER_SELF.name: weights}, {DECODER_SELF.name: (pieces, pieces)},
                     _scores(DECODER_SELF, weights, ids=ids, causal=True))

    def samples(self, model):
        prompt = self._probe_ids()[: max(1, min(16, self.data.block_size // 2))]
        room = min(LM_SAMPLE_TOKENS, self.data.block_size - len(prompt))
        generator = torch.Generator().manual_seed(self.train_config.seed)    # the same draws at every snapshot
        out = sample_continuation(model, prompt, room, LM_SAMPLE_TEMPERATURE, generator)
        return [Sample(self.tokenizer.decode(prompt), self.tokenizer.decode(out))]


class MaskedLMObjective(_TextObjective):
    """BERT-style masked-token prediction with an encoder-only model."""

    arch = "encoder_only"

    def __init__(self, data: MLMData, model_config: ModelConfig, train_config: TrainConfig):
        super().__init__(data, model_config, train_config, window=data.block_size)
        n_val = min(train_config.val_size, max(1, len(data.ids("val")) // data.block_size))
        x, labels = data.batch("val", n_val, torch.Generator().manual_seed(train_config.seed))  # [N, T]
        self._val = [Batch((xs,), ls, xs.numel()) for xs, ls in zip(x.split(EVAL_CHUNK), labels.split(EVAL_CHUNK))]
        length = min(data.block_size, PROBE_MAX_TOKENS)
        self._probe_x, self._probe_labels = x[:N_SAMPLES, :length], labels[:N_SAMPLES, :length]  # [n, T']

    def describe(self) -> str:
        return "masked-token prediction (MLMData)"

    def val_batches(self):
        return self._val

    def probe(self, model):
        ids = self._probe_x[0].tolist()
        trace = self._traced(model, (self._probe_x[:1],))
        weights = _attention(trace, ENCODER_SELF)
        pieces = self._pieces(ids)
        return Probe(self.tokenizer.decode(ids, skip_special=False), {ENCODER_SELF.name: weights},
                     {ENCODER_SELF.name: (pieces, pieces)},
                     _scores(ENCODER_SELF, weights, ids=ids, causal=False))

    @torch.no_grad()
    def samples(self, model):
        logits = model(self._probe_x.to(model_device(model))).cpu()         # [n, T', V]
        logits[..., :NUM_SPECIAL] = -math.inf                                # a hidden token is never a special one
        guesses = logits.argmax(-1)                                          # [n, T']
        selected = self._probe_labels != IGNORE_INDEX
        original = torch.where(selected, self._probe_labels, self._probe_x)
        filled = torch.where(selected, guesses, self._probe_x)
        return [
            Sample(self.tokenizer.decode(x.tolist(), skip_special=False), self.tokenizer.decode(f.tolist()),
                   self.tokenizer.decode(o.tolist()))
            for x, f, o in zip(self._probe_x, filled, original)
        ]


class RepeatedSequenceObjective(Objective):
    """Next-token prediction with a decoder-only model on random blocks repeated to fill the context.

    The held-out set is ``val_size`` sequences from a seed stream of its own, their periods spread
    evenly over the training range. The probe writes one random block of PROBE_PERIOD tokens (or the
    nearest period in range) again and again over PROBE_MAX_TOKENS tokens.
    """

    arch = "decoder_only"

    def __init__(self, data: RepeatedSequences, model_config: ModelConfig, train_config: TrainConfig):
        self.data = data
        self.tokenizer = data.tokenizer
        super().__init__(model_config, train_config)
        if data.block_size > model_config.max_len:
            raise ValueError(
                f"the data's block_size ({data.block_size} tokens) is longer than the model's max_len "
                f"({model_config.max_len}); lower block_size or raise max_len"
            )
        self.generator = torch.Generator().manual_seed(train_config.seed)
        held_out = torch.Generator().manual_seed(train_config.seed + 1)
        periods = np.linspace(data.min_period, data.max_period, train_config.val_size).round().astype(int)
        windows = torch.cat([repeat_to_length(data.random_blocks(1, int(n), held_out), data.block_size + 1)
                             for n in periods])                                  # [N, T+1]
        self._val = [Batch((w[:, :-1],), w[:, 1:], w[:, :-1].numel()) for w in windows.split(EVAL_CHUNK)]
        length = min(data.block_size, PROBE_MAX_TOKENS)
        self.probe_period = min(max(PROBE_PERIOD, data.min_period), data.max_period, length - 1)
        block = data.random_blocks(1, self.probe_period, torch.Generator().manual_seed(train_config.seed + 2))
        self._probe_ids = repeat_to_length(block, length)[0].tolist()            # [T']

    def describe(self) -> str:
        return "next-token prediction on repeated random sequences (RepeatedSequences)"

    def next_batch(self) -> Batch:
        x, y = self.data.batch(self.train_config.batch_size, self.generator)  # [B, T] each
        return Batch((x,), y, x.numel())

    def forward(self, model, inputs, trace=None):
        (ids,) = inputs
        return model(ids, trace=trace)

    def val_batches(self):
        return self._val

    def probe(self, model):
        ids = self._probe_ids
        trace = self._traced(model, (torch.tensor([ids]),))
        weights = _attention(trace, DECODER_SELF)
        pieces = self._pieces(ids)
        return Probe(self.tokenizer.decode(ids), {DECODER_SELF.name: weights}, {DECODER_SELF.name: (pieces, pieces)},
                     _scores(DECODER_SELF, weights, ids=ids, causal=True))

    def samples(self, model):
        """The probe's first copy and one more token as the prompt; the greedy rest against the truth."""
        prompt, rest = self._probe_ids[: self.probe_period + 1], self._probe_ids[self.probe_period + 1:]
        (out,) = greedy(model, torch.tensor([prompt]), len(rest))
        return [Sample(self.tokenizer.decode(prompt), self.tokenizer.decode(out), self.tokenizer.decode(rest))]


def build_objective(data, model_config: ModelConfig, train_config: TrainConfig) -> Objective:
    """The objective for ``data`` on ``model``; ValueError when the data and architecture do not fit."""
    arch = model_config.arch
    if isinstance(data, Task):
        if not model_config.has_decoder:
            raise ValueError(
                f"the {data.name} task maps a source to a target: use arch='encoder_decoder' (or 'decoder_only', "
                f"which reads source and target as one sequence); an {arch} model cannot generate a target"
            )
        objective = Seq2SeqObjective if model_config.has_encoder else PromptedSeq2SeqObjective
        return objective(data, model_config, train_config)
    if isinstance(data, MLMData):
        if model_config.has_decoder:
            raise ValueError(f"masked-token prediction (MLMData) needs arch='encoder_only' (bidirectional), got {arch!r}")
        return MaskedLMObjective(data, model_config, train_config)
    if isinstance(data, RepeatedSequences):
        if arch != "decoder_only":
            raise ValueError(f"repeated sequences are next-token prediction: use arch='decoder_only', got {arch!r}")
        return RepeatedSequenceObjective(data, model_config, train_config)
    if isinstance(data, LMData):
        if model_config.has_encoder:
            raise ValueError(f"next-token prediction (LMData) needs arch='decoder_only' (causal), got {arch!r}")
        return LanguageModelObjective(data, model_config, train_config)
    raise TypeError(
        f"data must be a seq2seq task (playground.data.tasks.get(...)), LMData, MLMData or RepeatedSequences, "
        f"got {type(data).__name__}"
    )

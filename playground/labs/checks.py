"""Measurements that show a lab's symptom, one number per variant (and sometimes a text example).

A check runs on the variants' trainers, at the start (freshly built models, identical weights
where the architectures allow) or at the end of training. Every forward pass here is made in
eval mode without gradients, and none touches a trainer's data stream or optimiser.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Literal, Mapping

import numpy as np
import torch
import torch.nn.functional as F

from playground.bilingual import Bilingual
from playground.data import BOS_ID, EOS_ID, IGNORE_INDEX, pad_sequences, tasks
from playground.data.tokenizer import NUM_SPECIAL
from playground.device import model_device
from playground.generate.batch import bos, greedy
from playground.model import MultiHeadAttention, Trace, causal_mask
from playground.model.attention import attend
from playground.model.blocks import DecoderBlock, EncoderBlock
from playground.model.models import DecoderStack
from playground.train import Trainer

Stage = Literal["start", "end"]
STAGES = ("start", "end")
PROBE_ROWS = 8          # held-out sequences used by the checks that compare outputs


@dataclass(frozen=True)
class Measurement:
    """values: variant id -> number; examples: variant id -> a short text showing the symptom."""

    values: dict[str, float]
    examples: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Check:
    """A named measurement of every variant, at the start or the end of a lab run.

    unit: "" for plain numbers, "params" for parameter counts, "share" for a share in [0, 1].
    """

    id: str
    stage: Stage
    title: Bilingual
    unit: str
    measure: Callable[[Mapping[str, Trainer]], Measurement]

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise ValueError(f"check {self.id!r}: stage must be one of {STAGES}, got {self.stage!r}")


def _probe_inputs(trainer: Trainer, rows: int = PROBE_ROWS) -> tuple[torch.Tensor, ...]:
    """Model inputs of the first ``rows`` held-out sequences (the same for every variant of a lab)."""
    device = model_device(trainer.model)
    return tuple(t[:rows].to(device) for t in trainer.objective.val_batches()[0].inputs)


@torch.no_grad()
def _logits(trainer: Trainer, inputs: tuple[torch.Tensor, ...], trace: Trace | None = None) -> torch.Tensor:
    trainer.model.eval()
    return trainer.objective.forward(trainer.model, inputs, trace)       # [B, T, V]


def _per_variant(trainers: Mapping[str, Trainer], fn: Callable[[Trainer], float]) -> Measurement:
    return Measurement({variant: float(fn(trainer)) for variant, trainer in trainers.items()})


def future_leak(stage: Stage) -> Check:
    """Largest change of any earlier logit when only the LAST input token changes (0 for a causal model)."""

    def leak(trainer: Trainer) -> float:
        inputs = _probe_inputs(trainer)
        ids = inputs[-1]                                                     # [B, T] the causal side
        ordinary = trainer.tokenizer.vocab_size - NUM_SPECIAL
        changed = ids.clone()
        changed[:, -1] = NUM_SPECIAL + (ids[:, -1] - NUM_SPECIAL + 1) % ordinary   # another non-special token
        before = _logits(trainer, inputs)[:, :-1]                            # [B, T-1, V]
        after = _logits(trainer, (*inputs[:-1], changed))[:, :-1]
        return float((after - before).abs().max())

    return Check("future_leak", stage, Bilingual(
        "Largest change of an earlier logit when only the last token changes",
        "只改最后一个词元时，前面位置 logit 的最大变化"), "", lambda trainers: _per_variant(trainers, leak))


def prefix_consistency(stage: Stage) -> Check:
    """Largest difference between a position's logits in the whole sequence and in the prefix that
    ends there, which is all that generation has (0 for a correct causal model)."""

    def gap(trainer: Trainer) -> float:
        inputs = _probe_inputs(trainer)
        ids = inputs[-1]                                                     # [B, T] the causal side
        whole = _logits(trainer, inputs)                                     # [B, T, V]
        gaps = [(_logits(trainer, (*inputs[:-1], ids[:, :length]))[:, -1] - whole[:, length - 1]).abs().max()
                for length in range(1, ids.size(1) + 1)]
        return float(torch.stack(gaps).max())

    return Check("prefix_consistency", stage, Bilingual(
        "Largest difference between a position's logits in the whole sequence and in its prefix alone",
        "同一位置在完整序列中与只给前缀时的 logit 最大差异"), "", lambda trainers: _per_variant(trainers, gap))


def loss_with_causal_mask() -> Check:
    """Held-out loss measured with the correct causal mask put back, as generation would see it."""

    def loss(trainer: Trainer) -> float:
        stacks = [m for m in trainer.model.modules() if isinstance(m, DecoderStack)]
        builders = [stack.mask_builder for stack in stacks]
        try:
            for stack in stacks:
                stack.mask_builder = causal_mask
            return trainer.objective.evaluate(trainer.model.eval()).val_loss
        finally:
            for stack, builder in zip(stacks, builders):
                stack.mask_builder = builder

    return Check("loss_with_causal_mask", "end", Bilingual(
        "Held-out loss with the future hidden again (the correct causal mask)",
        "重新遮住未来（换回正确的因果掩码）后的验证损失"), "", lambda trainers: _per_variant(trainers, loss))


def attention_entropy(stage: Stage) -> Check:
    """Mean attention entropy over every layer and head on the probe input (1 = uniform, 0 = one-hot)."""

    def entropy(trainer: Trainer) -> float:
        trainer.model.eval()
        probe = trainer.objective.probe(trainer.model)
        scores = [v for name, v in probe.head_scores.items() if name.endswith(".entropy")]
        return float(np.mean([s.mean() for s in scores]))

    return Check("attention_entropy", stage, Bilingual(
        "Attention entropy, mean over layers and heads (1 = spread evenly, 0 = a single key)",
        "注意力熵，所有层和头的平均（1 = 均匀分布，0 = 只看一个键）"), "",
        lambda trainers: _per_variant(trainers, entropy))


def position_to_token_ratio(stage: Stage) -> Check:
    """RMS of the positional encoding divided by the RMS of the (scaled) token embeddings."""

    def ratio(trainer: Trainer) -> float:
        trace = Trace(include=("*.tok_embed", "*.pos_embed"))
        _logits(trainer, _probe_inputs(trainer), trace)
        ratios = []
        for name in trace.names():
            if name.endswith(".tok_embed"):
                stack = name[: -len(".tok_embed")]
                positions = trace.cache.get(f"{stack}.pos_embed")
                if positions is not None:
                    ratios.append(_rms(positions) / _rms(trace[name]))
        if not ratios:
            raise ValueError("position_to_token_ratio needs additive positions (sinusoidal or learned)")
        return float(np.mean(ratios))

    return Check("position_to_token_ratio", stage, Bilingual(
        "Size of the positional encoding relative to the token embedding (RMS ratio)",
        "位置编码相对于词嵌入的大小（均方根之比）"), "", lambda trainers: _per_variant(trainers, ratio))


def _rms(x: torch.Tensor) -> float:
    return float(x.float().pow(2).mean().sqrt())


def output_change_vs_reference(stage: Stage) -> Check:
    """Largest difference of a variant's logits from the reference's on the same inputs (0 = same function)."""

    def measure(trainers: Mapping[str, Trainer]) -> Measurement:
        reference, *_ = trainers.values()
        inputs = _probe_inputs(reference)
        expected = _logits(reference, inputs)
        return Measurement({variant: float((_logits(trainer, inputs) - expected).abs().max())
                            for variant, trainer in trainers.items()})

    return Check("output_change_vs_reference", stage, Bilingual(
        "Largest difference from the reference's logits on the same input",
        "与参考模型在同一输入上的 logit 最大差异"), "", measure)


def token_similarity(stage: Stage) -> Check:
    """Mean cosine similarity between the last block's outputs at different positions of a sequence
    (near 1 = every position carries nearly the same vector, so the tokens can no longer be told apart)."""

    def similarity(trainer: Trainer) -> float:
        last = [m for m in trainer.model.modules() if isinstance(m, (EncoderBlock, DecoderBlock))][-1]
        name = f"{last.name}.resid_post"
        trace = Trace(include=(name,))
        _logits(trainer, _probe_inputs(trainer), trace)
        hidden = F.normalize(trace[name].float(), dim=-1)                   # [B, T, D]
        cosine = hidden @ hidden.transpose(1, 2)                             # [B, T, T]
        length = cosine.size(1)
        return float(cosine[:, ~torch.eye(length, dtype=torch.bool)].mean()) if length > 1 else 1.0

    return Check("token_similarity", stage, Bilingual(
        "Similarity of the last block's outputs at different positions (mean cosine; 1 = all the same)",
        "最后一个块在不同位置的输出有多相似（平均余弦；1 = 完全一样）"), "",
        lambda trainers: _per_variant(trainers, similarity))


def parameter_count() -> Check:
    """Trainable parameters; a tied matrix counts once."""

    def count(trainer: Trainer) -> float:
        return sum(p.numel() for p in trainer.model.parameters())

    return Check("parameter_count", "start", Bilingual("Parameters", "参数量"), "params",
                 lambda trainers: _per_variant(trainers, count))


def _shuffle_order(length: int, seed: int = 0) -> list[int]:
    """A fixed permutation of range(length) that moves every position it can (none stays put for length >= 2)."""
    order = list(range(length))
    rng = random.Random(seed)
    while length >= 2 and any(i == j for i, j in enumerate(order)):
        rng.shuffle(order)
    return order


def shuffled_source() -> Check:
    """Greedy outputs for a held-out source and for the same letters shuffled; the value is how far
    the encoder's outputs are from simply being shuffled along with the input (0 = exactly shuffled)."""

    def measure(trainers: Mapping[str, Trainer]) -> Measurement:
        values, examples = {}, {}
        for variant, trainer in trainers.items():
            objective, model = trainer.objective, trainer.model.eval()
            source = objective.held_out[0][0]
            order = _shuffle_order(len(source))
            mixed = "".join(source[i] for i in order)
            outputs = [objective.tokenizer.decode(ids) for ids in objective.greedy(model, [source, mixed])]
            examples[variant] = f"{source} → {outputs[0]}  |  {mixed} → {outputs[1]}"
            values[variant] = _encoder_permutation_error(trainer, source, order)
        return Measurement(values, examples)

    return Check("shuffled_source", "end", Bilingual(
        "Encoder outputs of a shuffled source versus the shuffled encoder outputs (largest difference)",
        "打乱输入后的编码器输出与打乱后的原编码器输出之差（最大值）"), "", measure)


@torch.no_grad()
def _encoder_permutation_error(trainer: Trainer, source: str, order: list[int]) -> float:
    ids = torch.tensor([trainer.tokenizer.encode(source)], device=model_device(trainer.model))  # [1, S]
    memory = trainer.model.encode(ids).hidden                                # [1, S, D]
    memory_mixed = trainer.model.encode(ids[:, order]).hidden
    return float((memory_mixed - memory[:, order]).abs().max())


def _first_attention(trainer: Trainer) -> MultiHeadAttention:
    return next(m for m in trainer.model.modules() if isinstance(m, MultiHeadAttention))


def merge_with_view() -> Check:
    """Merging heads with `x.transpose(1, 2).view(B, T, D)` tried on the very tensor each variant's first
    attention layer merges: 1 when torch raises its RuntimeError (shown as the example), 0 otherwise."""

    def measure(trainers: Mapping[str, Trainer]) -> Measurement:
        values, examples = {}, {}
        for variant, trainer in trainers.items():
            attention, heads = _first_attention(trainer), []
            merge = attention.merge
            attention.merge = lambda x: heads.append(x) or merge(x)
            try:
                _logits(trainer, _probe_inputs(trainer))
            finally:
                attention.merge = merge
            x = heads[0]                                                      # [B, H, T, Dh]
            batch, n_heads, length, head_dim = x.shape
            call = f"x.transpose(1, 2).view({batch}, {length}, {n_heads * head_dim}) with x {list(x.shape)}"
            try:
                x.transpose(1, 2).view(batch, length, n_heads * head_dim)
                values[variant], examples[variant] = 0.0, f"{call}: no error"
            except RuntimeError as error:
                values[variant], examples[variant] = 1.0, f"{call}: RuntimeError: {error}"
        return Measurement(values, examples)

    return Check("merge_with_view", "start", Bilingual(
        "transpose(1, 2).view(...) on the heads' output raises a RuntimeError (1 = raised)",
        "对各头输出做 transpose(1, 2).view(...) 会抛出 RuntimeError（1 = 抛出）"), "", measure)


FULL_ROW_LENGTH = 4


def fully_masked_row() -> Check:
    """Attention weights of a query whose row of the mask hides every key, built in each variant's own
    mask type: the share of them that is NaN (1 for a boolean mask: softmax of all -inf is 0/0)."""

    def measure(trainers: Mapping[str, Trainer]) -> Measurement:
        values, examples = {}, {}
        generator = torch.Generator().manual_seed(0)
        q, k, v = (torch.randn(1, 1, FULL_ROW_LENGTH, 8, generator=generator) for _ in range(3))  # [1, 1, T, Dh]
        for variant, trainer in trainers.items():
            stack = next(m for m in trainer.model.modules() if isinstance(m, DecoderStack))
            mask = stack.mask_builder(FULL_ROW_LENGTH, FULL_ROW_LENGTH).clone()                # [T, T]
            mask[-1] = 0                                                      # the last query: every key hidden
            _, _, weights = attend(q, k, v, mask)                             # [1, 1, T, T]
            row = weights[0, 0, -1]                                           # [T]
            values[variant] = float(row.isnan().float().mean())
            examples[variant] = f"mask row {mask[-1].tolist()} → weights {[round(float(w), 3) for w in row]}"
        return Measurement(values, examples)

    return Check("fully_masked_row", "start", Bilingual(
        "A query whose mask row hides every key: share of its attention weights that are NaN",
        "掩码整行都遮住的查询：其注意力权重中 NaN 的比例"), "", measure)


TRAIN_WINDOWS = 64      # training windows the generalisation gap is measured on (a fixed draw)


def generalisation_gap(stage: Stage) -> Check:
    """Held-out loss minus the loss on a fixed sample of training windows, both in eval mode (no
    dropout): near 0 while the model learns what carries over, growing as it memorises its text."""

    def gap(trainer: Trainer) -> float:
        objective = trainer.objective
        inputs, targets = objective.data.batch("train", TRAIN_WINDOWS, torch.Generator().manual_seed(0))  # [N, T]
        device = model_device(trainer.model)
        logits = _logits(trainer, (inputs.to(device),))                      # [N, T, V]
        train_loss = float(F.cross_entropy(logits.flatten(0, 1), targets.to(device).flatten()))
        return objective.evaluate(trainer.model).val_loss - train_loss

    return Check("generalisation_gap", stage, Bilingual(
        "Held-out loss minus training loss (both without dropout): how much the model has memorised",
        "验证损失减去训练损失（都不用 dropout）：模型死记硬背了多少"), "",
        lambda trainers: _per_variant(trainers, gap))


def loss_per_character(stage: Stage) -> Check:
    """Held-out loss per CHARACTER (nats): the loss summed over every held-out target token, divided
    by the characters those tokens spell. Comparable across tokenizers, where loss per token is not."""

    def per_character(trainer: Trainer) -> float:
        objective, tokenizer = trainer.objective, trainer.tokenizer
        batches = objective.val_batches()
        n_tokens = sum(int((batch.targets != IGNORE_INDEX).sum()) for batch in batches)
        n_chars = sum(len(tokenizer.decode(row[row != IGNORE_INDEX].tolist()))
                      for batch in batches for row in batch.targets)
        return objective.evaluate(trainer.model.eval()).val_loss * n_tokens / n_chars

    return Check("loss_per_character", stage, Bilingual(
        "Held-out loss per character (nats): the same yardstick for both tokenizers",
        "每个字符的验证损失（nat）：两种分词器用同一把尺子"), "",
        lambda trainers: _per_variant(trainers, per_character))


def characters_per_token() -> Check:
    """How many characters one token of the held-out text spells, on average."""

    def ratio(trainer: Trainer) -> float:
        ids = trainer.objective.data.ids("val").tolist()
        return len(trainer.tokenizer.decode(ids)) / len(ids)

    return Check("characters_per_token", "start", Bilingual(
        "Characters per token of the held-out text", "验证文本中每个词元平均包含的字符数"), "",
        lambda trainers: _per_variant(trainers, ratio))


LENGTH_EXAMPLES = 48     # sources of one length the length checks decode


def exact_match_at_length(length: int, examples: int = LENGTH_EXAMPLES) -> Check:
    """Share of `examples` fresh sources of exactly `length` symbols that a model writes exactly right by
    greedy decoding (at the end of training): an encoder-decoder from <bos> with the source encoded, a
    decoder-only model continuing ``source <bos>``. For a length the task never trained on, how far what
    the model learned carries over."""

    def measure(trainers: Mapping[str, Trainer]) -> Measurement:
        values, examples = {}, {}
        for variant, trainer in trainers.items():
            values[variant], examples[variant] = share(trainer)
        return Measurement(values, examples)

    def share(trainer: Trainer) -> tuple[float, str]:
        task, model = trainer.objective.task, trainer.model.eval()
        # The longest input: <bos> and all but the last output, after the source too when one sequence holds both.
        needed = length + 1 + (0 if model.has_encoder else length)
        if needed > trainer.model_config.max_len:
            raise ValueError(f"exact_match_at_length({length}) needs max_len >= {needed}, "
                             f"the model has {trainer.model_config.max_len}")
        knobs = {**task.knobs, "length": length, "min_length": length}
        pairs = tasks.get(task.name, **knobs).held_out(examples, seed=length)
        sources = [task.tokenizer.encode(source) for source, _ in pairs]
        device = model_device(model)
        with torch.no_grad():
            if model.has_encoder:
                decoded = greedy(model, bos(len(pairs)).to(device), length + 1, pad_sequences(sources).to(device))
            else:
                prompts = torch.tensor([[*ids, BOS_ID] for ids in sources], device=device)    # [N, length + 1]
                decoded = greedy(model, prompts, length + 1)
        wanted = [task.tokenizer.encode(target) + [EOS_ID] for _, target in pairs]
        example = f"{pairs[0][0]} → {task.tokenizer.decode(decoded[0]) or '∅'}"
        return sum(out == want for out, want in zip(decoded, wanted)) / len(pairs), example

    return Check(f"exact_match_length_{length}", "end", Bilingual(
        f"Exact match on {examples} sources of {length} letters", f"{examples} 个长 {length} 个字母的源序列上的完全匹配率"),
        "share", measure)

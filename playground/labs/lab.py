"""What a lab is: a question, the data, a reference set-up and the variants trained beside it."""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from torch import nn

from playground.bilingual import Bilingual
from playground.data import BPETokenizer, CharTokenizer, CorpusUnavailable, LMData, load_corpus, tasks
from playground.data.tasks import Task
from playground.model import ModelConfig
from playground.train import TrainConfig

from .checks import Check
from .findings import Finding

if TYPE_CHECKING:
    from .results import LabResult

KINDS = ("bug", "ablation")


@dataclass(frozen=True)
class DataSpec:
    """The data every variant of a lab trains on: a seq2seq task, or a corpus read as a language model.

    task: a name from playground.data.tasks with its ``knobs`` (e.g. length=8, symbols=8).
    corpus: a name from playground.data.CORPORA, read in windows of ``block_size`` tokens, character
        by character or, with ``bpe_vocab_size``, by a byte-level BPE of that many tokens trained on
        it. When tiny Shakespeare cannot be found or downloaded, the bundled text is used instead
        (``describe`` names the one read).
    """

    task: str | None = None
    knobs: Mapping[str, Any] = field(default_factory=dict)
    corpus: str | None = None
    block_size: int | None = None
    bpe_vocab_size: int | None = None

    def __post_init__(self) -> None:
        if (self.task is None) == (self.corpus is None):
            raise ValueError("a lab's data names either a task or a corpus, not both and not neither")
        if self.corpus is not None and (not isinstance(self.block_size, int) or self.block_size < 2):
            raise ValueError(f"a corpus needs block_size, an integer >= 2, got {self.block_size!r}")
        if self.bpe_vocab_size is not None and (self.corpus is None or not isinstance(self.bpe_vocab_size, int)):
            raise ValueError(f"bpe_vocab_size is an integer for a corpus, got {self.bpe_vocab_size!r}")

    def build(self) -> Task | LMData:
        """The task, or the language-model data (built once per process and shared read-only)."""
        if self.task is not None:
            return tasks.get(self.task, **self.knobs)
        return _text_data(self.corpus, self.block_size, self.bpe_vocab_size)

    def describe(self) -> str:
        """What is read, e.g. "copy (length=8, symbols=8)" or "tiny_shakespeare, characters, block 32"."""
        if self.task is not None:
            knobs = ", ".join(f"{k}={v}" for k, v in self.knobs.items())
            return f"{self.task} ({knobs})" if knobs else self.task
        tokens = "characters" if self.bpe_vocab_size is None else f"BPE of {self.bpe_vocab_size} tokens"
        return f"{corpus_text(self.corpus)[1]}, {tokens}, block {self.block_size}"


@functools.lru_cache(maxsize=2)
def corpus_text(corpus: str) -> tuple[str, str]:
    """(text, name of the corpus read): ``corpus``, or the bundled text when tiny Shakespeare is unavailable."""
    try:
        return load_corpus(corpus), corpus
    except CorpusUnavailable:
        return load_corpus("bundled"), "bundled"


@functools.lru_cache(maxsize=4)
def _text_data(corpus: str, block_size: int, bpe_vocab_size: int | None) -> LMData:
    text, _ = corpus_text(corpus)
    tokenizer = CharTokenizer.from_text(text) if bpe_vocab_size is None else BPETokenizer.train(text, bpe_vocab_size)
    return LMData(text, tokenizer, block_size)


@dataclass(frozen=True)
class Variant:
    """One model of a lab: the lab's set-up with some config fields changed and/or a bug installed.

    model_changes / train_changes: ModelConfig / TrainConfig fields that differ from the lab's base.
    bug: a function that swaps components of the built model (see playground.labs.bugs).
    data: other data than the lab's (e.g. the same text read by another tokenizer); None = the lab's.
    """

    id: str
    name: Bilingual
    model_changes: Mapping[str, Any] = field(default_factory=dict)
    train_changes: Mapping[str, Any] = field(default_factory=dict)
    bug: Callable[[nn.Module], None] | None = None
    data: DataSpec | None = None

    @property
    def is_reference(self) -> bool:
        return not self.model_changes and not self.train_changes and self.bug is None and self.data is None


@dataclass(frozen=True)
class Lab:
    """A question answered by training a reference and one or more variants side by side.

    Every variant starts from the same seed, so the data arrive in the same order and, where the
    architectures have the same parameters, the initial weights are identical. The preset (base
    configs, ``rounds`` of interleaved training, ``budget_s``) is sized to finish every variant within
    ``budget_s`` on a 2-vCPU machine (55 s, unless a lab that needs longer sets its own).

    varies: what the variants change, by name: config fields ("positional", "warmup_steps") and
        swapped components ("mask_builder", "score_fn", "split/merge", "residual", "embed.scale").
    checks: measurements that show the symptom, taken before and/or after training.
    findings: what a run showed, as sentences filled in from its result (see playground.labs.findings);
        the explanation states no number or comparison that a run has to bear out.
    """

    id: str
    kind: str
    title: Bilingual
    question: Bilingual
    explanation: Bilingual
    data: DataSpec
    model_config: ModelConfig
    train_config: TrainConfig
    variants: tuple[Variant, ...]
    varies: tuple[str, ...]
    checks: tuple[Check, ...] = ()
    findings: Callable[["LabResult"], list[Finding]] | None = None
    rounds: int = 12
    budget_s: float = 55.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"lab {self.id!r}: kind must be one of {KINDS}, got {self.kind!r}")
        if len(self.variants) < 2:
            raise ValueError(f"lab {self.id!r} needs a reference and at least one other variant")
        if not self.variants[0].is_reference:
            raise ValueError(f"lab {self.id!r}: the first variant is the reference and changes nothing")
        ids = [variant.id for variant in self.variants]
        if len(set(ids)) != len(ids):
            raise ValueError(f"lab {self.id!r} has repeated variant ids {ids}")
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= self.train_config.max_steps:
            raise ValueError(f"lab {self.id!r}: rounds must be an integer in [1, max_steps], got {self.rounds!r}")
        if not self.budget_s > 0:
            raise ValueError(f"lab {self.id!r}: budget_s must be > 0 seconds, got {self.budget_s!r}")
        for variant in self.variants:
            self.configs(variant)                            # every variant's configs validate

    @property
    def reference(self) -> Variant:
        return self.variants[0]

    def variant(self, variant_id: str) -> Variant:
        for variant in self.variants:
            if variant.id == variant_id:
                return variant
        choices = [v.id for v in self.variants]
        raise ValueError(f"lab {self.id!r} has no variant {variant_id!r}; choose one of {choices}")

    def configs(self, variant: Variant, vocab_size: int | None = None) -> tuple[ModelConfig, TrainConfig]:
        """The ModelConfig and TrainConfig ``variant`` trains with (vocab_size adapted to the data when given)."""
        model_config = self.model_config.replace(**variant.model_changes)
        if vocab_size is not None and vocab_size != model_config.vocab_size:
            model_config = model_config.replace(vocab_size=vocab_size)
        return model_config, self.train_config.replace(**variant.train_changes)

    def resized(self, model_changes: Mapping[str, Any] | None = None, train_changes: Mapping[str, Any] | None = None,
                data: DataSpec | None = None, rounds: int | None = None) -> "Lab":
        """The same lab at another size (for tests and quick checks); variants keep their own changes."""
        train_config = self.train_config.replace(**(train_changes or {}))
        return dataclasses.replace(
            self,
            model_config=self.model_config.replace(**(model_changes or {})),
            train_config=train_config,
            data=data if data is not None else self.data,
            rounds=rounds if rounds is not None else min(self.rounds, train_config.max_steps),
        )

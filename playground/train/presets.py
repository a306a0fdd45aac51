"""Named training set-ups: the data, a model shape and a schedule that are known to work.

    trainer = PRESETS["copy"].trainer()                    # a Trainer, ready to run
    trainer = PRESETS["shakespeare-char"].quick().trainer(text=my_text)

Sizes are chosen for a 2-core CPU. ``quick()`` gives the variant for live training in the
app: the same data, a shorter schedule, a time cap and, for language models, a smaller model.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from playground.data import (
    BPETokenizer, CharTokenizer, LMData, MLMData, RepeatedSequences, Tokenizer, load_corpus, tasks,
)
from playground.model import ModelConfig
from playground.train.config import TrainConfig
from playground.train.trainer import Trainer

QUICK_SECONDS = 60.0
RHYME_BLOCK_SIZE = 32              # the seed rhyme's 41 validation characters hold one window of 32 + 1
SHAKESPEARE_CHAR_VOCAB = 70        # 65 distinct characters + 5 special tokens
SHAKESPEARE_BPE_VOCAB = 2048
TANG_POEMS_CHAR_VOCAB = 2582       # 2,577 distinct characters of the bundled Tang poems + 5 special tokens


@dataclass(frozen=True)
class Preset:
    """A task or corpus, a ModelConfig and a TrainConfig.

    Seq2seq presets name a task (``task``, ``task_knobs``); language-model presets name a
    corpus (one of playground.data.CORPORA), a tokenizer ("char" or "bpe", with
    ``bpe_vocab_size``), a ``block_size`` and whether tokens are masked (``masked``, for
    encoder-only models). The repeated-sequence preset names ``repeats``, the knobs of
    playground.data.RepeatedSequences. ``model_config.vocab_size`` fits the default data;
    ``trainer`` adapts it to the tokenizer of other text. ``sample_prompt``: the prompt of the
    sample a language model's card shows.
    """

    name: str
    description: str
    model_config: ModelConfig
    train_config: TrainConfig
    task: str | None = None
    task_knobs: dict = field(default_factory=dict)
    corpus: str | None = None
    tokenizer: str | None = None
    bpe_vocab_size: int | None = None
    block_size: int | None = None
    masked: bool = False
    repeats: dict | None = None
    quick_train: dict = field(default_factory=dict)
    quick_model: dict = field(default_factory=dict)
    sample_prompt: str | None = None

    @property
    def kind(self) -> str:
        """"seq2seq", "lm" (next token) or "mlm" (masked tokens)."""
        if self.task is not None:
            return "seq2seq"
        return "mlm" if self.masked else "lm"

    @property
    def synthetic(self) -> bool:
        """True when the preset makes its own examples (a task or repeated sequences) and takes no text."""
        return self.task is not None or self.repeats is not None

    def quick(self, seconds: float = QUICK_SECONDS) -> "Preset":
        """The variant for live training in the app: ``quick_train`` and ``quick_model`` applied (a
        shorter schedule, a smaller model where the full one is slow on a CPU) and a ``seconds`` cap."""
        changes = {"max_seconds": seconds, **self.quick_train}
        steps = changes.get("max_steps", self.train_config.max_steps)
        changes.setdefault("warmup_steps", min(self.train_config.warmup_steps, steps // 5))
        model_config = self.model_config.replace(**self.quick_model)
        block_size = None if self.block_size is None else min(self.block_size, model_config.max_len)
        return replace(self, model_config=model_config, train_config=self.train_config.replace(**changes),
                       block_size=block_size, quick_model={}, quick_train={})

    def with_block_size(self, block_size: int) -> "Preset":
        """The same language-model preset reading windows of ``block_size`` tokens; the model's
        max_len becomes the block size, so generation never uses a position it did not train."""
        if self.task is not None:
            raise ValueError(f"the {self.name} preset trains on the {self.task} task, which has no block size")
        if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
            raise ValueError(f"block_size must be an integer >= 1, got {block_size!r}")
        return replace(self, block_size=block_size, model_config=self.model_config.replace(max_len=block_size))

    def build_tokenizer(self, text: str) -> Tokenizer:
        """The tokenizer of a corpus preset, fitted to ``text``."""
        if self.tokenizer == "bpe":
            return BPETokenizer.train(text, self.bpe_vocab_size)
        return CharTokenizer.from_text(text)

    def build_data(self, text: str | None = None):
        """The task, the repeated sequences, or LMData / MLMData of ``text`` (default: the preset's corpus)."""
        if self.synthetic and text is not None:
            raise ValueError(f"the {self.name} preset makes its own examples and takes no text")
        if self.task is not None:
            return tasks.get(self.task, **self.task_knobs)
        if self.repeats is not None:
            return RepeatedSequences(**self.repeats)
        if text is None:
            text = load_corpus(self.corpus)
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        if not text.strip():
            raise ValueError("the corpus is empty; paste or upload some text, or use the bundled text")
        data_class = MLMData if self.masked else LMData
        return data_class(text, self.build_tokenizer(text), self.block_size)

    def trainer(self, text: str | None = None, **train_changes) -> Trainer:
        """A Trainer for this preset; ``train_changes`` replace TrainConfig fields (e.g. max_steps=50)."""
        data = self.build_data(text)
        return Trainer(self.model_config.replace(vocab_size=data.tokenizer.vocab_size), self.train_changed(**train_changes),
                       data)

    def train_changed(self, **changes) -> TrainConfig:
        """The TrainConfig with ``changes``; a shorter max_steps also shortens the warm-up to fit."""
        if "max_steps" in changes and "warmup_steps" not in changes and isinstance(changes["max_steps"], int):
            changes["warmup_steps"] = min(self.train_config.warmup_steps, max(changes["max_steps"] // 5, 0))
        return self.train_config.replace(**changes)


def _seq2seq(name: str, description: str, task: str, model: dict, train: dict, quick_steps: int, **knobs) -> Preset:
    vocab = tasks.get(task, **knobs).tokenizer.vocab_size
    model_config = ModelConfig(arch="encoder_decoder", vocab_size=vocab, **model)
    return Preset(name, description, model_config, TrainConfig(**train), task=task, task_knobs=knobs,
                  quick_train={"max_steps": quick_steps})


# An untied output head: with the embedding scaled by sqrt(d_model) and tied, an untrained model
# strongly predicts its own input token, which slows the escape from the copy plateau several-fold.
_SMALL_SEQ2SEQ = dict(d_model=64, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=256, max_len=32,
                      tie_weights=False)
_SMALL_SCHEDULE = dict(lr=3e-3, warmup_steps=100, batch_size=64, max_steps=2000, val_size=500)

# Language models tie the head to an unscaled embedding (GPT-2 style), for the same reason.
_CHAR_GPT = dict(arch="decoder_only", vocab_size=SHAKESPEARE_CHAR_VOCAB, d_model=256, n_heads=4, n_decoder_layers=4,
                 d_ff=1024, max_len=128, positional="learned", scale_embedding=False, dropout=0.1)
_LM_SCHEDULE = dict(lr=1.5e-3, warmup_steps=200, batch_size=32, weight_decay=0.1, val_size=100, eval_every_s=10.0)
# The shipped character model: width 128, no dropout and small batches, so that a few thousand
# steps on a shared 2-core CPU go as far as they can.
_SMALL_CHAR_GPT = {**_CHAR_GPT, "d_model": 128, "d_ff": 512, "dropout": 0.0}
_SMALL_LM_SCHEDULE = {**_LM_SCHEDULE, "lr": 3e-3, "warmup_steps": 100, "batch_size": 16}
# Live training in the app: a 2-layer width-128 model that reaches a validation loss near 1.9
# on tiny Shakespeare in about a minute of a 2-core CPU.
_QUICK_GPT = dict(d_model=128, n_heads=4, n_decoder_layers=2, d_ff=512, max_len=64, dropout=0.0)
_QUICK_LM_SCHEDULE = dict(lr=5e-3, warmup_steps=50, batch_size=16, max_steps=800, val_size=64, eval_every_s=4.0)

# The Tang-poem model: about 2,600 characters, so its tied embedding is half of its weights; two
# layers keep each of the timeline's copies near 1.4 MB in float16. The corpus is 106,000
# characters, so dropout and weight decay hold off memorising it.
_TANG_CHAR_GPT = {**_CHAR_GPT, "vocab_size": TANG_POEMS_CHAR_VOCAB, "d_model": 128, "n_decoder_layers": 2,
                  "d_ff": 512, "max_len": 64, "dropout": 0.2}
_TANG_SCHEDULE = {**_LM_SCHEDULE, "lr": 3e-3, "warmup_steps": 100, "val_size": 200, "max_steps": 2000}

# Induction heads form fast on repeated random sequences (a phase change between steps 250 and 400 at lr 1e-3,
# as the shipped model's timeline shows):
# 2 layers of 2 heads, width 64, context 64, constant learning rate, AdamW betas (0.9, 0.98).
INDUCTION_REPEATS = dict(block_size=64, min_period=8, max_period=32)
_INDUCTION_GPT = dict(arch="decoder_only", vocab_size=RepeatedSequences().vocab_size, d_model=64, n_heads=2,
                      n_decoder_layers=2, d_ff=256, max_len=64, positional="learned", norm="pre",
                      scale_embedding=False, dropout=0.0)
_INDUCTION_SCHEDULE = dict(lr=1e-3, warmup_steps=0, min_lr_ratio=1.0, batch_size=64, beta1=0.9, beta2=0.98,
                           weight_decay=0.01, max_steps=1000, val_size=256)

PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        _seq2seq("copy", "Copy 10 letters from a 10-letter alphabet (encoder-decoder).", "copy",
                 _SMALL_SEQ2SEQ, _SMALL_SCHEDULE, quick_steps=600, length=10, symbols=10),
        _seq2seq("reverse", "Write 10 letters backwards (encoder-decoder).", "reverse",
                 _SMALL_SEQ2SEQ, _SMALL_SCHEDULE, quick_steps=600, length=10, symbols=10),
        _seq2seq("sort", "Sort 10 letters alphabetically (encoder-decoder).", "sort",
                 _SMALL_SEQ2SEQ, {**_SMALL_SCHEDULE, "max_steps": 3000}, quick_steps=1000, length=10, symbols=10),
        _seq2seq("dates", "Normalise human-written dates to yyyy-mm-dd (encoder-decoder).", "dates",
                 dict(d_model=128, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=512, max_len=48,
                      tie_weights=False),
                 dict(lr=2e-3, warmup_steps=200, batch_size=64, max_steps=4000, val_size=500), quick_steps=1000),
        Preset(
            "shakespeare-char", "A character-level GPT on tiny Shakespeare (decoder-only).",
            ModelConfig(**_SMALL_CHAR_GPT), TrainConfig(**_SMALL_LM_SCHEDULE, max_steps=5000),
            corpus="tiny_shakespeare", tokenizer="char", block_size=128,
            quick_model=_QUICK_GPT, quick_train=_QUICK_LM_SCHEDULE,
        ),
        Preset(
            "shakespeare-bpe", "A GPT on tiny Shakespeare with a 2048-token byte-level BPE (decoder-only).",
            ModelConfig(**{**_CHAR_GPT, "vocab_size": SHAKESPEARE_BPE_VOCAB, "max_len": 64, "dropout": 0.2}),
            TrainConfig(**_LM_SCHEDULE, max_steps=3000),
            corpus="tiny_shakespeare", tokenizer="bpe", bpe_vocab_size=SHAKESPEARE_BPE_VOCAB, block_size=64,
            quick_model=_QUICK_GPT, quick_train={**_QUICK_LM_SCHEDULE, "lr": 3e-3, "max_steps": 600},
        ),
        Preset(
            "tang-poems-char", "A character-level GPT on Tang poems in Simplified Chinese (decoder-only).",
            ModelConfig(**_TANG_CHAR_GPT), TrainConfig(**_TANG_SCHEDULE),
            corpus="tang_poems", tokenizer="char", block_size=64,
            quick_model=_QUICK_GPT, quick_train=_QUICK_LM_SCHEDULE, sample_prompt="春风",
        ),
        Preset(
            "masked-char", "Fill in masked characters of tiny Shakespeare (encoder-only, BERT-style).",
            ModelConfig(arch="encoder_only", n_encoder_layers=4, n_decoder_layers=0, vocab_size=SHAKESPEARE_CHAR_VOCAB,
                        d_model=128, n_heads=4, d_ff=512, max_len=64, positional="learned", scale_embedding=False,
                        dropout=0.1),
            TrainConfig(**{**_LM_SCHEDULE, "lr": 2e-3, "batch_size": 64}, max_steps=4000),
            corpus="tiny_shakespeare", tokenizer="char", block_size=64, masked=True,
            quick_model={"n_encoder_layers": 2, "dropout": 0.0},
            quick_train={**_QUICK_LM_SCHEDULE, "lr": 3e-3, "batch_size": 32, "max_steps": 600},
        ),
        Preset(
            "induction", "Random blocks of 8 to 32 tokens written again and again (decoder-only): "
            "an induction head forms.",
            ModelConfig(**_INDUCTION_GPT), TrainConfig(**_INDUCTION_SCHEDULE), repeats=INDUCTION_REPEATS,
            quick_train={"max_steps": 800, "eval_every_s": 4.0},
        ),
    )
}


def rhyme_preset() -> Preset:
    """The Train tab's character model on seed 000's rhyme: the live character-LM preset (no time
    cap) reading the 407-character rhyme in blocks of RHYME_BLOCK_SIZE."""
    quick = PRESETS["shakespeare-char"].quick()
    quick = replace(quick, corpus="rhyme", train_config=quick.train_config.replace(max_seconds=None))
    return quick.with_block_size(RHYME_BLOCK_SIZE)


def get_preset(name: str) -> Preset:
    """The preset called ``name``; ValueError listing the names otherwise."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose one of {list(PRESETS)}")
    return PRESETS[name]

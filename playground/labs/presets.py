"""Shared data and model sizes of the labs, small enough for a lab to finish in under a minute on a
2-vCPU machine (one torch thread); the length lab, whose three models must each copy exactly before
longer sources are compared, takes a few minutes (see ablation_labs.LENGTH_BUDGET_S)."""
from __future__ import annotations

from playground.model import ModelConfig
from playground.train import TrainConfig

from .lab import DataSpec

SEQUENCE_KNOBS = dict(length=8, symbols=8)
SEQUENCE_VOCAB = 13                     # 8 letters + 5 special tokens
SHAKESPEARE_CHAR_VOCAB = 70             # adapted to the text actually read (see DataSpec)


def sequence_task(name: str) -> DataSpec:
    """copy / reverse of 8 letters drawn from 8."""
    return DataSpec(task=name, knobs=SEQUENCE_KNOBS)


CHARACTERS = DataSpec(corpus="tiny_shakespeare", block_size=32)
TINY_TEXT = DataSpec(corpus="bundled", block_size=32)       # 11.6k characters: a model can learn it by heart
BPE_VOCAB = 512
# The same text by a byte-level BPE of 512 tokens (about 1.9 characters each): 16 tokens span about 30 characters.
BPE_TEXT = DataSpec(corpus="tiny_shakespeare", block_size=16, bpe_vocab_size=BPE_VOCAB)

# An untied encoder-decoder learns copy and reverse within ~150 steps at this size.
SEQ2SEQ_MODEL = ModelConfig(arch="encoder_decoder", vocab_size=SEQUENCE_VOCAB, d_model=64, n_heads=4,
                            n_encoder_layers=2, n_decoder_layers=2, d_ff=256, max_len=24, tie_weights=False)
SEQ2SEQ_TRAIN = TrainConfig(lr=3e-3, warmup_steps=30, batch_size=32, max_steps=240, val_size=48)

CHAR_LM_MODEL = ModelConfig(arch="decoder_only", vocab_size=SHAKESPEARE_CHAR_VOCAB, d_model=64, n_heads=4,
                            n_decoder_layers=2, d_ff=256, max_len=32, tie_weights=False)
CHAR_LM_TRAIN = TrainConfig(lr=3e-3, warmup_steps=20, batch_size=16, max_steps=300, val_size=32)

# Narrow and deep, so that eight layers still train at several steps per second.
DEEP_LM_MODEL = CHAR_LM_MODEL.replace(d_model=32, d_ff=128, n_decoder_layers=8)
DEEP_LM_TRAIN = CHAR_LM_TRAIN.replace(max_steps=150)

# A high peak learning rate: pre-norm stacks of either depth train at it; see the norm labs.
HIGH_LR_TRAIN = CHAR_LM_TRAIN.replace(lr=3e-2, warmup_steps=20, max_steps=80)

# The character-LM size, trained on the small bundled text: it starts to memorise within the lab's steps.
OVERFIT_MODEL = CHAR_LM_MODEL.replace(dropout=0.0)
OVERFIT_TRAIN = CHAR_LM_TRAIN.replace(val_size=64)

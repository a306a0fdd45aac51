"""Training data from plain text: next-token prediction (LMData) and masked LM (MLMData).

The text is tokenized once. The validation split is the last ``val_fraction`` of the tokens,
so it is text the model never trains on, not a random sample of overlapping windows.
"""
from __future__ import annotations

from typing import Literal

import torch

from playground.data.tokenizer import MASK_ID, NUM_SPECIAL, Tokenizer

IGNORE_INDEX = -100  # label of positions that take no part in the loss (F.cross_entropy's default)

Split = Literal["train", "val"]


class TextTooShort(ValueError):
    """A text whose training or validation part is too short for windows of ``block_size`` tokens.

    Its fields let a caller say which setting to change: ``largest`` is the longest block both parts
    still hold (below 1 when none does)."""

    def __init__(self, tokens: int, train: int, val: int, val_fraction: float, block_size: int, needed: int):
        self.tokens, self.train, self.val, self.block_size, self.needed = tokens, train, val, block_size, needed
        self.largest = min(train, val) - (needed - block_size)
        smaller = f"a block_size of at most {self.largest}" if self.largest >= 1 else "a smaller block_size"
        super().__init__(f"the text has {tokens} tokens: {train} for training and {val} for validation "
                         f"(val_fraction={val_fraction}), but block_size={block_size} needs at least {needed} in "
                         f"each; use a longer text or {smaller}")


class _TokenSplits:
    """Token ids of a text split into train and validation, each at least ``min_tokens`` long."""

    def __init__(self, text: str, tokenizer: Tokenizer, block_size: int, val_fraction: float, min_tokens: int):
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        if not text:
            raise ValueError("the text is empty; paste or upload some text, or use the bundled text")
        if not isinstance(tokenizer, Tokenizer):
            raise TypeError(f"tokenizer must be a playground Tokenizer, got {type(tokenizer).__name__}")
        if isinstance(block_size, bool) or not isinstance(block_size, int) or not 1 <= block_size <= 65_536:
            raise ValueError(f"block_size must be an int between 1 and 65536, got {block_size!r}")
        if isinstance(val_fraction, bool) or not isinstance(val_fraction, (int, float)) or not 0 < val_fraction < 1:
            raise ValueError(f"val_fraction must be a number between 0 and 1 (exclusive), got {val_fraction!r}")
        self.tokenizer = tokenizer
        self.block_size = block_size
        self.val_fraction = float(val_fraction)
        self.unknown_chars = tokenizer.unknown_chars(text)
        ids = torch.tensor(tokenizer.encode(text), dtype=torch.long)  # [N]
        n_val = round(len(ids) * val_fraction)
        self.train_ids = ids[: len(ids) - n_val]  # [N_train]
        self.val_ids = ids[len(ids) - n_val :]  # [N_val]
        shortest = min(len(self.train_ids), len(self.val_ids))
        if shortest < min_tokens:
            raise TextTooShort(len(ids), len(self.train_ids), len(self.val_ids), val_fraction, block_size, min_tokens)

    @property
    def vocab_size(self) -> int:
        return self.tokenizer.vocab_size

    def ids(self, split: Split) -> torch.Tensor:
        """All token ids of one split. [N_split]"""
        if split == "train":
            return self.train_ids
        if split == "val":
            return self.val_ids
        raise ValueError(f'split must be "train" or "val", got {split!r}')

    def random_windows(self, split: Split, batch_size: int, length: int, generator: torch.Generator) -> torch.Tensor:
        """``batch_size`` windows of ``length`` consecutive ids at random offsets, on the generator's
        device (a GPU keeps a copy of the ids). [B, length]"""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or not 1 <= batch_size <= 65_536:
            raise ValueError(f"batch_size must be an int between 1 and 65536, got {batch_size!r}")
        if not isinstance(generator, torch.Generator):
            raise TypeError("pass a torch.Generator so batches are reproducible, e.g. torch.Generator().manual_seed(0)")
        device = generator.device
        ids = self.ids(split) if device.type == "cpu" else self._ids_on(split, device)
        starts = torch.randint(0, len(ids) - length + 1, (batch_size,), generator=generator, device=device)  # [B]
        return ids[starts[:, None] + torch.arange(length, device=device)]  # [B, length]

    def _ids_on(self, split: Split, device: torch.device) -> torch.Tensor:
        """One split's ids on ``device``, copied there once. [N_split]"""
        copies = self.__dict__.setdefault("_copies", {})
        key = (split, str(device))
        if key not in copies:
            copies[key] = self.ids(split).to(device)
        return copies[key]

    def __getstate__(self) -> dict:
        """The data without its copies on other devices (a pickle may go where there is no GPU)."""
        return {k: v for k, v in self.__dict__.items() if k != "_copies"}


class LMData(_TokenSplits):
    """Next-token prediction windows: ``y`` is ``x`` shifted left by one token."""

    def __init__(self, text: str, tokenizer: Tokenizer, block_size: int, val_fraction: float = 0.1):
        super().__init__(text, tokenizer, block_size, val_fraction, min_tokens=block_size + 1)

    def batch(self, split: Split, batch_size: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        """Random inputs and next-token targets, x [B, T] and y [B, T] with T = block_size."""
        window = self.random_windows(split, batch_size, self.block_size + 1, generator)  # [B, T+1]
        return window[:, :-1], window[:, 1:]


class MLMData(_TokenSplits):
    """BERT-style masked LM windows.

    Each position is selected with probability ``mask_prob`` (every row gets at least one).
    A selected token becomes <mask> 80% of the time, a random ordinary token 10% and stays
    itself 10%. Labels hold the original id at selected positions and -100 elsewhere.
    """

    def __init__(
        self, text: str, tokenizer: Tokenizer, block_size: int, val_fraction: float = 0.1, mask_prob: float = 0.15
    ):
        super().__init__(text, tokenizer, block_size, val_fraction, min_tokens=block_size)
        if isinstance(mask_prob, bool) or not isinstance(mask_prob, (int, float)) or not 0 < mask_prob <= 1:
            raise ValueError(f"mask_prob must be a number in (0, 1], got {mask_prob!r}")
        self.mask_prob = float(mask_prob)

    def batch(self, split: Split, batch_size: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        """Corrupted inputs x [B, T] and labels [B, T] (original ids where selected, else -100)."""
        original = self.random_windows(split, batch_size, self.block_size, generator)  # [B, T]
        B, T = original.shape
        device = generator.device                                    # every draw on it, no mask indexing: no wait
        selected = torch.rand(B, T, generator=generator, device=device) < self.mask_prob  # [B, T]
        forced = torch.randint(0, T, (B,), generator=generator, device=device)  # [B]
        empty_rows = ~selected.any(dim=1)  # [B]
        selected |= empty_rows[:, None] & (torch.arange(T, device=device) == forced[:, None])
        action = torch.rand(B, T, generator=generator, device=device)  # [B, T]
        random_ids = torch.randint(NUM_SPECIAL, self.vocab_size, (B, T), generator=generator, device=device)  # [B, T]
        x = torch.where(selected & (action < 0.8), MASK_ID, original)
        swap = selected & (action >= 0.8) & (action < 0.9)
        x = torch.where(swap, random_ids, x)
        labels = torch.where(selected, original, IGNORE_INDEX)  # [B, T]
        return x, labels

import pytest
import torch

from playground.data import IGNORE_INDEX, MASK_ID, BPETokenizer, CharTokenizer, LMData, MLMData, bundled_text

TEXT = "".join(chr(ord("a") + (i * 7) % 26) for i in range(1000))  # no repeated windows of length >= 2


def _gen(seed=0):
    return torch.Generator().manual_seed(seed)


def test_lm_targets_are_inputs_shifted_by_one():
    tok = CharTokenizer.from_text(TEXT)
    data = LMData(TEXT, tok, block_size=16)
    x, y = data.batch("train", 8, _gen())  # [B, T]
    assert x.shape == y.shape == (8, 16) and x.dtype == torch.long
    assert torch.equal(x[:, 1:], y[:, :-1])
    for row in range(8):
        window = tok.decode(x[row]) + tok.decode(y[row, -1:])
        assert window in TEXT


def test_validation_split_is_the_last_part_of_the_text():
    tok = CharTokenizer.from_text(TEXT)
    data = LMData(TEXT, tok, block_size=8, val_fraction=0.2)
    assert len(data.val_ids) == 200 and len(data.train_ids) == 800
    assert tok.decode(data.val_ids) == TEXT[800:]
    val_text = TEXT[800:]
    x, y = data.batch("val", 32, _gen())
    for row in range(32):
        assert tok.decode(x[row]) + tok.decode(y[row, -1:]) in val_text
    x, _ = data.batch("train", 32, _gen())
    for row in range(32):
        assert tok.decode(x[row]) in TEXT[:800]


def test_batches_are_deterministic_for_a_generator_seed():
    data = LMData(TEXT, CharTokenizer.from_text(TEXT), block_size=8)
    a, b, c = (data.batch("train", 4, _gen(s)) for s in (1, 1, 2))
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert not torch.equal(a[0], c[0])


def test_lm_data_with_bpe_on_the_bundled_text():
    text = bundled_text()
    tok = BPETokenizer.train(text, vocab_size=300)
    data = LMData(text, tok, block_size=32)
    x, y = data.batch("val", 2, _gen())
    assert x.shape == (2, 32) and int(x.max()) < tok.vocab_size
    assert len(data.train_ids) + len(data.val_ids) == len(tok.encode(text))


@pytest.mark.parametrize("text, block_size, val_fraction, message", [
    ("", 8, 0.1, "text is empty"),
    ("abcdefghij", 8, 0.1, "block_size=8 needs at least 9 in each"),
    (TEXT, 0, 0.1, "block_size must be an int between 1"),
    (TEXT, 8, 0.0, "val_fraction must be a number between 0 and 1"),
    (TEXT, 8, 1.0, "val_fraction must be a number between 0 and 1"),
])
def test_bad_lm_settings_say_what_to_change(text, block_size, val_fraction, message):
    with pytest.raises(ValueError, match=message):
        LMData(text, CharTokenizer.from_text(TEXT), block_size=block_size, val_fraction=val_fraction)


def test_bad_batch_requests_say_what_to_change():
    data = LMData(TEXT, CharTokenizer.from_text(TEXT), block_size=8)
    with pytest.raises(ValueError, match='split must be "train" or "val"'):
        data.batch("test", 4, _gen())
    with pytest.raises(ValueError, match="batch_size must be an int"):
        data.batch("train", 0, _gen())
    with pytest.raises(TypeError, match="torch.Generator"):
        data.batch("train", 4, 0)


def test_unknown_characters_are_reported():
    data = LMData(TEXT + "€" * 5, CharTokenizer.from_text(TEXT), block_size=8)
    assert data.unknown_chars == ["€"]


def test_mlm_masks_about_fifteen_percent_with_80_10_10():
    tok = CharTokenizer.from_text(TEXT)
    data = MLMData(TEXT, tok, block_size=64)
    x, labels = data.batch("train", 256, _gen())  # [B, T]
    assert x.shape == labels.shape == (256, 64)
    selected = labels != IGNORE_INDEX
    assert abs(selected.float().mean().item() - 0.15) < 0.01
    masked = (x == MASK_ID) & selected
    kept = (x == labels) & selected
    swapped = selected & ~masked & ~kept
    n = selected.sum().item()
    assert abs(masked.sum().item() / n - 0.8) < 0.03
    # A random replacement can draw the original token (1 in 26 here), so "kept" is ~10% + a bit.
    assert abs(kept.sum().item() / n - (0.1 + 0.1 / 26)) < 0.02
    assert abs(swapped.sum().item() / n - 0.1 * 25 / 26) < 0.02
    assert (x[~selected] != MASK_ID).all()
    assert int(x[swapped].min()) >= 5  # random tokens are never special tokens
    assert (x != tok.pad_id).all()


def test_mlm_labels_hold_the_original_tokens_and_every_row_has_one():
    tok = CharTokenizer.from_text(TEXT)
    data = MLMData(TEXT, tok, block_size=4, mask_prob=0.01)
    x, labels = data.batch("val", 64, _gen(3))
    selected = labels != IGNORE_INDEX
    assert selected.any(dim=1).all()
    original = torch.where(selected, labels, x)  # [B, T]
    val_text = tok.decode(data.val_ids)
    for row in range(64):
        assert tok.decode(original[row]) in val_text
    x2, labels2 = data.batch("val", 64, _gen(3))
    assert torch.equal(x, x2) and torch.equal(labels, labels2)
    with pytest.raises(ValueError, match="mask_prob"):
        MLMData(TEXT, tok, block_size=4, mask_prob=0)


def test_the_seed_rhyme_is_refused_at_block_64_with_the_block_that_fits():
    from playground.data import CharTokenizer, rhyme_text

    text = rhyme_text()
    tokenizer = CharTokenizer.from_text(text)
    with pytest.raises(ValueError, match="41 for validation.*a block_size of at most 40"):
        LMData(text, tokenizer, 64)
    data = LMData(text, tokenizer, 40)
    assert len(data.ids("val")) == 41 and len(data.ids("train")) == 366

import json
import pickle

import pytest
import torch
from tokenizers import pre_tokenizers

from playground.data import (
    BOS_ID,
    EOS_ID,
    MASK_ID,
    PAD_ID,
    UNK_ID,
    BPETokenizer,
    CharTokenizer,
    Tokenizer,
    tokenizer_from_json,
)

TRAIN_TEXT = (
    "Attention lets every token look at every other token. "
    "注意力机制让每个词都能看到其他的词。 "
    "Café, naïve, résumé. Emoji: 👍🏽 🎉 \n\tTabs and newlines too.\n"
) * 8

HARD_TEXTS = [
    "",
    "hello world",
    "注意力机制 世界",
    "👍🏽🎉 family: 👨‍👩‍👧",
    "  leading and trailing spaces  \n\n",
    "<pad><bos><eos><unk><mask> are just text here",
    "Zürich — naïve café ÅÄÖ ∑∫ √2",
]


@pytest.fixture(scope="module")
def bpe() -> BPETokenizer:
    return BPETokenizer.train(TRAIN_TEXT, vocab_size=320)


def test_special_ids_are_fixed_for_both_kinds(bpe):
    char = CharTokenizer.from_text("abc")
    for tok in (char, bpe):
        assert (tok.pad_id, tok.bos_id, tok.eos_id, tok.unk_id, tok.mask_id) == (0, 1, 2, 3, 4)
        assert (PAD_ID, BOS_ID, EOS_ID, UNK_ID, MASK_ID) == (0, 1, 2, 3, 4)
        assert [tok.id_to_piece(i) for i in range(5)] == ["<pad>", "<bos>", "<eos>", "<unk>", "<mask>"]
        assert isinstance(tok, Tokenizer)
    assert char.kind == "char" and bpe.kind == "bpe"


def test_char_vocabulary_is_sorted_distinct_characters():
    tok = CharTokenizer.from_text("banana", extra_chars="z")
    assert tok.chars == ["a", "b", "n", "z"]
    assert tok.vocab_size == 5 + 4
    assert tok.encode("ban") == [6, 5, 7]
    assert CharTokenizer("nab") == CharTokenizer.from_text("banana")


@pytest.mark.parametrize("text", HARD_TEXTS)
def test_char_round_trip(text):
    tok = CharTokenizer.from_text(text + "x")
    assert tok.decode(tok.encode(text)) == text
    assert len(tok.encode(text)) == len(text)


@pytest.mark.parametrize("text", HARD_TEXTS)
def test_bpe_round_trip_of_any_text(bpe, text):
    assert bpe.decode(bpe.encode(text)) == text
    assert bpe.unknown_chars(text) == []
    assert UNK_ID not in bpe.encode(text)


def test_bos_eos_are_added_and_skipped(bpe):
    char = CharTokenizer.from_text("hi")
    for tok in (char, bpe):
        ids = tok.encode("hi", add_bos=True, add_eos=True)
        assert ids[0] == BOS_ID and ids[-1] == EOS_ID
        assert tok.decode(ids) == "hi"
        assert tok.decode([PAD_ID, *ids, PAD_ID], skip_special=False) == "<pad><bos>hi<eos><pad>"
        assert tok.decode(torch.tensor(ids)) == "hi"


def test_char_unknown_characters_map_to_unk_and_are_reported():
    tok = CharTokenizer.from_text("abc ")
    ids = tok.encode("a d€b d")
    assert ids.count(UNK_ID) == 3
    assert tok.unknown_chars("a d€b d") == ["d", "€"]
    assert tok.unknown_chars("abc") == []
    assert tok.decode(ids) == "a \ufffd\ufffdb \ufffd"


def test_bpe_learns_merges_in_order_and_uses_them(bpe):
    merges = bpe.merges()
    assert len(merges) == bpe.vocab_size - 5 - 256
    assert len(bpe.encode(TRAIN_TEXT)) < len(TRAIN_TEXT.encode("utf-8")) * 0.6
    # In order: each merge joins two symbols that already exist (bytes or earlier merges).
    known = set(pre_tokenizers.ByteLevel.alphabet())
    for a, b in merges:
        assert a in known and b in known, (a, b)
        known.add(a + b)
    assert ("Ġ", "t") in merges and ("␣", "t") in bpe.merges(display=True)


def test_bpe_training_is_deterministic(bpe):
    again = BPETokenizer.train(TRAIN_TEXT, vocab_size=320)
    assert again.merges() == bpe.merges()
    assert again.to_json() == bpe.to_json()


@pytest.mark.parametrize("vocab_size", [0, 100, 261, 10**7])
def test_bpe_rejects_vocab_sizes_that_cannot_work(vocab_size):
    with pytest.raises(ValueError, match="256 byte tokens"):
        BPETokenizer.train(TRAIN_TEXT, vocab_size=vocab_size)


def test_bpe_rejects_empty_training_text():
    with pytest.raises(ValueError, match="empty text"):
        BPETokenizer.train(["", ""], vocab_size=300)


def test_bpe_trains_from_an_iterable_of_texts():
    tok = BPETokenizer.train(iter(TRAIN_TEXT.splitlines()), vocab_size=290)
    assert tok.vocab_size > 261
    assert tok.decode(tok.encode("注意力 👍🏽")) == "注意力 👍🏽"


def _assert_spans_cover(tok: Tokenizer, text: str) -> None:
    spans = tok.token_spans(text)
    assert [s.id for s in spans] == tok.encode(text)
    for span in spans:
        assert 0 <= span.start < span.end <= len(text)
        assert span.piece == tok.id_to_piece(span.id)
    covered = sorted({k for s in spans for k in range(s.start, s.end)})
    assert covered == list(range(len(text)))


@pytest.mark.parametrize("text", HARD_TEXTS[1:])
def test_spans_cover_the_text_for_both_tokenizers(bpe, text):
    _assert_spans_cover(bpe, text)
    _assert_spans_cover(CharTokenizer.from_text(text), text)


def test_bpe_byte_pieces_of_one_character_share_its_span(bpe):
    text = "a世"  # 世 is three UTF-8 bytes
    spans = bpe.token_spans(text)
    world = [s for s in spans if s.start == 1]
    assert all((s.start, s.end) == (1, 2) for s in world)
    assert b"".join(bytes.fromhex(p) for s in world for p in s.piece.strip("<>").split("><")) == "世".encode()


def test_ordinary_spans_and_visible_whitespace(bpe):
    spans = bpe.token_spans("hello world")
    assert "".join("hello world"[s.start:s.end] for s in spans) == "hello world"
    assert any(s.piece.startswith("␣") for s in spans)
    char = CharTokenizer.from_text("a b\n")
    assert [s.piece for s in char.token_spans("a b\n")] == ["a", "␣", "b", "↵"]
    assert [(s.start, s.end) for s in char.token_spans("ab")] == [(0, 1), (1, 2)]


def test_json_round_trip_is_exact(bpe):
    char = CharTokenizer.from_text("héllo 世界 👍")
    for tok in (char, bpe):
        restored = tokenizer_from_json(tok.to_json())
        assert type(restored) is type(tok)
        assert restored.to_json() == tok.to_json()
        assert restored.encode(TRAIN_TEXT) == tok.encode(TRAIN_TEXT)
        assert restored.vocab_size == tok.vocab_size
    assert tokenizer_from_json(bpe.to_json()).merges() == bpe.merges()
    assert json.loads(char.to_json())["type"] == "char"


def test_equal_tokenizers_hash_alike_and_each_writes_its_json_once_for_it(bpe, monkeypatch):
    for tok in (CharTokenizer.from_text("héllo"), bpe):
        twin = tokenizer_from_json(tok.to_json())
        written, to_json = [], type(tok).to_json
        monkeypatch.setattr(type(tok), "to_json", lambda self: written.append(self) or to_json(self))
        assert hash(tok) == hash(twin) and tok == twin
        assert {tok: 1}[twin] == 1
        hash(tok), hash(twin)
        assert written == [tok, twin]                     # once each, however often it is hashed
        copy = pickle.loads(pickle.dumps(tok))            # another process hashes with its own seed
        assert "_json_hash" not in copy.__dict__ and copy == tok and hash(copy) == hash(tok)
        monkeypatch.undo()


@pytest.mark.parametrize(
    "payload, message",
    [("not json", "could not be parsed"), ('{"chars": "ab"}', '"type" field'), ('{"type": "wordpiece"}', "unknown tokenizer type")],
)
def test_bad_tokenizer_json_says_what_is_wrong(payload, message):
    with pytest.raises(ValueError, match=message):
        tokenizer_from_json(payload)


def test_decode_rejects_ids_outside_the_vocabulary():
    tok = CharTokenizer.from_text("ab")
    with pytest.raises(ValueError, match="outside the vocabulary"):
        tok.decode([0, 99])
    with pytest.raises(TypeError, match="must be integers"):
        tok.decode([5, 1.0])
    assert tok.id_to_piece(torch.tensor(6)) == "b"
    with pytest.raises(ValueError, match="at least one character"):
        CharTokenizer([])

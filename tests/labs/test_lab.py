"""Lab definitions are validated, and the data falls back to the bundled text when it must."""
import dataclasses

import pytest

from playground.data import LMData
from playground.labs import Bilingual, DataSpec, Lab, Variant, get_lab
from playground.labs import lab as lab_module

from .helpers import without_tiny_shakespeare


def test_a_lab_needs_a_reference_first_and_distinct_variants():
    lab = get_lab("embedding-scale")
    broken = lab.variants[1]
    with pytest.raises(ValueError, match="first variant is the reference"):
        dataclasses.replace(lab, variants=(broken, lab.reference))
    with pytest.raises(ValueError, match="at least one other variant"):
        dataclasses.replace(lab, variants=(lab.reference,))
    with pytest.raises(ValueError, match="repeated variant ids"):
        dataclasses.replace(lab, variants=(lab.reference, broken, broken))
    with pytest.raises(ValueError, match="rounds"):
        dataclasses.replace(lab, rounds=0)
    with pytest.raises(ValueError, match="kind"):
        dataclasses.replace(lab, kind="experiment")


def test_a_variant_with_an_invalid_change_is_refused_when_the_lab_is_defined():
    lab = get_lab("positional-encodings")
    wrong = Variant("alibi", Bilingual("ALiBi", "ALiBi"), model_changes=dict(positional="alibi"))
    with pytest.raises(ValueError, match="positional"):
        dataclasses.replace(lab, variants=(lab.reference, wrong))


def test_data_names_a_task_or_a_corpus_with_a_block_size():
    with pytest.raises(ValueError, match="either a task or a corpus"):
        DataSpec(task="copy", corpus="bundled", block_size=8)
    with pytest.raises(ValueError, match="either a task or a corpus"):
        DataSpec()
    with pytest.raises(ValueError, match="block_size"):
        DataSpec(corpus="bundled")
    assert DataSpec(task="copy", knobs=dict(length=4)).describe() == "copy (length=4)"


def test_text_in_an_unknown_language_or_empty_text_is_refused():
    with pytest.raises(ValueError, match="zh-CN"):
        Bilingual("question", "问题").get("de")
    with pytest.raises(ValueError, match="empty"):
        Bilingual("question", " ")


def test_without_tiny_shakespeare_a_corpus_lab_reads_the_bundled_text(monkeypatch):
    without_tiny_shakespeare(monkeypatch)
    try:
        spec = DataSpec(corpus="tiny_shakespeare", block_size=16)
        data = spec.build()
        assert isinstance(data, LMData) and spec.describe() == "bundled, characters, block 16"
        assert data.tokenizer.vocab_size < 70                               # fewer distinct characters
    finally:
        lab_module.corpus_text.cache_clear()
        lab_module._text_data.cache_clear()


def test_a_resized_lab_keeps_its_variants_and_checks():
    lab = get_lab("missing-residual")
    small = lab.resized(model_changes=dict(d_model=16, d_ff=32), train_changes=dict(max_steps=6, warmup_steps=1),
                        rounds=2)
    assert isinstance(small, Lab) and small.variants == lab.variants and small.checks == lab.checks
    assert small.model_config.n_decoder_layers == 8 and small.train_config.max_steps == 6 and small.rounds == 2


def test_a_variant_can_read_the_same_text_with_another_tokenizer():
    from playground.data import BPETokenizer

    bpe = DataSpec(corpus="bundled", block_size=8, bpe_vocab_size=300)
    assert "BPE of 300 tokens" in bpe.describe()
    assert isinstance(bpe.build().tokenizer, BPETokenizer)
    with pytest.raises(ValueError, match="bpe_vocab_size"):
        DataSpec(task="copy", bpe_vocab_size=300)

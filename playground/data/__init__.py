"""Data layer: tokenizers (character, byte-level BPE), synthetic seq2seq tasks, language-model
data, repeated random sequences and text corpora."""
from playground.data.tokenizer import (
    BOS_ID,
    EOS_ID,
    MASK_ID,
    PAD_ID,
    SPECIAL_TOKENS,
    UNK_ID,
    TokenSpan,
    Tokenizer,
    tokenizer_from_json,
)
from playground.data.char_tokenizer import CharTokenizer
from playground.data.bpe_tokenizer import BPETokenizer
from playground.data.batching import Seq2SeqBatch, pad_sequences
from playground.data.lm_data import IGNORE_INDEX, LMData, MLMData
from playground.data.repeats import RepeatedSequences
from playground.data.corpora import (
    CORPORA, CORPUS_SOURCES, CorpusUnavailable, bundled_text, load_corpus, rhyme_text, tang_poems_text, tiny_shakespeare,
)
from playground.data import tasks

__all__ = [
    "BOS_ID", "EOS_ID", "MASK_ID", "PAD_ID", "UNK_ID", "SPECIAL_TOKENS", "IGNORE_INDEX",
    "Tokenizer", "TokenSpan", "CharTokenizer", "BPETokenizer", "tokenizer_from_json",
    "Seq2SeqBatch", "pad_sequences", "LMData", "MLMData", "RepeatedSequences",
    "CORPORA", "CORPUS_SOURCES", "CorpusUnavailable", "bundled_text", "load_corpus", "rhyme_text", "tang_poems_text",
    "tiny_shakespeare",
    "tasks",
]

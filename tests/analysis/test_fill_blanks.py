"""Blanks become <mask> tokens; the candidates are the model's own softmax over ordinary tokens."""
import torch

from playground.analysis.fill_blanks import BLANK, fill_blanks, filled_text, masked_ids
from playground.checkpoint import load
from playground.data import MASK_ID, CharTokenizer
from playground.data.tokenizer import NUM_SPECIAL
from playground.zoo import DEFAULT_PRETRAINED_DIR
from tests.model.helpers import tiny_model

LETTERS = CharTokenizer("abcdefghijklmnopqr ")


def test_each_blank_is_one_mask_token_in_place():
    ids = masked_ids("ab_d_", LETTERS)
    assert ids == [*LETTERS.encode("ab"), MASK_ID, *LETTERS.encode("d"), MASK_ID]
    assert BLANK not in LETTERS.decode(ids)


def test_candidates_are_the_softmax_over_ordinary_tokens_best_first():
    model = tiny_model("encoder_only", vocab_size=LETTERS.vocab_size)
    ids = masked_ids("a_c_e", LETTERS)
    blanks = fill_blanks(model, ids, top_k=4)
    assert [b.position for b in blanks] == [1, 3]
    with torch.no_grad():
        logits = model(torch.tensor([ids]))[0, :, NUM_SPECIAL:].double()   # [T, V - specials]
    probs = torch.softmax(logits, dim=-1)
    for blank in blanks:
        expected = torch.topk(probs[blank.position], 4)
        assert blank.candidates == (expected.indices + NUM_SPECIAL).tolist()
        assert torch.allclose(torch.tensor(blank.probabilities, dtype=torch.float64), expected.values)
        assert min(blank.candidates) >= NUM_SPECIAL
    filled = filled_text(ids, blanks, LETTERS)
    assert filled[0] == "a" and filled[2] == "c" and len(filled) == 5


def test_the_shipped_masked_model_fills_a_famous_line():
    model, tokenizer, _, _ = load(DEFAULT_PRETRAINED_DIR / "masked-char")
    ids = masked_ids("To be, or not to b_, that is the qu_stion", tokenizer)
    blanks = fill_blanks(model.eval(), ids)
    assert [tokenizer.id_to_piece(b.candidates[0]) for b in blanks] == ["e", "e"]

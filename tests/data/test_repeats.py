import pytest
import torch

from playground.data import RepeatedSequences
from playground.data.repeats import ALPHABET, repeat_to_length
from playground.data.tokenizer import NUM_SPECIAL


def period_of(row: torch.Tensor) -> int:
    """The smallest n with row[t] == row[t - n] for every t >= n."""
    return next(n for n in range(1, len(row) + 1) if torch.equal(row[n:], row[:-n]))


def test_each_batch_repeats_one_random_block_of_a_period_in_range():
    data = RepeatedSequences(block_size=64, min_period=8, max_period=32)
    generator = torch.Generator().manual_seed(0)
    periods = set()
    for _ in range(40):
        x, y = data.batch(16, generator)
        assert x.shape == y.shape == (16, 64)
        assert torch.equal(x[:, 1:], y[:, :-1])                              # y is x shifted by one token
        assert int(x.min()) >= NUM_SPECIAL and int(x.max()) < data.vocab_size
        row_periods = {period_of(torch.cat([x[b], y[b, -1:]])) for b in range(16)}
        assert len(row_periods) == 1                                          # one drawn period per batch
        periods |= row_periods
    assert min(periods) >= 8 and max(periods) <= 32 and len(periods) > 10


def test_the_period_can_be_chosen_and_batches_are_reproducible():
    data = RepeatedSequences()
    a = data.batch(4, torch.Generator().manual_seed(3), period=5)
    b = data.batch(4, torch.Generator().manual_seed(3), period=5)
    assert all(torch.equal(u, v) for u, v in zip(a, b))
    assert torch.equal(a[0][:, 5:], a[0][:, :-5])


def test_the_tokenizer_reads_typed_text():
    data = RepeatedSequences()
    assert data.vocab_size == NUM_SPECIAL + len(ALPHABET) == 101
    assert data.tokenizer.decode(data.tokenizer.encode("the cat sat.\n")) == "the cat sat.\n"


def test_repeat_to_length_writes_each_block_again_and_again():
    blocks = torch.tensor([[1, 2, 3], [4, 5, 6]])
    assert repeat_to_length(blocks, 7).tolist() == [[1, 2, 3, 1, 2, 3, 1], [4, 5, 6, 4, 5, 6, 4]]


@pytest.mark.parametrize("knobs", [dict(block_size=1), dict(min_period=9, max_period=8), dict(max_period=65),
                                   dict(min_period=0)])
def test_bad_knobs_are_refused_with_what_to_change(knobs):
    with pytest.raises(ValueError, match="must be an int between"):
        RepeatedSequences(**knobs)

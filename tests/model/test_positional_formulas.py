"""Every positional encoding against its formula, written out here independently in float64:

sinusoidal (Vaswani et al. 2017):  PE[pos, 2i] = sin(pos / 10000^(2i/d)),  PE[pos, 2i+1] = cos(pos / 10000^(2i/d))
learned:                           PE[pos] = the trained row `pos` of the table
RoPE (Su et al. 2021, the pairing of GPT-NeoX): each pair (x[j], x[j + Dh/2]) of a query or key at position
                                   pos is rotated by the angle pos * 10000^(-2j/Dh)
none:                              nothing is added and nothing is rotated
"""
import math

import pytest
import torch

from playground.model.positional import (
    LearnedPositions, PositionalEncoding, RotaryPositions, SinusoidalPositions, build_positional, sinusoidal_table,
)

MAX_LEN = 16


def sinusoidal_formula(length: int, d: int, first: int = 0) -> torch.Tensor:
    """[length, d] float64, one value at a time."""
    table = torch.zeros(length, d, dtype=torch.float64)
    for row, pos in enumerate(range(first, first + length)):
        for dim in range(d):
            i = dim // 2
            angle = pos / 10000 ** (2 * i / d)
            table[row, dim] = math.sin(angle) if dim % 2 == 0 else math.cos(angle)
    return table


def rope_formula(x: torch.Tensor, first: int) -> torch.Tensor:
    """x [T, Dh] at positions first..first+T-1, each rotated by its block-diagonal rotation matrix."""
    length, dh = x.shape
    out = torch.zeros(length, dh, dtype=torch.float64)
    for t in range(length):
        rotation = torch.zeros(dh, dh, dtype=torch.float64)
        for j in range(dh // 2):
            angle = (first + t) * 10000 ** (-2 * j / dh)
            c, s = math.cos(angle), math.sin(angle)
            a, b = j, j + dh // 2                   # the pair (x[j], x[j + Dh/2])
            rotation[a, a], rotation[a, b] = c, -s
            rotation[b, a], rotation[b, b] = s, c
        out[t] = rotation @ x[t].double()
    return out


@pytest.mark.parametrize("d", [6, 7, 32])
def test_the_sinusoidal_table_is_the_formula(d):
    torch.testing.assert_close(sinusoidal_table(40, d).double(), sinusoidal_formula(40, d), rtol=0, atol=2e-6)


@pytest.mark.parametrize("offset, length", [(0, 5), (3, 9), (12, 10)])     # the last runs past max_len
def test_sinusoidal_positions_add_the_formula_at_absolute_positions(offset, length):
    positions = SinusoidalPositions(8, MAX_LEN)
    x = torch.randn(2, length, 8, generator=torch.Generator().manual_seed(offset))
    expected = x.double() + sinusoidal_formula(length, 8, first=offset)
    torch.testing.assert_close((x + positions.added(offset, length)).double(), expected, rtol=0, atol=2e-6)
    torch.testing.assert_close(positions.table(offset + length).double(), sinusoidal_formula(offset + length, 8),
                               rtol=0, atol=2e-6)


@pytest.mark.parametrize("offset, length", [(0, 5), (4, 12)])
def test_learned_positions_add_the_row_of_each_absolute_position(offset, length):
    positions = LearnedPositions(8, MAX_LEN)
    rows = torch.stack([positions.embedding.weight[offset + t] for t in range(length)])        # [T, D]
    assert torch.equal(positions.added(offset, length), rows)
    assert torch.equal(positions.table(MAX_LEN), positions.embedding.weight)


@pytest.mark.parametrize("head_dim", [2, 8])
@pytest.mark.parametrize("offset, length", [(0, 6), (5, 3), (14, 7)])      # the last runs past max_len
def test_rope_rotates_each_pair_by_its_angle(head_dim, offset, length):
    rope = RotaryPositions(head_dim, MAX_LEN)
    x = torch.randn(2, 3, length, head_dim, generator=torch.Generator().manual_seed(head_dim + offset))  # [B, H, T, Dh]
    rotated = rope.rotate(x, offset).double()
    for b in range(2):
        for h in range(3):
            torch.testing.assert_close(rotated[b, h], rope_formula(x[b, h], offset), rtol=0, atol=1e-5)


def test_rope_keeps_lengths_and_adds_nothing():
    rope = RotaryPositions(8, MAX_LEN)
    x = torch.randn(1, 1, 10, 8, generator=torch.Generator().manual_seed(2))
    torch.testing.assert_close(rope.rotate(x).norm(dim=-1), x.norm(dim=-1))                   # a rotation
    assert rope.added(0, 10) is None and rope.table(10) is None


def test_no_positions_change_nothing():
    none = build_positional("none", 8, 4, MAX_LEN)
    x = torch.randn(2, 5, 8)
    assert type(none) is PositionalEncoding
    assert none.added(3, 5) is None and torch.equal(none.rotate(x[:, None], 3), x[:, None])
    assert none.table(5) is None

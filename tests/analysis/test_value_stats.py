"""The shape table's statistics of a tensor (mean, standard deviation, largest value) are read in one
pass over the tensor as it is (accumulated in float64, given in the tensor's precision), without a float64
copy of it: a large model's
logits (64 x 151,936 values) are not copied to be summarised."""
import math

import pytest
import torch

from playground.analysis import shapes


def test_statistics_match_float64_on_values_with_a_large_offset():
    values = torch.randn(4096, generator=torch.Generator().manual_seed(0)) * 1e-3 + 1000.0   # float32
    exact = values.double()
    mean, std, largest = shapes.value_stats(values)
    assert mean == pytest.approx(float(exact.mean()), rel=1e-7)              # float32's rounding of the mean
    assert std == pytest.approx(float(exact.std(correction=0)), rel=1e-4)    # no cancellation against the offset
    assert largest == float(exact.max())


def test_an_integer_tensor_and_an_empty_one():
    assert shapes.value_stats(torch.tensor([1, 2, 3, 4])) == pytest.approx((2.5, math.sqrt(1.25), 4.0))
    assert all(math.isnan(v) for v in shapes.value_stats(torch.empty(0)))


def test_no_float64_copy_of_a_float32_tensor_is_made(monkeypatch):
    copied = []
    real = torch.Tensor.double
    monkeypatch.setattr(torch.Tensor, "double", lambda self, *a, **k: copied.append(self.numel()) or real(self, *a, **k))
    shapes.value_stats(torch.randn(64, 1000))
    assert copied == []

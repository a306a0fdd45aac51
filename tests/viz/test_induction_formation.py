import numpy as np
import pytest

from playground.viz import induction_formation


def test_both_scores_are_drawn_over_steps_with_the_threshold_and_the_first_crossing_marked():
    steps = [0, 100, 200, 300, 400]
    fig = induction_formation(steps, [0.1, 0.2, 0.5, 0.6, 0.7], [0.04, 0.05, 0.2, 0.45, 0.8], threshold=0.3,
                              previous_name="prev L0", induction_name="induction L1", crossed_name="crossed at")
    prev, induction = fig.data
    assert (prev.name, induction.name) == ("prev L0", "induction L1")
    assert list(induction.x) == steps
    np.testing.assert_allclose(induction.y, [0.04, 0.05, 0.2, 0.45, 0.8], rtol=1e-6)
    threshold, crossing = fig.layout.shapes
    assert threshold.y0 == threshold.y1 == 0.3
    assert crossing.x0 == crossing.x1 == 300                                 # the first step at or above 0.3
    assert any("crossed at: step 300" in a.text for a in fig.layout.annotations)
    named = next(a for a in fig.layout.annotations if a.text == "threshold 0.3")
    assert (named.x, named.xanchor, named.yanchor) == (0, "left", "bottom")     # above the line, where scores start low
    assert tuple(fig.layout.yaxis.range) == (0, 1.05)


def test_no_crossing_is_marked_while_the_threshold_is_not_reached():
    fig = induction_formation([0, 10], [0.1, 0.2], [0.05, 0.29], threshold=0.3)
    assert len(fig.layout.shapes) == 1
    assert not any("crosses" in a.text for a in fig.layout.annotations)


def test_scores_must_have_one_value_per_step():
    with pytest.raises(ValueError, match="has 1 values but steps has 2"):
        induction_formation([0, 10], [0.1], [0.05, 0.2], threshold=0.3)

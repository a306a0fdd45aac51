"""The colours that carry meaning stay apart for colour-blind viewers: each pair is compared in
CIELAB after simulating full protanopia, deuteranopia and tritanopia (Machado, Oliveira and
Fernandes 2009, severity 1), and the sequential scale grows lighter at every stop (readable in
greyscale, as on a washed-out projector)."""
import numpy as np
import pytest

from playground.viz import predictions, theme

SIMULATIONS = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}
APART = 40.0          # CIELAB distance: two flat patches that no one confuses (about 2.3 is just noticeable)
SRGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
WHITE = np.array([0.9505, 1.0, 1.089])


def linear(colour: str) -> np.ndarray:
    rgb = np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def lab(rgb_linear: np.ndarray) -> np.ndarray:
    f = lambda t: np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)   # noqa: E731
    fx, fy, fz = f(SRGB_TO_XYZ @ rgb_linear / WHITE)
    return np.array([116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)])


def seen(colour: str, simulation: str) -> np.ndarray:
    return lab(np.clip(np.array(SIMULATIONS[simulation]) @ linear(colour), 0, 1))


def test_the_simulation_confuses_what_colour_blind_viewers_confuse():
    """Green and red of the same lightness are near one colour for a deuteranope, not for others."""
    green, red = "#9be39b", "#ff9e9e"
    assert np.linalg.norm(seen(green, "deuteranopia") - seen(red, "deuteranopia")) < 10
    assert np.linalg.norm(lab(linear(green)) - lab(linear(red))) > APART


@pytest.mark.parametrize("simulation", SIMULATIONS)
@pytest.mark.parametrize("pair", [
    (predictions.MATCH_COLOR, predictions.MISS_COLOR),                            # teacher forcing: right / wrong
    (theme.DIVERGING_COLORSCALE[0][1], theme.DIVERGING_COLORSCALE[-1][1]),        # negative / positive
    (theme.DIVERGING_COLORSCALE[1][1], theme.DIVERGING_COLORSCALE[-2][1]),
    (theme.SERIES_COLORS[0], theme.SERIES_COLORS[1]),                             # the first two curves
    (theme.SERIES_COLORS[0], theme.HIGHLIGHT_COLOR),                              # a bar and the chosen one
], ids=["match-miss", "diverging-ends", "diverging-middles", "series", "highlight"])
def test_colours_that_mean_different_things_stay_apart(pair, simulation):
    assert np.linalg.norm(seen(pair[0], simulation) - seen(pair[1], simulation)) > APART


def test_the_sequential_scale_grows_lighter_at_every_stop():
    lightness = [lab(linear(colour))[0] for _, colour in theme.ATTENTION_COLORSCALE]
    assert all(b > a + 3 for a, b in zip(lightness, lightness[1:])), lightness

"""The drawn masks are the ones the model applies: traced weights are 0 exactly where a mask hides a key."""
import torch

from playground.analysis.masks import PaddedBatch, empty_rows, left_padded_rows, site_masks
from playground.data import BOS_ID, PAD_ID, pad_sequences
from playground.model import CROSS, DECODER_SELF, ENCODER_SELF, Trace
from tests.model.helpers import tiny_model

ROWS = [[5, 6, 7, 8, 9, 10], [11, 12, 13]]          # two inputs of different lengths


def _traced(model, batch):
    trace = Trace(("*.weights",))
    with torch.no_grad():
        memory = model.encode(batch.source, trace) if model.has_encoder else None
        if model.has_decoder:
            model.decode(batch.target, memory, trace=trace)
    return trace


def test_each_site_hides_exactly_the_keys_its_applied_mask_hides():
    model = tiny_model("encoder_decoder")
    batch = PaddedBatch(pad_sequences(ROWS), pad_sequences([[BOS_ID, *r] for r in ROWS]))
    trace = _traced(model, batch)
    for site in (ENCODER_SELF, DECODER_SELF, CROSS):
        masks = site_masks(site, batch)
        applied = masks.expanded(masks.applied)                             # [B, Tq, Tk]
        weights = trace.attention(site)                                     # [L, B, H, Tq, Tk]
        visible = (weights > 0).all(dim=(0, 2))                             # [B, Tq, Tk]
        hidden = (weights == 0).all(dim=(0, 2))
        assert torch.equal(visible, applied), site.name
        assert torch.equal(hidden, ~applied), site.name


def test_masks_have_the_shapes_they_are_broadcast_from():
    batch = PaddedBatch(pad_sequences(ROWS), pad_sequences(ROWS))
    encoder = site_masks(ENCODER_SELF, batch)
    assert list(encoder.panels) == ["key_padding"] and encoder.panels["key_padding"].shape == (2, 1, 1, 6)
    decoder = site_masks(DECODER_SELF, batch)
    assert decoder.applied == "causal"
    shapes = {name: tuple(mask.shape) for name, mask in decoder.panels.items()}
    assert shapes == {"key_padding": (2, 1, 1, 6), "causal": (1, 1, 6, 6), "combined": (2, 1, 6, 6)}
    assert decoder.expanded("combined").shape == (2, 6, 6)


def test_with_right_padding_the_combined_mask_differs_from_causal_only_on_pad_queries():
    batch = PaddedBatch(None, pad_sequences(ROWS))
    masks = site_masks(DECODER_SELF, batch)
    combined, causal = masks.expanded("combined"), masks.expanded("causal")
    real = batch.target != PAD_ID                                           # [B, T]
    assert torch.equal(combined[real], causal[real])
    assert not torch.equal(combined[~real], causal[~real])
    assert not empty_rows(combined).any()


def test_left_padding_leaves_rows_with_no_key_and_softmax_makes_them_nan():
    mask, weights = left_padded_rows(ROWS)                                  # [B, T, T]
    empty = empty_rows(mask)
    assert empty.tolist() == [[False] * 6, [True] * 3 + [False] * 3]         # the 3 pads of the shorter input
    assert torch.isnan(weights[empty]).all()
    assert torch.allclose(weights[~empty].sum(-1), torch.ones(int((~empty).sum())))

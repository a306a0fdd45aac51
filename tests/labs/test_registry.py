"""The lab registry: complete texts in both languages, and variants that differ only in what they name."""
import pytest
import torch

from playground.labs import LABS, get_lab, lab_choices, list_labs
from playground.model import MultiHeadAttention
from playground.model.blocks import DecoderBlock, EncoderBlock
from playground.model.models import DecoderStack, Embedding

from .helpers import prepared, tiny

CLASSIC_BUGS = {"causal-mask", "attention-scale", "embedding-scale", "head-split", "missing-residual",
                "post-norm-no-warmup", "merge-with-view", "float-mask"}


def test_the_registry_has_the_classic_bugs_and_at_least_five_ablations():
    assert {lab.id for lab in list_labs("bug")} == CLASSIC_BUGS
    assert len(list_labs("ablation")) >= 5
    assert len(LABS) == len(list_labs()) >= 11


def test_the_lab_picker_offers_exactly_the_registry_in_both_languages():
    for lang in ("en", "zh-CN"):
        choices = lab_choices(lang)
        assert [lab_id for _, lab_id in choices] == list(LABS)
        assert len({title for title, _ in choices}) == len(LABS)


def test_every_lab_text_exists_in_both_languages():
    for lab in list_labs():
        for text in (lab.title, lab.question, lab.explanation, *(v.name for v in lab.variants),
                     *(c.title for c in lab.checks)):
            assert text.get("en").strip() and text.get("zh-CN").strip()
        assert any("\u4e00" <= char <= "\u9fff" for char in lab.explanation.get("zh-CN"))


def test_unknown_names_are_refused_with_the_valid_ones():
    with pytest.raises(ValueError, match="causal-mask"):
        get_lab("no-such-lab")
    with pytest.raises(ValueError, match="kind must be one of"):
        list_labs("bugs")
    with pytest.raises(ValueError, match="reference"):
        get_lab("causal-mask").variant("fixed")
    with pytest.raises(ValueError, match="zh-CN"):
        get_lab("causal-mask").title.get("fr")


def _components(model) -> dict[str, object]:
    """The swappable pieces of a built model, by the names labs use in ``varies``."""
    attention = [m for m in model.modules() if isinstance(m, MultiHeadAttention)]
    return {
        "mask_builder": [m.mask_builder for m in model.modules() if isinstance(m, DecoderStack)],
        "score_fn": [m.score_fn for m in attention],
        "split": [m.split for m in attention],
        "merge": [m.merge for m in attention],
        "residual": [m.residual for m in model.modules() if isinstance(m, (EncoderBlock, DecoderBlock))],
        "embed.scale": [m.scale for m in model.modules() if isinstance(m, Embedding)],
    }


def _differences(reference, variant) -> set[str]:
    configs = [(reference.model_config.to_dict(), variant.model_config.to_dict()),
               (reference.config.to_dict(), variant.config.to_dict())]
    changed = {key for ours, theirs in configs for key in ours if ours[key] != theirs[key]}
    if type(reference.tokenizer) is not type(variant.tokenizer):
        changed.add("tokenizer")
    ours, theirs = _components(reference.model), _components(variant.model)
    if reference.model_config.arch == variant.model_config.arch:
        changed |= {name for name in ours if ours[name] != theirs[name]}
    return changed


@pytest.mark.parametrize("lab_id", list(LABS))
def test_each_variant_differs_from_the_reference_only_in_what_the_lab_names(lab_id):
    lab = tiny(get_lab(lab_id))
    run = prepared(lab)
    reference, *others = run.trainers.values()
    named = set(lab.varies)
    seen = set()
    for variant in others:
        differences = _differences(reference, variant)
        assert differences and differences <= named, (variant, differences)
        seen |= differences
    assert seen == named


@pytest.mark.parametrize("lab_id", list(LABS))
def test_variants_start_from_the_same_weights_and_data_where_the_architectures_allow(lab_id):
    run = prepared(tiny(get_lab(lab_id)))
    reference, *others = run.trainers.values()
    expected = dict(reference.model.named_parameters())        # a tied matrix appears once
    first_batch = reference.objective.next_batch()
    compared = 0
    for variant in others:
        weights = dict(variant.model.named_parameters())
        if {(k, v.shape) for k, v in weights.items()} == {(k, v.shape) for k, v in expected.items()}:
            assert all(torch.equal(weights[k], expected[k]) for k in expected)
            compared += 1
        if type(variant.objective) is type(reference.objective) and variant.tokenizer is reference.tokenizer:
            batch = variant.objective.next_batch()
            assert all(torch.equal(a, b) for a, b in zip(batch.inputs, first_batch.inputs))
    if all(v.bug is not None for v in get_lab(lab_id).variants[1:]):   # swapped components: always comparable
        assert compared == len(others)

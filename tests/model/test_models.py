import math

import pytest
import torch

from playground.model import (
    Memory, Trace, build_model, count_parameters, gpt2_small_config, sinusoidal_table,
)
from playground.model.positional import RotaryPositions

from .helpers import ARCHS, POSITIONALS, run, tiny_config, tiny_model


@pytest.mark.parametrize("positional", POSITIONALS)
@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
@pytest.mark.parametrize("traced", [False, True])
def test_changing_a_later_token_changes_no_earlier_logit(arch, positional, traced):
    model = tiny_model(arch, positional)
    ids = torch.randint(5, 23, (1, 10))
    src = torch.randint(5, 23, (1, 8))
    changed = ids.clone()
    changed[0, 6] = (ids[0, 6] - 4) % 18 + 5
    before = run(model, ids, Trace() if traced else None, src)
    after = run(model, changed, Trace() if traced else None, src)
    torch.testing.assert_close(before[:, :6], after[:, :6], atol=1e-6, rtol=0)
    assert not torch.allclose(before[:, 6:], after[:, 6:], atol=1e-4)


@pytest.mark.parametrize("positional", POSITIONALS)
def test_encoder_only_is_bidirectional(positional):
    model = tiny_model("encoder_only", positional)
    ids = torch.randint(5, 23, (1, 10))
    changed = ids.clone()
    changed[0, 8] = (ids[0, 8] - 4) % 18 + 5
    assert not torch.allclose(model(ids)[:, :8], model(changed)[:, :8], atol=1e-4)


@pytest.mark.parametrize("positional", POSITIONALS)
def test_source_is_seen_whole_by_every_target_position(positional):
    model = tiny_model("encoder_decoder", positional)
    src, tgt = torch.randint(5, 23, (1, 8)), torch.randint(5, 23, (1, 5))
    changed = src.clone()
    changed[0, 7] = (src[0, 7] - 4) % 18 + 5
    assert not torch.allclose(model(src, tgt)[:, 0], model(changed, tgt)[:, 0], atol=1e-4)


@pytest.mark.parametrize("positional", POSITIONALS)
def test_kv_cache_decoding_equals_full_recomputation_decoder_only(positional):
    model = tiny_model("decoder_only", positional)
    ids = torch.randint(5, 23, (2, 12))
    full = model(ids)
    cache = model.new_cache()
    pieces = [model(ids[:, :5], cache=cache)]                               # a prompt, then one token at a time
    for t in range(5, 12):
        pieces.append(model(ids[:, t:t + 1], cache=cache))
    assert cache.length == 12
    torch.testing.assert_close(torch.cat(pieces, dim=1), full, atol=1e-5, rtol=0)


@pytest.mark.parametrize("positional", POSITIONALS)
def test_kv_cache_decoding_equals_full_recomputation_encoder_decoder(positional):
    model = tiny_model("encoder_decoder", positional)
    src, tgt = torch.randint(5, 23, (2, 9)), torch.randint(5, 23, (2, 6))
    src[0, 7:] = 0
    full = model(src, tgt)
    memory = model.encode(src)
    cache = model.new_cache()
    steps = [model.decode(tgt[:, t:t + 1], memory, cache=cache) for t in range(6)]
    assert cache.cross_attn[0].length == 9                                   # computed once, reused
    torch.testing.assert_close(torch.cat(steps, dim=1), full, atol=1e-5, rtol=0)


def test_cropping_the_cache_undoes_steps_exactly():
    model = tiny_model("decoder_only", "rope")
    ids = torch.randint(5, 23, (1, 8))
    cache = model.new_cache()
    model(ids[:, :6], cache=cache)
    first = model(ids[:, 6:7], cache=cache)
    model(ids[:, 7:8], cache=cache)
    cache.crop(6)
    torch.testing.assert_close(model(ids[:, 6:7], cache=cache), first, atol=0, rtol=0)


@pytest.mark.parametrize("arch", ["encoder_only", "encoder_decoder"])
def test_padding_is_hidden_from_real_tokens(arch):
    model = tiny_model(arch, "sinusoidal")
    real = torch.randint(5, 23, (1, 6))
    padded = torch.cat([real, torch.zeros(1, 4, dtype=torch.long)], dim=1)
    if arch == "encoder_only":
        torch.testing.assert_close(model(real), model(padded)[:, :6], atol=1e-5, rtol=0)
    else:
        tgt = torch.randint(5, 23, (1, 4))
        torch.testing.assert_close(model(real, tgt), model(padded, tgt), atol=1e-5, rtol=0)
        trace = Trace()
        model(padded, tgt, trace=trace)
        assert trace["decoder.0.cross_attn.weights"][..., 6:].abs().max() == 0


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("positional", POSITIONALS)
def test_every_parameter_gets_a_gradient(arch, positional):
    model = tiny_model(arch, positional).train()
    ids, src = torch.randint(5, 23, (2, 10)), torch.randint(5, 23, (2, 8))
    run(model, ids, src=src).logsumexp(-1).sum().backward()
    missing = [name for name, p in model.named_parameters() if p.grad is None or p.grad.abs().sum() == 0]
    assert missing == []


def test_tied_weights_share_storage_and_untied_do_not():
    tied = tiny_model("encoder_decoder")
    assert tied.head.weight.data_ptr() == tied.decoder.embed.tokens.weight.data_ptr() \
        == tied.encoder.embed.tokens.weight.data_ptr()
    untied = tiny_model("decoder_only", tie_weights=False)
    assert untied.head.weight.data_ptr() != untied.decoder.embed.tokens.weight.data_ptr()
    extra = untied.config.vocab_size * untied.config.d_model
    assert count_parameters(untied.config)["total"] == count_parameters(tiny_config())["total"] + extra


def test_sinusoidal_values_follow_the_formula():
    table = sinusoidal_table(50, 8)
    assert table[1, 2].item() == pytest.approx(math.sin(0.1), abs=1e-7)     # 1 / 10000^(2/8) = 0.1
    assert table[1, 3].item() == pytest.approx(math.cos(0.1), abs=1e-7)
    assert table[7, 0].item() == pytest.approx(math.sin(7), abs=1e-6)
    assert table[0].tolist() == [0, 1, 0, 1, 0, 1, 0, 1]
    assert table[3, 6].item() == pytest.approx(math.sin(3 / 10000 ** (6 / 8)), abs=1e-7)


def test_rope_scores_depend_only_on_relative_distance():
    rope = RotaryPositions(head_dim=8, max_len=64)
    torch.manual_seed(0)
    q, k = torch.randn(1, 1, 1, 8), torch.randn(1, 1, 1, 8)
    score = lambda qi, ki: (rope.rotate(q, qi) * rope.rotate(k, ki)).sum().item()
    assert score(5, 2) == pytest.approx(score(40, 37), abs=1e-5)
    assert score(100, 97) == pytest.approx(score(5, 2), abs=1e-4)            # past max_len, computed on demand
    assert score(5, 2) != pytest.approx(score(5, 4), abs=1e-3)


def test_gpt2_small_has_exactly_124_439_808_parameters():
    counts = count_parameters(gpt2_small_config())
    assert counts["total"] == 124_439_808
    assert counts["token_embeddings"] == 50257 * 768
    assert counts["position_embeddings"] == 1024 * 768
    assert counts["output_head"] == 0                                        # tied to the embedding


def test_counts_match_the_real_model():
    for arch in ARCHS:
        config = tiny_config(arch, "learned", tie_weights=False)
        model = build_model(config)
        assert count_parameters(config)["total"] == sum(p.numel() for p in model.parameters())


def test_learned_positions_refuse_positions_past_their_table():
    model = tiny_model("decoder_only", "learned")
    with pytest.raises(ValueError, match="past the learned table"):
        model(torch.randint(5, 23, (1, 33)))


def test_reordering_the_cache_follows_the_chosen_rows():
    model = tiny_model("encoder_decoder", "rope")
    src, tgt = torch.randint(5, 23, (3, 7)), torch.randint(5, 23, (3, 4))
    memory = model.encode(src)
    cache = model.new_cache()
    model.decode(tgt[:, :3], memory, cache=cache)
    order = torch.tensor([2, 2, 0])
    cache.reorder(order)
    stepped = model.decode(tgt[order, 3:4], Memory(memory.hidden[order], None), cache=cache)
    torch.testing.assert_close(stepped, model(src[order], tgt[order])[:, 3:4], atol=1e-5, rtol=0)


def test_the_cache_grows_past_its_first_buffer():
    model = tiny_model("decoder_only", "sinusoidal", max_len=200)
    ids = torch.randint(5, 23, (1, 150))
    cache = model.new_cache()
    pieces = [model(ids[:, t:t + 1], cache=cache) for t in range(150)]
    torch.testing.assert_close(torch.cat(pieces, dim=1), model(ids), atol=1e-5, rtol=0)

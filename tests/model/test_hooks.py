"""Hook points: every activation has a stable name, can be read and replaced by it, only where asked."""
import threading

import pytest
import torch

from playground.model import Trace, hook_names, hooks
from playground.model import MultiHeadAttention
from playground.model.hooks import HookPoint, name_hook_points

from .helpers import ARCHS, randomize_parameters, run, tiny_model

ATTENTION_PARTS = ("q", "k", "v", "scores", "weights", "z", "out")


def expected_names(arch: str, positional: str = "sinusoidal") -> set[str]:
    """The naming scheme of trace.py, written out for the two-layer tiny models."""
    stacks = {"decoder_only": ["decoder"], "encoder_only": ["encoder"], "encoder_decoder": ["encoder", "decoder"]}[arch]
    names = {"logits"}
    for stack in stacks:
        names |= {f"{stack}.tok_embed", f"{stack}.final_norm"}
        if positional in ("sinusoidal", "learned"):
            names.add(f"{stack}.pos_embed")
        for i in range(2):
            parts = ("resid_pre", "resid_mid", "resid_post", "ffn.hidden", "ffn.out")
            names |= {f"{stack}.{i}.{part}" for part in parts}
            names |= {f"{stack}.{i}.self_attn.{part}" for part in ATTENTION_PARTS}
            if stack == "decoder" and arch == "encoder_decoder":
                names |= {f"{stack}.{i}.cross_attn.{part}" for part in ATTENTION_PARTS} | {f"{stack}.{i}.resid_cross"}
    return names


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("positional", ["sinusoidal", "rope"])
def test_hook_names_follow_the_scheme_and_a_full_trace_records_all_but_the_head_outputs(arch, positional):
    model = tiny_model(arch, positional)
    names = hook_names(model)
    assert len(names) == len(set(names)) and set(names) == expected_names(arch, positional)
    trace = Trace(("*",))
    with torch.no_grad():
        run(model, torch.randint(5, 23, (1, 5)), trace, src=torch.randint(5, 23, (1, 6)))
    assert set(trace.names()) == {n for n in names if not n.endswith(".z")}
    heads = Trace(("*.z",))
    with torch.no_grad():
        run(model, torch.randint(5, 23, (1, 5)), heads, src=torch.randint(5, 23, (1, 6)))
    assert set(heads.names()) == {n for n in names if n.endswith(".z")}


@pytest.mark.parametrize("arch", ARCHS)
def test_reading_every_hook_gives_what_the_trace_records(arch):
    model = randomize_parameters(tiny_model(arch))
    ids, src = torch.randint(5, 23, (2, 5)), torch.randint(5, 23, (2, 6))
    read = {}
    trace = Trace(("*", "*.z"))
    with torch.no_grad(), hooks(model, {"*": lambda x, name: read.__setitem__(name, x.clone())}):
        run(model, ids, trace, src=src)
    assert list(read) == trace.names()                                   # the same names, in forward order
    for name, tensor in read.items():
        torch.testing.assert_close(tensor, trace[name], rtol=0, atol=0)


def test_recorded_activations_are_the_textbook_quantities():
    model = randomize_parameters(tiny_model("decoder_only", "learned"))
    trace = Trace(("*", "*.z"))
    with torch.no_grad():
        model(torch.randint(5, 23, (2, 6)), trace=trace)
    torch.testing.assert_close(trace["decoder.0.resid_pre"], trace["decoder.tok_embed"] + trace["decoder.pos_embed"])
    attention = model.decoder.blocks[1].self_attn
    z = trace["decoder.1.self_attn.weights"] @ trace["decoder.1.self_attn.v"]                     # [B, H, T, Dh]
    torch.testing.assert_close(trace["decoder.1.self_attn.z"], z.transpose(1, 2), atol=1e-5, rtol=0)
    out = attention.w_o(trace["decoder.1.self_attn.z"].flatten(2))                              # [B, T, D]
    torch.testing.assert_close(trace["decoder.1.self_attn.out"], out, atol=1e-5, rtol=0)
    torch.testing.assert_close(trace["decoder.1.resid_post"], trace["decoder.1.resid_mid"] + trace["decoder.1.ffn.out"])


def test_replacing_the_last_feed_forward_output_gives_the_hand_computed_logits():
    model = randomize_parameters(tiny_model("decoder_only"))
    ids = torch.randint(5, 23, (2, 6))
    trace = Trace(("decoder.1.resid_mid",))
    with torch.no_grad():
        plain = model(ids)
    with torch.no_grad(), hooks(model, {"decoder.1.ffn.out": lambda x, name: torch.zeros_like(x)}):
        logits = model(ids, trace=trace)
        by_hand = model.head(model.decoder.final_norm(trace["decoder.1.resid_mid"]))           # the FFN adds nothing
    torch.testing.assert_close(logits, by_hand)
    with torch.no_grad():
        assert not torch.allclose(model(ids), logits, atol=1e-3)          # outside the block the hook is gone
        torch.testing.assert_close(model(ids), plain)


def test_replacing_the_attention_weights_sends_them_through_the_values_and_w_o():
    model = randomize_parameters(tiny_model("decoder_only"))
    ids = torch.randint(5, 23, (1, 6))
    uniform = torch.tril(torch.ones(6, 6)) / torch.arange(1, 7)[:, None]                     # [T, T] rows sum to 1
    trace = Trace(("decoder.0.self_attn.v", "decoder.0.self_attn.out", "decoder.0.self_attn.weights"))
    with torch.no_grad(), hooks(model, {"decoder.0.self_attn.weights": lambda w, name: uniform.expand_as(w)}):
        model(ids, trace=trace)
    attention = model.decoder.blocks[0].self_attn
    by_hand = attention.w_o((uniform @ trace["decoder.0.self_attn.v"]).transpose(1, 2).flatten(2))   # [1, T, D]
    torch.testing.assert_close(trace["decoder.0.self_attn.out"], by_hand, atol=1e-5, rtol=0)
    seen = trace["decoder.0.self_attn.weights"]                             # the trace sees the replacement
    torch.testing.assert_close(seen, uniform.expand(1, 4, 6, 6))


def test_hooks_run_in_the_order_given_and_nest():
    model = tiny_model("decoder_only")
    seen = []
    with torch.no_grad(), hooks(model, {"logits": lambda x, name: seen.append("outer")}):
        with hooks(model, {"logits": lambda x, name: seen.append("inner")}):
            model(torch.randint(5, 23, (1, 3)))
        model(torch.randint(5, 23, (1, 3)))
    assert seen == ["outer", "inner", "outer"]


def test_a_hook_is_seen_only_by_the_thread_that_set_it():
    model = randomize_parameters(tiny_model("decoder_only"))
    ids = torch.randint(5, 23, (1, 6))
    with torch.no_grad():
        clean = model(ids)
    inside, done = threading.Event(), threading.Event()
    results = {}

    def hooked():
        with torch.no_grad(), hooks(model, {"decoder.0.resid_post": lambda x, name: torch.zeros_like(x)}):
            inside.set()
            done.wait(10)
            results["hooked"] = model(ids)

    thread = threading.Thread(target=hooked)
    thread.start()
    inside.wait(10)
    with torch.no_grad():
        results["other"] = model(ids)
    done.set()
    thread.join(10)
    torch.testing.assert_close(results["other"], clean, rtol=0, atol=0)
    assert not torch.allclose(results["hooked"], clean, atol=1e-3)


def test_hooks_on_the_weights_take_the_explicit_path_and_others_keep_the_fused_kernel(monkeypatch):
    import playground.model.attention as attention_module
    calls = []
    real_attend = attention_module.attend
    monkeypatch.setattr(attention_module, "attend", lambda *a, **k: calls.append(1) or real_attend(*a, **k))
    model = tiny_model("decoder_only")
    ids = torch.randint(5, 23, (1, 4))
    with torch.no_grad(), hooks(model, {"*.z": lambda x, name: None, "*.resid_post": lambda x, name: None}):
        model(ids)
    assert calls == []
    with torch.no_grad(), hooks(model, {"decoder.1.self_attn.scores": lambda x, name: None}):
        model(ids)
    assert calls == [1]


@pytest.mark.parametrize("named, error, message", [
    ({"decoder.7.resid_post": lambda x, n: None}, ValueError, "names no activation"),
    ({"*.cross_attn.*": lambda x, n: None}, ValueError, "names no activation"),
    ({"logits": "not a function"}, TypeError, "must be a function"),
    ([("logits", print)], TypeError, "name or pattern: hook"),
])
def test_names_the_model_lacks_and_hooks_that_are_not_functions_are_refused(named, error, message):
    with pytest.raises(error, match=message), hooks(tiny_model("decoder_only"), named):
        pass


def test_a_replacement_of_the_wrong_shape_is_refused_with_both_shapes():
    model = tiny_model("decoder_only")
    with pytest.raises(ValueError, match=r"decoder.0.resid_pre returned \(1, 3\).*\(1, 3, 32\)"):
        with torch.no_grad(), hooks(model, {"decoder.0.resid_pre": lambda x, name: x[..., 0]}):
            model(torch.randint(5, 23, (1, 3)))


def test_a_hook_point_is_the_identity_and_with_hook_adds_to_its_own_hooks():
    point = HookPoint("x")
    x = torch.randn(2, 3)
    assert point(x) is x and not point.hooked
    doubled = point.with_hook(lambda t, name: 2 * t).with_hook(lambda t, name: t + 1)
    torch.testing.assert_close(doubled(x), 2 * x + 1)
    assert doubled.hooked and doubled.name == "x" and point.own_hooks == ()


def test_the_stacked_projection_follows_every_change_of_the_weights():
    model = randomize_parameters(tiny_model("decoder_only")).eval()
    ids = torch.randint(5, 23, (1, 5))
    with torch.inference_mode():
        model(ids)                                                           # the stacked weights are kept
    with torch.no_grad():
        model.decoder.blocks[0].self_attn.w_k.weight.mul_(-1.5)             # an in-place change, as an optimizer makes
        changed = model(ids)
    twin = tiny_model("decoder_only")
    twin.load_state_dict(model.state_dict())
    with torch.no_grad():
        torch.testing.assert_close(changed, twin(ids), rtol=0, atol=1e-6)


def test_training_sends_gradients_to_each_projection_and_frozen_weights_pass_gradients_on():
    model = tiny_model("decoder_only").train()
    model(torch.randint(5, 23, (2, 5))).sum().backward()
    attention = model.decoder.blocks[0].self_attn
    assert all(layer.weight.grad is not None and layer.weight.grad.abs().sum() > 0
               for layer in (attention.w_q, attention.w_k, attention.w_v))
    frozen = tiny_model("decoder_only").requires_grad_(False)
    ids = torch.randint(5, 23, (1, 5))
    with torch.inference_mode():
        frozen(ids)                                                          # stacked weights kept from inference
    start = {}

    def leaf(x, name):
        start["x"] = x.detach().requires_grad_(True)
        return start["x"]

    with hooks(frozen, {"decoder.0.resid_pre": leaf}):
        frozen(ids)[0, -1].sum().backward()
    assert start["x"].grad is not None and start["x"].grad.abs().sum() > 0


def test_a_load_that_puts_new_parameter_objects_in_place_is_seen_by_the_stacked_projection():
    model, other = tiny_model("decoder_only", seed=0), randomize_parameters(tiny_model("decoder_only", seed=1))
    ids = torch.randint(5, 23, (1, 5))
    with torch.no_grad():
        model(ids)
        model.load_state_dict(other.state_dict(), assign=True)
        torch.testing.assert_close(model(ids), other(ids), rtol=0, atol=0)


def test_a_model_built_in_inference_mode_projects_from_its_current_weights():
    with torch.inference_mode():
        model = randomize_parameters(tiny_model("decoder_only"))
        ids = torch.randint(5, 23, (1, 5))
        model(ids)
        model.decoder.blocks[0].self_attn.w_v.weight.mul_(2.0)              # no version counter to see this
        changed = model(ids)
    twin = tiny_model("decoder_only")
    with torch.no_grad():
        for target, source in zip(twin.parameters(), model.parameters()):
            target.copy_(source)
        torch.testing.assert_close(changed, twin(ids), rtol=0, atol=1e-6)


def test_hook_names_and_module_names_are_set_once_from_the_module_tree():
    model = tiny_model("encoder_decoder")
    attention = model.decoder.blocks[1].cross_attn
    assert attention.name == "decoder.1.cross_attn" and attention.hook_weights.name == "decoder.1.cross_attn.weights"
    assert model.encoder.name == "encoder" and model.encoder.embed.hook_tok_embed.name == "encoder.tok_embed"
    assert model.hook_logits.name == "logits" and not hasattr(model, "name")
    alone = MultiHeadAttention(8, 2)
    assert alone.hook_q.name == "q"
    name_hook_points(alone, "probe.self_attn")
    assert (alone.name, alone.hook_q.name) == ("probe.self_attn", "probe.self_attn.q")

"""Moving a model moves or drops every tensor it holds: a model handed back by a GPU worker holds no GPU tensor."""
import pytest
import torch
from torch import nn

from playground.model import tensors_on

from .helpers import ARCHS, run, tiny_model


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("positional", ["sinusoidal", "rope"])
def test_after_a_no_grad_pass_a_move_leaves_no_tensor_on_the_old_device(arch, positional):
    model = tiny_model(arch, positional)
    with torch.no_grad():
        run(model, torch.randint(5, 23, (1, 5)), src=torch.randint(5, 23, (1, 6)))
    model.to("meta")
    assert tensors_on(model, "cpu") == []
    assert tensors_on(model, "meta")                                         # the walk does reach the weights


def test_after_an_inference_mode_pass_and_a_decode_with_a_cache_nothing_stays_either():
    model = tiny_model("decoder_only", "rope")
    cache = model.new_cache()
    with torch.inference_mode():
        model(torch.randint(5, 23, (1, 5)), cache=cache)
        model(torch.randint(5, 23, (1, 1)), cache=cache)
    model.to("meta")
    assert tensors_on(model, "cpu") == []


def test_tensors_on_names_a_tensor_kept_anywhere_in_a_module_or_a_plain_object():
    class Keeper(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(2, 2)
            self.kept = {"pairs": [(1, torch.zeros(1))]}

    class Holder:
        def __init__(self, module):
            self.module = module
            self.history = [torch.ones(1)]

    keeper = Keeper().to("meta")
    assert tensors_on(keeper, "cpu") == ["Keeper.kept['pairs'][0][1]"]
    holder = Holder(keeper)
    assert tensors_on(holder, "cpu") == ["Holder.history[0]", "Holder.module.kept['pairs'][0][1]"]
    assert tensors_on(holder, "meta") == ["Holder.module.linear.bias", "Holder.module.linear.weight"]

"""Per-layer gradient norms: each group's norm against an independent computation, and the groups
partition the parameters (their squares sum to the total norm's square)."""
import math

import pytest
import torch

from playground.train import Trainer
from playground.train.gradients import parameter_groups

from .helpers import copy_task, events, mlm_data, model_config, quiet_config


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_each_group_norm_equals_the_norm_of_its_parameters_gradients_before_clipping(arch):
    data = copy_task()
    config = model_config(arch, data.tokenizer.vocab_size, dropout=0.0)
    trainer = Trainer(config, quiet_config(max_steps=1, grad_clip=0.01), data)
    reference = Trainer(config, quiet_config(max_steps=1, grad_clip=None), data)
    # the same first batch and weights, no optimizer step: the gradients left on the reference are unclipped
    reference.model.load_state_dict(trainer.model.state_dict())
    batch = reference.objective.next_batch()
    reference.model.train()
    reference.objective.loss(reference.model, batch).backward()
    event = events(trainer.run())[-1]
    expected = {}
    for name, parameter in reference.model.named_parameters():
        parts = name.split(".")
        group = ("embeddings" if parts[1] == "embed" else
                 f"{parts[0]}.blocks.{parts[2]}" if parts[1] == "blocks" else "head")
        expected[group] = expected.get(group, 0.0) + parameter.grad.double().pow(2).sum().item()
    n_blocks = config.n_encoder_layers + config.n_decoder_layers
    assert len(event.layer_grad_norms) == n_blocks + 2
    assert list(event.layer_grad_norms)[0] == "embeddings" and list(event.layer_grad_norms)[-1] == "head"
    for group, norm in event.layer_grad_norms.items():
        assert norm == pytest.approx(math.sqrt(expected[group]), rel=1e-4), group
    assert event.grad_norm > 0.01                     # the norms were taken before clipping to 0.01


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder", "encoder_only"])
def test_the_squares_of_the_group_norms_sum_to_the_total_norms_square(arch):
    data = mlm_data() if arch == "encoder_only" else copy_task()
    vocab = data.vocab_size if arch == "encoder_only" else data.tokenizer.vocab_size
    trainer = Trainer(model_config(arch, vocab), quiet_config(max_steps=2), data)
    for event in events(trainer.run()):
        squares = sum(norm ** 2 for norm in event.layer_grad_norms.values())
        assert math.sqrt(squares) == pytest.approx(event.grad_norm, rel=1e-4)


def test_the_groups_partition_the_trainable_parameters():
    data = copy_task()
    trainer = Trainer(model_config("encoder_decoder", data.tokenizer.vocab_size), quiet_config(), data)
    grouped = [id(p) for group in parameter_groups(trainer.model).values() for p in group]
    assert sorted(grouped) == sorted(id(p) for p in trainer.model.parameters())
    assert list(parameter_groups(trainer.model)) == ["embeddings", "encoder.blocks.0", "decoder.blocks.0", "head"]

"""Choosing the next token needs the logits of the last position only: `decode(..., last_only=True)`
runs the output head (for a large vocabulary the largest matrix) on that position alone, with the
same numbers, and the Stepper, greedy decoding and beam search read their prompts that way."""
import pytest
import torch

from playground.generate import SamplingConfig, Stepper, beam_search
from playground.generate.batch import greedy

from .helpers import TOKENIZER, model


def _head_rows(built) -> list[int]:
    """Positions the output head runs on, one entry per call (recorded by a forward hook)."""
    rows: list[int] = []
    built.head.register_forward_hook(lambda module, inputs, output: rows.append(inputs[0].shape[1]))
    return rows


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder", "encoder_only"])
def test_last_only_gives_the_last_positions_logits(arch):
    built = model(arch, n_encoder_layers=2, n_decoder_layers=0) if arch == "encoder_only" else model(arch)
    ids = torch.tensor([[5, 6, 7, 8, 9, 10]])                                # [1, T]
    with torch.no_grad():
        memory = built.encode(ids) if built.has_encoder else None
        every = built.decode(ids, memory)                                    # [1, T, V]
        last = built.decode(ids, memory, last_only=True)                     # [1, 1, V]
    assert last.shape == (1, 1, every.size(-1))
    torch.testing.assert_close(last, every[:, -1:], rtol=1e-5, atol=1e-6)


def test_the_stepper_reads_its_prompt_with_the_head_on_one_position():
    built, prompt = model(), "abcdefghij"
    with torch.no_grad():
        expected = built.decode(torch.tensor([TOKENIZER.encode(prompt)]))[0, -1]          # [V]
    rows = _head_rows(built)
    stepper = Stepper(built, TOKENIZER, prompt, SamplingConfig(max_new_tokens=3))
    assert rows == [1]                                                       # the prompt's read: one position
    step = stepper.step()
    assert step.token_id == int(expected.argmax()) and rows == [1, 1]       # then one step: one position
    torch.testing.assert_close(torch.tensor(step.raw_probs), torch.softmax(expected, -1), rtol=1e-4, atol=1e-6)


def test_greedy_and_beam_search_read_prompts_with_the_head_on_one_position():
    built = model()
    rows = _head_rows(built)
    greedy(built, torch.tensor([TOKENIZER.encode("abcdef")]), 3)
    assert set(rows) == {1}
    rows.clear()
    greedy(built, torch.tensor([TOKENIZER.encode("abcdef")]), 3, use_cache=False)
    assert set(rows) == {1}
    rows.clear()
    beam_search(built, TOKENIZER, "abcdef", 2, 3)
    assert max(rows) == 1

"""Teacher-forced and free-running decoding: free-running is the model's greedy output, and the two
agree until the first token free-running gets wrong."""
import pytest
import torch

from playground.analysis.exposure_bias import teacher_forced_vs_free
from playground.data import EOS_ID
from playground.generate.batch import bos, greedy
from tests.model.helpers import tiny_model

PROMPT = [5, 9, 7, 12]


def _greedy(model, prompt, n):
    if model.has_encoder:
        return greedy(model, bos(1), n, torch.tensor([prompt]))[0]
    return greedy(model, torch.tensor([prompt]), n)[0]


@pytest.mark.parametrize("arch", ["encoder_decoder", "decoder_only"])
def test_free_running_is_greedy_decoding_and_both_agree_until_they_part(arch):
    model = tiny_model(arch)
    target = [6, 8, 10, 11, 13, 14]
    result = teacher_forced_vs_free(model, PROMPT, target)
    n = len(result.target)
    assert n == len(target) + (1 if model.has_encoder else 0)              # seq2seq decodes the eos too
    assert result.free_running == _greedy(model, PROMPT, n)[:len(result.free_running)]
    parted = result.parted_at
    assert parted is not None and result.free_running[parted] != result.target[parted]
    assert result.free_running[:parted] == result.target[:parted]
    # up to and at the parting position both read the same prefix: same prediction, same probability
    assert result.teacher_forced[:parted + 1] == result.free_running[:parted + 1]
    assert result.p_target_teacher[:parted + 1] == pytest.approx(result.p_target_free[:parted + 1], abs=1e-6)


@pytest.mark.parametrize("arch", ["encoder_decoder", "decoder_only"])
def test_a_target_the_model_writes_itself_never_parts(arch):
    model = tiny_model(arch)
    greedy = _greedy(model, PROMPT, 6)
    own = [i for i in greedy if i != EOS_ID][:5]
    result = teacher_forced_vs_free(model, PROMPT, own)
    assert result.teacher_forced[:len(own)] == result.free_running[:len(own)] == own
    if model.has_encoder and greedy[len(own)] != EOS_ID:
        assert result.parted_at == len(own)                                 # the target's eos comes before the model's
    else:
        assert result.parted_at is None
        assert result.teacher_forced == result.free_running == result.target

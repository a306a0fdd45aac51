"""What a teacher expects to see in the shipped seq2seq models, and that their training can be re-run."""
import numpy as np
import pytest
import torch

from playground.analysis import head_scores
from playground.data import BOS_ID, tasks
from playground.model import CROSS, Trace
from playground.train import PRESETS
from playground.train.config import TrainConfig
from playground.train.trainer import Trainer

ALIGNMENT_SOURCES = 20
STRONG_ALIGNMENT = 0.8        # mean weight on the aligned source position of the best cross-attention head
REPLAYED_STEPS = 5


def cross_attention_scores(checkpoint, meta) -> dict[str, np.ndarray]:
    """Cross-attention head scores [L, H] averaged over held-out sources of the model's task."""
    task = tasks.get(meta["task"], **meta["task_knobs"])
    pairs = task.held_out(ALIGNMENT_SOURCES, seed=meta["train_config"]["seed"])
    encoded = [task.encode_pair(source, target) for source, target in pairs]
    src = torch.tensor([s for s, _ in encoded])                              # [B, S] (all of length 10)
    tgt_in = torch.tensor([[BOS_ID, *t] for _, t in encoded])                # [B, T]
    trace = Trace(include=("*.weights",))
    with torch.no_grad():
        checkpoint.model(src, tgt_in, trace=trace)
    weights = trace.attention(CROSS).float().numpy()       # [L, B, H, T, S]
    per_source = [head_scores(weights[:, b], "cross") for b in range(len(pairs))]
    return {name: np.mean([s[name] for s in per_source], axis=0) for name in ("diagonal", "anti_diagonal")}


@pytest.mark.parametrize("name, expected, other", [("copy", "diagonal", "anti_diagonal"),
                                                   ("reverse", "anti_diagonal", "diagonal")])
def test_cross_attention_draws_the_alignment_of_the_task(name, expected, other, checkpoints):
    checkpoint, meta = checkpoints[name]
    scores = cross_attention_scores(checkpoint, meta)
    layer, head = np.unravel_index(int(np.argmax(scores[expected])), scores[expected].shape)
    assert scores[expected][layer, head] >= STRONG_ALIGNMENT
    assert scores[other][layer, head] < 0.2


def test_re_running_the_first_steps_of_copy_gives_the_losses_its_card_records(checkpoints):
    checkpoint, meta = checkpoints["copy"]
    preset = PRESETS["copy"]
    recorded = meta["first_step_losses"][:REPLAYED_STEPS]
    assert len(recorded) == REPLAYED_STEPS
    threads = torch.get_num_threads()
    torch.set_num_threads(meta["threads"])
    try:
        trainer = Trainer(checkpoint.config, TrainConfig.from_dict(meta["train_config"]), preset.build_data())
        losses = [trainer.train_step() for _ in range(REPLAYED_STEPS)]
    finally:
        torch.set_num_threads(threads)
    assert losses == pytest.approx(recorded, abs=1e-5)

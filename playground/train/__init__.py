"""Training: a Trainer whose ``run`` is a generator of progress events, its config, and presets."""
from playground.train.config import TrainConfig
from playground.train.events import GpuRefusal, Sample, Snapshot, TrainEvent
from playground.train.presets import PRESETS, Preset, get_preset
from playground.train.schedule import learning_rate
from playground.train.trainer import Trainer

__all__ = ["PRESETS", "GpuRefusal", "Preset", "Sample", "Snapshot", "TrainConfig", "TrainEvent", "Trainer", "get_preset",
           "learning_rate"]

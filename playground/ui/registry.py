"""The models every session can pick (playground.zoo: the shipped checkpoints and untrained models)."""
from playground.zoo import (  # noqa: F401  (the app's names for the zoo)
    DEFAULT_PRETRAINED_DIR,
    PRETRAINED_ENV_VAR,
    TIMELINE_DIR,
    TIMELINE_FILE,
    UNTRAINED_SEED,
    ModelEntry,
    ModelRegistry,
    ascii_tokenizer,
    checkpoint_task as _task,
    freeze,
    held_out_loss,
    load_pretrained,
    pretrained_dir,
    seeded_model,
    timeline_files,
    untrained_entries,
)

"""What a learner may train or upload in the app: the Train tab's ranges and the largest uploaded model.

The limits are named constants so the app's sliders and messages, the training recipes
(playground.train.recipes) and the checkpoint checks share one number.
"""
from __future__ import annotations

from playground.model import SizeLimits

TRAIN_LIMITS = {                 # the Train tab's form: (lowest, highest) of each field
    "layers": (1, 6), "n_heads": (1, 8), "d_model": (8, 512), "d_ff": (8, 2048), "dropout": (0.0, 0.5),
    "lr": (1e-5, 0.1), "warmup": (0, 1_000), "batch_size": (1, 256), "steps": (1, 5_000),
    "block_size": (2, 256), "grad_clip": (0.01, 100.0), "decay_every": (1, 5_000), "decay_factor": (0.01, 1.0),
}
MAX_TRAIN_TEXT_CHARS = 200_000          # a pasted (or uploaded) training text
MAX_TRAIN_PARAMETERS = 2_000_000        # a larger model trains too slowly to watch on a shared CPU
MAX_TRAIN_STEP_GFLOPS = 25.0            # forward + backward of one batch, estimated: about 1 s on one core
MAX_UPLOAD_CONTEXT = 1_024              # positions of an uploaded model (prompt and generation together stay below)
MAX_MODEL_VOCAB = 8_192                 # tokens of a model trained or uploaded here: every prediction a view
                                        # makes is a row of this many logits (8,000 characters cover Chinese text)
# An uploaded model: what the Train tab could have made, checked from the file's header before anything is built.
# Every size a view's memory or time grows with is bounded: each field here, and their products (vocabulary x
# d_model, layers x d_model x d_ff, learned positions max_len x d_model) by the parameter count.
UPLOAD_LIMITS = SizeLimits(
    largest={"n_encoder_layers": TRAIN_LIMITS["layers"][1], "n_decoder_layers": TRAIN_LIMITS["layers"][1],
             "n_heads": TRAIN_LIMITS["n_heads"][1], "d_model": TRAIN_LIMITS["d_model"][1],
             "d_ff": TRAIN_LIMITS["d_ff"][1], "max_len": MAX_UPLOAD_CONTEXT,
             "vocab_size": MAX_MODEL_VOCAB, "tgt_vocab_size": MAX_MODEL_VOCAB},
    max_parameters=MAX_TRAIN_PARAMETERS)

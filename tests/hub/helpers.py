"""Random GPT-2 repositories saved to a folder the way the Hub holds them, built with `transformers`."""
from __future__ import annotations

from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

END_OF_TEXT = "<|endoftext|>"
TEXT = ("The quick brown fox jumps over the lazy dog. A small model reads a sentence and predicts the next word. "
        "Attention looks back at every earlier token; the heads split the work between them. 你好，世界。") * 4


def gpt2_tokenizer(vocab_size: int) -> Tokenizer:
    """A byte-level BPE shaped like GPT-2's: no normaliser, <|endoftext|> in the vocabulary (at id 0)."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=1, show_progress=False,
                                  special_tokens=[END_OF_TEXT], initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator([TEXT], trainer)
    return tokenizer


def save_random_gpt2(folder: Path, n_embd: int = 32, n_head: int = 4, n_layer: int = 2, vocab_size: int = 300,
                     n_positions: int = 64, seed: int = 0, tied: bool = True, tokenizer_json: bool = True):
    """A GPT2LMHeadModel with random weights saved as model.safetensors + config.json + tokenizer; returns it."""
    from transformers import GPT2Config, GPT2LMHeadModel

    tokenizer = gpt2_tokenizer(vocab_size)
    vocab = tokenizer.get_vocab_size()
    config = GPT2Config(vocab_size=vocab, n_positions=n_positions, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
                        eos_token_id=tokenizer.token_to_id(END_OF_TEXT),
                        bos_token_id=tokenizer.token_to_id(END_OF_TEXT), tie_word_embeddings=tied,
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    torch.manual_seed(seed)
    model = GPT2LMHeadModel(config)
    save_scrambled(model, folder, norm_marker="ln_")
    if tokenizer_json:
        tokenizer.save(str(folder / "tokenizer.json"))
    else:
        tokenizer.model.save(str(folder))     # vocab.json + merges.txt
    return model


def save_scrambled(model, folder: Path, norm_marker: str) -> None:
    """`model` (a transformers model) with weights larger than its 0.02 init, so differences would show,
    saved as safetensors in `folder`; parameters whose name holds `norm_marker` move around their init."""
    model.set_attn_implementation("eager")    # the written-out path, which returns attention weights
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if norm_marker in name:
                parameter.add_(0.3 * torch.randn_like(parameter))
            else:
                parameter.normal_(0.0, 0.2)
    model.eval()
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder, safe_serialization=True)

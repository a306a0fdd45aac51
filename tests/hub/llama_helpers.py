"""Random Llama and Qwen2 repositories saved to a folder the way the Hub holds them, built with `transformers`."""
from __future__ import annotations

from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from .helpers import END_OF_TEXT, TEXT, save_scrambled


def qwen_like_tokenizer(vocab_size: int) -> Tokenizer:
    """A byte-level BPE behind a Sequence pre-tokenizer (digits split first, as SmolLM2's), <|endoftext|> at id 0."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                                       pre_tokenizers.ByteLevel(add_prefix_space=False)])
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=1, show_progress=False,
                                  special_tokens=[END_OF_TEXT], initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator([TEXT], trainer)
    return tokenizer


def save_random_llm(folder: Path, family: str = "llama", hidden: int = 32, heads: int = 4, kv_heads: int = 2,
                    layers: int = 2, rope_theta: float = 10000.0, tied: bool = False, seed: int = 0,
                    extra_rows: int = 0, vocab_size: int = 300):
    """A LlamaForCausalLM or Qwen2ForCausalLM with random weights, saved as model.safetensors + config.json +
    tokenizer.json; `extra_rows` embedding rows past the tokenizer's last token (as Qwen2.5 pads them). Returns it."""
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    tokenizer = qwen_like_tokenizer(vocab_size)
    end = tokenizer.token_to_id(END_OF_TEXT)
    shape = dict(vocab_size=tokenizer.get_vocab_size() + extra_rows, hidden_size=hidden, intermediate_size=2 * hidden + 8,
                 num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=kv_heads,
                 max_position_embeddings=128, rope_theta=rope_theta, tie_word_embeddings=tied, rms_norm_eps=1e-6,
                 bos_token_id=end, eos_token_id=end, attention_dropout=0.0)
    config_class, model_class = (LlamaConfig, LlamaForCausalLM) if family == "llama" else (Qwen2Config, Qwen2ForCausalLM)
    torch.manual_seed(seed)
    model = model_class(config_class(**shape))
    save_scrambled(model, folder, norm_marker="norm")
    tokenizer.save(str(folder / "tokenizer.json"))
    return model

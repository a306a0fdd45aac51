"""GPT-2 checkpoints (gpt2, distilgpt2, gpt2-medium, ...) in the project's own DecoderOnly model.

GPT-2 is a pre-norm decoder with learned positions, the tanh approximation of GELU, biases
everywhere, token embeddings not scaled, and the output head tied to the token embedding. Its
weights are stored the way its `Conv1D` layer uses them, as [in, out] (y = x W + b), the
transpose of torch.nn.Linear's [out, in]; the query, key and value projections of a layer are
one fused matrix `c_attn` [D, 3D] whose columns are the three in that order:

    h.{i}.ln_1           -> decoder.blocks.{i}.norm_self
    h.{i}.attn.c_attn    -> decoder.blocks.{i}.self_attn.w_q | w_k | w_v   (split, transposed)
    h.{i}.attn.c_proj    -> decoder.blocks.{i}.self_attn.w_o               (transposed)
    h.{i}.ln_2           -> decoder.blocks.{i}.norm_ffn
    h.{i}.mlp.c_fc       -> decoder.blocks.{i}.ffn.w_in                    (transposed)
    h.{i}.mlp.c_proj     -> decoder.blocks.{i}.ffn.w_out                   (transposed)
    wte, wpe, ln_f       -> decoder.embed.tokens, decoder.embed.positions.embedding, decoder.final_norm

Token rows move to the project's ids (see playground.hub.tokenizer); the ids GPT-2 has no
weights for are never predicted, so the distribution over GPT-2's own tokens is exactly GPT-2's.
Only safetensors weights are read; nothing is unpickled.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file
from torch import nn

from playground.data import BPETokenizer
from playground.model import ModelConfig, build_model, count_parameters

from .fetch import HubImportError, Repository
from .tokenizer import NEVER_PREDICTED, IdMap, import_tokenizer

CONFIG_FILE, WEIGHTS_FILE, PICKLE_WEIGHTS_FILE = "config.json", "model.safetensors", "pytorch_model.bin"
TOKENIZER_FILE, VOCAB_FILE, MERGES_FILE = "tokenizer.json", "vocab.json", "merges.txt"
ACTIVATIONS = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu", "relu": "relu"}
DEFAULTS = {"vocab_size": 50257, "n_positions": 1024, "n_embd": 768, "n_layer": 12, "n_head": 12, "n_inner": None,
            "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "eos_token_id": 50256,
            "tie_word_embeddings": True}
CAUSAL_MASK_BUFFERS = (".attn.bias", ".attn.masked_bias")   # stored by old checkpoints; not weights


class ImportedModel(NamedTuple):
    model: nn.Module
    tokenizer: BPETokenizer
    config: ModelConfig
    card: str
    ids: IdMap


class Gpt2Config(NamedTuple):
    """What config.json says, with GPT-2's defaults for what it leaves out."""

    vocab_size: int
    n_positions: int
    n_embd: int
    n_layer: int
    n_head: int
    d_ff: int
    activation: str
    layer_norm_epsilon: float
    end_of_text: int
    tied: bool


def read_raw_config(path: Path) -> dict:
    """config.json as a dict, or a HubImportError when it is not a JSON object."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HubImportError(f"config.json is not valid JSON: {error}") from None
    if not isinstance(raw, dict):
        raise HubImportError("config.json must hold a JSON object")
    return raw


def read_config(path: Path) -> Gpt2Config:
    """config.json -> Gpt2Config, refusing anything that is not a GPT-2 language model we can run exactly."""
    raw = read_raw_config(path)
    if raw.get("model_type") != "gpt2":
        kind = str(raw.get("model_type", "unknown"))[:40]
        raise HubImportError(f"this is a {kind!r} model, not GPT-2 (config.json model_type must be \"gpt2\")",
                             "not_gpt2", kind=kind)
    architectures = raw.get("architectures") or ["GPT2LMHeadModel"]
    if "GPT2LMHeadModel" not in architectures:
        raise HubImportError(f"this GPT-2 is a {', '.join(map(str, architectures))}, not a language model "
                             "(GPT2LMHeadModel)")
    for flag, runnable in (("add_cross_attention", False), ("scale_attn_by_inverse_layer_idx", False),
                           ("scale_attn_weights", True)):
        if raw.get(flag, runnable) != runnable:
            raise HubImportError(f"config.json sets {flag}={raw[flag]}, which changes attention in a way the "
                                 "playground's model does not reproduce")
    c = {**DEFAULTS, **{k: raw[k] for k in DEFAULTS if raw.get(k) is not None}}
    if c["activation_function"] not in ACTIVATIONS:
        raise HubImportError(f"activation {c['activation_function']!r} is not one of {sorted(ACTIVATIONS)}")
    for name in ("vocab_size", "n_positions", "n_embd", "n_layer", "n_head"):
        if not isinstance(c[name], int) or isinstance(c[name], bool) or c[name] < 1:
            raise HubImportError(f"config.json {name} must be a positive integer, got {c[name]!r}")
    return Gpt2Config(c["vocab_size"], c["n_positions"], c["n_embd"], c["n_layer"], c["n_head"],
                      c["n_inner"] or 4 * c["n_embd"], ACTIVATIONS[c["activation_function"]],
                      float(c["layer_norm_epsilon"]), c["eos_token_id"], bool(c["tie_word_embeddings"]))


def model_config(gpt2: Gpt2Config, ids: IdMap) -> ModelConfig:
    """The project's ModelConfig of a GPT-2."""
    try:
        return ModelConfig(arch="decoder_only", vocab_size=ids.vocab_size, d_model=gpt2.n_embd, n_heads=gpt2.n_head,
                           n_decoder_layers=gpt2.n_layer, d_ff=gpt2.d_ff, max_len=gpt2.n_positions,
                           positional="learned", norm="pre", activation=gpt2.activation, dropout=0.0,
                           tie_weights=gpt2.tied, scale_embedding=False, bias=True, norm_eps=gpt2.layer_norm_epsilon,
                           never_predict=NEVER_PREDICTED)
    except ValueError as error:
        raise HubImportError(f"config.json describes a model the playground cannot build: {error}") from None


def expected_shapes(gpt2: Gpt2Config) -> dict[str, tuple[int, ...]]:
    """GPT-2's tensor names (without the "transformer." prefix) and shapes for a config."""
    d, f = gpt2.n_embd, gpt2.d_ff
    shapes = {"wte.weight": (gpt2.vocab_size, d), "wpe.weight": (gpt2.n_positions, d),
              "ln_f.weight": (d,), "ln_f.bias": (d,)}
    for i in range(gpt2.n_layer):
        for name, shape in (("ln_1.weight", (d,)), ("ln_1.bias", (d,)), ("ln_2.weight", (d,)), ("ln_2.bias", (d,)),
                            ("attn.c_attn.weight", (d, 3 * d)), ("attn.c_attn.bias", (3 * d,)),
                            ("attn.c_proj.weight", (d, d)), ("attn.c_proj.bias", (d,)),
                            ("mlp.c_fc.weight", (d, f)), ("mlp.c_fc.bias", (f,)),
                            ("mlp.c_proj.weight", (f, d)), ("mlp.c_proj.bias", (d,))):
            shapes[f"h.{i}.{name}"] = shape
    if not gpt2.tied:
        shapes["lm_head.weight"] = (gpt2.vocab_size, d)
    return shapes


def read_weights(path: Path, gpt2: Gpt2Config) -> dict[str, torch.Tensor]:
    """model.safetensors -> GPT-2's tensors by name, as float32, each checked against the config."""
    try:
        stored = load_file(str(path))
    except (SafetensorError, OSError, ValueError) as error:
        raise HubImportError(f"model.safetensors is damaged or not a safetensors file: {error}") from None
    tensors = {}
    for name, tensor in stored.items():
        short = name.removeprefix("transformer.")
        if short.endswith(CAUSAL_MASK_BUFFERS) or (short == "lm_head.weight" and gpt2.tied):
            continue
        tensors[short] = tensor
    return matched_weights(tensors, expected_shapes(gpt2))


def matched_weights(tensors: dict[str, torch.Tensor], expected: dict[str, tuple]) -> dict[str, torch.Tensor]:
    """`tensors` as float32, once they are exactly the `expected` names and shapes and hold floating-point
    weights; a HubImportError naming the first difference otherwise."""
    missing, unexpected = sorted(set(expected) - set(tensors)), sorted(set(tensors) - set(expected))
    if missing or unexpected:
        raise HubImportError(f"model.safetensors does not match config.json: missing {missing[:4]}"
                             f"{' ...' if len(missing) > 4 else ''}, unexpected {unexpected[:4]}"
                             f"{' ...' if len(unexpected) > 4 else ''}")
    for name, shape in expected.items():
        tensor = tensors[name]
        if tuple(tensor.shape) != shape:
            raise HubImportError(f"model.safetensors does not match config.json: {name} has shape "
                                 f"{tuple(tensor.shape)}, the config implies {shape}")
        if not tensor.is_floating_point():
            raise HubImportError(f"model.safetensors: {name} holds {tensor.dtype}, not floating-point weights")
        tensors[name] = tensor.float()
    return tensors


def convert_weights(weights: dict[str, torch.Tensor], gpt2: Gpt2Config, ids: IdMap) -> dict[str, torch.Tensor]:
    """GPT-2's tensors -> the state dict of the project's DecoderOnly."""
    tokens = ids.gather(weights["wte.weight"])                               # [V + 4, D]
    state = {"decoder.embed.tokens.weight": tokens,
             "decoder.embed.positions.embedding.weight": weights["wpe.weight"],
             "decoder.final_norm.weight": weights["ln_f.weight"], "decoder.final_norm.bias": weights["ln_f.bias"],
             "head.weight": tokens if gpt2.tied else ids.gather(weights["lm_head.weight"])}
    for i in range(gpt2.n_layer):
        source, block = f"h.{i}.", f"decoder.blocks.{i}."
        q, k, v = weights[source + "attn.c_attn.weight"].t().chunk(3, dim=0)  # [D, D] each, as [out, in]
        bq, bk, bv = weights[source + "attn.c_attn.bias"].chunk(3)
        for part, weight, bias in (("w_q", q, bq), ("w_k", k, bk), ("w_v", v, bv)):
            state[f"{block}self_attn.{part}.weight"] = weight.contiguous()
            state[f"{block}self_attn.{part}.bias"] = bias.contiguous()
        for target, name in (("self_attn.w_o", "attn.c_proj"), ("ffn.w_in", "mlp.c_fc"), ("ffn.w_out", "mlp.c_proj")):
            state[f"{block}{target}.weight"] = weights[f"{source}{name}.weight"].t().contiguous()
            state[f"{block}{target}.bias"] = weights[f"{source}{name}.bias"]
        for target, name in (("norm_self", "ln_1"), ("norm_ffn", "ln_2")):
            state[f"{block}{target}.weight"] = weights[f"{source}{name}.weight"]
            state[f"{block}{target}.bias"] = weights[f"{source}{name}.bias"]
    return state


def weights_file(repository: Repository) -> Path:
    """The repository's model.safetensors, or a HubImportError saying why there is none to read."""
    path = repository.file(WEIGHTS_FILE)
    if path is None:
        only_pickle = repository.has(PICKLE_WEIGHTS_FILE)
        raise HubImportError(f"{repository.name} has no {WEIGHTS_FILE}" + (
            f", only {PICKLE_WEIGHTS_FILE}, a pickle, which the playground never loads because unpickling can run "
            "code; use a repository (or revision) with safetensors weights" if only_pickle else ""))
    return path


def model_card(repository: Repository, config: ModelConfig, n_parameters: int) -> str:
    return (f"# {repository.name}\n\nGPT-2 weights imported from `{repository.source}` into the playground's own "
            f"decoder-only model: {config.n_decoder_layers} layers, {config.n_heads} heads, d_model={config.d_model}, "
            f"{n_parameters:,} parameters. Token ids follow the playground's convention: <|endoftext|> is <eos> "
            "(and <bos> as an input).\n")


def import_gpt2(repository: Repository, max_parameters: int | None = None) -> ImportedModel:
    """A GPT-2 repository as a frozen DecoderOnly with its tokenizer, or a HubImportError with the reason.

    The config is checked (and the size against `max_parameters`) before the weights are fetched.
    """
    gpt2 = read_config(repository.require(CONFIG_FILE))
    ids = IdMap(gpt2.vocab_size, gpt2.end_of_text)
    config = model_config(gpt2, ids)
    n_parameters = count_parameters(config)["total"]
    if max_parameters is not None and n_parameters > max_parameters:
        raise HubImportError(f"{repository.name} has {n_parameters:,} parameters, more than this app's limit of "
                             f"{max_parameters:,}", "too_large", parameters=n_parameters, limit=max_parameters)
    tokenizer_file = repository.file(TOKENIZER_FILE)
    vocab_file = merges_file = None
    if tokenizer_file is None:
        vocab_file = repository.require(VOCAB_FILE, f" and no {TOKENIZER_FILE}")
        merges_file = repository.require(MERGES_FILE, f" and no {TOKENIZER_FILE}")
    tokenizer, ids = import_tokenizer(tokenizer_file, vocab_file, merges_file, gpt2.vocab_size, gpt2.end_of_text)
    state = convert_weights(read_weights(weights_file(repository), gpt2), gpt2, ids)
    with torch.random.fork_rng(devices=[]):          # the CPU's RNG only: on ZeroGPU the main process may not touch CUDA
        model = build_model(config)
    model.load_state_dict(state, strict=True)
    model.eval()
    return ImportedModel(model, tokenizer, config, model_card(repository, config, n_parameters), ids)


def load_gpt2(source: str | Path, max_parameters: int | None = None, cache_dir: str | Path | None = None,
              allow_folder: bool = True) -> ImportedModel:
    """A GPT-2 from a Hugging Face Hub repository name (e.g. "openai-community/gpt2") or a local folder."""
    return import_gpt2(Repository(source, cache_dir, allow_folder), max_parameters)

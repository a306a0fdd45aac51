"""Beam search: keep the `beam_width` most likely partial outputs at each step, and the whole tree.

At every depth each live hypothesis is extended by every token; of all extensions the 2 x width
best (by summed log-probability) are looked at in order: one ending in eos becomes a finished
hypothesis (when it ranks within the first `width`), any other becomes a live hypothesis, until
`width` are live. The live hypotheses run as one batch on a shared KV cache whose rows are
reordered to follow their parents.

Finished hypotheses are ranked by  logprob / length ** length_penalty  (length = generated
tokens, eos included). The search stops when the budget or the context is used up (the live
hypotheses then finish as they are; beam search does not slide the window, but a decoder-only
prompt that leaves too little room slides before the search starts), or early, once `width` hypotheses have finished and no live
one, at its current length, ranks above the worst of those (Hugging Face's default rule).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import torch
from torch import nn

from playground.data import EOS_ID, Tokenizer
from playground.device import model_device

from .context import check_model_and_tokenizer, encode_prompt
from .settings import SamplingConfig


@dataclass(frozen=True)
class BeamNode:
    """One node of the beam tree: `parent`'s hypothesis extended by `token_id`.

    The root (parent None, depth 0) is the last token before generation: the prompt's last
    token, or bos. logprob = log p(token | path), 0 at the root; score = the sum of logprob
    along the path from the root (the hypothesis's log-probability). finished: a hypothesis ends here.
    """

    id: int
    parent: int | None
    token_id: int
    token_text: str
    logprob: float
    score: float
    finished: bool
    depth: int


@dataclass(frozen=True)
class Hypothesis:
    """A finished output: its generated ids (eos included when it ended with eos) and rank score."""

    node_id: int
    token_ids: list[int]
    text: str
    logprob: float          # sum of the tokens' log-probabilities
    score: float            # logprob / len(token_ids) ** length_penalty; higher is better
    reason: str             # "eos", "budget" or "context"


@dataclass(frozen=True)
class BeamResult:
    tree: list[BeamNode]            # every node ever on the beam; tree[i].id == i, tree[0] is the root
    finished: list[Hypothesis]      # best first
    best: Hypothesis
    best_path: list[int]            # node ids from the root to the best hypothesis
    unknown_chars: list[str]
    notices: list[str]


class _Search:
    """The tree and the finished list of one search."""

    def __init__(self, tokenizer: Tokenizer, root_token: int, settings: SamplingConfig):
        self.tokenizer = tokenizer
        self.settings = settings
        self.tree = [BeamNode(0, None, root_token, tokenizer.id_to_piece(root_token), 0.0, 0.0, False, 0)]
        self.finished: list[Hypothesis] = []

    def path(self, node_id: int) -> list[int]:
        """Node ids from the root to `node_id`."""
        ids = []
        while node_id is not None:
            ids.append(node_id)
            node_id = self.tree[node_id].parent
        return ids[::-1]

    def add(self, parent: int, token: int, logprob: float, score: float, depth: int) -> int:
        node = BeamNode(len(self.tree), parent, token, self.tokenizer.id_to_piece(token), logprob, score,
                        token == EOS_ID, depth)
        self.tree.append(node)
        if node.finished:
            self.finish(node.id, "eos")
        return node.id

    def finish(self, node_id: int, reason: str) -> None:
        node = self.tree[node_id] = replace(self.tree[node_id], finished=True)
        token_ids = [self.tree[i].token_id for i in self.path(node_id)[1:]]
        score = node.score / len(token_ids) ** self.settings.length_penalty
        self.finished.append(Hypothesis(node_id, token_ids, self.tokenizer.decode(token_ids), node.score, score, reason))

    def done(self, live: list[int], depth: int) -> bool:
        """Early stop: `width` hypotheses finished and no live one ranks above the worst of them."""
        width = self.settings.beam_width
        if len(self.finished) < width:
            return False
        worst_kept = sorted((h.score for h in self.finished), reverse=True)[width - 1]
        best_live = max(self.tree[n].score for n in live) / depth ** self.settings.length_penalty
        return best_live <= worst_kept


def beam_search(model: nn.Module, tokenizer: Tokenizer, prompt: str, beam_width: int = 4,
                max_new_tokens: int = 32, length_penalty: float = 1.0) -> BeamResult:
    """Beam search from `prompt` (decoder-only: text to continue; encoder-decoder: the source).

    beam_width in 1..MAX_BEAM_WIDTH; width 1 is greedy decoding. See the module docstring.
    """
    settings = SamplingConfig(strategy="beam", beam_width=beam_width, max_new_tokens=max_new_tokens,
                              length_penalty=length_penalty)
    config = check_model_and_tokenizer(model, tokenizer)
    model.eval()
    room_wanted = min(max_new_tokens, max(1, config.max_len // 4))          # a long prompt slides to leave this
    encoded = encode_prompt(model, tokenizer, prompt, reserve=room_wanted)
    window = encoded.decoder_ids[encoded.window_start:]
    search = _Search(tokenizer, window[-1], settings)
    live = [0]
    device = model_device(model)
    with torch.no_grad():
        memory = None if encoded.source_ids is None else model.encode(torch.tensor([encoded.source_ids], device=device))
        cache = model.new_cache()
        logits = model.decode(torch.tensor([window], device=device), memory, cache, last_only=True)[:, -1]  # [1, V]
        for depth in range(1, max_new_tokens + 1):
            logprobs = torch.log_softmax(logits.double(), dim=-1).cpu().numpy()  # [B, V]
            if not np.isfinite(logprobs).all():
                raise FloatingPointError("the model produced NaN or infinite logits; it probably diverged in "
                                         "training (try a lower learning rate) and cannot generate")
            totals = np.array([search.tree[n].score for n in live])[:, None] + logprobs   # [B, V]
            parents, next_live = [], []
            for rank, flat in enumerate(np.argsort(-totals.ravel(), kind="stable")[:2 * beam_width]):
                row, token = divmod(int(flat), totals.shape[1])
                if token == EOS_ID and rank >= beam_width:
                    continue
                node = search.add(live[row], token, float(logprobs[row, token]), float(totals[row, token]), depth)
                if token != EOS_ID:
                    next_live.append(node)
                    parents.append(row)
                    if len(next_live) == beam_width:
                        break
            live = next_live
            if not live or search.done(live, depth):
                break
            reason = "budget" if depth == max_new_tokens else "context" if cache.length + 1 >= config.max_len else None
            if reason is not None:
                for node in live:
                    search.finish(node, reason)
                break
            cache.reorder(torch.tensor(parents, device=device))                    # rows follow their parents
            new_tokens = torch.tensor([[search.tree[n].token_id] for n in live], device=device)  # [B, 1]
            logits = model.decode(new_tokens, memory, cache)[:, -1]                        # [B, V]
    ranked = sorted(search.finished, key=lambda h: -h.score)
    return BeamResult(search.tree, ranked, ranked[0], search.path(ranked[0].node_id),
                      encoded.unknown_chars, encoded.notices)

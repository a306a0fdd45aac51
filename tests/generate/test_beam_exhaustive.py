"""Beam search against exhaustive search on vocabularies small enough to enumerate every output.

The model's head pushes the special ids other than eos to -100, so each step has k + 1 plausible
tokens (k characters and eos). The beam keeps every plausible hypothesis up to depth d when its width
is at least the number of plausible extensions there, k ** (d - 1) * (k + 1); the widths below cover
every depth before the last, so the search must find the exhaustive optimum. At the last depth the
beam still prunes: most cases look at fewer than all k ** (N - 1) * (k + 1) extensions (2 x width of
them), and as every hypothesis there has the same length, the summed log-probability alone must
decide which survive. A hand-made bigram model adds a case that only the summed log-probability
gets right.
"""
import itertools

import pytest
import torch

from playground.data import BOS_ID, EOS_ID, CharTokenizer
from playground.data.tokenizer import NUM_SPECIAL
from playground.generate import beam_search
from playground.model import DecoderOnly, build_model

from ..model.helpers import randomize_parameters
from .helpers import config

PROMPT = "ab"
IMPLAUSIBLE = [i for i in range(NUM_SPECIAL) if i != EOS_ID]


def _tiny(chars, seed, arch="decoder_only"):
    """A random Transformer over `chars`; eos as plausible as any character, the other specials never."""
    tokenizer = CharTokenizer(chars)
    torch.manual_seed(seed)
    net = build_model(config(arch, vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2, d_ff=32))
    net = randomize_parameters(net, seed, std=0.5).eval()
    head = torch.nn.Linear(16, tokenizer.vocab_size)
    with torch.no_grad():
        head.weight.normal_(0, 1.0)
        head.bias.zero_()
        head.bias[IMPLAUSIBLE] = -100.0
    net.head = head
    return net, tokenizer


class Bigram(DecoderOnly):
    """Next-token logits from the last token alone: rows of a table [V, V]."""

    def __init__(self, cfg, table):
        super().__init__(cfg)
        self.register_buffer("table", table)                                            # [V, V]

    def decode(self, ids, memory=None, cache=None, trace=None, last_only=False):
        return self.table[ids[:, -1:] if last_only else ids]                            # [B, T or 1, V]


def _likely_then_flat():
    """After the prompt "ab", 'c' is likely and is followed by a nearly flat row; every other token is
    followed by a row with one or three likely tokens. The best output is 'c' then eos (its best
    follower), whose last step (about log 1/6) ranks 14th of the extensions at depth 2, behind 13 with
    a last step near log 1/3 or 0: ranking by the last step alone drops it from the 2 x 6 a beam of
    width 6 looks at."""
    tokenizer = CharTokenizer("abcde")
    a, b, c, d, e = tokenizer.encode("abcde")
    table = torch.full((tokenizer.vocab_size, tokenizer.vocab_size), -20.0)
    table[:, IMPLAUSIBLE] = -100.0
    table[b, [a, b, d, e, EOS_ID]], table[b, c] = 0.0, 5.0
    table[c, [a, b, c, d, e, EOS_ID]] = torch.linspace(0.0, 0.1, 6)
    for row, likely in ((a, [a, b, c]), (d, [c, d, e]), (e, [a, d, EOS_ID]), (IMPLAUSIBLE[0], [b, c, e])):
        table[row, likely] = 0.0
    return Bigram(config(vocab_size=tokenizer.vocab_size), table).eval(), tokenizer


def _outputs(vocab_size, budget):
    """Every output a search can finish with: eos after up to budget-1 tokens, or budget tokens without eos."""
    tokens = [i for i in range(vocab_size) if i != EOS_ID]
    for length in range(budget):
        for prefix in itertools.product(tokens, repeat=length):
            yield list(prefix) + [EOS_ID]
    yield from (list(p) for p in itertools.product(tokens, repeat=budget))


def _scored_outputs(net, tokenizer, arch, budget):
    """[(output ids, summed log-probability)] for every output, from teacher-forced passes."""
    if arch == "decoder_only":
        prefix, source = tokenizer.encode(PROMPT), None
    else:
        prefix, source = [BOS_ID], torch.tensor([tokenizer.encode(PROMPT)])
    scored = []
    for length in range(1, budget + 1):
        outputs = [o for o in _outputs(tokenizer.vocab_size, budget) if len(o) == length]
        ids = torch.tensor([prefix + o for o in outputs])                               # [N, P + length]
        with torch.no_grad():
            logits = net(ids) if source is None else net(source.expand(len(outputs), -1), ids)
        logprobs = torch.log_softmax(logits[:, len(prefix) - 1:-1].double(), -1)       # [N, length, V]
        sums = logprobs.gather(-1, ids[:, len(prefix):, None]).sum(dim=(1, 2))          # [N]
        scored += zip(outputs, sums.tolist())
    return scored


def _exhaustive_best(scored, length_penalty):
    """(token ids, score) of the output with the highest logprob / length ** length_penalty."""
    return max(((output, logprob / len(output) ** length_penalty) for output, logprob in scored),
               key=lambda pair: pair[1])


@pytest.mark.parametrize("chars,budget,width", [
    ("ab", 2, 3), ("ab", 3, 6), ("abc", 3, 12), ("abcd", 2, 5), ("abcde", 2, 6), ("abcde", 2, 9),
])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_best_hypothesis_is_the_exhaustive_optimum(chars, budget, width, seed):
    net, tokenizer = _tiny(chars, seed)
    scored = _scored_outputs(net, tokenizer, "decoder_only", budget)
    for length_penalty in (0.0, 1.0, 2.0):
        result = beam_search(net, tokenizer, PROMPT, beam_width=width, max_new_tokens=budget,
                             length_penalty=length_penalty)
        best, score = _exhaustive_best(scored, length_penalty)
        assert result.best.token_ids == best, f"length_penalty={length_penalty}"
        assert result.best.score == pytest.approx(score, abs=1e-6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_encoder_decoder_beam_finds_the_exhaustive_optimum(seed):
    net, tokenizer = _tiny("ab", seed, "encoder_decoder")
    result = beam_search(net, tokenizer, PROMPT, beam_width=6, max_new_tokens=3, length_penalty=1.0)
    best, score = _exhaustive_best(_scored_outputs(net, tokenizer, "encoder_decoder", 3), 1.0)
    assert result.best.token_ids == best
    assert result.best.score == pytest.approx(score, abs=1e-6)


@pytest.mark.parametrize("length_penalty", [0.0, 1.0])
def test_a_likely_token_with_flat_followers_beats_peaked_last_steps(length_penalty):
    net, tokenizer = _likely_then_flat()
    result = beam_search(net, tokenizer, PROMPT, beam_width=6, max_new_tokens=2, length_penalty=length_penalty)
    best, score = _exhaustive_best(_scored_outputs(net, tokenizer, "decoder_only", 2), length_penalty)
    assert best == tokenizer.encode("c") + [EOS_ID]
    assert result.best.token_ids == best
    assert result.best.score == pytest.approx(score, abs=1e-6)

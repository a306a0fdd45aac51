"""Inputs a teacher can click: ones that show something striking on each model.

Shipped models are named after their training preset (pretrained/NAME), so examples are keyed
by that name; a model without its own examples gets the generic ones its tokenizer can write.
"""
from __future__ import annotations

from playground.data.tokenizer import NUM_SPECIAL
from playground.zoo import ModelEntry, ModelRegistry

VOCABULARY_TOKENS = 12
CHINESE_MODEL = "tang-poems-char"      # the language model the Chinese interface shows first, where it is shipped

ATTENTION_EXAMPLES: dict[str, list[str]] = {
    "copy": ["abcdefghij", "aabbccddee"],                     # cross-attention: the diagonal
    "reverse": ["abcdefghij", "badcfehgji"],                  # cross-attention: the anti-diagonal
    "sort": ["cabbage", "jihgfedcba"],                        # each output letter looks up where it is
    "dates": ["the 26th of August, 2027", "30 Nov 2029", "27-Feb-1971"],
    "shakespeare-char": ["First Citizen:\nBefore we proceed any further, hear me speak.",
                         "To be, or not to be: to be, or not to be"],   # repeated text: no head looks it up yet
    "shakespeare-bpe": ["First Citizen:\nBefore we proceed any further, hear me speak.",
                        "To be, or not to be: to be, or not to be"],
    "masked-char": ["To be, or not to be, that is the question"],
    "induction": ["q7#Lm2x!Vb&Kp q7#Lm2x!Vb&Kp", "the cat sat on the mat. the cat sat on the mat."],  # layer 1 looks up
    "tang-poems-char": ["春眠不觉晓，处处闻啼鸟。", "白日依山尽，黄河入海流。"],   # a couplet: 5 + 5 characters
    "untrained-gpt": ["abcdefg abcdefg"],
    "untrained-seq2seq": ["hello world"],
}
GENERATE_EXAMPLES: dict[str, list[str]] = {
    "copy": ["abcdefghij", "jjiihhggff"],
    "reverse": ["abcdefghij"],
    "sort": ["cabbage"],
    "dates": ["the 4th of July, 1999", "30 Nov 2029"],
    "shakespeare-char": ["ROMEO:\n", "First Citizen:\n"],
    "shakespeare-bpe": ["ROMEO:\n", "To be, or not to be"],
    "induction": ["q7#Lm2x!Vb&Kp q7#Lm"],
    "tang-poems-char": ["白日依山尽，", "春风"],                # a first half-line to complete, two characters
    "untrained-gpt": ["Once upon a time"],
    "untrained-seq2seq": ["hello"],
}
GENERIC_EXAMPLES = ["abcabcabc", "hello world", "To be, or not to be"]


def _usable(entry: ModelEntry, value: str) -> bool:
    return not entry.tokenizer.unknown_chars(value) and len(entry.tokenizer.encode(value)) <= entry.config.max_len


def examples_for(entry: ModelEntry, table: dict[str, list[str]]) -> list[str]:
    """The model's examples in `table`, else its own (entry.examples), else the generic ones it can
    read, else a text of the first tokens of its vocabulary: never none for a model that reads text."""
    candidates = table.get(entry.name) or list(entry.examples) or GENERIC_EXAMPLES
    usable = [value for value in candidates if _usable(entry, value)]
    return usable or [value for value in [vocabulary_text(entry)] if value and _usable(entry, value)]


def vocabulary_text(entry: ModelEntry, tokens: int = VOCABULARY_TOKENS) -> str:
    """The first ordinary tokens of the model's vocabulary as one text (a model whose training text the
    app does not know, e.g. an uploaded one, can still be shown something it reads)."""
    ids = list(range(NUM_SPECIAL, min(NUM_SPECIAL + tokens, entry.tokenizer.vocab_size)))
    return "".join(ch for ch in entry.tokenizer.decode(ids) if ch.isprintable() and not ch.isspace())[:tokens]


def own_examples(data, tokenizer, count: int = 3, tokens: int = 24) -> tuple[str, ...]:
    """Inputs like those of a training's data: held-out sources of a task, else pieces of the held-out
    text (the longest line of each), for the model the training publishes."""
    if hasattr(data, "held_out"):
        return tuple(source for source, _ in data.held_out(count))
    ids = getattr(data, "val_ids", None)
    if ids is None:
        return ()
    pieces = (tokenizer.decode(ids[k * tokens:(k + 1) * tokens].tolist()) for k in range(count))
    lines = (max(piece.split("\n"), key=len).strip() for piece in pieces)
    return tuple(dict.fromkeys(line for line in lines if line))


def suitable_input(entry: ModelEntry, value, table: dict[str, list[str]]) -> str:
    """`value` when the model can read it and it is not another model's example in `table`, else the
    model's first example: a learner's own text stays when the model changes, an example chosen for
    another model (the layout's, one clicked) gives way to one chosen for this model."""
    own = examples_for(entry, table)
    if isinstance(value, str) and value.strip() and _usable(entry, value) and not _elsewhere(entry, value, table, own):
        return value
    return next(iter(own), value if isinstance(value, str) else "")


def followed_input(entry: ModelEntry, value, table: dict[str, list[str]]) -> tuple[str, bool]:
    """suitable_input(entry, value, table), and whether it gave up the learner's own text (one the
    model cannot read): an example of some model in `table` gives way without being counted."""
    kept = suitable_input(entry, value, table)
    return kept, kept != value and not any(value in examples for examples in table.values())


def _elsewhere(entry: ModelEntry, value: str, table: dict[str, list[str]], own: list[str]) -> bool:
    """Whether `value` is an example of another model in `table` and not one of `entry`'s own."""
    return value not in own and any(value in examples for name, examples in table.items() if name != entry.name)


def attention_examples(registry: ModelRegistry) -> list[list[str]]:
    """[model name, input] pairs for every shared model."""
    return [[e.name, value] for e in registry.entries() for value in examples_for(e, ATTENTION_EXAMPLES)]


def generate_examples(registry: ModelRegistry) -> list[list[str]]:
    """[model name, prompt] pairs for every shared model that generates."""
    return [[e.name, value] for e in registry.entries() if e.generative
            for value in examples_for(e, GENERATE_EXAMPLES)]


# Issue 19: inputs for the masks, fill-in-the-blanks and exposure-bias views
MASK_EXAMPLES: dict[str, tuple[str, str]] = {     # two inputs of different lengths, at most 12 tokens each
    "copy": ("abcdefghij", "abcd"), "reverse": ("abcdefghij", "abcd"), "sort": ("cabbage", "jihg"),
    "dates": ("30 Nov 2029", "1/2/99"), "shakespeare-char": ("To be or not", "To be"),
    "shakespeare-bpe": ("To be, or not to be", "To be"), "masked-char": ("To be or not", "To be"),
    "tang-poems-char": ("春眠不觉晓，处处闻啼鸟。", "春眠不觉晓"),
}
FILL_EXAMPLES: dict[str, list[str]] = {            # "_" marks a blank
    "masked-char": ["To be, or not to b_, that is the qu_stion", "O Romeo, Romeo! wherefore art thou R_meo?",
                    "First Citi_en:\nBefore we pro_eed any further, hear me sp__k."],
}
EXPOSURE_EXAMPLES: dict[str, list[tuple[str, str]]] = {   # (prompt, or a seq2seq model's source; target)
    "sort": [("cabbage", "aabbceg")],                      # 7 letters where training had 10: it parts at 2
    "copy": [("abcdefghij", "abcdefghij")], "reverse": [("abcdefghij", "jihgfedcba")],
    "dates": [("the 4th of July, 1999", "1999-07-04"), ("30 Nov 2029", "2029-11-30")],
    "shakespeare-char": [("ROMEO:\n", "I will not be a stranger to thy love,"),
                         ("ROMEO:\nI", " will not be a stranger to thy love,")],
    "shakespeare-bpe": [("ROMEO:\n", "But soft, what light through yonder window breaks?")],
    "induction": [("q7#Lm2x!Vb&Kp q7#Lm", "2x!Vb&Kp")],     # the second copy looks up the first: never parts
    "tang-poems-char": [("白日依山尽，", "黄河入海流。")],
}


def exposure_target(entry: ModelEntry, prompt) -> str:
    """The target of the model's exposure-bias example for `prompt` (the Generate tab's prompts are
    its first ones), else of its first example, else the first generic text it can read."""
    pairs = [(p, t) for p, t in EXPOSURE_EXAMPLES.get(entry.name, []) if _usable(entry, p) and _usable(entry, t)]
    matching = [t for p, t in pairs if p == prompt]
    return next(iter(matching or [t for _, t in pairs] or examples_for(entry, {})), "")

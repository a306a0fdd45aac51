"""The Tokenizer tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import gradio as gr

from ...inputs.validation import BPE_VOCAB_RANGE, MAX_TOKENIZER_CHARS
from ...page.widgets import examples_dataset, integer_slider
from ...text.i18n import label
from ...views.tokenizer import DEFAULT_TEXT, DEFAULT_VOCAB, EXAMPLES, available_corpora


def layout() -> tuple[dict[str, gr.components.Component], list[list]]:
    """The components by name, and the examples (text, corpus, vocabulary size) c["examples"] shows."""
    corpora = available_corpora()
    shown_examples = [e for e in EXAMPLES if e[1] in corpora]
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Accordion(label("lbl_controls"), open=True, elem_id="tokenizer-controls") as c["controls"]:
                c["text"] = gr.Textbox(DEFAULT_TEXT, label=label("lbl_tok_text"), lines=2,
                                       max_length=MAX_TOKENIZER_CHARS, elem_id="tok-text")
                with gr.Row():
                    c["corpus"] = gr.Radio([(label(f"corpus_{name}"), name) for name in corpora], value="bundled",
                                           label=label("lbl_corpus"), elem_id="tok-corpus")
                    c["vocab_size"] = integer_slider(*BPE_VOCAB_RANGE, value=DEFAULT_VOCAB,
                                                     label=label("lbl_vocab_size"), elem_id="tok-vocab")
                c["run"] = gr.Button(label("btn_tokenize"), variant="primary", elem_id="tok-run")
            c["examples"] = examples_dataset(shown_examples, [c["text"], c["corpus"], c["vocab_size"]],
                                             [f"{t} · {name} · {v}" for t, name, v in shown_examples], "tok-examples")
            c["counts"] = gr.Markdown(elem_id="tok-counts")
        with gr.Column(scale=2):
            gr.Markdown(label("tok_explanation"), elem_id="tok-explanation", elem_classes="explanation")
    c["char_plot"] = gr.Plot(show_label=False, elem_id="tok-char-spans")
    c["bpe_plot"] = gr.Plot(show_label=False, elem_id="tok-bpe-spans")
    with gr.Row():
        c["merges_plot"] = gr.Plot(show_label=False, elem_id="tok-merges", scale=3)
        c["utf8"] = gr.Markdown(elem_id="tok-utf8")
    return c, [list(example) for example in shown_examples]

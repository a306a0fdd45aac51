"""English text of the app. Keys are shared with strings_zh.py; {names} are filled in by the server."""

EN: dict[str, str] = {
    # ------------------------------------------------------------------ shell
    "locale_code": "en",
    "app_title": "# Transformer Playground\nA hand-written Transformer you can look inside: attention, generation, "
                 "positions, tokens and parameters.",
    "lbl_language": "Language",
    "tab_attention": "Attention",
    "tab_generate": "Generate",
    "tab_positional": "Positional encoding",
    "tab_tokenizer": "Tokenizer",
    "tab_architecture": "Architecture",
    "lbl_model": "Model",
    "lbl_examples": "Examples (click one)",
    "lbl_seed": "Seed",

    # ------------------------------------------------------------------ messages
    "err_internal": "Something went wrong inside the app ({kind}). Your session is still usable: "
                    "change the input and try again.",
    "err_not_text": "The {what} must be text.",
    "err_empty": "The {what} is empty: type some text.",
    "err_too_long": "The {what} has {length} characters; the limit is {limit}. Shorten it.",
    "err_unknown_chars": "The model \"{model}\" does not know {count} character(s) of your text: {chars}. "
                         "Remove or replace them.",
    "err_not_number": "{name} must be a number between {low} and {high}.",
    "err_not_integer": "{name} must be a whole number, got {value}.",
    "err_out_of_range": "{name} is {value}; choose a value between {low} and {high}.",
    "err_bad_choice": "{name} cannot be \"{value}\"; choose one of: {choices}.",
    "err_unknown_model": "There is no model \"{name}\"; choose one of: {choices}.",
    "err_config": "This configuration is not valid: {error}",
    "what_input": "input",
    "what_prompt": "prompt",
    "what_target": "target text",
    "what_tokenizer_text": "text",
    "param_d_model": "d_model",
    "param_length": "Length",
    "param_head_dim": "Head size d_k",
    "param_positions": "Positions",
    "param_seed": "Seed",
    "param_vocab_size": "Vocabulary size",
    "param_corpus": "Training text",
    "param_preset": "Preset",
    "param_context_length": "Context length",
    "param_n_encoder_layers": "Encoder layers",
    "param_n_decoder_layers": "Decoder layers",
    "param_n_heads": "Heads",
    "param_d_ff": "d_ff",
    "param_max_len": "max_len",
    "param_arch": "Architecture",
    "param_positional": "Positional encoding",
    "param_norm": "Norm placement",
    "param_activation": "Activation",

    # ------------------------------------------------------------------ words in figures
    "w_position": "position",
    "w_dimension": "dimension",
    "w_dim": "dim",
    "w_value": "value",
    "w_cosine": "cosine similarity",
    "w_pair": "pair",
    "w_angle": "angle",
    "w_id": "id",
    "w_piece": "piece",
    "w_characters": "characters",
    "w_rank": "rank",
    "w_left": "left",
    "w_right": "right",
    "w_merged": "merged",

    # ------------------------------------------------------------------ positional encoding
    "pos_explanation": (
        "**Why positions?** Self-attention compares every token with every other token and takes a weighted "
        "sum; nothing in that computation depends on where a token sits. Shuffle the input and the outputs are "
        "just shuffled the same way (see the demonstration at the bottom of this page). So the model adds to "
        "each token embedding a vector that depends only on the position.\n\n"
        "**The sinusoidal encoding** fills row $pos$ of a table with\n"
        "$$PE_{(pos,\\,2i)} = \\sin\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right),\\qquad "
        "PE_{(pos,\\,2i+1)} = \\cos\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right)$$\n"
        "Each pair of dimensions $(2i, 2i+1)$ is a clock hand turning at its own speed: pair 0 completes a turn "
        "every $2\\pi \\approx 6.3$ positions, the last pair needs almost $2\\pi \\cdot 10000$. Low dimensions "
        "change fast (fine position), high dimensions slowly (coarse position). Because the sine and cosine at "
        "$pos + k$ are a fixed rotation of those at $pos$, the encoding of $pos + k$ is a linear function of the "
        "encoding of $pos$, which lets attention learn relative offsets. The similarity matrix shows that nearby "
        "positions have similar encodings. Where a model is configured to, token embeddings are multiplied by "
        "$\\sqrt{d_{model}}$ before the positions are added, so both have a comparable size."),
    "lbl_d_model": "d_model (dimensions)",
    "lbl_length": "Positions shown",
    "lbl_dims": "Dimensions drawn as curves",
    "lbl_pos_heatmap": "Sinusoidal table",
    "lbl_pos_curves": "Chosen dimensions",
    "lbl_pos_similarity": "Position similarity",
    "pos_model_heading": "### A model's own positions\nPick a model to see the position vectors it adds to its "
                         "token embeddings.",
    "lbl_pos_model_heatmap": "The model's position table",
    "lbl_pos_model_similarity": "Similarity of the model's positions",
    "rope_explanation": (
        "### RoPE: positions as rotations\n"
        "Rotary position embedding adds nothing to the embeddings. Inside every attention layer each query "
        "and key of a head is cut into pairs of dimensions, and pair $i$ at position $pos$ is rotated by the "
        "angle $pos \\cdot \\theta_i$ with $\\theta_i = 10000^{-2i/d_k}$ ($d_k$ = head size). A rotation keeps "
        "lengths, and the dot product of a query rotated by $m\\theta_i$ with a key rotated by $n\\theta_i$ "
        "depends only on $(m - n)\\theta_i$: the attention scores see relative positions. Each panel below is one "
        "pair: the point starts at angle 0 at position 0 and turns by $\\theta_i$ per position; low pairs spin "
        "fast, high pairs slowly. This project pairs dimension $j$ with $j + d_k/2$ inside each head; the angles "
        "are the same as in the interleaved $(2i, 2i+1)$ layout that the panel titles name."),
    "lbl_head_dim": "Head size d_k",
    "lbl_rope_positions": "Positions",
    "lbl_rope_pairs": "Pairs of dimensions",
    "lbl_rope_plot": "RoPE rotations",
    "shuffle_explanation": (
        "### Without positions, order is invisible\n"
        "Four tiny encoders with the same random weights differ only in their positional encoding. We shuffle "
        "the input's tokens and compare the output for the shuffled input with the shuffled output for the "
        "original input. Without positions the two are equal up to rounding: self-attention and the "
        "feed-forward layers are permutation-equivariant, so every token gets the same output wherever it "
        "stands. With sinusoidal, learned or rotary positions they differ. (A decoder's causal mask leaks some "
        "order even without positions: each token sees how many tokens came before it.)"),
    "lbl_shuffle_text": "Text to shuffle",
    "btn_shuffle": "Shuffle and compare",
    "fig_sinusoidal": "Sinusoidal encoding: {length} positions × {d_model} dimensions",
    "fig_sinusoidal_curves": "Chosen dimensions over position",
    "fig_position_similarity": "Cosine similarity between positions",
    "fig_model_positions": "{model}: {kind} position vectors",
    "fig_model_position_similarity": "{model}: similarity between its positions",
    "fig_rope": "RoPE in a head of size {head_dim}: each pair turns with position",
    "note_positions_sinusoidal": "**{model}** adds the fixed sinusoidal table above to its token embeddings.",
    "note_positions_learned": "**{model}** learned its own position vectors during training. Compare their "
                              "similarity with the sinusoidal one: a trained table often shows a similar band "
                              "along the diagonal.",
    "note_untrained_positions": "This model is untrained, so its position vectors are still random noise.",
    "note_positions_rope": "**{model}** uses RoPE: it adds no position vectors to the embeddings, it rotates "
                           "queries and keys inside attention (see below).",
    "note_positions_none": "**{model}** has no positional encoding at all; only its causal mask, if it has "
                           "one, tells it anything about order.",
    "enc_none": "none",
    "enc_sinusoidal": "sinusoidal",
    "enc_learned": "learned",
    "enc_rope": "RoPE",
    "verdict_order_blind": "same outputs, only reordered: order is invisible",
    "verdict_order_aware": "different outputs: the model sees the order",
    "shuffle_summary": "Original: `{original}`  \nShuffled: `{shuffled}`",
    "col_encoding": "positional encoding",
    "col_max_difference": "max |f(shuffled x) − shuffled f(x)|",
    "col_verdict": "verdict",
    "err_pick_dims": "Choose at least one dimension to draw.",
    "err_dims_outside": "Dimensions {dims} do not exist when d_model is {d_model}; choose dimensions 0 to d_model − 1.",
    "err_even_d_model": "The size must be even (sine and cosine come in pairs), got {d_model}.",
    "err_pick_pairs": "Choose at least one pair of dimensions.",
    "err_pairs_outside": "Pairs {pairs} do not exist; a head of this size has pairs 0 to {n_pairs} − 1.",
    "err_need_two_tokens": "Type at least two characters, so there is an order to shuffle.",

    # ------------------------------------------------------------------ tokenizer
    "tok_explanation": (
        "**Tokenizers** turn text into the integer ids a model reads. A *character* tokenizer gives every "
        "character of its training text an id: a small vocabulary but long sequences, and a character it never "
        "saw becomes `<unk>`. *Byte-level BPE* (byte pair encoding) starts from the 256 possible bytes of UTF-8, "
        "so it can write any text at all; it then repeatedly merges the most frequent adjacent pair of tokens in "
        "its training text into a new token (inside words: the text is first split at spaces and punctuation), "
        "until the vocabulary has the size you ask for. Frequent words become one token, rare words several "
        "pieces. The merges are listed in the order they were learned, which is also the order they are "
        "applied. Most Chinese characters take 3 bytes in UTF-8: a BPE that rarely saw Chinese writes such a "
        "character as up to 3 byte tokens (shown in hex, like `<E4>`); a dashed box marks the pieces of one "
        "character. Ids 0 to 4 are reserved for `<pad>`, `<bos>`, `<eos>`, `<unk>` and `<mask>`."),
    "lbl_tok_text": "Text to tokenize",
    "lbl_corpus": "Train both tokenizers on",
    "corpus_bundled": "the bundled text",
    "corpus_tiny_shakespeare": "tiny Shakespeare",
    "corpus_this_text": "this text",
    "lbl_vocab_size": "BPE vocabulary size",
    "btn_tokenize": "Tokenize",
    "lbl_char_tokens": "Character tokens",
    "lbl_bpe_tokens": "BPE tokens",
    "lbl_merges": "BPE merges",
    "fig_char_tokens": "Characters: {n} tokens",
    "fig_bpe_tokens": "Byte-level BPE: {n} tokens",
    "fig_merges": "The first {n} merges, in the order they were learned",
    "token_counts": "**{chars}** characters → **{n_char}** character tokens (vocabulary {char_vocab}) and "
                    "**{n_bpe}** BPE tokens (vocabulary {bpe_vocab} of the {requested} asked for): "
                    "{ratio:.2f} characters per BPE token. Both were trained on {corpus} ({corpus_chars:,} characters).",
    "token_unknown": "The character tokenizer has never seen {count} character(s) of this text ({chars}); "
                     "they became `<unk>`. Byte-level BPE writes them as bytes instead.",
    "token_vocab_capped": "The training text only supports {got} tokens (no pair is left that occurs at least "
                          "twice), fewer than the {requested} asked for.",
    "utf8_intro": "**How the non-ASCII characters are stored in UTF-8** (byte-level BPE starts from these bytes):",
    "utf8_line": "`{char}`: {n} byte(s), {bytes}",
    "err_corpus_missing": "{corpus} is not available on this server; choose another training text.",

    # ------------------------------------------------------------------ architecture
    "arch_explanation": (
        "**From a config to a model.** Choose a preset or open the config and change it. The diagram shows the "
        "stack: token embedding (plus positions), N identical blocks, each an attention sub-layer and a "
        "feed-forward sub-layer, each wrapped in a residual connection and a LayerNorm (pre-norm normalises "
        "before the sub-layer, post-norm after the residual add as in the 2017 paper), then the output head that "
        "gives one score per vocabulary token. The treemap's boxes are parameter counts. Per block, attention "
        "has $4(d_{model}^2 + d_{model})$ parameters ($W_Q, W_K, W_V, W_O$ and their biases), the feed-forward "
        "$2\\,d_{model} d_{ff} + d_{ff} + d_{model}$, and each LayerNorm $2\\,d_{model}$. The number of heads "
        "does not change the count: heads split $d_{model}$ into parts, they add no weights. With weight tying "
        "the output head reuses the token embedding matrix and is counted once. GPT-2 small comes to "
        "124,439,808. FLOPs per token count matrix products at 2 FLOPs per multiply-add: 2 for every weight the "
        "token is multiplied by (embedding lookups cost nothing, the output head counts), plus "
        "$4\\,d_{model}\\,n$ per layer for the attention scores over $n$ keys."),
    "lbl_preset": "Preset",
    "lbl_context_length": "Context length n (for FLOPs and memory)",
    "btn_draw": "Draw",
    "lbl_config": "Config",
    "lbl_arch": "Architecture",
    "lbl_positional": "Positional encoding",
    "lbl_norm": "LayerNorm placement",
    "lbl_activation": "Activation",
    "lbl_cfg_n_encoder_layers": "Encoder layers",
    "lbl_cfg_n_decoder_layers": "Decoder layers",
    "lbl_cfg_d_model": "d_model",
    "lbl_cfg_n_heads": "Heads",
    "lbl_cfg_d_ff": "d_ff (feed-forward width)",
    "lbl_cfg_vocab_size": "Vocabulary size",
    "lbl_cfg_max_len": "max_len (longest input)",
    "lbl_tie_weights": "Tie output head to embedding",
    "lbl_bias": "Biases",
    "lbl_scale_embedding": "Scale embeddings by √d_model",
    "lbl_diagram": "Diagram",
    "lbl_treemap": "Parameters",
    "arch_encoder_decoder": "encoder-decoder",
    "arch_decoder_only": "decoder-only (GPT)",
    "arch_encoder_only": "encoder-only (BERT)",
    "fig_architecture": "Architecture: {arch}",
    "fig_treemap": "Parameters per component: {total} in all",
    "arch_summary": "**{total}** parameters. One token with a context of {n} costs **{flops}** FLOPs in the forward "
                    "pass, {ratio:.2f} FLOPs per parameter.",
    "tm_model": "model",
    "tm_encoder": "encoder",
    "tm_decoder": "decoder",
    "tm_head": "output head",
    "tm_token_embedding": "token embedding",
    "tm_position_embedding": "position embedding",
    "tm_final_norm": "final LayerNorm",
    "tm_block": "block {i}",
    "tm_self_attention": "self-attention",
    "tm_cross_attention": "cross-attention",
    "tm_feed_forward": "feed-forward",
    "tm_norms": "LayerNorms",
    "cost_parameters": "parameters",
    "cost_flops": "FLOPs per token (n = {n})",
    "cost_memory": "activation memory per token, float32 (n = {n})",
    "cost_kv_cache": "KV cache per generated token, float32",
    "comp_token_embeddings": "token embeddings",
    "comp_position_embeddings": "position embeddings",
    "comp_attention": "attention projections",
    "comp_attention_scores": "attention scores",
    "comp_feed_forward": "feed-forward",
    "comp_norms": "LayerNorms",
    "comp_output_head": "output head",
    "comp_embedding": "embeddings",
    "comp_residual": "residual stream",
    "comp_attention_maps": "attention maps",
    "comp_logits": "logits",
    "comp_total": "total",
    "col_quantity": "quantity",
    "col_component": "component",
    "col_value": "value",
    "dw_encoder": "Encoder",
    "dw_decoder": "Decoder",
    "dw_inputs": "input tokens",
    "dw_outputs": "output tokens (shifted right)",
    "dw_embedding": "token embedding",
    "dw_positional": "positional",
    "dw_self_attention": "self-attention",
    "dw_masked_self_attention": "masked self-attention",
    "dw_cross_attention": "cross-attention",
    "dw_feed_forward": "feed-forward",
    "dw_layer_norm": "LayerNorm",
    "dw_residual": "+ residual",
    "dw_final_norm": "final LayerNorm",
    "dw_head": "output head",
    "dw_tied": "tied to embedding",
    "dw_heads": "heads",
    "dw_probabilities": "softmax → next-token probabilities",
}

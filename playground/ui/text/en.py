"""English text of the app. Keys are shared with strings_zh.py; {names} are filled in by the server."""

EN: dict[str, str] = {
    # ------------------------------------------------------------------ shell
    "locale_code": "en",
    "app_title": "# Transformer Playground\nA hand-written Transformer you can look inside: attention, generation, "
                 "positions, tokens and parameters.",
    "lbl_language": "Language",
    "tab_attention": "Attention",
    "tab_generate": "Generate",
    "tab_train": "Train",
    "tab_positional": "Positional encoding",
    "tab_tokenizer": "Tokenizer",
    "tab_architecture": "Architecture",
    "lbl_model": "Model",
    "lbl_examples": "Examples (click one)",
    "lbl_explanation": "Explanation",
    "lbl_seed": "Seed",

    # ------------------------------------------------------------------ messages
    "err_internal": "Something went wrong inside the app ({kind}). Your session is still usable: "
                    "change the input and try again.",
    "err_not_text": "The {what} must be text.",
    "err_server_full": "The server already serves the most students it can ({n}), all of them working right now, so "
                       "it cannot open a session for you. Try again in a few minutes, when someone has closed their tab.",
    "err_queue_session": "You already have {n} actions waiting. Wait until they are done before asking for more.",
    "err_queue_client": "Your network has {n} actions waiting, more than one class needs. Wait until some are done.",
    "err_queue_group": "The server has {n} actions of this kind waiting. Try again in a minute.",
    "err_empty": "The {what} is empty: type some text.",
    "err_too_long": "The {what} has {length} characters; the limit is {limit}. Shorten it.",
    "err_unknown_chars": "The model \"{model}\" does not know {count} character(s) of your text: {chars}. "
                         "Remove or replace them.",
    "err_not_number": "{name} must be a number between {low} and {high}.",
    "err_not_integer": "{name} must be a whole number, got {value}.",
    "err_out_of_range": "{name} is {value}; choose a value between {low} and {high}.",
    "err_bad_choice": "{name} cannot be \"{value}\"; choose one of: {choices}.",
    "err_unknown_model": "There is no model \"{name}\"; choose one of: {choices}.",
    "err_trained_model_gone": "There is no model \"{name}\" on the server now. A model trained here lives only in the "
                              "server's memory: if this browser trained it, the server has restarted (or forgot it while "
                              "the page was idle). Reload the page: this browser kept a copy and gives it back. A model "
                              "you downloaded from the Train tab can also be uploaded again (Use your own model). "
                              "Models now: {choices}.",
    "err_kept_model_large": "The model you trained, \"{name}\", could not be restored after the server restarted: it "
                            "is {size:.1f} MB, more than the {limit:.0f} MB a browser keeps. Upload the .safetensors "
                            "file you downloaded from the Train tab (Use your own model), or train it again. "
                            "Models now: {choices}.",
    "err_kept_model_unreadable": "The model you trained, \"{name}\", could not be restored after the server "
                                 "restarted: the copy this browser kept cannot be read. Upload the .safetensors file "
                                 "you downloaded from the Train tab (Use your own model), or train it again. "
                                 "Models now: {choices}.",
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
    "param_norm_type": "Norm kind",
    "param_gated_ffn": "Gated feed-forward",
    "param_n_kv_heads": "Key/value heads",
    "param_rope_base": "Rotary base",
    "param_qkv_bias": "q/k/v biases",

    # ------------------------------------------------------------------ words in figures
    "w_position": "position",
    "w_dimension": "dimension",
    "w_dim": "dim",
    "w_value": "value",
    "w_cosine": "cosine similarity",
    "w_pair": "pair",
    "w_dims": "dims",
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
        "$$PE_{(pos,\\,2i)} = \\sin\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right)$$\n"
        "$$PE_{(pos,\\,2i+1)} = \\cos\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right)$$\n"
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
    "pos_model_heading": "### A model's own positions\nPick a model to see the position vectors it adds to its "
                         "token embeddings.",
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
    "shuffle_summary": "Original: “{original}”  \nShuffled: “{shuffled}”",
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
    "utf8_line": "“{char}”: {n} byte(s), {bytes}",
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
    "norm_pre": "pre-norm",
    "norm_post": "post-norm",
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
    "lbl_norm_type": "Norm kind",
    "normtype_layernorm": "LayerNorm",
    "normtype_rmsnorm": "RMSNorm (no centring, no bias)",
    "lbl_gated_ffn": "Gated feed-forward (SwiGLU with silu)",
    "lbl_cfg_n_kv_heads": "Key/value heads (0: one per query head)",
    "lbl_cfg_rope_base": "Rotary base (rope)",
    "lbl_qkv_bias": "q/k/v biases without other biases (Qwen2)",
    "lbl_scale_embedding": "Scale embeddings by √d_model",
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
    "tm_rms_norms": "RMSNorms",
    "tm_final_rms_norm": "final RMSNorm",
    "tm_queries": "queries",
    "tm_keys_values": "keys and values",
    "tm_attention_out": "output",
    "tm_gate": "gate",
    "tm_up": "up",
    "tm_down": "down",
    "cost_parameters": "parameters",
    "cost_flops": "FLOPs per token (n = {n})",
    "cost_memory": "activation memory per token, float32 (n = {n})",
    "cost_kv_cache": "KV cache per generated token, float32",
    "cost_kv_cache_mha": "KV cache per generated token with one key/value head per query head, float32",
    "arch_summary_gqa": " Its {heads} query heads share {kv_heads} key/value heads, so the KV cache keeps **{kv}** per token instead of {full}: {saving:g} times smaller.",
    "comp_token_embeddings": "token embeddings",
    "comp_position_embeddings": "position embeddings",
    "comp_attention": "attention projections",
    "comp_attention_scores": "attention scores",
    "comp_feed_forward": "feed-forward",
    "comp_norms": "norms (LayerNorm or RMSNorm)",
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
    "dw_heads_grouped": "query heads sharing {kv} key/value heads",
    "dw_rms_norm": "RMSNorm",
    "dw_gated": "gated {ff}",
    "dw_probabilities": "softmax → next-token probabilities",
    "dw_block": "block",
    "dw_positional_sinusoidal": "sinusoidal",
    "dw_positional_learned": "learned",
    "dw_positional_rope": "RoPE (q, k)",
    "dw_positional_none": "none",
    # ------------------------------------------------------------------ attention
    "attention_explanation": (
        "**Attention** lets every position gather information from the others. Each head computes queries "
        "$Q = XW_Q$, keys $K = XW_K$ and values $V = XW_V$ and returns\n"
        "$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M\\right)V$$\n"
        "where $d_k$ is the head size and the mask $M$ is $-\\infty$ wherever a query may not look. In every "
        "heatmap a row is one query token and a column one key token; each row sums to 1. The grid shows every "
        "layer (rows) and head (columns) at once; choose a layer and head below to enlarge one with its tokens.\n\n"
        "In a decoder the causal mask removes the upper triangle: a query sees itself and the tokens before it, "
        "never the ones after. Cross-attention rows are target tokens and columns source tokens: a copy model "
        "draws the diagonal, a reversing model the anti-diagonal. Dividing by $\\sqrt{d_k}$ keeps the scores' "
        "variance near 1 when the components of $q$ and $k$ have variance 1; without it the softmax saturates "
        "and its gradients vanish. A seq2seq target left empty is written by the model itself (greedy decoding)."),
    "scores_explanation": (
        "**Head scores** (each between 0 and 1): *previous token*, the mean weight a query puts on the token "
        "just before it; *first token*, the weight on position 0 (an \"attention sink\"); *entropy*, how spread "
        "out the weights are (0 = one key, 1 = uniform over the keys it can see); *induction*, the weight on "
        "the token that followed an earlier occurrence of the current token: the look-up that continues a "
        "repeated text; *diagonal* / *anti-diagonal* (cross-attention), how "
        "much target position i reads source position i, or the mirrored position: copying and reversing.\n\n"
        "A high score on one input is not enough to call a head an induction head: text repeats letters, so "
        "even a head that spreads its weight evenly gets some induction score. Below the table, the model is "
        "measured on random tokens written twice: a head is named an induction head only when it scores at "
        "least 0.3 there (untrained heads score about 0.05) and the model's loss on the second copy is at most "
        "half of that on the first. Of the shipped models only **induction** has such heads."),
    "lbl_attention_text": "Input",
    "lbl_attention_target": "Decoder target (empty: the model writes it)",
    "btn_show_attention": "Show attention",
    "lbl_attention_kind": "Attention",
    "lbl_layer": "Layer",
    "lbl_head": "Head",
    "lbl_mean_heads": "Mean over the layer's heads",
    "lbl_score": "Head score",
    "btn_best_head": "Enlarge the best head for this score",
    "lbl_timeline": "Training timeline: weights saved at step",
    "timeline_explanation": (
        "**Training timeline.** This pretrained model was saved at several steps of its training. Pick a step "
        "to redraw every view with the weights of that moment: step 0 is the untrained model, the last step the "
        "finished one. Go forward and watch the heads form: the diagonal of a copy model; in **induction**, the "
        "induction head of layer 1 forming between steps 250 and 400, when the loss drops."),
    "lbl_shapes": "The forward pass: tensor shapes at every stage",
    "kind_encoder": "encoder self-attention",
    "kind_decoder": "decoder self-attention (causal)",
    "kind_cross": "cross-attention (target → source)",
    "score_previous_token": "previous token",
    "score_first_token": "first token",
    "score_entropy": "entropy",
    "score_induction": "induction",
    "score_diagonal": "diagonal (copy)",
    "score_anti_diagonal": "anti-diagonal (reverse)",
    "param_kind": "Attention",
    "param_layer": "Layer",
    "param_head": "Head",
    "param_score": "Head score",
    "w_query": "query",
    "w_key": "key",
    "w_weight": "weight",
    "w_block": "the largest of {block} × {block}",
    "w_layer": "layer",
    "w_head": "head",
    "w_kv_group": "key/value head {kv}: heads {first}–{last}",
    "w_stage": "stage",
    "w_tensor": "tensor",
    "w_shape": "shape",
    "w_note": "what it is",
    "fig_attention_grid": "{kind}: every layer × head",
    "fig_attention_head": "{kind}: layer {layer}, head {head}",
    "fig_attention_mean": "{kind}: layer {layer}, mean over heads",
    "fig_head_scores": "{score} score of every head ({kind})",
    "fig_shapes": "Tensor shapes through the forward pass (B = batch, T/S = target/source length, "
                  "D = d_model, H = heads, Dh = head size, F = d_ff, V = vocabulary)",
    "best_heads_intro": "**Highest-scoring heads:**",
    "best_head_line": "{score}: layer {layer}, head {head} ({value:.2f})",
    "attention_summary": "**{model}**: {arch}, d_model {d_model}, {heads} heads, {layers}, {params} parameters. "
                         "The input is {n} tokens.",
    "attention_layers_encoder_decoder": "{enc} encoder and {dec} decoder layers",
    "attention_layers_decoder_only": "{dec} decoder layers",
    "attention_layers_encoder_only": "{enc} encoder layers",
    "attention_generated": "The model wrote the target itself: “{target}”",
    "attention_untrained": "This model is untrained (random weights): its attention is close to uniform. "
                           "Compare it with a trained model.",
    "attention_timeline_step": "Weights from step {step} of {last} of the training timeline.",
    "err_too_many_tokens": "The {what} is {n} tokens long; this view shows at most {limit}. Shorten it.",
    "shape_stage_embedding": "{stack}: embedding",
    "shape_stage_final_norm": "{stack}: final norm",
    "shape_stage_block": "{stack} block {i}: {sublayer}",
    "shape_stage_output": "output",
    "shape_sublayer_self_attn": "self-attention",
    "shape_sublayer_cross_attn": "cross-attention",
    "shape_sublayer_ffn": "feed-forward",
    "shape_scaled": ", times sqrt({d})",
    "shape_note_tok_embed": "token embeddings{scaled}: one {d}-vector per token",
    "shape_note_pos_embed": "{positional} positional encodings, added to the token embeddings",
    "shape_note_final_norm_pre": "the final LayerNorm",
    "shape_note_final_norm_rmsnorm": "the final RMSNorm (scaled by its root mean square, not centred)",
    "shape_note_final_norm_post": "the stream leaving the last block (post-norm has no final LayerNorm)",
    "shape_note_q": "queries x W_Q, split into {h} heads of {dh}",
    "shape_note_k": "keys: {source} x W_K, split into {h} heads of {dh}",
    "shape_note_v": "values: {source} x W_V, split into {h} heads of {dh}",
    "shape_source_same": "the same positions",
    "shape_source_encoder": "the encoder output",
    "shape_note_scores": "Q K^T / sqrt({dh}): one score per query-key pair, before the mask",
    "shape_note_weights": "softmax over the keys, each row sums to 1; {mask}",
    "shape_mask_encoder": "every position sees every other (padding masked)",
    "shape_mask_decoder": "causal: position t sees keys 0..t",
    "shape_mask_cross": "every target position sees every source token",
    "shape_note_out": "the heads' weighted values joined back to {d} and multiplied by W_O",
    "shape_note_resid_pre": "the residual stream entering the block",
    "shape_note_resid_mid": "the stream after self-attention was added",
    "shape_note_resid_cross": "the stream after cross-attention was added",
    "shape_note_ffn_hidden": "{act}(x W_1 + b_1): widened from {d} to {f} at every position",
    "shape_note_ffn_gate": "{act}(x W_gate): the gate, {f} values at every position",
    "shape_note_ffn_hidden_gated": "gate * (x W_up): widened from {d} to {f} at every position",
    "shape_note_ffn_out": "x W_2 + b_2: back to {d}",
    "shape_note_resid_post": "the residual stream leaving the block",
    "shape_note_logits": "one score per vocabulary token ({v}); softmax turns them into next-token probabilities",
    # ------------------------------------------------------------------ generate
    "generate_explanation": (
        "**Generation is a loop.** The model reads the prompt and gives every token of its vocabulary a "
        "probability of coming next; one token is chosen, appended and fed back in. *Greedy* always takes the "
        "most likely token. *Sampling* draws at random after up to three filters, in this order: *temperature* "
        "$T$ divides the logits before the softmax, $p_i = e^{z_i/T} / \\sum_j e^{z_j/T}$ ($T < 1$ sharpens, "
        "$T > 1$ flattens); *top-k* keeps the $k$ most likely tokens; *top-p* (nucleus) keeps the smallest set "
        "of most likely tokens whose probabilities add up to at least $p$. After each filter the kept "
        "probabilities are renormalised to sum to 1. Each draw depends only on the seed and the position, so "
        "Back then Step picks the same token again. *Beam search* keeps the *width* most likely partial outputs "
        "(by summed log-probability) at every step and returns the best finished one, ranked by log-probability "
        "divided by length; the tree shows every hypothesis it kept, the best path in red. A KV cache keeps "
        "each layer's keys and values, so a step runs only the new token through the model, and the causal "
        "matrix fills in one row per step."),
    "lbl_prompt": "Prompt",
    "lbl_prompt_source": "Source text (the encoder reads it; the decoder writes the output)",
    "btn_step": "Step",
    "btn_run": "Run",
    "btn_stop": "Stop",
    "btn_back": "Back",
    "btn_reset": "Reset",
    "lbl_output": "Text so far",
    "lbl_strategy": "Decoding",
    "strategy_greedy": "greedy",
    "strategy_sample": "sampling",
    "strategy_beam": "beam search",
    "lbl_temperature": "Temperature",
    "lbl_top_k": "Top-k",
    "lbl_top_p": "Top-p",
    "lbl_max_new": "New tokens",
    "lbl_beam_width": "Beam width",
    "info_temperature": "1 = unchanged",
    "info_top_k": "0 = off",
    "info_top_p": "1 = off",
    "info_seed": "same seed, same draws",
    "info_max_new": "at most",
    "info_beam_width": "beam search only",
    "lbl_repetition_penalty": "Repetition penalty",
    "info_repetition_penalty": "divides the probability of every token already written; 1 = off; not with beam search",
    "param_strategy": "Decoding",
    "param_temperature": "Temperature",
    "param_top_k": "Top-k",
    "param_top_p": "Top-p",
    "param_max_new": "Most new tokens",
    "param_beam_width": "Beam width",
    "param_repetition_penalty": "Repetition penalty",
    "stage_raw": "raw",
    "stage_temperature": "after temperature",
    "stage_top_k": "after top-k",
    "stage_top_p": "after top-p",
    "w_chosen": "chosen",
    "w_token": "token",
    "w_probability": "probability",
    "w_layer_head": "L{layer}·H{head}",
    "w_layer_and_head": "layer, head",
    "w_step": "step",
    "w_score": "score",
    "w_logprob": "log-probability",
    "fig_candidates": "Step {index}: the candidates for the next token, {settings} (chosen: {token})",
    "fig_token_attention_self": "Where the new token {token} looks, in every layer and head",
    "fig_token_attention_cross": "Which source tokens the new token {token} reads (cross-attention)",
    "fig_filling": "Causal self-attention, layer {layer}, head {head}: one new row per step",
    "fig_beam_tree": "Beam search tree (width {width})",
    "span_prompt": "prompt",
    "span_generated": "generated",
    "span_new": "newest",
    "status_ready": "**{model}** has read the prompt ({n} tokens). Press Step to choose the next token, or Run.",
    "status_beam_ready": "Beam search runs the whole search at once: press Run. ({model})",
    "status_step": "Step {index}: chose **{token}** with probability {p:.3f} (raw: {raw:.3f}) by {strategy}.",
    "status_context": "{generated} new token(s); {used} of the model's {max_len} positions are in use.",
    "status_kv_cache": "KV cache: {tokens} token(s) × {per_token} = {total}.",
    "status_kv_cache_grouped": "KV cache: {tokens} token(s) × {per_token} = {total}. {n_heads} query heads share {n_kv_heads} key/value head(s) (grouped-query attention); full multi-head attention would keep {full}, {saving} times as much.",
    "status_slid": "The context was full: the window slid and now starts at token {start}.",
    "reason_eos": "Finished: the model wrote the end-of-sequence token `<eos>`.",
    "reason_budget": "Finished: the most-new-tokens budget is used up.",
    "reason_context": "Finished: the model's context is full.",
    "reason_short_eos": "end of sequence",
    "reason_short_budget": "budget used up",
    "reason_short_context": "context full",
    "beam_best": "**Best:** “{text}” (log-probability {logprob:.3f}, score {score:.3f})",
    "beam_capped": "The search stopped at **{n}** new tokens, not {asked}: with {vocab:,} tokens in the vocabulary "
                   "and {width} beams each step ranks {vocab:,} × {width} continuations, and a longer search would "
                   "hold up a shared machine. A narrower beam goes further.",
    "beam_hypothesis": "{rank}. “{text}”: score {score:.3f} ({reason})",
    "err_beam_repetition": "Beam search ranks whole hypotheses and takes no repetition penalty: set the repetition penalty to 1, or choose greedy or sampling.",
    "err_beam_steps": "Beam search runs as a whole: press Run, or choose greedy or sampling to step.",
    "err_generation_finished": "Generation has finished ({reason}). Press Back to undo the last step or Reset to "
                               "start again.",
    "err_nothing_to_undo": "Nothing to undo: no token has been generated yet.",
    "err_prompt_context": "The prompt is {n} tokens long but {model} reads at most {limit}. Shorten it.",
    # ------------------------------------------------------------------ own models
    "lbl_own_model": "Use your own model",
    "own_model_explanation": "Load a checkpoint saved by the Playground (one `.safetensors` file, for example from "
                             "`python -m playground.train`). It is checked before use, never unpickled, and only "
                             "this browser session sees it.",
    "lbl_upload": "Checkpoint (.safetensors)",
    "upload_done": "Loaded **{name}** ({arch}, {params} parameters). It is now selected in every tab that can use it.",
    "err_upload_type": "\"{name}\" is not a .safetensors file; save the model with the Playground and upload that file.",
    "err_upload_size": "The file is {size} MB; the limit is {limit} MB.",
    "err_upload_checkpoint": "This file cannot be used: {error}",
    "err_upload_not_safetensors": "This file is not a safetensors checkpoint. Upload a model saved with the Train tab's "
                                  "Download button (a .safetensors file).",
    "err_upload_pickle": "This file is a Python pickle (a PyTorch .pt, .pth or .bin file). A pickle can run code when "
                         "it is opened, so the Playground never opens one: upload a .safetensors checkpoint.",
    "err_upload_damaged": "This checkpoint is cut short or damaged. Download the model again and upload the new file.",
    "err_upload_foreign_tokenizer": "This checkpoint's tokenizer carries parts the Playground does not run: {parts}. "
                                    "The Playground reads only the byte-level BPE it writes itself (a vocabulary and "
                                    "its merges); upload a model saved with the Playground.",
    "err_upload_not_playground": "This safetensors file was not saved by the Playground: it has no model config and "
                                 "tokenizer. Upload a model from the Train tab's Download button; a GPT-2 from the "
                                 "Hugging Face Hub loads by its name below.",
    # ------------------------------------------------------------------ train
    "train_explanation": (
        "**Training** changes the weights so that the right token becomes more likely. Each step takes a batch "
        "of examples, runs the model on them (a decoder reads the correct previous tokens, not its own guesses: "
        "teacher forcing) and measures the cross-entropy loss, the mean of $-\\log p(y)$, $y$ being the correct "
        "token, over the target tokens (for masked LM, over the 15% of positions chosen for prediction, most of them shown as "
        "`<mask>`). A model that spreads its probability "
        "evenly over $V$ tokens scores $\\ln V$; a perfect one scores 0. Backpropagation gives the gradient of "
        "the loss for every weight, and AdamW takes one step against it (gradients clipped to the norm you set, "
        "1 unless you change it, or not clipped). The learning rate rises linearly during the warm-up steps, then "
        "follows the schedule you choose (the presets decay it along a cosine to a tenth of its peak at the last "
        "step; the induction task keeps it constant).\n\n"
        "**The curves.** Training loss is averaged over the steps since the last point. Validation loss and "
        "accuracy (the share of tokens predicted right) are measured on held-out examples the model never "
        "trains on; for copy, reverse, sort and dates, *exact match* is the share of held-out inputs whose whole "
        "greedy output is right. Tokens/s counts the tokens read per second of training.\n\n"
        "**The probe.** Every few seconds one fixed held-out input goes through the model and its attention is "
        "drawn, one small map per layer and head. On copy, cross-attention forms a diagonal (output position "
        "$i$ reads input position $i$) about when the loss drops; reverse draws the anti-diagonal. On the induction task "
        "(random blocks of 8 to 32 tokens written again and again) the loss sits on a plateau, then drops when "
        "a head of layer 1 starts to look up the token that followed the current one a period earlier; "
        "following the *induction* score draws that score beside layer 0's previous-token score, with the step "
        "where it first reaches the induction-head threshold marked. The head "
        "scores over training show which head specialises, and the sample shows what the model writes now: "
        "greedy outputs (seq2seq), a sampled continuation (language models) or its guesses at the chosen "
        "positions (masked LM).\n\n"
        "**The buttons.** Start trains a new model from random weights with the settings on the left; Stop ends "
        "the run between two steps; Resume continues exactly where it stopped; Step trains a few steps and "
        "shows them; Reset forgets the training. Each run is limited in time; the trainings of everyone on this "
        "server share its CPU and wait for a free slot, with your place in the queue shown. When a run "
        "ends, its model is offered in every tab's model picker (to you only), and Download saves it as one "
        ".safetensors file with its config, tokenizer and card, which *Use your own model* loads again."),
    "lbl_train_task": "Task",
    "task_copy": "copy",
    "task_reverse": "reverse",
    "task_sort": "sort",
    "task_dates": "dates",
    "task_char_lm": "character LM",
    "task_bpe_lm": "BPE LM",
    "task_masked_lm": "masked LM",
    "lbl_train_data": "Training text",
    "data_bundled": "bundled text",
    "data_tiny_shakespeare": "tiny Shakespeare",
    "data_pasted": "paste a text",
    "lbl_train_text": "Your text",
    "lbl_train_file": "Text file (.txt, UTF-8)",
    "lbl_train_architecture": "Architecture",
    "lbl_train_layers": "Layers (per stack)",
    "lbl_train_dropout": "Dropout",
    "lbl_train_optimiser": "Optimiser",
    "lbl_train_lr": "Peak learning rate",
    "lbl_train_warmup": "Warm-up steps",
    "lbl_train_batch": "Batch size",
    "lbl_train_steps": "Steps",
    "btn_train_start": "Start",
    "btn_train_resume": "Resume",
    "btn_train_step": "Step",
    "btn_train_download": "Download model (.safetensors)",
    "lbl_train_probe_kind": "Attention on the probe input",
    "lbl_train_score": "Head score followed over training",
    "param_task": "Task",
    "param_data": "Training text",
    "param_layers": "Layers",
    "param_dropout": "Dropout",
    "param_lr": "Learning rate",
    "param_warmup": "Warm-up steps",
    "param_batch_size": "Batch size",
    "param_steps": "Steps",
    "param_tie_weights": "Weight tying",
    "param_bias": "Biases",
    "param_probe_kind": "Attention shown",
    "what_train_text": "training text",
    "train_estimate": "**{params}** parameters (vocabulary about {vocab}); one training step costs about "
                      "**{gflops:.1f} GFLOPs**. Limits on this shared CPU: {max_params} parameters, "
                      "{max_gflops:.0f} GFLOPs per step.",
    "train_status_idle": "Choose a task and press **Start**: the model begins with random weights.",
    "train_status_queued": "Waiting for a free training slot: you are number {place} in line, your turn in about {seconds} s (a run lasts at most {run} s, often less). Your place also shows on the chart below.",
    "train_status_building": "Preparing the data and the model…",
    "train_status_started": "A new {task} model with {params} parameters, still untrained.",
    "train_state_running": "**Training…**",
    "train_state_paused": "**Paused**: each run (Start or Resume) trains at most {seconds:.0f} s, so that everyone "
                          "gets a turn. Press Resume to continue.",
    "train_state_stepped": "**Trained {n} more steps.** Press Step again, or Resume.",
    "train_state_stopped": "**Stopped.** Resume continues exactly where it stopped.",
    "train_state_finished": "**Finished** all {steps} steps.",
    "train_state_diverged": "**Diverged**: {message}",
    "train_progress": "step **{step}** of {steps} · {elapsed:.1f} s of training over all runs · training loss "
                      "**{loss:.3f}** · "
                      "learning rate {lr:.2e} · {tokens_per_s:,.0f} tokens/s",
    "train_heldout": "held out, at step {step}: validation loss **{val_loss:.3f}** (perplexity **{perplexity:.2f}**) · "
                     "accuracy **{accuracy}**{exact}",
    "train_exact": " · exact match **{exact}**",
    "train_computed": "Computed {where}.",
    "train_computed_on": "on the {device} in {how}",
    "train_gpu_quota": "**The GPU was refused: your daily GPU quota is spent**, so the run goes on on the CPU (slower, nothing is lost).{left}{when} Press Resume then to train on the GPU again. ({detail})",
    "train_gpu_signed_out": "**The GPU was refused: you are not signed in to Hugging Face**, and a visitor's small GPU quota is spent, so the run goes on on the CPU (slower, nothing is lost).{when} Sign in on huggingface.co (a free account has its own daily quota), reload this page and press Resume. ({detail})",
    "train_gpu_outside_hf": "**The GPU was refused: this page was opened outside huggingface.co**, so it shares the Space's one small GPU pool with everyone who opened it so, and your own quota cannot be used; the run goes on on the CPU (slower, nothing is lost). Open {link}, sign in, and train there. ({detail})",
    "train_gpu_space_page": "the Space's page on huggingface.co",
    "train_gpu_busy": "**No GPU is free right now**, so the run goes on on the CPU (slower, nothing is lost); Resume in a minute tries the GPU again. ({detail})",
    "train_gpu_unavailable": "**No GPU could be used**, so the run goes on on the CPU (slower, nothing is lost). ({detail})",
    "train_gpu_left": " {seconds} s of quota are left.",
    "train_gpu_retry": " The quota comes back in {retry_in}.",
    "btn_train_download_best": "Download the best weights",
    "train_best": "The validation loss was lowest at step {step} ({val_loss:.3f}); those weights are offered too (Download the best weights). One lower evaluation does not show overfitting by itself: the curves do, if the validation loss rises over several evaluations while the training loss still falls.",
    "train_published": "The model is now **{name}** in every tab's model picker (this session only); "
                       "Download saves it.",
    "train_sample_seq2seq": "**What the model writes now** (step {step}, greedy, held-out inputs):",
    "train_sample_lm": "**What the model writes now** (step {step}): the start of the probe text, then a "
                       "continuation sampled at temperature {temperature}:",
    "train_sample_mlm": "**What the model writes now** (step {step}): its guesses at the chosen positions:",
    "col_train_input": "input",
    "col_train_output": "model",
    "col_train_expected": "expected",
    "fig_train_curves": "Training: {task}",
    "fig_train_layer_grads": "Gradient norm per layer (log scale)",
    "fig_train_probe": "The probe input at step {step}: {kind}",
    "fig_train_scores": "{score} of every head during training",
    "w_loss": "loss",
    "w_train_loss": "training loss",
    "w_val_loss": "validation loss",
    "w_accuracy": "accuracy",
    "w_exact_match": "exact match",
    "w_learning_rate": "learning rate",
    "w_tokens_per_s": "tokens/s",
    "err_config_stacks": "An encoder-decoder needs at least one encoder layer and one decoder layer.",
    "err_heads_divide": "d_model ({d_model}) must be a multiple of the number of heads ({heads}): each head gets "
                        "d_model / heads dimensions. Try d_model = {suggestion}.",
    "err_rope_head_dim": "RoPE rotates pairs of dimensions, so the head size d_model / heads must be even (it is "
                         "{head_dim}). Change d_model or the number of heads.",
    "err_kv_heads_divide": "The {heads} query heads share the key/value heads in equal groups, so the number of key/value heads must divide {heads} ({kv_heads} does not). Use one of {choices}, or 0 for one per query head.",
    "err_warmup_steps": "The warm-up ({warmup} steps) is longer than the whole training ({steps} steps). Use fewer "
                        "warm-up steps.",
    "err_train_too_large": "This model has {params} parameters; this shared CPU trains at most {limit} live. Use "
                           "fewer layers or a smaller d_model or d_ff.",
    "err_train_vocab": "This text has {vocab} different characters, so a model of it would have {vocab} tokens; "
                       "models here have at most {limit}. Use a text with fewer different characters.",
    "err_train_too_slow": "One training step would cost about {gflops:.1f} GFLOPs; this shared CPU allows at most "
                          "{limit:.0f}. Lower the batch size, d_model, d_ff or the number of layers.",
    "err_shakespeare_missing": "Tiny Shakespeare is not available on this server: there is no copy here and it "
                               "could not be downloaded. Choose the bundled text, or paste or upload a text.",
    "err_text_file_missing": "Choose a .txt file to upload first, or pick another training text.",
    "err_text_file_type": "\"{name}\" is not a .txt file. Upload a plain-text file whose name ends in .txt.",
    "err_text_file_size": "The file is {size:.1f} MB; text files are limited to {limit} MB. Upload a shorter text.",
    "err_text_not_utf8": "\"{name}\" is not UTF-8 text (byte {position} is not valid UTF-8). Save it as UTF-8 "
                         "and upload it again.",
    "err_train_text_short": "The text is too short for this block size: it has {tokens} tokens, {train} to train on and {val} kept back to measure the model, and a block of {block_size} needs at least {needed} in each. Paste a longer text, or set “Block size” to at most {largest}.",
    "err_train_text_short_any": "The text is too short: it has {tokens} tokens, {train} to train on and {val} kept back to measure the model, and even the smallest “Block size” needs more. Paste a longer text.",
    "note_followed": "Showing **{model}**, the model this session works with now (picked, uploaded or trained last).",
    "note_followed_replaced": "Showing **{model}**, the model this session works with now: it cannot read the previous input, so the view starts from its own example.",
    "train_status_refused": "Not started: the form was refused (see the message beside the buttons).",
    "err_train_setup": "The training cannot start: {error}",
    "err_train_running": "A training is already running in this session. Press Stop first, or wait until it ends.",
    "err_train_nothing": "There is no training to continue: press Start (or Step) first.",
    "err_train_finished": "This training has done all {steps} of its steps. Raise Steps and press Start to train "
                          "a new model.",
    "err_train_diverged": "This training diverged ({message}). Change the settings and press Start.",
    "err_train_stop_timeout": "The training has not stopped yet; press Stop again in a moment.",
    # ------------------------------------------------------------------ labs
    "tab_labs": "Labs",
    "labs_explanation": (
        "**Labs** answer one question each by experiment. A *bug* lab trains the correct model beside one with a "
        "classic mistake swapped in (the model code itself has no bug switch: a component is replaced, the way "
        "the mistake would be written). An *ablation* lab varies one design choice. Every variant starts from "
        "the same seed, reads the same batches in the same order and, where the architectures match, the same "
        "initial weights; they train in turns, so a stopped lab compares them at the same step.\n\n"
        "**Reading a lab.** The curves overlay the variants (training loss solid, validation loss dashed). The "
        "attention grids show the reference and a variant on the same held-out input, before or after training. "
        "The checks measure the symptom directly (for example, whether changing a later token moves an earlier "
        "logit). Each finished or stopped run is kept in this session, so a lab can be compared with the next."),
    "lbl_lab": "Lab",
    "lab_kind_bug": "Bug",
    "lab_kind_ablation": "Ablation",
    "btn_lab_run": "Run lab",
    "lbl_lab_metric": "Curves",
    "lab_metric_losses": "loss and validation loss",
    "lab_metric_accuracy": "accuracy",
    "lab_metric_exact_match": "exact match",
    "lbl_lab_variant": "Compared with the reference",
    "lbl_lab_kind": "Attention",
    "lbl_lab_stage": "When",
    "lab_stage_start": "before training",
    "lab_stage_end": "after training",
    "lbl_lab_kept": "Kept results of this session (tick to compare)",
    "btn_lab_forget": "Forget kept results",
    "param_lab": "Lab",
    "param_lab_kept": "Kept result",
    "param_lab_metric": "Curves",
    "param_lab_variant": "Variant",
    "param_lab_kind": "Attention",
    "param_lab_stage": "When",
    "lab_card_question": "**{kind}.** {question}",
    "lab_card_varies": "**What differs:** {varies}. **Data:** {data}.",
    "lab_card_size": "{layers} layer(s) · d_model {d_model} · {heads} heads · {steps} steps of batch {batch} · peak "
                     "learning rate {lr:g} · seed {seed} · at most {budget:.0f} s in all.",
    "lab_data_task": "the {task} task ({knobs})",
    "lab_data_corpus": "{corpus}, one token per character, windows of {block}",
    "lab_card_variants": "**Reference:** {reference} · **trained beside it:** {others}",
    "list_separator": ", ",
    "lab_status_idle": "Press **Run lab**: every variant trains from the same seed, taking turns, for at most "
                       "{budget:.0f} s.",
    "lab_status_queued": "Waiting for a free training slot; your place in the queue shows on the chart.",
    "lab_status_building": "Building the variants and measuring them before training…",
    "lab_status_running": "**Training…** {percent:.0%} of the planned steps · {elapsed:.1f} s of {budget:.0f} s",
    "lab_status_variant": " · latest round: step {step} of {steps}, loss {loss:.3f}",
    "lab_status_stopping": "**Stopping** after the round in progress…",
    "lab_status_done": "**Finished**: {step} steps in {seconds:.1f} s. The result is kept below.",
    "lab_status_stopped": "**Stopped** at step {step} of {steps} ({seconds:.1f} s): the variants are compared at that "
                          "step. The result is kept below.",
    "fig_lab_curves": "{title}: the variants side by side",
    "fig_lab_attention": "<b>{variant}</b><br>{stage} (step {step})",
    "fig_lab_compare": "Kept results: validation loss",
    "lab_explanation_heading": "#### What these runs show",
    "lab_no_result": "Run the lab to see each variant's curves, attention, checks and outputs.",
    "lab_this_run": "#### This run\nSeed {seed} · data: {data}",
    "lab_samples_heading": "**What each variant writes after training** (held-out inputs):",
    "lab_sample_expected": "expected",
    "lab_kept_item": "#{number} {title} · {seconds:.0f} s · step {step}",
    "err_lab_running": "A lab is already running in this session. Press Stop first, or wait until it ends.",
    # Hostile uploads: a model over the upload limits is refused from its config
    "err_upload_too_large": "This model is larger than the app accepts: {field} is {value}, the limit is {limit} "
                            "(uploaded models have the Train tab's limits).",
    "upload_field_parameters": "the number of parameters",
    "upload_field_tokenizer_bytes": "the tokenizer's size in bytes",

    # Links, forms and the Attention tab's refusal state (issue 16)
    "err_form_not_text": "{name} must be text.",
    "err_form_too_long": "{name} has {length} characters; the limit is {limit}. Shorten it.",
    "err_form_not_flag": "{name} must be on or off (1 or 0 in a link), got {value}.",
    "link_repeated": "{name} is given more than once; the first value is used.",
    "link_too_long": "This link is {size} KB long; the app reads links of up to {limit} KB. It was probably cut "
                     "or pasted twice.",
    "link_too_long_open": "Open the Transformer Playground without it",
    "link_unknown_param": "{name} is not a parameter of this view.",
    "link_model_not_shipped": "{name}: there is no shipped model \"{value}\" (a link can name only these: {choices}).",
    "page_opening": '<span class="page-opening">Opening the page…</span>',
    "page_stuck": "**This page could not be drawn**: the server did not answer in time, even when asked again. Reload the page.",
    "link_note_intro": "**Parts of this link were ignored** (their defaults are shown instead):",
    "link_note_more": "- and {n} more",
    "link_private": "This view shows a model that is private to your session, so it has no link: a link can only "
                    "name a model that ships with the app.",
    "link_not_ready": "This view has no link yet: draw it first.",
    "link_copied": "Link copied: {address}",
    "btn_copy_link": "Copy link",
    # A room of any size: the QR code, the reduced view, Gradio's own words for assistive technology
    "btn_show_qr": "Show QR code",
    "qr_title": "QR code of this view's link",
    "btn_class_room": "Class room",
    "room_title": "Class room: what comes next?",
    "room_board_title": "Class room board",
    "lbl_room_code": "Room code",
    "lbl_room_nickname": "Nickname (optional)",
    "info_room_nickname": "Shown only if your teacher allows names; plain text, up to 20 characters",
    "btn_room_join": "Join",
    "lbl_room_guess": "Your guess for the next token",
    "info_room_guess": "Type it, or pick it from the list below; you can change it until the teacher reveals",
    "lbl_room_pick": "Or pick from the model's vocabulary",
    "lbl_room_answer": "Your answer to the question",
    "info_room_answer": "Type its letter, or pick it from the list below; you can change it until the teacher reveals",
    "lbl_room_pick_answer": "Or pick one of the answers",
    "btn_room_send": "Send guess",
    "lbl_room_nicknames": "Allow nicknames",
    "btn_room_open": "Open a room",
    "lbl_room_model": "Model",
    "lbl_room_passage": "Passage",
    "info_room_passage": "Its last token is the one to guess; leave it empty to draw text the model never trained on",
    "btn_room_start": "Start round",
    "btn_room_reveal": "Reveal",
    "btn_room_close": "Close room",
    "room_explain": "**The class as a language model.** Each student guesses the next token; the bars put the share "
                    "of the class that chose each token beside the model's probability of it. A class of $N$ who "
                    "answered, $n(t)$ of them choosing $t$, is the distribution "
                    "$p_\\text{class}(t) = (n(t) + 1/V) / (N + 1)$ ($V$: the model's vocabulary size: as if one more "
                    "student had guessed at random, so a token nobody chose costs a large but finite surprise). "
                    "Log-loss is $-\\ln p(a)$ in nats ($a$: the true next token): lower means less surprised. The attention map "
                    "shows, layer by layer (mean over heads), which earlier tokens the model read to make its guess.",
    "room_join_at": "Join at {link}",
    "room_in": "You are in room **{code}**.",
    "room_join_intro": "Room **{code}**: press Join to take part.",
    "room_names": "Joined: {names}",
    "room_waiting": "Waiting for the teacher to start a round.",
    "room_round_prompt": "**Round {round}** ({model}): what comes next?\n\n{prompt}",
    "room_your_guess": "Your guess: **{guess}**. You can change it until the teacher reveals.",
    "room_no_guess_yet": "You have not guessed yet.",
    "room_revealed_student": "The next token was **{answer}**. You guessed {guess} {mark}.",
    "room_record": "Your record: {right} of {rounds} rounds right.",
    "room_no_round": "{students} joined. Pick a model and a passage, then Start round.",
    "room_answered": "**{answered} of {students}** answered.",
    "room_reveal": "The next token was **{answer}**. Class: {share:.0%} chose it (p = {p_class:.3f}, log-loss "
                   "{class_loss:.2f} nats). Model: p = {p_model:.3f} (log-loss {model_loss:.2f} nats).",
    "room_match": "**Class against model**, rounds played: {rounds}. Mean log-loss class {class_loss:.2f}, model "
                  "{model_loss:.2f} nats per token (lower wins); top guess right: class {class_right}, model "
                  "{model_right}. Most surprising round for the class: round {surprise_round} (**{answer}**, "
                  "log-loss {loss:.2f}).",
    "room_hist_title": "The class's guesses ({answered}) beside the model's probabilities",
    "room_series_class": "class",
    "room_series_model": "model",
    "room_axis_token": "next token",
    "room_axis_share": "share / probability",
    "room_attention_title": "What the model read: attention, mean over heads",
    "room_layer": "L{n}",
    "room_axis_layer": "layer",
    "room_axis_key": "earlier token",
    "room_axis_weight": "weight",
    "room_closed_by_you": "The room is closed; its students are told so.",
    "room_full_rooms": "All {limit} class rooms of this server are in use; close one, or try again later.",
    "room_not_teacher": "Only the teacher who opened this room can do that.",
    "room_full_rounds": "This room has played its {limit} rounds; open a new room for more.",
    "room_round_open": "A round is still open: reveal it before starting the next.",
    "room_no_open_round": "No round is open: wait for the teacher to start one.",
    "room_full_students": "This room is full ({limit} students).",
    "room_bad_guess": "Type a guess of 1 to {limit} characters, or pick one from the list.",
    "room_not_student": "This browser has not joined the room: press Join.",
    "room_not_in_vocabulary": "'{guess}' is not a token of this model: pick one from the list.",
    "room_too_many_changes": "You changed your guess {limit} times: your last guess counts.",
    "room_closed": "Room {code} was closed by the teacher.",
    "room_expired": "Room {code} expired: nobody used it for 3 hours.",
    "room_unknown": "There is no room {code}: check the code on the projector.",
    "room_model_not_playable": "A round needs a model that writes text left to right (decoder-only).",
    "room_bad_passage": "Give a passage of at least two tokens and at most 400 characters.",
    "room_unknown_model": "There is no model '{model}' here; choose one of: {choices}.",
    "room_type_passage": "{model} has no held-out text to draw from: type a passage.",
    "lbl_room_poll": "Or ask a lesson's question as a class poll",
    "btn_room_poll": "Run as class poll",
    "room_poll_predict": "{lesson}: prediction",
    "room_poll_check": "{lesson}: check question",
    "room_poll_prompt": "**Round {round}**, a class poll from *{lesson}*:\n\n{question}",
    "room_poll_reveal": "The answer: **{answer}**, {choice}. {share:.0%} of the class chose it. {feedback}",
    "room_unknown_poll": "There is no such lesson question: pick one from the list.",
    "room_hist_title_poll": "The class's answers ({answered})",
    "room_axis_token_poll": "answer",
    "room_poll_revealed_student": "The answer was **{answer}**. You chose {guess} {mark}.",
    "qr_close": "Close (Esc)",
    "qr_too_long": "This link has {length} characters, too many for a QR code that can be scanned across a room "
                   "(at most {limit}): shorten the view's text, or copy the link instead.",
    "qr_loopback": "This is this computer's own address: no phone or other computer can open it. To share the view in class, start the app with GRADIO_SERVER_NAME=0.0.0.0 and show the code again: it then gives this machine's network address.",
    "qr_network_address": "This machine's network address: phones on the same network (the classroom's Wi-Fi) can open it.",
    "qr_bad_address": "This page's address cannot be drawn as a QR code.",
    "link_unknown_part": "this view has no part \"{value}\" to hide (it can hide: {choices}).",
    "param_hide": "hide",
    "common.complete": "Complete",
    "a11y_range_slider": "{label} (slider)",
    "a11y_number_input": "{label} (number)",
    "a11y_reset_slider": "Reset to default value",
    "a11y_svg_export": "Download plot as an SVG (vector)",
    "lbl_controls": "Controls",
    "param_model": "Model",
    "param_text": "Input",
    "param_target": "Target",
    "param_mean": "Mean of the heads",
    "param_step": "Training step",
    "param_view": "View",
    "param_lang": "Language",
    "param_present": "Presenter mode",
    "refused_title": "Nothing to show for this input",
    "refused_summary": "**The input was refused:** {reason}",
    "refused_other": "The views could not be drawn for these controls.",

    # What a model reads (issue 15, item 8)
    "accepted_chars": "Accepts only these characters: {chars}",
    "accepted_many": "Accepts the {n} characters of its training text.",
    "accepted_any": "Accepts any text (its tokenizer works on bytes).",
    "input_outside_training_fixed": "⚠️ **{model}** was trained only on inputs of exactly {low} characters; this one has {n}. "
                                    "Expect an output of the trained length, not the task done right.",
    "input_outside_training": "⚠️ **{model}** was trained on inputs of {low} to {high} characters; this one has {n}. "
                              "Expect mistakes.",
    # ------------------------------------------------------------------ forms: lists of integers
    "err_form_not_integers": "{name} must be one or more whole numbers between {low} and {high}, separated by commas.",
    # Issue 19: masks drawn, attention by hand, LayerNorm by hand, fill in the blanks, embeddings, exposure bias
    "param_position": "Position",
    "w_feature": "feature",
    "what_token": "token",
    "err_mask_same_length": "Both inputs are {n} tokens long, so nothing is padded. Make one shorter than the other.",
    "mask_input_row": "input {k} ({n} tokens)",
    "mask_panel": "{name} {shape}",
    "mask_key_padding": "key padding",
    "mask_causal": "causal",
    "mask_combined": "combined",
    "mask_applied": " ✔ used",
    "mask_visible": "visible",
    "mask_hidden": "hidden (score −∞, weight 0)",
    "mask_empty_row": "no key visible: 0/0 = NaN",
    "fig_masks": "Masks of {kind} for a padded batch of two inputs",
    "fig_masks_left": "Causal self-attention on the batch padded on the left: rows with no visible key (red)",
    "mask_left_column": "left padding: causal & key padding",
    "mask_intro": "Two inputs of {n1} and {n2} tokens, padded on the right with `<pad>` into one tensor [B, T] = "
                  "[2, {t}] (a seq2seq decoder reads `<bos>` first, one token more). Dark cell: the query (row) may "
                  "attend to the key (column). Light cell: hidden; its score becomes −∞ before softmax, so its weight "
                  "is exactly 0. Each mask is built in the smallest shape that says everything and broadcast to "
                  "[B, H, Tq, Tk]: padding differs per sequence but not per query, [B, 1, 1, Tk]; the causal mask is "
                  "the same for every sequence, [1, 1, Tq, Tk]; together, [B, 1, Tq, Tk].",
    "mask_note_encoder": "**Encoder self-attention** uses the source's key-padding mask, [B, 1, 1, S], broadcast over "
                         "the heads and the S queries. A pad query still sees the real tokens, so no row is empty; "
                         "its output is never used.",
    "mask_note_decoder": "**Decoder self-attention** uses the causal mask, [1, 1, T, T]. Combined with the key padding "
                         "it would differ only in the rows of pad queries: with padding on the right every pad comes "
                         "after every real token, so causality already hides the pads from real queries, and the loss "
                         "ignores what is predicted at pad positions. So the model applies the causal mask alone.",
    "mask_note_cross": "**Cross-attention**: queries are the target's tokens, keys the source's, so the mask is the "
                       "source's key padding, [B, 1, 1, S], broadcast over the heads and the T queries. There is no "
                       "causal mask: every target position may read the whole source.",
    "mask_nan": "**What a fully masked row would do.** In causal self-attention over this batch padded on the left, "
                "the shorter input's first queries would see no key at all (red rows): every score of the row is −∞ and softmax computes "
                "e^−∞ / Σ e^−∞ = 0 / 0 = NaN. Input {k}, query {row}, through the model's own attention function: "
                "[{weights}]. One NaN spreads: in the next layer every query that reads that position gets NaN, even "
                "with weight 0 (0 × NaN = NaN), and so does the loss. The model avoids it by construction: it pads on "
                "the right, masks only keys, and every query keeps at least one visible key (the first token under "
                "the padding mask, itself under the causal mask); empty inputs are refused.",
    "wa_q": "Q (queries)",
    "wa_k": "K (keys)",
    "wa_v": "V (values)",
    "wa_output": "output = weights · V",
    "wa_scores": "Q Kᵀ",
    "wa_scaled": "÷ √d_k = ÷ {root}",
    "wa_masked": "masked (−∞ = hidden)",
    "wa_weights": "softmax, row by row",
    "fig_wa_vectors": "{kind}, layer {layer}, head {head}: Q, K, V and the output (d_k = {dk})",
    "fig_wa_steps": "From scores to weights",
    "wa_explain": "The model runs on the first tokens of your input (at most 4 on each side; a seq2seq model's target "
                  "is `<bos>` and the start of its own output), and this head's Q, K and V are recorded: {n} queries, "
                  "{m} keys, d_k = {dk}. Each score is a dot product of a row of Q with a row of K: for query {row} "
                  "({token}) and key 0 ({key_token}), {terms} + … ({more} more terms) = {dot}. Dividing by √d_k = {root} "
                  "keeps the spread of the scores from growing with d_k: {dot} ÷ {root} = {scaled}. The mask sets "
                  "hidden scores to −∞. Softmax, row by row: subtract the row's maximum (this changes nothing but "
                  "avoids overflow), exponentiate ({exps}) and divide by their sum {total}: weights {weights}, which "
                  "sum to 1. The output is the weights times V: each output row is a weighted average of the rows "
                  "of V.\n\n**Checked against the model:** these weights differ from the ones the model recorded by "
                  "at most {weights_error:.1e}; all {heads} heads worked out this way, concatenated and passed "
                  "through W_o, give the sub-layer's recorded output to within {out_error:.1e}.",
    "ln_input": "input x",
    "ln_normalised": "normalised x̂",
    "ln_output": "output γ·x̂ + β",
    "fig_ln_vector": "LayerNorm of {token} (position {position}), block {layer}",
    "ln_explain": "**Token {token}, d = {d} features.** Mean μ = {mean}; variance σ² = the mean of (x − μ)² = "
                  "{variance} (divided by d, not d − 1); ε = {eps}; √(σ² + ε) = {std}. The normalised "
                  "x̂ = (x − μ) / √(σ² + ε) has mean 0 and variance ≈ 1 over the features; the output is γ·x̂ + β "
                  "with this LayerNorm's learned gain γ and bias β. The first {shown} features:",
    "bn_batch": "a small batch x",
    "bn_layer": "LayerNorm: each row",
    "bn_batchnorm": "BatchNorm: each column",
    "fig_bn": "LayerNorm (each token) vs BatchNorm (each feature)",
    "bn_explain": "Rows: {n} tokens; columns: their first {f} features in the residual stream, a small batch "
                  "(without γ and β). **LayerNorm** normalises each row over its features: each token has its own "
                  "mean and variance and does not depend on the other tokens (row means after: {layer_means}). "
                  "**BatchNorm** normalises each column over the batch: one mean and variance per feature, shared by "
                  "the tokens in the batch (column means after: {batch_means}), so a token's output depends on which "
                  "tokens share its batch, and inference needs running averages. Transformers use LayerNorm: "
                  "sequences vary in length and batches can be small.",
    "rn_embedding": "{stack}: embedding",
    "rn_block": "{stack}: after block {i}",
    "rn_final": "{stack}: final LayerNorm",
    "fig_rn": "Size of the residual stream after every layer",
    "rn_norm": "‖x‖ (L2 norm)",
    "rn_mean": "mean over the tokens",
    "rn_each": "each token",
    "err_fill_needs_masked_model": "\"{model}\" is not a masked (encoder-only) model. Choose masked-char or another "
                                   "encoder-only model to fill in blanks.",
    "err_fill_no_blank": "The text has no blank. Type {blank} where the model should fill in a token.",
    "err_fill_too_many_blanks": "The text has {n} blanks ({blank}); the limit is {limit}. Remove some.",
    "fill_blank_title": "blank {k} (position {position})",
    "fig_fill": "The masked model's candidates for each blank",
    "fill_explain": "Each {blank} became one `<mask>` token ({n} in all). The model sees the whole text, both sides of "
                    "every blank, and gives every ordinary token a probability at each blank; the top {k} are drawn, "
                    "the best in red. With the best candidate in every blank: **{filled}**. All blanks are filled at "
                    "once, each without knowing what fills the others.",
    "err_not_one_token": "\"{value}\" is not one token of \"{model}\" (it is {n} tokens). Type one token, for "
                         "example: {examples}.",
    "fig_emb_neighbours": "Nearest neighbours of {token} by cosine similarity",
    "fig_emb_map": "The embedding table ({n} tokens × {d} dimensions) on its two principal components",
    "emb_component": "component {k} ({share:.0%} of the variance)",
    "emb_marked": "{token} and its neighbours",
    "emb_others": "other tokens",
    "emb_explain": "Each of the {v} tokens is a row of the embedding table: {d} numbers learned in training. Cosine "
                   "similarity cos(a, b) = a·b / (‖a‖ ‖b‖) compares directions: 1 is the same direction, 0 unrelated, "
                   "−1 opposite. Closest to **{token}**: **{nearest}** ({cosine:.3f}). Tokens used in similar places "
                   "tend to end up close. The map projects the table on its two directions of largest variance (PCA: "
                   "centre the rows, take the singular value decomposition); together they keep {share:.0%} of the "
                   "variance, so distances on the map only roughly show those in {d} dimensions. Special tokens "
                   "(`<pad>`, `<bos>`, …) are left out.",
    "err_exposure_needs_decoder": "\"{model}\" does not write tokens one after another. Choose a decoder-only or "
                                  "encoder-decoder model.",
    "fig_xb": "Teacher forcing against free-running on the same target",
    "xb_target": "target",
    "xb_teacher": "teacher-forced",
    "xb_free": "free-running",
    "xb_probability": "p(target token)",
    "xb_parted": "they part",
    "xb_explain": "**Teacher forcing** (how the model trains): at every position the decoder reads the true target "
                  "so far and predicts the next token. **Free-running** (how it is used): it reads its own earlier "
                  "outputs. Blue: the token equals the target; orange: it does not. Both read the same tokens until "
                  "free-running first writes a token that differs from the target (outlined); from the next "
                  "position on their inputs part, and the free-running model continues from a prefix it never saw in "
                  "training, so its mistakes compound. This gap between training and use is exposure bias. The "
                  "lower chart: the probability each gives the correct target token.",
    "xb_parted_at": "They part at position {position}: the target is **{wanted}**, the model wrote **{written}**.",
    "xb_never_parted": "Here they never part: free-running writes exactly the target, so both read the same tokens "
                       "throughout. Change the target to see where the model goes its own way.",
    "xb_counts": "Correct tokens out of {n}: teacher-forced {teacher}, free-running {free}.",
    "rn_explain_pre": "This model is pre-norm: each sub-layer reads a normalised copy, LN(x), and adds its output "
                      "to the stream, x ← x + sublayer(LN(x)). Nothing rescales the stream itself, so its size "
                      "usually grows from block to block; the final LayerNorm rescales it before the output layer.",
    "rn_explain_post": "This model is post-norm: x ← LN(x + sublayer(x)) normalises the stream after every sub-layer, "
                       "so its size stays about the same from block to block, set by the LayerNorm's γ and β.",
    # Load from the Hugging Face Hub (GPT-2 family)
    "hub_explanation": "Or load a **GPT-2, Llama or Qwen2 model from the Hugging Face Hub** (gpt2, distilgpt2, "
                       "HuggingFaceTB/SmolLM2-135M, Qwen/Qwen2.5-0.5B, or another repository of those families "
                       "up to 500 million parameters). Its weights run in the "
                       "Playground's own hand-written model, so every view works on it. It is downloaded once and "
                       "shared by everyone using this app; only safetensors weights are read.",
    "lbl_hub_repository": "Hugging Face Hub repository",
    "btn_hub_load": "Load from the Hub",
    "hub_failed": "**Not loaded.** {reason}",
    "hub_done": "Loaded **{name}** ({layers} layers, {heads} heads, {params} parameters). It is now selected in "
                "every tab that can use it. Its end-of-text token (`<|endoftext|>`) is the Playground's `<eos>` (and "
                "`<bos>` as an input).",
    "err_hub_name": "\"{name}\" is not a Hugging Face Hub repository name. Type one such as gpt2, distilgpt2 or "
                    "openai-community/gpt2.",
    "err_hub_import": "{repository} cannot be loaded: {error}",
    "err_hub_unreachable": "{repository} cannot be loaded: this server cannot reach the Hugging Face Hub and has no copy "
                           "of it. Load a model it has loaded before, or upload a .safetensors checkpoint instead.",
    "err_hub_not_found": "There is no public repository {repository} on the Hugging Face Hub. Check the name, for "
                         "example gpt2, distilgpt2 or openai-community/gpt2.",
    "err_hub_gated": "{repository} is a gated repository: its owners let only signed-in users who accepted its terms "
                     "download it. Load an open one such as gpt2 or distilgpt2.",
    "err_hub_too_large": "{repository} has {parameters:,} parameters, more than the {limit:,} this app runs for a class. "
                         "Load a smaller one such as gpt2 or distilgpt2.",
    "err_hub_not_gpt2": "{repository} is a {kind} model, not GPT-2: the Playground runs GPT-2-family models only, "
                        "such as gpt2, distilgpt2 or gpt2-medium.",
    "err_hub_unsupported_family": "{repository} is a {kind} model: the Playground runs GPT-2, Llama and Qwen2 "
                                  "models, such as gpt2, HuggingFaceTB/SmolLM2-135M or Qwen/Qwen2.5-0.5B.",
    "err_hub_unsupported_field": "{repository} cannot be loaded: its config.json sets {field}, a variant the Playground's "
                                 "hand-written model does not implement. Load HuggingFaceTB/SmolLM2-135M or "
                                 "Qwen/Qwen2.5-0.5B instead.",
    "err_hub_busy": "{limit} Hub models are already in memory ({models}) and in use. Load one of them, or try again "
                    "once a session has let go of one.",
    # ------------------------------------------------------------------ induction heads
    "task_induction": "induction (repeated random tokens)",
    "fig_train_formation": "An induction head forming",
    "w_formation_previous": "previous-token score, layer 0 (best head)",
    "w_formation_induction": "induction score, later layers (best head)",
    "w_formation_threshold": "induction-head threshold",
    "w_formation_crossed": "crossed at",
    "w_formation_score": "score on the probe",
    "train_sample_repeats": "**What the model writes now** (step {step}, greedy): the probe's first copy and one "
                            "more token, then the model's continuation against the repeat it should write:",
    "induction_verdict_named": "**Induction heads:** {heads}. On {n} sequences of {period} random tokens written "
                               "twice they score at least {threshold} and the loss falls from {first:.2f} on the "
                               "first copy to {second:.2f} on the second: the model predicts the repeat by looking "
                               "up what followed the same token before.",
    "induction_verdict_low_score": "**No induction head.** On {n} sequences of {period} random tokens written twice "
                                   "the highest induction score is {score:.2f} (layer {layer}, head {head}); a head "
                                   "needs {threshold} (untrained heads score about 0.05), and the loss is {first:.2f} "
                                   "on the first copy and {second:.2f} on the second. An induction head forms only "
                                   "after enough training on sequences that repeat: the small text models here are "
                                   "not trained long enough on text for one to form. The **induction** model, "
                                   "trained on repeated random tokens, has one.",
    "induction_verdict_no_copy_gain": "**No induction head.** On {n} sequences of {period} random tokens written "
                                      "twice, layer {layer}, head {head} scores {score:.2f} (threshold {threshold}), "
                                      "but the loss on the second copy ({second:.2f}) is not clearly lower than on "
                                      "the first ({first:.2f}; it must be at most {ratio:g} times as large): the "
                                      "pattern does not make the model predict the repeat.",
    "induction_verdict_other_arch": "Induction heads are named only in decoder-only (GPT-style) models, which "
                                    "predict the next token of a repeat from the tokens before it.",
    # Switching heads off and the logit lens
    "param_ho_heads": "Heads to switch off",
    "param_ho_how": "How a head is switched off",
    "ho_how_zero": "output set to zero",
    "ho_how_mean": "output replaced by its mean over the input",
    "ho_explain": "A head's output is its slice of the attention result, before the output projection W_o mixes "
                  "the heads. Switching a head off sets that slice to zero, or to its mean over the positions of "
                  "the input, and the rest of the model runs unchanged. The heads whose loss changes the "
                  "prediction most are the ones the model relies on.",
    "err_ho_no_heads": "Choose at least one head to switch off.",
    "err_ho_unknown_head": "{model} has no head \"{value}\"; pick heads from the list.",
    "w_ho_before": "every head on",
    "w_ho_after": "heads off",
    "w_ho_top_after": "top with heads off",
    "fig_ho_distribution_next": "The next token: every head on vs. {n} head(s) switched off",
    "fig_ho_distribution_last": "The prediction at the last position: every head on vs. {n} head(s) switched off",
    "ho_summary": "With {n} head(s) switched off ({how}) the prediction moved by KL(on ‖ off) = {kl:.4f} nats "
                  "(0 when nothing changed). Top token: {before} ({p_before:.1%}) with every head on, "
                  "{after} ({p_after:.1%}) with the heads off.",
    "ho_generation": "**Greedy output, every head on:** {before}\n\n**With the heads off:** {after}\n\n"
                     "{changed} of {total} tokens changed (in bold).",
    "ho_exact_match": "**Exact match** on {n} held-out examples of the {task} task: {before:.0%} with every head on, "
                      "{after:.0%} with the heads off.",
    "lens_explain": "After each layer the residual stream is read out the way the last one is: through the final "
                    "norm (pre-norm models) and the output head. Each cell is the token the model would predict if it "
                    "stopped there, coloured by its probability: written in the cell where it fits, and named with "
                    "its probability when you hover. The last row is the model's own prediction.",
    "fig_logit_lens_next": "Logit lens: the next token the model would predict after each layer",
    "fig_logit_lens_last": "Logit lens: the token the model would predict at each position after each layer",
    "w_lens_layer_decoder": "decoder layer",
    "w_lens_layer_encoder": "encoder layer",
    "w_lens_position": "input position",
    "w_lens_top_token": "top token",
    # --- Tiny texts, measuring and training stability (block size, perplexity, BLEU, schedules, clipping) ---
    "data_rhyme": "nursery rhyme (tutorial 1, 407 characters)",
    "lbl_train_block": "Block size (tokens the model reads at once)",
    "lbl_train_schedule": "Learning-rate schedule",
    "lbl_train_decay_every": "Step schedule: drop every (steps)",
    "lbl_train_decay_factor": "Step schedule: multiply by",
    "lbl_train_clip": "Clip the gradient norm",
    "lbl_train_clip_threshold": "Clipping threshold (largest gradient norm)",
    "param_block_size": "Block size",
    "param_schedule": "Learning-rate schedule",
    "param_decay_every": "Steps between drops",
    "param_decay_factor": "Drop factor",
    "param_clip": "Gradient clipping",
    "param_grad_clip": "Clipping threshold",
    "schedule_constant": "constant",
    "schedule_step": "step decay",
    "schedule_linear": "linear decay",
    "schedule_cosine": "cosine decay",
    "schedule_inverse_sqrt": "inverse square root (original paper)",
    "fig_lr_schedule": "Learning rate at every step: {schedule}",
    "w_val_perplexity": "validation perplexity",
    "w_grad_norm": "gradient norm (before clipping)",
    "w_clip_threshold": "clipping threshold",
    "w_grads_embeddings": "embeddings",
    "w_grads_block": "block {i}",
    "w_grads_encoder_block": "encoder block {i}",
    "w_grads_decoder_block": "decoder block {i}",
    "w_grads_head": "head",
    "train_bleu": " · BLEU **{bleu:.1f}** (characters)",
    "err_inverse_sqrt_warmup": "The inverse-square-root schedule needs a warm-up of at least 1 step (its rate grows as "
                               "step × warm-up^-1.5). Set Warm-up steps to 1 or more.",
    "train_stability_explanation": (
        "**Block size** is how many tokens the model reads at once. The last tenth of the text is held out for "
        "validation and must hold one block plus the token after it: the 407-character rhyme keeps 41 characters, "
        "so its block can be at most 40 (32 is proposed). A block shorter than the rhyme's repeated chorus cannot "
        "tell the choruses apart, so generation may jump between verses.\n\n"
        "**Perplexity** = exp(validation loss), the loss being the mean cross-entropy per token in nats: the number "
        "of equally likely tokens the model is, on average, choosing between (1 = certain and right).\n\n"
        "**BLEU** (sequence-to-sequence tasks, by sacrebleu, on characters): the geometric mean of the 1- to 4-gram "
        "precisions of every greedy output against its target, pooled over the held-out set, times a brevity "
        "penalty for outputs shorter than the targets; 0 to 100. It counts shared character n-grams: it does not "
        "measure meaning, and an almost right output scores high where exact match counts it wrong.\n\n"
        "**Gradient norm** is the length of the whole gradient before clipping. Clipping rescales a gradient longer "
        "than the threshold down to it, so one bad batch cannot throw the weights far.\n\n"
        "**Schedules**: constant; step (× factor every N steps); linear or cosine decay to a tenth of the rate; "
        "the original paper's d_model^-0.5 · min(step^-0.5, step · warmup^-1.5), which rises for the warm-up, then "
        "falls as 1/√step and ignores the learning rate field. All but the last start with a linear warm-up."),
    # Class walk-through: error title, empty figures
    "err_title": "Error",
    "empty_train_layer_grads": "Each layer's gradient norm appears here while a model trains, one line per layer: "
                               "lines that fall apart show gradients vanishing or exploding with depth.",
    "empty_train_curves": "Loss, accuracy and learning-rate curves appear here while a model trains: choose a task "
                          "and press Start.",
    "empty_train_probe": "The attention of every layer and head on a probe input appears here, redrawn as training "
                         "goes: press Start.",
    "empty_train_scores": "Each head's score over the training steps appears here: press Start.",
    "empty_lab_curves": "The variants' curves appear here, side by side: press Run lab.",
    "empty_lab_attention": "This variant's attention on the probe input appears here once the lab has run: press Run lab.",
    "empty_lab_compare": "Tick kept results to compare their validation loss here.",

    # Generate tab's form and links (issue 16)
    "param_prompt": "Prompt",
    # Labs tab links (issue 16): the view picks as a link names them
    "param_metric": "Curves",
    "param_variant": "Variant",
    "param_stage": "When",
    # Lessons tab
    "tab_lessons": "Lessons",
    "param_lesson": "the lesson",
    "lbl_lesson": "Lesson",
    "lesson_look_for": "### What to look for",
    "lesson_experiment": "### Experiment: predict, then run",
    "lbl_prediction": "Your prediction",
    "btn_lesson_run_wait": "Make a prediction first",
    "lesson_predicted_right": "**Your prediction was right.** {feedback}",
    "lesson_predicted_wrong": "**Your prediction was not right.** {feedback}",
    "lesson_check": "### Check your understanding",
    "lbl_check_answer": "Your answer",
    "lesson_right": "✓ **Right.** {feedback}",
    "lesson_wrong": "✗ **Not quite.** {feedback}",
    "lesson_explore": "[Explore further in the {tab} tab](?{query})",
    "btn_previous": "← Previous",
    "btn_next": "Next →",
    "lesson_position": "Lesson {n} of {total}",
    "lbl_by_hand_numbers": "Numbers (separated by commas)",
    "lbl_by_hand_dk": "d_k (the scores are divided by √d_k)",
    "btn_by_hand": "Work it out",
    "by_hand_ln_intro": "**LayerNorm by hand.** Type a vector and press *Work it out*: its mean, its variance and each normalised value are worked out below (γ = 1, β = 0), beside `torch.nn.functional.layer_norm` on the same numbers. The tutorial's own example is filled in, x = [{seed}], for which it writes $\\sigma^2 \\approx {seed_variance}$: check its arithmetic.",
    "by_hand_sm_intro": "**Softmax by hand.** Type attention scores and $d_k$ and press *Work it out*: the scores are divided by $\\sqrt{{d_k}}$, the largest is subtracted, each is exponentiated and divided by their sum, beside `torch.softmax` on the same numbers. The tutorial's own example is filled in: the scores [{seed}] with $d_k = {d_k}$.",
    "by_hand_mean": "Mean: $\\mu = \\frac{{1}}{{{n}}}\\sum_i x_i = ({terms}) / {n} = {total} / {n} = {mean}$",
    "by_hand_variance": "Variance (divided by n, not n − 1): $\\sigma^2 = \\frac{{1}}{{{n}}}\\sum_i (x_i - \\mu)^2 = ({terms}) / {n} = {total} / {n} = {variance}$",
    "by_hand_std": "Standard deviation, with ε keeping it above 0: $\\sqrt{{\\sigma^2 + \\epsilon}} = \\sqrt{{{variance} + {eps}}} = {std}$",
    "by_hand_ln_table": "| i | $x_i$ | $x_i - \\mu$ | $(x_i - \\mu)^2$ | $(x_i - \\mu) / \\sqrt{{\\sigma^2 + \\epsilon}}$ | torch |\n|---|---|---|---|---|---|",
    "by_hand_ln_torch": "The last column is `torch.nn.functional.layer_norm` of the same numbers: it differs from the worked column by at most {largest}. The normalised values have mean 0 and variance 1 (up to ε).",
    "by_hand_scale": "Scale: $\\sqrt{{d_k}} = \\sqrt{{{d_k}}} = {root}$; every score is divided by it.",
    "by_hand_shift": "The largest scaled score is {largest}. Subtracting it from every scaled score divides every exponential by the same number, so the probabilities do not change, and no exponential can overflow.",
    "by_hand_sm_table": "| i | $s_i$ | $s_i / \\sqrt{{d_k}}$ | minus the largest | its exponential | $p_i$ | torch |\n|---|---|---|---|---|---|---|",
    "by_hand_total": "The exponentials add up to {total}; each $p_i$ is its exponential divided by {total}, so the $p_i$ add up to 1.",
    "by_hand_sm_torch": "The last column is `torch.softmax` of the scaled scores: it differs from the worked column by at most {largest}.",
    "by_hand_raw_exp": "Without the subtraction the largest exponential would be $e^{{{score}}}$ = {value}.",
    "err_by_hand_not_number": "“{value}” in the numbers box is not a number: type numbers separated by commas, such as 2, 5, 8, 1, 3.",
    "err_by_hand_size": "{value} is too large for the numbers box: keep every number between −{limit} and {limit}.",
    "err_by_hand_count": "The numbers box holds {n} numbers; type between {least} and {most}.",
    "err_by_hand_lesson": "Only lessons 4 and 7 have a box for working numbers by hand: open one of them.",
    "w_teacher_forcing": "teacher forcing",
    "w_scheduled_sampling": "scheduled sampling",
    "w_ss_read_truth": "tokens right, reading the true prefix",
    "w_ss_own_tokens": "tokens right, writing on its own",
    "w_ss_own_exact": "sequences exactly right, on its own",
    "w_ss_measure": "measured on held-out sources",
    "w_share": "share",
    "fig_lesson_ss": "Teacher forcing against scheduled sampling: the same model trained {steps} steps to reverse {length} letters",
    "lesson_ss_note": "**Exposure bias, measured.** Two encoder-decoders with the same initial weights read the same {steps} batches of reversing {length} letters. One trains with teacher forcing. The other uses **scheduled sampling**, the tutorial's fix: at each target position the decoder reads its own previous prediction instead of the true token with a probability that rises from 0 to {final:.0%} over the training, so it practises continuing from its own mistakes. On held-out sources, teacher forcing got {tf_truth:.1%} of tokens right when reading the true prefix and {tf_own:.1%} when writing on its own ({tf_exact:.1%} of sequences exactly right); scheduled sampling got {ss_truth:.1%} and {ss_own:.1%} ({ss_exact:.1%} exactly right). The gap between reading the truth and writing on its own is the exposure bias: {tf_gap:.1f} points with teacher forcing, {ss_gap:.1f} with scheduled sampling. {verdict}",
    "lesson_ss_better_sampling": "In this run scheduled sampling wrote more sequences exactly right on its own.",
    "lesson_ss_better_forcing": "In this run teacher forcing wrote more sequences exactly right on its own: scheduled sampling does not always pay, and its inputs are noisier to learn from.",
    "lesson_ss_better_same": "In this run both wrote as many sequences exactly right on their own.",
    "w_per_bpe_token": "{model} (per BPE token)",
    "w_unseen_formats": "{model}, formats never seen in training",
    "lesson_measuring_bpe": "A BPE model's loss is per BPE token, and one token spans several characters, so it cannot be set beside a character model's loss per character: to compare, spread each token's loss over the characters it spells (the characters-vs-BPE lab does). The row of formats never seen in training shows why exact match and BLEU are both given: BLEU still credits the characters an almost right date shares with the target.",
    "fig_lesson_window": "One training window of the rhyme ({block} characters): the target is the input shifted left by one",
    "w_window_input": "input x",
    "w_window_target": "target y",
    "lesson_window_note": "This is one window of {block} characters drawn from the rhyme exactly as the run below draws its batches. The model reads the top row; at every position the character it must predict is the one below it, which is the next character of the text: $y_t = x_{{t+1}}$. So the target row is the input row shifted left by one (the first target is {first}), and its last character, {last}, is one the window does not read. The causal mask keeps position $t$ from seeing $x_{{t+1}}$, so one window trains {block} predictions at once, each from the characters before it.",
    "lesson_timeline_note": "The figures, top to bottom, are the shipped model **{model}** at training steps {shown} (checkpoints kept at steps {steps}); train one yourself in the Train tab.",
    "lesson_perplexity_note": "Perplexity is $e^{{\\text{{loss}}}}$: $e^{{{loss:.4f}}} \\approx {ppl:.3f}$.",
    "fig_lesson_shuffle": "Shuffled input: does the output only shuffle too?",
    "fig_lesson_held_out": "The shipped models on held-out data",
    "fig_lesson_perplexity": "Validation loss and perplexity",
    "fig_lesson_cost": "GPT-2 small: parameters, FLOPs and memory per token at a context of {n}",
    "w_encoding": "encoding",
    "w_largest_difference": "largest difference",
    "w_verdict": "verdict",
    "w_metric": "metric",
    "w_model": "model",
    "w_quantity": "quantity",
    "w_component": "component",
    "w_exp_loss": "e^loss (perplexity)",
    # Inside the model tab (issue 19: embeddings, attention by hand, masks, LayerNorm, fill in the blanks)
    "tab_inside": "Inside the model",
    "param_emb_model": "Embeddings: model",
    "param_emb_token": "Token",
    "param_worked_model": "Attention by hand: model",
    "param_worked_text": "Attention by hand: input",
    "param_worked_site": "Attention by hand: attention",
    "param_worked_layer": "Attention by hand: layer",
    "param_worked_head": "Attention by hand: head",
    "param_mask_model": "Masks: model",
    "param_mask_first": "First input",
    "param_mask_second": "Second input",
    "param_norm_model": "LayerNorm: model",
    "param_norm_text": "LayerNorm: input",
    "param_norm_layer": "LayerNorm: layer",
    "param_norm_position": "Token position",
    "param_fill_model": "Fill in the blanks: model",
    "param_fill_text": "Text with blanks",
    "lbl_inside_token": "Token (as shown: ␣ for a space)",
    "lbl_inside_mask_first": "First input",
    "lbl_inside_mask_second": "Second input (a different length)",
    "lbl_inside_position": "Token position (0 = the first)",
    "lbl_inside_fill_text": "Text with blanks (_ marks a blank)",
    "btn_inside_emb": "Find neighbours",
    "btn_inside_worked": "Work it out",
    "btn_inside_mask": "Show the masks",
    "btn_inside_norm": "Normalise",
    "btn_inside_fill": "Fill in the blanks",
    "inside_emb_heading": "### Embeddings: tokens as vectors",
    "inside_emb_explanation": (
        "The first layer of every model looks a token's id up in the **embedding table**, a matrix of "
        "vocabulary size × d_model numbers learned in training: token i becomes row i. Two rows pointing the same "
        "way have a cosine similarity near 1. The bars list the rows closest to your token's row; the map "
        "projects every row on the table's two principal components (a 2-D shadow of a d_model-dimensional "
        "cloud)."),
    "inside_worked_heading": "### Attention by hand: one head, every number",
    "inside_worked_explanation": (
        "One head of one layer, on the first few tokens: Q = X W_Q, K = X W_K, V = X W_V (X: the vectors "
        "entering the sub-layer, after its LayerNorm in a pre-norm model). Scores $QK^\\top/\\sqrt{d_k}$, "
        "the mask (−∞ where a query may not look), a softmax along each row, and the output "
        "$\\mathrm{softmax}(QK^\\top/\\sqrt{d_k} + M)\\,V$. The note below does one row by hand and checks the "
        "result against what the model computed."),
    "inside_mask_heading": "### Masks: what each query may see",
    "inside_mask_explanation": (
        "Two inputs of different lengths make one batch: the shorter is padded with `<pad>` on the right. The "
        "**padding mask** hides pad keys; the **causal mask** hides keys after the query (a decoder must not "
        "read the future). A decoder's self-attention applies the causal mask alone: with padding on the right, "
        "causality already hides every pad key from every real query (the note under the figures says why). "
        "Hidden cells get −∞ before the softmax, so "
        "their weight is exactly 0. The last figure pads on the left instead: under the causal mask a pad query at the start then sees "
        "no key at all, and a softmax over only −∞ is NaN."),
    "inside_norm_heading": "### LayerNorm and the residual stream",
    "inside_norm_explanation": (
        "Each block adds its sub-layers' outputs to the **residual stream**, one vector of d_model numbers per "
        "token. **LayerNorm** rescales one token's vector: subtract its mean over the features, divide by "
        "$\\sqrt{\\sigma^2 + \\epsilon}$, then multiply by the learned gain γ and add the bias β. The first "
        "figure follows one token (choose the layer and the position); the second compares LayerNorm with "
        "BatchNorm on a small batch; the third shows the stream's size after every block."),
    "inside_fill_heading": "### Fill in the blanks: a masked model",
    "inside_fill_explanation": (
        "An encoder-only model trained like BERT: some tokens of the training text were replaced by `<mask>` and "
        "the model learned to predict them from both sides. Type _ where a character is missing; each blank "
        "becomes one `<mask>`, and the model gives a probability to every token at every blank. Only "
        "encoder-only models can do this (masked-char is one)."),
    "err_form_not_names": "{name} must be a list of names (letters, digits, \".\", \"_\" or \"-\"), separated by commas.",
    "err_form_too_many": "{name} lists {n} items; the limit is {limit}. Remove some.",
    "lbl_ho_panel": "Switch heads off",
    "lbl_lens_panel": "Logit lens",
    "btn_ho_run": "Switch them off and compare",
    "btn_lens_run": "Show the logit lens",
    # Train tab's form (issue 16)
    "param_pasted": "Your text",
    # Generate tab: exposure bias panel (issue 19, item 10)
    "lbl_xb_panel": "Exposure bias: teacher forcing against free-running",
    "param_xb_target": "Target after the prompt",
    "info_xb_target": "The text the model should write after the prompt (for a sequence-to-sequence model: its "
                      "output for the source). Press Enter or the button.",
    "btn_xb_run": "Decode it both ways",
    # --- Attention summary: held-out loss and perplexity (issue 19) ---
    "attention_held_out": "Held-out loss **{loss:.4f}** nats per token, perplexity e^loss = **{perplexity:.3f}**: on "
                          "average the model is as unsure as a choice among that many equally likely tokens.",
    "attention_held_out_unknown": "No held-out loss is known for this model, so no perplexity either (only a "
                                  "model trained here or shipped with the app has one).",
    # Lessons tab: live experiments
    "lesson_live_queued": "Waiting for a free training slot; your place in the queue shows here.",
    "lesson_live_step": "Step **{step}** of at most {steps} · {elapsed:.0f} s · training loss {loss:.3f}",
    "lesson_live_copy": "Held-out exact match **{exact}** (the goal: {goal}) · strongest cross-attention diagonal score {diagonal}",
    "lesson_live_rhyme": "The goal: a training loss of {goal} or less, when the model has the rhyme by heart.",
    "lesson_live_induction_wait": "The head scores come with the first snapshot of the probe input.",
    "lesson_live_induction": "Previous-token score of layer 0's best head **{previous:.2f}** · induction score of layer 1's best head **{induction:.2f}** (an induction head from {threshold:.2f})",
    "lesson_live_reached": "**Goal reached at step {step}**, after {seconds:.0f} s of training; the run stopped at step {stopped}. Its model, **{name}**, is now one of your models in every tab (the Train tab shows this run).",
    "lesson_live_stopped": "**Stopped at step {step}**, before the goal. Press the experiment's button again to train from new random weights.",
    "lesson_live_missed": "**The goal was not reached** in this run ({step} steps): on a busy server a run trains fewer steps in its time. Continue it with Resume in the Train tab, or press the experiment's button again to start from new random weights.",
    "lesson_live_finished": "**The goal was not reached** in the preset's {step} steps. Press the experiment's button again to train from new random weights.",
    "err_lesson_runs_live": "This lesson's experiment trains live: press its own Run button.",
    "err_lesson_not_live": "This lesson's experiment shows a view of a shipped model; it has nothing to train or stop.",
    "w_values": "values",
    "shape_values": "mean {mean:.3g} · std {std:.3g} · max {max:.3g}",
    "stage_repetition": "after the repetition penalty",
    "settings_greedy": "greedy",
    "settings_sample": "sampling at temperature {temperature}",
    "settings_top_k": "top-k {k}",
    "settings_top_p": "top-p {p}",
    "settings_repetition": "repetition penalty {penalty}",
    "fig_candidates_titled": "{title} (chosen: {token})",
    "meaning_uniform": "guessing uniformly among its {v} outputs would score ln {v} = {uniform:.2f}",
    "meaning_unigram": "knowing only how often each token occurs, {unigram:.2f}",
    "meaning_perplexity": "perplexity {ppl:.2f}: as unsure as a fair choice among {ppl:.1f} tokens",
    "meaning_join": "; ",
    "meaning_exact": "exact match {exact:.1%}: the share of outputs entirely right",
    "meaning_bleu": "BLEU {bleu:.1f} of 100: shared character n-grams, partial credit for partly right outputs",
    "meaning_exact_bleu": "exact match {exact:.1%} (whole outputs entirely right) beside BLEU {bleu:.1f} of 100 (shared character n-grams, partial credit)",
    "lesson_chinese_note": "**{chars} characters, {bytes} bytes in UTF-8, {n} BPE tokens.**",
    "fig_lesson_llm_treemap": "{model}: {total} parameters by component",
    "lesson_llm_parameters_note": "GPT-2 small has {gpt2} parameters, Qwen2.5-0.5B {qwen}. The token embedding takes {gpt2_embedding:.0%} of GPT-2 and {qwen_embedding:.0%} of Qwen (a vocabulary three times larger, shared with the output head in both); the feed-forward layers take {gpt2_ffn:.0%} and {qwen_ffn:.0%}. GPT-2's {gpt2_norms} LayerNorms hold {gpt2_norm_params} parameters, a weight and a bias of {gpt2_d} each; Qwen's {qwen_norms} RMSNorms hold {qwen_norm_params}, a weight of {qwen_d} each.",
    "fig_lesson_llm_norms": "A residual vector of {model} through LayerNorm and RMSNorm",
    "lesson_llm_norms_note": "This vector of {model} ({d} numbers) has mean μ = {mean:.3f} and standard deviation σ = {std:.3f}; its root mean square is {rms:.3f} = √(σ² + μ²). LayerNorm subtracts μ, so its output has mean 0; RMSNorm divides by the root mean square only, so its output keeps a mean of {rms_mean:.3f}. Here |μ| is {share:.1%} of σ, so the two curves almost coincide: in this trained model the centring changes little, which is the bet RMSNorm makes. Centre the vector first and RMSNorm gives LayerNorm's output (largest difference {gap:.1e}): the mean is all that RMSNorm drops, with the bias.",
    "fig_lesson_llm_gate": "The gate of SwiGLU: silu(z) = z·σ(z) against GELU",
    "w_llm_gelu": "GELU(z) (GPT-2's feed-forward)",
    "w_llm_silu": "silu(z) = z·σ(z) (SwiGLU's gate)",
    "w_llm_opening": "σ(z): how far the gate is open",
    "lesson_llm_gate_note": "silu dips to {silu_min:.3f} at z = {silu_at:.2f}, GELU to {gelu_min:.3f} at z = {gelu_at:.2f}; at z = {z:g} silu lets {silu_left:.3f} through. In SwiGLU this curve is applied to one projection, W_gate x, and multiplies another, W_up x, unit by unit: where σ(z) is near 0 the unit is shut whatever W_up x says, near 1 it passes. Qwen2.5-0.5B's feed-forward is {ff} wide at D = {d}, {ratio:.2f} D, with three matrices of that width.",
    "fig_lesson_llm_rotary": "One token pair, one position apart, moved along the input: its score",
    "w_llm_learned": "learned positions ({model})",
    "w_llm_rotary": "rotary positions ({model}, random weights)",
    "w_llm_query_position": "query position",
    "w_llm_score_change": "score − first pair's (layer 0, head 0)",
    "lesson_llm_rotary_note": "The same pair of tokens, one position apart, read at {pairs} places along the input. With {model}'s learned positions, added to the embeddings, the first layer's score of the pair moves by up to {learned:.3f}; with rotary positions ({stand_in}, a Qwen2-like stand-in with random weights) it stays within {rotary:.1e}, rounding: the rotation of the query and the key cancels up to their offset, whatever the weights.",
    "fig_lesson_llm_kv": "KV cache per token, counted from the caches after {tokens} tokens",
    "w_llm_as_built": "as built",
    "w_llm_multi_head": "one key/value head per query head",
    "w_llm_bytes_per_token": "bytes per token (float32)",
    "lesson_llm_kv_note": "Counted from the keys and values each model keeps after reading {tokens} tokens (GPT-2 small and Qwen2.5-0.5B built with shapes only, on PyTorch's meta device; {stand_in} with real random weights). Qwen2.5-0.5B keeps {qwen_own} bytes per token with its {kv_heads} key/value heads, {qwen_full} with one per query head ({heads}): {saving:g} times less. At its full context of {context:,} tokens that is {qwen_mib:,.0f} MiB against {full_mib:,.0f} MiB. GPT-2 small keeps {gpt2} bytes per token; the stand-in saves {stand_in_saving:g} times.",
    "fig_lesson_llm_bpe": "BPE learned on {corpus}: {n} tokens",
    "w_llm_corpus_bundled": "English text (the bundled text)",
    "w_llm_corpus_tang_poems": "Tang poems (their first nine tenths)",
    "lesson_llm_chinese_note": "The line “{line}” (held out from the poems: neither BPE nor {model} read it) has {chars} characters, {bytes} bytes in UTF-8. The BPE learned on English text ({english_vocab} tokens) cuts it into {english} tokens, {english_ratio:.2f} per character; the one learned on the Tang poems ({chinese_vocab} tokens), into {chinese}, {chinese_ratio:.2f} per character. Qwen's own tokenizer is not on this server; these two small byte-level BPEs of the same kind stand in for it. The grid is the attention of {model}, a character model of the same poems, on the line.",
    "fig_lesson_neighbours_step": "Nearest neighbours of {token} in {model} at training step {step}",
    "lesson_neighbours_note": "The same model at step {first} and at step {last}. Nearest to `{token}`: {start_top} (cosine {start_cos:.2f}) at step {first}; {end_top} ({end_cos:.2f}) at step {last}. Over the whole table: a vowel's nearest neighbour is another vowel for {start_vowels} of {n_vowels} vowels at step {first} and {end_vowels} of {n_vowels} at step {last}; a letter's other case is among its 5 nearest for {start_cases} of {letters} letters, then {end_cases} of {letters}; the mean cosine of a token to its nearest neighbour goes from {start_mean:.2f} to {end_mean:.2f}.",
    "w_token_embeddings": "token embeddings",
    "w_position_vectors": "position vectors",
    "w_random_directions": "random directions (k / D)",
    "fig_lesson_add_concat": "{model}: position vectors along its token embeddings' main directions",
    "w_token_directions": "first k directions of the token embeddings",
    "w_energy_share": "share of the energy",
    "w_directions_marker": "k = {k}: {share:.0%} of the tokens' variance",
    "lesson_add_concat_note": "In **{model}** ({d} dimensions) the first {k} directions of the token embeddings hold {token:.0%} of their variance, but only {position:.1%} of the learned position vectors' energy, where {k} random directions would catch {random:.1%}: the model keeps positions mostly in directions its tokens hardly use, so adding them works almost like concatenating, without widening the model.",
    "lesson_shapes_note": "The copy model **{model}** on `abcdefghij` ({n} tokens): the encoder's self-attention weights are {weights} and its queries {q} ({h} heads).",
    "w_per_head": "{h} projections of [D, {dh}], one per head",
    "w_fused": "one projection of [D, {d}], cut into heads",
    "w_projection": "queries computed by",
    "w_parameters": "parameters",
    "w_time_ms": "time (ms, median)",
    "fig_lesson_fused": "{model}: per-head and fused query projections on {tokens} tokens",
    "lesson_fused_note": "Both ways give the same queries: the largest difference is {difference:.1e} (rounding), with {params:,} parameters either way. On this server the {h} small products took {per_head_ms:.3f} ms and the one [D, {d}] product {fused_ms:.3f} ms for {tokens} tokens (medians of repeated runs; the times vary with the machine and its load).",
    "fig_lesson_activations": "ReLU vs GELU: {units} feed-forward units each, after {steps} steps at learning rate {lr:g}",
    "w_input_z": "input z",
    "w_output": "output",
    "w_slope": "slope",
    "w_largest_input": "a unit's largest input over the text",
    "w_units": "units",
    "lesson_activations_note": "Two copies of a small decoder, the same seed and data, one with ReLU and one with GELU, trained {steps} steps at the high learning rate {lr:g}. Feed-forward units whose input is at most 0 at every position of the whole training text: **ReLU {relu} of {units}**, **GELU {gelu} of {units}**; {more}. Under ReLU each of them outputs exactly 0 and gets no gradient from this text, so it cannot recover: it is dead. Under GELU the same unit still has a small output and slope, so it keeps learning. Final training losses: ReLU {relu_loss:.2f}, GELU {gelu_loss:.2f}.",
    "w_grad_embedding": "embedding",
    "w_grad_output": "output",
    "w_grad_block": "block {i}",
    "fig_lesson_gradients": "Each layer's gradient norm at initialisation ({depth} blocks, one batch)",
    "lesson_gradients_note": "The same initial weights and batch. With residual connections every block gets about the same gradient: from {pre_low:.3f} to {pre_high:.3f} in the pre-norm stack ({pre_spread:.2f}× between the smallest and the largest) and from {post_low:.3f} to {post_high:.3f} post-norm ({post_spread:.2f}×). In pre-norm, x + F(LN(x)) hands the gradient to the block below through an identity path; in post-norm it also goes through every later LayerNorm's Jacobian, but with weights of standard deviation 0.02 each sub-layer adds little to the stream, so each LayerNorm rescales it by about the same factor and the two placements barely differ at initialisation. The gap Xiong et al. (2020) measured, the largest gradients near a post-norm stack's output, depends on their initialisation and on training; the post-norm labs show what the placement does at a high learning rate. Without residual connections each block's gradient passes through every later block instead: from {none_low:.2f} to {none_high:.2f}, a spread of {none_spread:.2f}×, and at least {factor:.0f} times the largest with residuals, larger rather than vanishing at this depth.",
    "fig_lesson_init": "A signal through {layers} plain linear layers: N(0, 0.02) vs Xavier",
    "w_linear_layers": "linear layers passed",
    "w_signal_std": "standard deviation of the signal",
    "lesson_init_note": "With N(0, 0.02) each layer scales the signal by {gain_small:.3f} at D = {small} (0.02 · √{small} = {expected_small:.3f}) and by {gain_large:.3f} at D = {large} (0.02 · √{large} = {expected_large:.3f}): after {layers} layers it is {final_small:.1e} and {final_large:.1e} of its size. Xavier keeps it (gain {xavier:.3f} at D = {large}).",
    "fig_lesson_timeline_scores": "{model} at step {step}: {score} score of every head ({kind})",
    "fig_lesson_candidates_step": "{model} at step {step}, after \"{prompt}\"",
    "lesson_candidates_note": "Top-k 10 keeps {kept_k} candidates and top-p 0.9 then {kept_p}. The chosen token's probability is {p:.1%} after the filters ({raw:.1%} before them): a token of raw probability {raw:.1%} is as surprising as one fair pick among {n:.1f}.",
    "lesson_temperature_note": "At temperature **{low}** the most likely token `{token}` (raw {raw:.1%}) gets **{low_share:.1%}**, and {low_90} token(s) hold 90% of the probability; at **{high}** it gets **{high_share:.1%}**, and it takes {high_90} tokens to hold 90%.",
    "w_rep_greedy": "greedy",
    "w_rep_penalty": "greedy, repetition penalty {penalty}",
    "w_rep_beam": "beam search, width {width}",
    "w_rep_sample": "sampling, temperature 1",
    "fig_lesson_repetition": "{model}: share of repeated 4-token pieces in {n} generated tokens, by decoding",
    "w_prompt": "prompt",
    "w_repeated_share": "repeated 4-token pieces",
    "lesson_repetition_note": "**{model}**, {n} tokens after each of {prompts} prompts. Mean share of 4-token pieces already written: greedy **{greedy:.0%}**, greedy with repetition penalty {factor} **{penalty:.0%}**, beam search (width {width}) **{beam:.0%}**, sampling **{sample:.0%}**. Repeats most: **{most}**. After the first prompt, greedy wrote “{greedy_text}…” and beam search “{beam_text}…”.",
    "w_uniform_loss": "uniform ln V",
    "w_unigram_loss": "unigram",
    "w_as_unsure_as": "perplexity",
    "w_token_accuracy": "accuracy",
    "w_bleu": "BLEU",
    "w_meaning": "what it means",
    "lesson_measuring_note": "Each loss is in nats per token. **Uniform** is ln V, the loss of guessing evenly among the V outputs; **unigram** the loss of a model that knows only how often each token occurs in the data (– where the data are not at hand). Below the unigram loss is what a model learned from context. **Perplexity** e^loss: as unsure as a fair choice among that many tokens. **Exact match** counts whole outputs entirely right; **BLEU** (0-100) gives partial credit for shared character n-grams.",
    "lesson_bleu_listed": "BLEU is on the cards of: {models}.",
    "lesson_bleu_missing": "The cards of {models} list no BLEU (–): they were made before BLEU was measured.",
    "w_self_attention": "self-attention: 4 n D² + 2 n² D",
    "w_recurrent": "recurrent layer: 2 n D²",
    "fig_lesson_recurrence": "Multiply-adds of one layer over n positions of width D = {d}: self-attention vs a recurrent layer",
    "w_sequence_length": "sequence length n",
    "w_multiply_adds": "multiply-adds per layer",
    "lesson_recurrence_note": "Counted like for like, with each layer's projections, a self-attention layer at D = {d} costs more multiply-adds than a tanh recurrent layer at every length: {ratio0:.2f}× at n = {n0}, {ratio:.2f}× at n = {n} ({attention:,} against {recurrent:,}). What attention buys is time and distance: the recurrent layer runs in {steps} sequential steps, its first token reaching the last through {path} of them, while attention computes every position at once and every pair is one step apart.",
    "meaning_sentence": "For scale: {parts}.",
    "w_below_zero": "units with no positive input",
    "lesson_activations_more_relu": "ReLU left more units without a positive input",
    "lesson_activations_more_gelu": "GELU left more units without a positive input",
    "lesson_activations_more_same": "both left as many units without a positive input",
    "w_grad_series_pre": "pre-norm",
    "w_grad_series_post": "post-norm",
    "w_grad_series_no_residual": "pre-norm without residuals",
    "lesson_findings_too_short": "The run ended before it had anything to show; run it again.",
    "lesson_score_previous": "previous-token",
    "lesson_score_induction": "induction",
    "lesson_findings_first": "In your run the **{first}** score passed halfway to its highest value first, at step {a}; the {second} score at step {b}.",
    "lesson_findings_same": "In your run both scores passed halfway to their highest values at the same snapshot, step {step}.",
    "lesson_findings_not_risen": "In your run the {names} score had not risen yet.",
    "lesson_findings_rise": "The previous-token score went from {previous_from:.2f} to {previous_to:.2f}, the induction score from {induction_from:.2f} to {induction_to:.2f}.",
    "lesson_findings_goal": "The induction score crossed {threshold:.2f} at step {step}.",
    "lesson_findings_copy": "In your run the training loss started at {loss:.2f} and had halved by step {halved}; held-out exact match first rose above 0% at step {exact}.",
    "lesson_findings_copy_loss": "The loss moved first.",
    "lesson_findings_copy_exact": "Exact match moved first.",
    "lesson_findings_copy_goal": "It reached the goal at step {step}.",
    "lesson_findings_copy_same": "Both moved at the same step.",
    "lesson_findings_copy_pattern": "At the end the best head's diagonal score was {diagonal:.2f} and its anti-diagonal score {anti:.2f} (a pattern counts as formed from {formed:.1f}): {pattern}",
    "lesson_findings_pattern_diagonal": "a diagonal formed.",
    "lesson_findings_pattern_anti_diagonal": "an anti-diagonal formed.",
    "lesson_findings_pattern_none": "neither had formed yet; the cross-attention is still spread out.",
    "lesson_findings_together": "They passed it {gap} steps apart, within {share:.0%} of the run's {span} steps: the same stretch.",
    "lesson_findings_apart": "They passed it {gap} steps apart, more than {share:.0%} of the run's {span} steps: not the same stretch.",
    "lesson_findings_rhyme_memorised": "It reached the goal: the model has the rhyme by heart.",
    "lesson_findings_rhyme_flat": "The loss is still near ln V: the run ended before the model learned much.",
    "lesson_findings_rhyme_level": "The loss ended between ln V and the goal: the run ended before the model had the rhyme by heart.",
    "lesson_run_matched": "**Your run bore your prediction out.** {feedback}",
    "lesson_run_not_matched": "**Your run did not bear your prediction out:** it showed “{shown}”. What it measured is below.",
    "lesson_run_none_matched": "**Your run did not bear your prediction out**, nor either of the others. What it measured is below.",
    "lesson_run_undecided": "**Your run ended before it could decide your prediction.** What it measured is below; run it again to see it through.",
    "lesson_findings_rhyme": "In your run the training loss went from {first:.2f} at step {first_step} to {last:.2f} at step {last_step}; guessing uniformly among the rhyme's {v} tokens scores ln {v} = {uniform:.2f}.",
    "fig_ho_distribution_after": "The prediction after {context}: every head on vs. {n} head(s) switched off",
    "ho_where": "The bars show the prediction where the two greedy outputs first part (at the end of the input when they never do): after {context}.",
    "status_unsure": "Before the filters the model was as unsure as a fair choice among **{n:.1f}** tokens (e to the entropy of its distribution); the chosen token's raw probability {p:.1%} is the share of draws that would pick it.",
    "attention_weight_meaning": "Each attention weight is a share of one query's attention: a row sums to 1, so 0.25 is a quarter of it. Spread evenly over {n} keys, each would get 1/{n} = {even:.3f}.",
    "settings_join": ", ",
    "kind_title_encoder": "encoder self-attention",
    "kind_title_decoder": "decoder self-attention",
    "kind_title_cross": "cross-attention",
    "sentence_join": " ",
    # --- Explaining an answer: activation patching, direct logit attribution, linear probes, the guessing game ---
    "what_corrupted": "corrupted input",
    "lbl_pt_panel": "Activation patching: which activation carries the answer",
    "param_pt_corrupted": "Corrupted input",
    "info_pt_corrupted": "The text above with a token or a few changed (as many tokens in all). Empty: the suggested one.",
    "btn_pt_suggest": "Suggest a corruption",
    "btn_pt_run": "Patch",
    "pt_explain": "Run the model twice: on the **clean** input (the text above) and on a **corrupted** copy with a "
                  "token or a few changed, so that its answer changes. The metric is the **logit difference of the right "
                  "answer**, logit[right] − logit[wrong] where the answer is read: right is what the model answers "
                  "on the clean input, wrong what it answers on the corrupted one. It is normalised so that the "
                  "clean run scores **1** and the corrupted run **0**. Each cell runs the corrupted input again with "
                  "one activation copied from the clean run (the residual stream of one layer at one position, or "
                  "one head's output): near 1 that activation alone carries the answer, near 0 it carries nothing "
                  "the answer needs. A sequence-to-sequence model reads both inputs as sources; its decoder reads "
                  "the clean output up to where the two outputs part.",
    "err_pt_no_suggestion_seq2seq": "{model} has no task whose sources the app can change; type a corrupted input "
                                    "yourself (one character changed).",
    "err_pt_no_suggestion_task": "No change of one character of this input changes what {model} writes for the {task} "
                                 "task; use one of its examples, or type a corrupted input yourself.",
    "err_pt_no_flip": "No change of one token of this input flips what {model} answers at its end by at least "
                      "one logit; type a corrupted input yourself, or try another input (the examples work).",
    "err_pt_lengths": "The corrupted input has {corrupted} tokens and the clean one {clean}: patching compares them "
                      "position by position, so change tokens without adding or removing any.",
    "err_pt_same": "The corrupted input is the same as the clean one: change one token.",
    "err_pt_same_answer": "{model} writes the same output for both inputs, so there is no answer to restore: change a "
                          "character that changes its output.",
    "err_pt_no_spread": "The two inputs give the same logit difference, so nothing can be restored: choose a "
                        "corruption that changes the model's answer.",
    "err_pt_small_spread": "The logit difference is {clean:.3f} on the clean input and {corrupted:.3f} on the "
                           "corrupted one: they differ by less than {least:g}, so the percentages would divide by "
                           "noise. Change a token that changes the model's answer, or press Suggest a corruption.",
    "err_pt_too_costly": "Patching {model} on this input would take too long for a shared machine, even without the "
                         "head-by-position map; use a shorter input.",
    "pt_changed": "The corrupted input differs from the clean one in **{n}** token(s), at position(s) {positions}.",
    "pt_changed_item": "{position} ({old} → {new})",
    "pt_changed_join": ", ",
    "pt_left_out": "The head-by-position map is left out: its {runs:,} patched runs would take too long for a shared "
                   "machine. Use a shorter input to see it.",
    "w_pt_restored": "restored",
    "w_pt_blocks_passed": "layer (blocks passed)",
    "w_pt_position_decoder": "position (what the model reads)",
    "w_pt_position_encoder": "source position",
    "w_pt_site_encoder_self_attn": "encoder",
    "w_pt_site_decoder_self_attn": "self",
    "w_pt_site_decoder_cross_attn": "cross",
    "w_pt_head": "head",
    "fig_pt_residual": "Patching the residual stream at each layer and position",
    "fig_pt_source": "Patching the encoder's residual stream (where the changed source enters)",
    "fig_pt_heads": "Patching each head's output at every position",
    "fig_pt_head_positions": "Patching each head's output at one position at a time",
    "pt_answers": "**Right answer** {right}, **wrong answer** {wrong}, read at position {position}. Logit difference: "
                  "**{clean:.3f}** on the clean input (scored 1), **{corrupted:.3f}** on the corrupted one (scored 0).",
    "pt_residual_where": "Entering the first block the answer sits at position {first_position} ({first_token}), "
                         "which restores {first_value:.0%} of it; leaving the last block at position {last_position} "
                         "({last_token}), {last_value:.0%}.",
    "pt_best_head": "The head that restores most: **{head}**, {value:.0%} of the answer.",
    "param_dla_token": "Token to explain",
    "info_dla_token": "Direct logit attribution splits this token's logit. Empty: the model's top token.",
    "dla_explain": "**Direct logit attribution.** In a pre-norm model the residual stream that leaves the last "
                   "block is a sum of what each part wrote into it: the embeddings, every head, every MLP. The final "
                   "norm divides that sum by its spread σ; with σ frozen at its value for this input the norm is "
                   "linear, so the logit of a token splits exactly into one share per part (its output through the "
                   "frozen norm and the unembedding) plus the norm's bias. A head whose output matters only through "
                   "later layers shows little here; activation patching sees it.",
    "err_dla_one_token": "\"{token}\" is {n} tokens for this model; type exactly one token (one character for a "
                         "character model).",
    "err_dla_never_predicts": "{model} never predicts \"{token}\": its logit is fixed, not computed. Choose another "
                              "token.",
    "dla_post_norm": "Direct logit attribution splits the residual stream of a pre-norm model. This is a post-norm "
                     "model: every block ends with a LayerNorm that rescales the sum of everything written before "
                     "it, so the parts' shares cannot be told apart. Activation patching still works.",
    "fig_dla_short": "Direct logit attribution",
    "fig_dla": "What each part adds to the logit of “{token}” ({where})",
    "w_dla_next": "the next token",
    "w_dla_first_output": "the output's first token",
    "w_dla_last": "at the last position",
    "w_dla_part": "part",
    "w_dla_share": "share of the logit",
    "w_dla_total": "the parts sum to",
    "w_dla_logit": "the model's logit",
    "w_dla_cross": "cross",
    "w_dla_attention_bias": "attention bias",
    "w_dla_embedding": "token embedding",
    "w_dla_positions": "position embedding",
    "w_dla_norm_bias": "final norm's bias",
    "dla_summary": "The logit of **{token}** ({where}): the parts sum to **{total:.3f}**; the model's logit is "
                   "**{logit:.3f}**. The final norm's scale 1/σ = {scale:.4f} is frozen at its value for this input. "
                   "The largest share: {top}, {top_value:+.3f}.",
    "lbl_pr_panel": "Linear probes: what each layer makes readable",
    "param_pr_property": "Property the probes read",
    "btn_pr_run": "Train probes",
    "pr_explain": "A **probe** is a logistic regression from the residual stream at one layer to a property, trained "
                  "on some positions in a few seconds and measured on held-out sequences. High accuracy means the "
                  "layer holds the property where a straight line can read it. The **control task** gives the "
                  "same vectors the labels shuffled among the positions, so the vectors carry nothing about them: "
                  "what its probe scores is chance for a probe of this size. **Position only** answers the "
                  "commonest label at each position, so a property that is mostly position is not credited to the "
                  "layers. The dashed line is chance, always answering the commonest label.",
    "pr_property_inside": "inside a repeat (was this block seen before?)",
    "pr_property_offset": "position inside the repeat (t mod period)",
    "pr_property_letter": "the letter being copied",
    "pr_property_index": "the source index being copied",
    "pr_property_vowel": "the next character is a vowel",
    "pr_property_line_end": "the next character ends the line (，or 。)",
    "pr_offered": "Probes offered for {model}:",
    "pr_none_offered": "No property the app probes means something for {model}: probes are offered for the induction "
                       "model (repeats), reverse (what is copied), shakespeare-char (vowels) and tang-poems-char "
                       "(line ends).",
    "err_pr_none": "No probe is offered for {model}; pick induction, reverse, shakespeare-char or tang-poems-char.",
    "err_pr_not_offered": "{model} is not probed for {property}; choose one of: {offered}.",
    "err_pr_corpus": "The text the model was trained on ({corpus}) is not on this machine and could not be downloaded.",
    "stand_in_played": "Tiny Shakespeare is not on this machine and could not be downloaded, so the bundled English "
                       "text is used in its place: {model} never read that text either.",
    "fig_pr": "Linear probes on {model}: {property}",
    "w_pr_blocks_passed": "layer (blocks passed; 0 = the embeddings)",
    "w_pr_accuracy": "held-out accuracy",
    "w_pr_probe": "probe",
    "w_pr_control": "control task (labels shuffled)",
    "w_pr_position_only": "position only",
    "w_pr_chance": "chance",
    "pr_reads": "**Layer {layer}** reads it at **{accuracy:.0%}**, the control {control:.0%}, chance {chance:.0%} "
                "(layer n is the residual stream after n blocks). It is first readable at layer {first}, where the "
                "probe beats the control and chance by {margin:.0f} points.",
    "pr_position_only": "The position alone reads {position:.0%}: the best layer adds {gain:+.0f} points to it.",
    "pr_at_chance": "**No layer reads it**: the best, layer {layer}, scores {accuracy:.0%}, the control {control:.0%}, "
                    "chance {chance:.0%}. The model does not hold this property where a straight line can read it.",
    "pr_counts": "Trained on {n_train:,} positions, measured on {n_test:,} held out.",
    "lbl_gg_panel": "Guess the next character: you against the model",
    "param_gg_guess": "Your guess",
    "info_gg_guess": "One character; ␣ for a space, ↵ for a new line. Press Enter.",
    "param_gg_step": "Rematch against the model at training step",
    "btn_gg_play": "Guess",
    "btn_gg_new": "New game",
    "btn_gg_rematch": "Rematch",
    "gg_explain": "The text is from the part of the corpus the model never trained on. Type the character you think "
                  "comes next; the model guesses its most likely one (the argmax of its logits). Both are scored "
                  "against the real text, 10 rounds a game. Then rematch the same rounds against the model earlier "
                  "in its training.",
    "err_gg_no_model": "No character model of a text is available to play against (shakespeare-char or "
                       "tang-poems-char).",
    "err_gg_no_timeline": "{model} has no training timeline to rematch against.",
    "err_gg_one_char": "Type exactly one character (␣ for a space, ↵ for a new line), got \"{guess}\".",
    "err_gg_over": "The game is over: press New game, or pick a step and Rematch.",
    "err_gg_pick_step": "Pick a training step to rematch against.",
    "gg_context_intro": "**Round {round} of {rounds}** against **{model}** ({at}). It reads the last {n} characters; "
                        "what comes next?",
    "gg_final": "as trained to the end",
    "gg_at_step": "at step {step}",
    "gg_table_head": "| round | real | you | model | model's p(real) |",
    "gg_rematch": "**Rematch** on the same {rounds} rounds against the model at step {step}. On these rounds the "
                  "model at step {step} guesses **{earlier}** right; at step {last}, **{final}**.",
    "gg_replayed": "The game replayed ({at}): you {learner}, the model {model} of {rounds}.",
    "gg_round": "**Round {round}:** the text goes on with **{answer}**. You: {learner} {learner_mark} · the model "
                "({at}): {model} {model_mark}, {p:.0%} sure; it gave the real character {p_answer:.1%}.",
    "gg_score": "**Score:** you {learner}, the model {model} after {rounds} of {total} rounds.",
    "gg_over": "**Game over:** you {learner}, the model {model} of {total}. Pick an earlier training step and press "
               "Rematch to play the same rounds against the model before it learned this much.",
    "gg_started": "A new game of {rounds} rounds: type the character that comes next.",
    "gg_none": "Press **New game** to play against {model}.",
    "gg_finished_context": "The game is over.",
    "data_tang_poems": "Tang poems (Chinese, 106,000 characters)",
    "lesson_patching_note": "The patching maps and the bars read the model as trained to the end. Clean: {clean} · "
                            "corrupted: {corrupted} (the token at position {changed}, after the earlier occurrence "
                            "of the last token, changed).",
}

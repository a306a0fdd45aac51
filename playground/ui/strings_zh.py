"""简体中文 text of the app: the same keys and {names} as strings_en.py."""

ZH: dict[str, str] = {
    # ------------------------------------------------------------------ shell
    "locale_code": "zh-CN",
    "app_title": "# Transformer 游乐场\n一个手写的 Transformer，可以看清它的内部：注意力、逐词生成、位置编码、分词和参数。",
    "lbl_language": "语言",
    "tab_attention": "注意力",
    "tab_generate": "生成",
    "tab_positional": "位置编码",
    "tab_tokenizer": "分词器",
    "tab_architecture": "模型结构",
    "lbl_model": "模型",
    "lbl_examples": "示例（点击即可）",
    "lbl_seed": "随机种子",

    # ------------------------------------------------------------------ messages
    "err_internal": "应用内部出错了（{kind}）。你的会话仍然可用：修改输入后再试一次。",
    "err_not_text": "{what}必须是文本。",
    "err_empty": "{what}是空的：请输入一些文字。",
    "err_too_long": "{what}有 {length} 个字符，上限是 {limit} 个。请缩短。",
    "err_unknown_chars": "模型「{model}」不认识你输入中的 {count} 个字符：{chars}。请删除或替换它们。",
    "err_not_number": "{name}必须是 {low} 到 {high} 之间的数。",
    "err_not_integer": "{name}必须是整数，收到的是 {value}。",
    "err_out_of_range": "{name}是 {value}；请选择 {low} 到 {high} 之间的值。",
    "err_bad_choice": "{name}不能是「{value}」；请从以下选项中选择：{choices}。",
    "err_unknown_model": "没有名为「{name}」的模型；请从以下模型中选择：{choices}。",
    "err_config": "这个配置无效：{error}",
    "what_input": "输入",
    "what_prompt": "提示词",
    "what_target": "目标文本",
    "what_tokenizer_text": "文本",
    "param_d_model": "d_model",
    "param_length": "长度",
    "param_head_dim": "头的维度 d_k",
    "param_positions": "位置数",
    "param_seed": "随机种子",
    "param_vocab_size": "词表大小",
    "param_corpus": "训练文本",
    "param_preset": "预设",
    "param_context_length": "上下文长度",
    "param_n_encoder_layers": "编码器层数",
    "param_n_decoder_layers": "解码器层数",
    "param_n_heads": "头数",
    "param_d_ff": "d_ff",
    "param_max_len": "max_len",
    "param_arch": "结构",
    "param_positional": "位置编码",
    "param_norm": "归一化位置",
    "param_activation": "激活函数",

    # ------------------------------------------------------------------ words in figures
    "w_position": "位置",
    "w_dimension": "维度",
    "w_dim": "维",
    "w_value": "值",
    "w_cosine": "余弦相似度",
    "w_pair": "维度对",
    "w_angle": "角度",
    "w_id": "编号",
    "w_piece": "片段",
    "w_characters": "字符范围",
    "w_rank": "顺序",
    "w_left": "左",
    "w_right": "右",
    "w_merged": "合并结果",

    # ------------------------------------------------------------------ positional encoding
    "pos_explanation": (
        "**为什么需要位置？** 自注意力把每个词元和所有其他词元比较，再做加权求和；这个计算与词元所处的位置无关。"
        "把输入打乱，输出只是以同样的方式被打乱（见本页底部的演示）。所以模型要给每个词元嵌入加上一个只取决于位置的向量。\n\n"
        "**正弦位置编码**把表格第 $pos$ 行填为\n"
        "$$PE_{(pos,\\,2i)} = \\sin\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right),\\qquad "
        "PE_{(pos,\\,2i+1)} = \\cos\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right)$$\n"
        "每一对维度 $(2i, 2i+1)$ 就像一根以自己速度转动的时钟指针：第 0 对每 $2\\pi \\approx 6.3$ 个位置转一圈，"
        "最后一对几乎要 $2\\pi \\cdot 10000$ 个位置。低维变化快（精细的位置），高维变化慢（粗略的位置）。"
        "因为 $pos + k$ 处的正弦和余弦是 $pos$ 处的一个固定旋转，$pos + k$ 的编码是 $pos$ 的编码的线性函数，"
        "注意力因此可以学会相对距离。相似度矩阵显示：相近的位置编码也相近。在配置了的模型中，词元嵌入在加上位置之前"
        "会乘以 $\\sqrt{d_{model}}$，使两者大小相当。"),
    "lbl_d_model": "d_model（维数）",
    "lbl_length": "显示的位置数",
    "lbl_dims": "画成曲线的维度",
    "lbl_pos_heatmap": "正弦位置编码表",
    "lbl_pos_curves": "所选维度",
    "lbl_pos_similarity": "位置相似度",
    "pos_model_heading": "### 模型自己的位置向量\n选择一个模型，查看它加到词元嵌入上的位置向量。",
    "lbl_pos_model_heatmap": "模型的位置表",
    "lbl_pos_model_similarity": "模型位置之间的相似度",
    "rope_explanation": (
        "### RoPE：用旋转表示位置\n"
        "旋转位置编码不往嵌入上加任何东西。在每个注意力层里，每个头的查询和键被切成若干对维度，第 $i$ 对在位置 $pos$ "
        "处旋转角度 $pos \\cdot \\theta_i$，其中 $\\theta_i = 10000^{-2i/d_k}$（$d_k$ 为头的维度）。旋转不改变长度，"
        "而旋转了 $m\\theta_i$ 的查询与旋转了 $n\\theta_i$ 的键的点积只取决于 $(m - n)\\theta_i$：注意力分数看到的是相对位置。"
        "下面每个小图是一对维度：点在位置 0 处角度为 0，每前进一个位置转 $\\theta_i$；低维度对转得快，高维度对转得慢。"
        "本项目在每个头内把第 $j$ 维与第 $j + d_k/2$ 维配对；角度与小图标题所写的交错排列 $(2i, 2i+1)$ 完全相同。"),
    "lbl_head_dim": "头的维度 d_k",
    "lbl_rope_positions": "位置数",
    "lbl_rope_pairs": "维度对",
    "lbl_rope_plot": "RoPE 旋转",
    "shuffle_explanation": (
        "### 没有位置编码，顺序就看不见\n"
        "四个极小的编码器有相同的随机权重，只是位置编码不同。我们打乱输入的词元，比较「打乱后输入的输出」和"
        "「原输入的输出再打乱」。没有位置编码时两者在舍入误差内相等：自注意力和前馈层对排列是等变的，"
        "每个词元无论站在哪里都得到相同的输出。有正弦、可学习或旋转位置编码时两者不同。"
        "（即使没有位置编码，解码器的因果掩码也会泄露一些顺序信息：每个词元能看到前面有多少个词元。）"),
    "lbl_shuffle_text": "要打乱的文本",
    "btn_shuffle": "打乱并比较",
    "fig_sinusoidal": "正弦位置编码：{length} 个位置 × {d_model} 维",
    "fig_sinusoidal_curves": "所选维度随位置的变化",
    "fig_position_similarity": "位置之间的余弦相似度",
    "fig_model_positions": "{model}：{kind} 位置向量",
    "fig_model_position_similarity": "{model}：其位置之间的相似度",
    "fig_rope": "维度为 {head_dim} 的头中的 RoPE：每对维度随位置旋转",
    "note_positions_sinusoidal": "**{model}** 把上面那张固定的正弦表加到词元嵌入上。",
    "note_positions_learned": "**{model}** 在训练中学到了自己的位置向量。和正弦编码的相似度比较一下：训练好的表常常也沿对角线出现一条亮带。",
    "note_untrained_positions": "这个模型没有训练过，所以它的位置向量还是随机噪声。",
    "note_positions_rope": "**{model}** 使用 RoPE：它不往嵌入上加位置向量，而是在注意力内部旋转查询和键（见下文）。",
    "note_positions_none": "**{model}** 完全没有位置编码；只有它的因果掩码（如果有的话）能告诉它一些顺序信息。",
    "enc_none": "无",
    "enc_sinusoidal": "正弦",
    "enc_learned": "可学习",
    "enc_rope": "RoPE",
    "verdict_order_blind": "输出相同，只是换了顺序：看不见顺序",
    "verdict_order_aware": "输出不同：模型看得见顺序",
    "shuffle_summary": "原文：`{original}`  \n打乱后：`{shuffled}`",
    "col_encoding": "位置编码",
    "col_max_difference": "max |f(打乱的 x) − 打乱的 f(x)|",
    "col_verdict": "结论",
    "err_pick_dims": "请至少选择一个要画的维度。",
    "err_dims_outside": "d_model 为 {d_model} 时不存在维度 {dims}；请选择 0 到 d_model − 1 之间的维度。",
    "err_even_d_model": "维数必须是偶数（正弦和余弦成对出现），收到的是 {d_model}。",
    "err_pick_pairs": "请至少选择一对维度。",
    "err_pairs_outside": "不存在维度对 {pairs}；这个大小的头只有第 0 到第 {n_pairs} − 1 对。",
    "err_need_two_tokens": "请至少输入两个字符，才有顺序可以打乱。",

    # ------------------------------------------------------------------ tokenizer
    "tok_explanation": (
        "**分词器**把文本变成模型读取的整数编号。*字符*分词器给训练文本中的每个字符一个编号：词表小但序列长，"
        "没见过的字符会变成 `<unk>`。*字节级 BPE*（字节对编码）从 UTF-8 的 256 种字节出发，所以能写出任何文本；"
        "然后它反复把训练文本中最常见的相邻词元对合并成一个新词元（只在词的内部合并：文本先按空格和标点切开），"
        "直到词表达到你要求的大小。常见的词成为一个词元，罕见的词被切成几段。合并规则按学到的先后顺序列出，"
        "应用时也按这个顺序。大多数汉字在 UTF-8 中占 3 个字节：很少见过中文的 BPE 会把这样的字写成最多 3 个字节词元"
        "（以十六进制显示，如 `<E4>`）；虚线框标出同一个字的各个片段。编号 0 到 4 留给 `<pad>`、`<bos>`、`<eos>`、"
        "`<unk>` 和 `<mask>`。"),
    "lbl_tok_text": "要分词的文本",
    "lbl_corpus": "两个分词器的训练文本",
    "corpus_bundled": "自带文本",
    "corpus_tiny_shakespeare": "小莎士比亚",
    "corpus_this_text": "这段文本",
    "lbl_vocab_size": "BPE 词表大小",
    "btn_tokenize": "分词",
    "lbl_char_tokens": "字符词元",
    "lbl_bpe_tokens": "BPE 词元",
    "lbl_merges": "BPE 合并规则",
    "fig_char_tokens": "字符：{n} 个词元",
    "fig_bpe_tokens": "字节级 BPE：{n} 个词元",
    "fig_merges": "前 {n} 条合并规则，按学到的先后排列",
    "token_counts": "**{chars}** 个字符 → **{n_char}** 个字符词元（词表 {char_vocab}）和 **{n_bpe}** 个 BPE 词元"
                    "（词表 {bpe_vocab}，要求 {requested}）：每个 BPE 词元平均 {ratio:.2f} 个字符。"
                    "两者都在{corpus}上训练（{corpus_chars:,} 个字符）。",
    "token_unknown": "字符分词器从没见过这段文本中的 {count} 个字符（{chars}），它们变成了 `<unk>`。字节级 BPE 则把它们写成字节。",
    "token_vocab_capped": "训练文本只能支持 {got} 个词元（已没有出现至少两次的词元对），少于要求的 {requested} 个。",
    "utf8_intro": "**非 ASCII 字符在 UTF-8 中的存储方式**（字节级 BPE 从这些字节出发）：",
    "utf8_line": "`{char}`：{n} 个字节，{bytes}",
    "err_corpus_missing": "服务器上没有{corpus}；请选择其他训练文本。",

    # ------------------------------------------------------------------ architecture
    "arch_explanation": (
        "**从配置到模型。** 选择一个预设，或展开配置自行修改。结构图显示整个堆叠：词元嵌入（加上位置），N 个相同的块，"
        "每块包含一个注意力子层和一个前馈子层，每个子层都包在残差连接和 LayerNorm 里（前置归一化在子层之前归一化，"
        "后置归一化在残差相加之后归一化，即 2017 年论文的做法），最后是输出头，为词表中每个词元给出一个分数。"
        "矩形树图中方块的大小就是参数量。每个块中，注意力有 $4(d_{model}^2 + d_{model})$ 个参数"
        "（$W_Q, W_K, W_V, W_O$ 及其偏置），前馈层有 $2\\,d_{model} d_{ff} + d_{ff} + d_{model}$ 个，"
        "每个 LayerNorm 有 $2\\,d_{model}$ 个。头数不改变参数量：多个头只是把 $d_{model}$ 分成几份，不增加权重。"
        "权重绑定时，输出头复用词元嵌入矩阵，只算一次。GPT-2 small 的结果是 124,439,808。每个词元的 FLOPs 只统计矩阵乘法，"
        "每次乘加算 2 FLOPs：词元乘过的每个权重算 2（查嵌入表不算，输出头要算），再加上每层对 $n$ 个键计算注意力分数的 "
        "$4\\,d_{model}\\,n$。"),
    "lbl_preset": "预设",
    "lbl_context_length": "上下文长度 n（用于 FLOPs 和内存）",
    "btn_draw": "绘制",
    "lbl_config": "配置",
    "lbl_arch": "结构",
    "lbl_positional": "位置编码",
    "lbl_norm": "LayerNorm 位置",
    "lbl_activation": "激活函数",
    "lbl_cfg_n_encoder_layers": "编码器层数",
    "lbl_cfg_n_decoder_layers": "解码器层数",
    "lbl_cfg_d_model": "d_model",
    "lbl_cfg_n_heads": "头数",
    "lbl_cfg_d_ff": "d_ff（前馈层宽度）",
    "lbl_cfg_vocab_size": "词表大小",
    "lbl_cfg_max_len": "max_len（最长输入）",
    "lbl_tie_weights": "输出头与嵌入绑定",
    "lbl_bias": "偏置",
    "lbl_scale_embedding": "嵌入乘以 √d_model",
    "lbl_diagram": "结构图",
    "lbl_treemap": "参数",
    "arch_encoder_decoder": "编码器-解码器",
    "arch_decoder_only": "仅解码器（GPT）",
    "arch_encoder_only": "仅编码器（BERT）",
    "fig_architecture": "结构：{arch}",
    "fig_treemap": "各部分的参数量：共 {total}",
    "arch_summary": "共 **{total}** 个参数。上下文为 {n} 时，一个词元的前向计算需要 **{flops}** FLOPs，"
                    "每个参数 {ratio:.2f} FLOPs。",
    "tm_model": "模型",
    "tm_encoder": "编码器",
    "tm_decoder": "解码器",
    "tm_head": "输出头",
    "tm_token_embedding": "词元嵌入",
    "tm_position_embedding": "位置嵌入",
    "tm_final_norm": "最终 LayerNorm",
    "tm_block": "第 {i} 块",
    "tm_self_attention": "自注意力",
    "tm_cross_attention": "交叉注意力",
    "tm_feed_forward": "前馈层",
    "tm_norms": "LayerNorm",
    "cost_parameters": "参数",
    "cost_flops": "每个词元的 FLOPs（n = {n}）",
    "cost_memory": "每个词元的激活内存，float32（n = {n}）",
    "cost_kv_cache": "每生成一个词元的 KV 缓存，float32",
    "comp_token_embeddings": "词元嵌入",
    "comp_position_embeddings": "位置嵌入",
    "comp_attention": "注意力投影",
    "comp_attention_scores": "注意力分数",
    "comp_feed_forward": "前馈层",
    "comp_norms": "LayerNorm",
    "comp_output_head": "输出头",
    "comp_embedding": "嵌入",
    "comp_residual": "残差流",
    "comp_attention_maps": "注意力图",
    "comp_logits": "logits",
    "comp_total": "合计",
    "col_quantity": "量",
    "col_component": "部分",
    "col_value": "数值",
    "dw_encoder": "编码器",
    "dw_decoder": "解码器",
    "dw_inputs": "输入词元",
    "dw_outputs": "输出词元（右移一位）",
    "dw_embedding": "词元嵌入",
    "dw_positional": "位置",
    "dw_self_attention": "自注意力",
    "dw_masked_self_attention": "带掩码的自注意力",
    "dw_cross_attention": "交叉注意力",
    "dw_feed_forward": "前馈层",
    "dw_layer_norm": "LayerNorm",
    "dw_residual": "+ 残差",
    "dw_final_norm": "最终 LayerNorm",
    "dw_head": "输出头",
    "dw_tied": "与嵌入绑定",
    "dw_heads": "个头",
    "dw_probabilities": "softmax → 下一个词元的概率",
}

"""简体中文 text of the app: the same keys and {names} as strings_en.py."""

ZH: dict[str, str] = {
    # ------------------------------------------------------------------ shell
    "locale_code": "zh-CN",
    "app_title": "# Transformer 游乐场\n一个手写的 Transformer，可以看清它的内部：注意力、逐词生成、位置编码、分词和参数。",
    "lbl_language": "语言",
    "tab_attention": "注意力",
    "tab_generate": "生成",
    "tab_train": "训练",
    "tab_positional": "位置编码",
    "tab_tokenizer": "分词器",
    "tab_architecture": "模型结构",
    "lbl_model": "模型",
    "lbl_examples": "示例（点击即可）",
    "lbl_explanation": "讲解",
    "lbl_seed": "随机种子",

    # ------------------------------------------------------------------ messages
    "err_internal": "应用内部出错了（{kind}）。你的会话仍然可用：修改输入后再试一次。",
    "err_not_text": "{what}必须是文本。",
    "err_server_full": "服务器已在为它能服务的最多学生（{n} 名）服务，他们此刻都在使用，所以无法为你打开会话。请过几分钟再试，等有人关闭了页面。",
    "err_queue_session": "你已有 {n} 个操作在排队。请等它们完成后再继续。",
    "err_queue_client": "你所在的网络已有 {n} 个操作在排队，超过一个班级所需。请等一些完成后再试。",
    "err_queue_group": "服务器上这类操作已有 {n} 个在排队。请过一分钟再试。",
    "err_empty": "{what}是空的：请输入一些文字。",
    "err_too_long": "{what}有 {length} 个字符，上限是 {limit} 个。请缩短。",
    "err_unknown_chars": "模型「{model}」不认识你输入中的 {count} 个字符：{chars}。请删除或替换它们。",
    "err_not_number": "{name}必须是 {low} 到 {high} 之间的数。",
    "err_not_integer": "{name}必须是整数，收到的是 {value}。",
    "err_out_of_range": "{name}是 {value}；请选择 {low} 到 {high} 之间的值。",
    "err_bad_choice": "{name}不能是「{value}」；请从以下选项中选择：{choices}。",
    "err_unknown_model": "没有名为「{name}」的模型；请从以下模型中选择：{choices}。",
    "err_trained_model_gone": "服务器上现在没有模型 “{name}”。在这里训练的模型只保存在服务器内存中：如果是本浏览器训练的，"
                              "说明服务器已重启（或在页面闲置时忘记了它）。请刷新页面：本浏览器保存了一份副本，会把它还给你。"
                              "从“训练”标签页下载过的模型也可以重新上传（使用你自己的模型）。现有模型：{choices}。",
    "err_kept_model_large": "你训练的模型 “{name}” 在服务器重启后没能恢复：它有 {size:.1f} MB，超过了浏览器能保存的 "
                            "{limit:.0f} MB。请上传从“训练”标签页下载的 .safetensors 文件（使用你自己的模型），或重新训练。"
                            "现有模型：{choices}。",
    "err_kept_model_unreadable": "你训练的模型 “{name}” 在服务器重启后没能恢复：本浏览器保存的副本无法读取。请上传从“训练”"
                                 "标签页下载的 .safetensors 文件（使用你自己的模型），或重新训练。现有模型：{choices}。",
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
    "param_norm_type": "归一化种类",
    "param_gated_ffn": "门控前馈层",
    "param_n_kv_heads": "键/值头数",
    "param_rope_base": "旋转位置基数",
    "param_qkv_bias": "q/k/v 偏置",

    # ------------------------------------------------------------------ words in figures
    "w_position": "位置",
    "w_dimension": "维度",
    "w_dim": "维",
    "w_value": "值",
    "w_cosine": "余弦相似度",
    "w_pair": "维度对",
    "w_dims": "维",
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
        "$$PE_{(pos,\\,2i)} = \\sin\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right)$$\n"
        "$$PE_{(pos,\\,2i+1)} = \\cos\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right)$$\n"
        "每一对维度 $(2i, 2i+1)$ 就像一根以自己速度转动的时钟指针：第 0 对每 $2\\pi \\approx 6.3$ 个位置转一圈，"
        "最后一对几乎要 $2\\pi \\cdot 10000$ 个位置。低维变化快（精细的位置），高维变化慢（粗略的位置）。"
        "因为 $pos + k$ 处的正弦和余弦是 $pos$ 处的一个固定旋转，$pos + k$ 的编码是 $pos$ 的编码的线性函数，"
        "注意力因此可以学会相对距离。相似度矩阵显示：相近的位置编码也相近。在配置了的模型中，词元嵌入在加上位置之前"
        "会乘以 $\\sqrt{d_{model}}$，使两者大小相当。"),
    "lbl_d_model": "d_model（维数）",
    "lbl_length": "显示的位置数",
    "lbl_dims": "画成曲线的维度",
    "pos_model_heading": "### 模型自己的位置向量\n选择一个模型，查看它加到词元嵌入上的位置向量。",
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
    "shuffle_summary": "原文：“{original}”  \n打乱后：“{shuffled}”",
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
    "fig_char_tokens": "字符：{n} 个词元",
    "fig_bpe_tokens": "字节级 BPE：{n} 个词元",
    "fig_merges": "前 {n} 条合并规则，按学到的先后排列",
    "token_counts": "**{chars}** 个字符 → **{n_char}** 个字符词元（词表 {char_vocab}）和 **{n_bpe}** 个 BPE 词元"
                    "（词表 {bpe_vocab}，要求 {requested}）：每个 BPE 词元平均 {ratio:.2f} 个字符。"
                    "两者都在{corpus}上训练（{corpus_chars:,} 个字符）。",
    "token_unknown": "字符分词器从没见过这段文本中的 {count} 个字符（{chars}），它们变成了 `<unk>`。字节级 BPE 则把它们写成字节。",
    "token_vocab_capped": "训练文本只能支持 {got} 个词元（已没有出现至少两次的词元对），少于要求的 {requested} 个。",
    "utf8_intro": "**非 ASCII 字符在 UTF-8 中的存储方式**（字节级 BPE 从这些字节出发）：",
    "utf8_line": "“{char}”：{n} 个字节，{bytes}",
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
    "norm_pre": "前置归一化",
    "norm_post": "后置归一化",
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
    "lbl_norm_type": "归一化种类",
    "normtype_layernorm": "LayerNorm",
    "normtype_rmsnorm": "RMSNorm（不减均值，无偏置）",
    "lbl_gated_ffn": "门控前馈层（SwiGLU，配 silu）",
    "lbl_cfg_n_kv_heads": "键/值头数（0：每个查询头一个）",
    "lbl_cfg_rope_base": "旋转位置基数（rope）",
    "lbl_qkv_bias": "只在 q/k/v 上有偏置（Qwen2）",
    "lbl_scale_embedding": "嵌入乘以 √d_model",
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
    "tm_rms_norms": "RMSNorm",
    "tm_final_rms_norm": "最终 RMSNorm",
    "tm_queries": "查询",
    "tm_keys_values": "键和值",
    "tm_attention_out": "输出",
    "tm_gate": "门",
    "tm_up": "上投影",
    "tm_down": "下投影",
    "cost_parameters": "参数",
    "cost_flops": "每个词元的 FLOPs（n = {n}）",
    "cost_memory": "每个词元的激活内存，float32（n = {n}）",
    "cost_kv_cache": "每生成一个词元的 KV 缓存，float32",
    "cost_kv_cache_mha": "每个查询头各有一个键/值头时，每生成一个词元的 KV 缓存，float32",
    "arch_summary_gqa": "它的 {heads} 个查询头共用 {kv_heads} 个键/值头，所以 KV 缓存每个词元只存 **{kv}**，而不是 {full}：小了 {saving:g} 倍。",
    "comp_token_embeddings": "词元嵌入",
    "comp_position_embeddings": "位置嵌入",
    "comp_attention": "注意力投影",
    "comp_attention_scores": "注意力分数",
    "comp_feed_forward": "前馈层",
    "comp_norms": "归一化层（LayerNorm 或 RMSNorm）",
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
    "dw_heads_grouped": "个查询头，共用 {kv} 个键/值头",
    "dw_rms_norm": "RMSNorm",
    "dw_gated": "门控{ff}",
    "dw_probabilities": "softmax → 下一个词元的概率",
    "dw_block": "块",
    "dw_positional_sinusoidal": "正弦",
    "dw_positional_learned": "可学习",
    "dw_positional_rope": "RoPE（q、k）",
    "dw_positional_none": "无",
    # ------------------------------------------------------------------ attention
    "attention_explanation": (
        "**注意力**让每个位置从其他位置收集信息。每个头计算查询 $Q = XW_Q$、键 $K = XW_K$ 和值 $V = XW_V$，并返回\n"
        "$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M\\right)V$$\n"
        "其中 $d_k$ 是头的维度，掩码 $M$ 在查询不允许看的位置取 $-\\infty$。每张热力图中，一行是一个查询词元，"
        "一列是一个键词元；每行之和为 1。网格同时显示所有层（行）和头（列）；在下面选择层和头，可放大其中一个并标出词元。\n\n"
        "解码器的因果掩码去掉了上三角：查询只能看到自己和之前的词元，永远看不到之后的。交叉注意力的行是目标词元、"
        "列是源词元：复制模型画出对角线，倒序模型画出反对角线。除以 $\\sqrt{d_k}$ 使 $q$ 和 $k$ 各分量方差为 1 时"
        "分数的方差保持在 1 附近；否则 softmax 会饱和、梯度消失。序列到序列模型的目标留空时，由模型自己写出（贪心解码）。"),
    "scores_explanation": (
        "**头的得分**（都在 0 到 1 之间）：*前一个词元*，查询放在紧挨它前面那个词元上的平均权重；*第一个词元*，"
        "放在位置 0 上的权重（「注意力汇聚点」）；*熵*，权重有多分散（0 = 只看一个键，1 = 在能看到的键上均匀分布）；"
        "*归纳*，放在「当前词元上一次出现时紧跟其后的词元」上的权重：这正是接着写出重复文本所需的查找；"
        "*对角线* / *反对角线*（交叉注意力），目标位置 i 读取源位置 i 或其镜像位置的程度：即复制和倒序。\n\n"
        "在一个输入上得分高，并不足以称之为归纳头：文本中字母会重复，所以即使是把权重平均分配的头也会有一些归纳得分。"
        "表格下方给出模型在「随机词元写两遍」上的测量：只有在那里得分至少 0.3（未训练的头约为 0.05），并且模型在第二遍上"
        "的损失至多为第一遍的一半时，才把这个头称为归纳头。在随附的模型中，只有 **induction** 有这样的头。"),
    "lbl_attention_text": "输入",
    "lbl_attention_target": "解码器目标（留空由模型写出）",
    "btn_show_attention": "显示注意力",
    "lbl_attention_kind": "注意力类型",
    "lbl_layer": "层",
    "lbl_head": "头",
    "lbl_mean_heads": "该层所有头的平均",
    "lbl_score": "头的得分",
    "btn_best_head": "放大这个得分最高的头",
    "lbl_timeline": "训练时间线：保存于第几步的权重",
    "timeline_explanation": (
        "**训练时间线。** 这个预训练模型在训练的若干步保存了下来。选择一步，所有视图都会用那一刻的权重重新绘制："
        "第 0 步是未训练的模型，最后一步是训练完成的模型。一步步往后看注意力头如何形成：复制模型的对角线；"
        "在 **induction** 模型中，第 1 层的归纳头在第 250 到 400 步之间、损失骤降时形成。"),
    "lbl_shapes": "前向计算：每一步的张量形状",
    "kind_encoder": "编码器自注意力",
    "kind_decoder": "解码器自注意力（因果）",
    "kind_cross": "交叉注意力（目标 → 源）",
    "score_previous_token": "前一个词元",
    "score_first_token": "第一个词元",
    "score_entropy": "熵",
    "score_induction": "归纳",
    "score_diagonal": "对角线（复制）",
    "score_anti_diagonal": "反对角线（倒序）",
    "param_kind": "注意力类型",
    "param_layer": "层",
    "param_head": "头",
    "param_score": "头的得分",
    "w_query": "查询",
    "w_key": "键",
    "w_weight": "权重",
    "w_block": "{block} × {block} 中的最大值",
    "w_layer": "层",
    "w_head": "头",
    "w_kv_group": "键/值头 {kv}：头 {first}–{last}",
    "w_stage": "阶段",
    "w_tensor": "张量",
    "w_shape": "形状",
    "w_note": "含义",
    "fig_attention_grid": "{kind}：所有层 × 头",
    "fig_attention_head": "{kind}：第 {layer} 层，第 {head} 个头",
    "fig_attention_mean": "{kind}：第 {layer} 层，各头平均",
    "fig_head_scores": "每个头的「{score}」得分（{kind}）",
    "fig_shapes": "前向计算中的张量形状（B = 批大小，T/S = 目标/源长度，D = d_model，H = 头数，Dh = 头的维度，"
                  "F = d_ff，V = 词表大小）",
    "best_heads_intro": "**得分最高的头：**",
    "best_head_line": "{score}：第 {layer} 层，第 {head} 个头（{value:.2f}）",
    "attention_summary": "**{model}**：{arch}，d_model {d_model}，{heads} 个头，{layers}，{params} 个参数。"
                         "输入共 {n} 个词元。",
    "attention_layers_encoder_decoder": "{enc} 层编码器和 {dec} 层解码器",
    "attention_layers_decoder_only": "{dec} 层解码器",
    "attention_layers_encoder_only": "{enc} 层编码器",
    "attention_generated": "目标由模型自己写出：“{target}”",
    "attention_untrained": "这个模型没有训练过（随机权重）：它的注意力接近均匀。和训练好的模型比较一下。",
    "attention_timeline_step": "权重来自训练时间线的第 {step} 步（共 {last} 步）。",
    "err_too_many_tokens": "{what}有 {n} 个词元；这个视图最多显示 {limit} 个。请缩短。",
    "shape_stage_embedding": "{stack}：嵌入",
    "shape_stage_final_norm": "{stack}：最终归一化",
    "shape_stage_block": "{stack}第 {i} 块：{sublayer}",
    "shape_stage_output": "输出",
    "shape_sublayer_self_attn": "自注意力",
    "shape_sublayer_cross_attn": "交叉注意力",
    "shape_sublayer_ffn": "前馈层",
    "shape_scaled": "，乘以 sqrt({d})",
    "shape_note_tok_embed": "词元嵌入{scaled}：每个词元一个 {d} 维向量",
    "shape_note_pos_embed": "{positional} 位置编码，加到词元嵌入上",
    "shape_note_final_norm_pre": "最终的 LayerNorm",
    "shape_note_final_norm_rmsnorm": "最终的 RMSNorm（按均方根缩放，不减均值）",
    "shape_note_final_norm_post": "离开最后一块的残差流（后置归一化没有最终 LayerNorm）",
    "shape_note_q": "查询 = x W_Q，拆成 {h} 个 {dh} 维的头",
    "shape_note_k": "键：{source} × W_K，拆成 {h} 个 {dh} 维的头",
    "shape_note_v": "值：{source} × W_V，拆成 {h} 个 {dh} 维的头",
    "shape_source_same": "同一序列",
    "shape_source_encoder": "编码器输出",
    "shape_note_scores": "Q K^T / sqrt({dh})：每对查询-键一个分数，在掩码之前",
    "shape_note_weights": "对键做 softmax，每行之和为 1；{mask}",
    "shape_mask_encoder": "每个位置看所有位置（填充被屏蔽）",
    "shape_mask_decoder": "因果：位置 t 只看键 0..t",
    "shape_mask_cross": "每个目标位置看所有源词元",
    "shape_note_out": "各头加权后的值拼回 {d} 维，再乘以 W_O",
    "shape_note_resid_pre": "进入该块的残差流",
    "shape_note_resid_mid": "加上自注意力输出后的残差流",
    "shape_note_resid_cross": "加上交叉注意力输出后的残差流",
    "shape_note_ffn_hidden": "{act}(x W_1 + b_1)：每个位置从 {d} 维扩展到 {f} 维",
    "shape_note_ffn_gate": "{act}(x W_gate)：门，每个位置 {f} 个值",
    "shape_note_ffn_hidden_gated": "门 × (x W_up)：每个位置从 {d} 维扩展到 {f} 维",
    "shape_note_ffn_out": "x W_2 + b_2：回到 {d} 维",
    "shape_note_resid_post": "离开该块的残差流",
    "shape_note_logits": "词表中每个词元一个分数（{v} 个）；softmax 把它们变成下一个词元的概率",
    # ------------------------------------------------------------------ generate
    "generate_explanation": (
        "**生成是一个循环。** 模型读入提示词，为词表中每个词元给出它作为下一个词元的概率；选出一个词元，接到末尾，再送回模型。"
        "*贪心*总是选概率最大的词元。*采样*在最多三个过滤器之后随机抽取，顺序如下：*温度* $T$ 在 softmax 之前除 logits，"
        "$p_i = e^{z_i/T} / \\sum_j e^{z_j/T}$（$T < 1$ 更尖锐，$T > 1$ 更平坦）；*top-k* 只保留概率最大的 $k$ 个词元；"
        "*top-p*（核采样）保留概率最大、累计概率至少为 $p$ 的最小词元集合。每个过滤器之后，保留的概率重新归一化，和为 1。"
        "每次抽取只取决于随机种子和位置，所以先「后退」再「单步」会选出同一个词元。*束搜索*在每一步保留 *束宽* 个"
        "（按对数概率之和）最可能的部分输出，返回最好的已完成输出，排名依据是对数概率除以长度；树图显示它保留过的每个假设，"
        "最优路径为红色。KV 缓存保存每层的键和值，所以每一步只需把新词元送进模型，因果矩阵也就每步多填一行。"),
    "lbl_prompt": "提示词",
    "lbl_prompt_source": "源文本（编码器读入，解码器写出结果）",
    "btn_step": "单步",
    "btn_run": "运行",
    "btn_stop": "停止",
    "btn_back": "后退",
    "btn_reset": "重置",
    "lbl_output": "目前的文本",
    "lbl_strategy": "解码方式",
    "strategy_greedy": "贪心",
    "strategy_sample": "采样",
    "strategy_beam": "束搜索",
    "lbl_temperature": "温度",
    "lbl_top_k": "Top-k",
    "lbl_top_p": "Top-p",
    "lbl_max_new": "新词元数",
    "lbl_beam_width": "束宽",
    "info_temperature": "1 = 不变",
    "info_top_k": "0 = 关闭",
    "info_top_p": "1 = 关闭",
    "info_seed": "种子相同，抽样相同",
    "info_max_new": "最多",
    "info_beam_width": "仅用于束搜索",
    "param_strategy": "解码方式",
    "param_temperature": "温度",
    "param_top_k": "Top-k",
    "param_top_p": "Top-p",
    "param_max_new": "最多新词元数",
    "param_beam_width": "束宽",
    "stage_raw": "原始",
    "stage_temperature": "温度之后",
    "stage_top_k": "top-k 之后",
    "stage_top_p": "top-p 之后",
    "w_chosen": "选中",
    "w_token": "词元",
    "w_probability": "概率",
    "w_layer_head": "第{layer}层·第{head}头",
    "w_layer_and_head": "层，头",
    "w_step": "步",
    "w_score": "得分",
    "w_logprob": "对数概率",
    "fig_candidates": "第 {index} 步：下一个词元的候选，{settings}（选中：{token}）",
    "fig_token_attention_self": "新词元 {token} 在每一层、每个头看向哪里",
    "fig_token_attention_cross": "新词元 {token} 读取哪些源词元（交叉注意力）",
    "fig_filling": "因果自注意力，第 {layer} 层，第 {head} 个头：每步新增一行",
    "fig_beam_tree": "束搜索树（束宽 {width}）",
    "span_prompt": "提示词",
    "span_generated": "生成",
    "span_new": "最新",
    "status_ready": "**{model}** 已读入提示词（{n} 个词元）。按「单步」选出下一个词元，或按「运行」。",
    "status_beam_ready": "束搜索一次完成整个搜索：请按「运行」。（{model}）",
    "status_step": "第 {index} 步：用{strategy}选中 **{token}**，概率 {p:.3f}（原始：{raw:.3f}）。",
    "status_context": "已生成 {generated} 个新词元；模型的 {max_len} 个位置中已用 {used} 个。",
    "status_kv_cache": "KV 缓存：{tokens} 个词元 × {per_token} = {total}。",
    "status_kv_cache_grouped": "KV 缓存：{tokens} 个词元 × {per_token} = {total}。{n_heads} 个查询头共享 {n_kv_heads} 个键/值头（分组查询注意力）；完整的多头注意力要存 {full}，是现在的 {saving} 倍。",
    "status_slid": "上下文已满：窗口向后滑动，现在从第 {start} 个词元开始。",
    "reason_eos": "结束：模型写出了序列结束词元 `<eos>`。",
    "reason_budget": "结束：新词元数已达上限。",
    "reason_context": "结束：模型的上下文已满。",
    "reason_short_eos": "序列结束",
    "reason_short_budget": "达到上限",
    "reason_short_context": "上下文已满",
    "beam_best": "**最优：** “{text}”（对数概率 {logprob:.3f}，得分 {score:.3f}）",
    "beam_capped": "搜索在 **{n}** 个新词元处停止，而不是 {asked} 个：词表有 {vocab:,} 个词元、共 {width} 条束，"
                   "每一步要给 {vocab:,} × {width} 个延续排序，更长的搜索会拖慢共享的机器。束宽更窄就能走得更远。",
    "beam_hypothesis": "{rank}. “{text}”：得分 {score:.3f}（{reason}）",
    "err_beam_steps": "束搜索是一次完成的：请按「运行」，或选择贪心或采样来单步生成。",
    "err_generation_finished": "生成已经结束（{reason}）。按「后退」撤销上一步，或按「重置」重新开始。",
    "err_nothing_to_undo": "没有可撤销的：还没有生成任何词元。",
    "err_prompt_context": "提示词有 {n} 个词元，但 {model} 最多读取 {limit} 个。请缩短。",
    # ------------------------------------------------------------------ own models
    "lbl_own_model": "使用你自己的模型",
    "own_model_explanation": "载入由本游乐场保存的检查点（一个 `.safetensors` 文件，例如由 `python -m playground.train` 生成）。"
                             "使用前会先检查，绝不反序列化 pickle，而且只有当前浏览器会话能看到它。",
    "lbl_upload": "检查点（.safetensors）",
    "upload_done": "已载入 **{name}**（{arch}，{params} 个参数）。所有能使用它的标签页都已选中它。",
    "err_upload_type": "「{name}」不是 .safetensors 文件；请用本游乐场保存模型并上传该文件。",
    "err_upload_size": "文件大小为 {size} MB；上限是 {limit} MB。",
    "err_upload_checkpoint": "这个文件无法使用：{error}",
    "err_upload_not_safetensors": "这个文件不是 safetensors 检查点。请上传用训练页「下载」按钮保存的模型（.safetensors 文件）。",
    "err_upload_pickle": "这个文件是 Python pickle（PyTorch 的 .pt、.pth 或 .bin 文件）。pickle 被打开时可能执行代码，"
                         "所以本游乐场从不打开它：请上传 .safetensors 检查点。",
    "err_upload_damaged": "这个检查点不完整或已损坏。请重新下载模型并上传新文件。",
    "err_upload_foreign_tokenizer": "这个检查点的分词器带有 Playground 不运行的部分：{parts}。Playground 只读取它自己写出的"
                                    "字节级 BPE（词表及其合并规则）；请上传用 Playground 保存的模型。",
    "err_upload_not_playground": "这个 safetensors 文件不是本游乐场保存的：它没有模型配置和分词器。请上传用训练页「下载」按钮"
                                 "保存的模型；Hugging Face Hub 上的 GPT-2 可以在下方按名称载入。",
    # ------------------------------------------------------------------ train
    "train_explanation": (
        "**训练**就是调整权重，让正确的词元更可能出现。每一步取一批样例让模型运行（解码器读入的是正确的前文词元，"
        "而不是它自己的猜测：这叫教师强制），并计算交叉熵损失，即对目标词元取 $-\\log p(y)$ 的平均（$y$ 为正确词元）"
        "（掩码语言模型只在被选中预测的 15% 位置上计算，其中多数显示为 `<mask>`）。若模型把概率平均分给 $V$ 个词元，"
        "损失为 $\\ln V$；完美的模型损失为 0。反向传播求出损失对每个权重的梯度，AdamW 沿梯度的反方向走一步"
        "（梯度按你设定的范数裁剪，默认为 1，也可以不裁剪）。学习率在预热步数内线性上升，然后按你选择的调度变化（预设沿余弦曲线下降，到最后一步降到峰值的十分之一；归纳任务保持学习率不变）。\n\n"
        "**曲线。** 训练损失是自上一个点以来各步的平均。验证损失和准确率（预测正确的词元比例）在模型从未训练过的"
        "留出样例上测量；对复制、倒序、排序和日期任务，*完全匹配*是整段贪心输出完全正确的留出输入所占的比例。"
        "每秒词元数统计每秒训练读入的词元。\n\n"
        "**探针。** 每隔几秒，一个固定的留出输入会通过模型，并画出它的注意力，每层每个头一张小图。在复制任务上，"
        "交叉注意力大约在损失骤降时形成一条对角线（输出位置 $i$ 读取输入位置 $i$）；倒序任务则画出反对角线。"
        "在归纳任务上（8 到 32 个随机词元组成的片段一遍遍重复），损失先停在平台上，当第 1 层的某个头开始查找"
        "当前词元一个周期之前紧跟着的词元时骤然下降；选择*归纳*得分，会把它和第 0 层的前一个词元得分画在一起，"
        "并标出它第一次达到归纳头阈值的那一步。训练过程中的头分数显示哪个头逐渐专门化；样例显示模型现在写出的内容：贪心输出（序列到序列）、"
        "采样得到的续写（语言模型），或它在被选中位置上的猜测（掩码语言模型）。\n\n"
        "**按钮。** 开始：用左侧的设置从随机权重训练一个新模型；停止：在两步之间结束本轮；继续：从停下的地方"
        "精确地接着训练；单步：训练几步后显示结果；重置：清除这次训练。每轮训练有时间上限；本服务器上所有人的训练"
        "共享它的 CPU，并排队等待空闲名额，界面会显示你在队列中的位置。一轮结束后，模型会出现在每个标签页的模型"
        "选择器中（只对你可见），“下载”会把它连同配置、分词器和模型卡保存为一个 .safetensors 文件，"
        "可以在“使用你自己的模型”中重新载入。"),
    "lbl_train_task": "任务",
    "task_copy": "复制",
    "task_reverse": "倒序",
    "task_sort": "排序",
    "task_dates": "日期规范化",
    "task_char_lm": "字符级语言模型",
    "task_bpe_lm": "BPE 语言模型",
    "task_masked_lm": "掩码语言模型",
    "lbl_train_data": "训练文本",
    "data_bundled": "内置文本",
    "data_tiny_shakespeare": "tiny Shakespeare（莎士比亚）",
    "data_pasted": "粘贴文本",
    "lbl_train_text": "你的文本",
    "lbl_train_file": "文本文件（.txt，UTF-8）",
    "lbl_train_architecture": "模型结构",
    "lbl_train_layers": "层数（每个堆栈）",
    "lbl_train_dropout": "Dropout（丢弃率）",
    "lbl_train_optimiser": "优化器",
    "lbl_train_lr": "峰值学习率",
    "lbl_train_warmup": "预热步数",
    "lbl_train_batch": "批大小",
    "lbl_train_steps": "步数",
    "btn_train_start": "开始",
    "btn_train_resume": "继续",
    "btn_train_step": "单步",
    "btn_train_download": "下载模型（.safetensors）",
    "lbl_train_probe_kind": "探针输入上的注意力",
    "lbl_train_score": "训练中跟踪的头分数",
    "param_task": "任务",
    "param_data": "训练文本",
    "param_layers": "层数",
    "param_dropout": "丢弃率",
    "param_lr": "学习率",
    "param_warmup": "预热步数",
    "param_batch_size": "批大小",
    "param_steps": "步数",
    "param_tie_weights": "权重绑定",
    "param_bias": "偏置",
    "param_probe_kind": "显示的注意力",
    "what_train_text": "训练文本",
    "train_estimate": "**{params}** 个参数（词表约 {vocab} 个）；每个训练步约需 **{gflops:.1f} GFLOPs**。"
                      "这台共享 CPU 的上限：{max_params} 个参数，每步 {max_gflops:.0f} GFLOPs。",
    "train_status_idle": "选择一个任务并按 **开始**：模型从随机权重开始。",
    "train_status_queued": "正在等待空闲的训练名额：你排在第 {place} 位，大约 {seconds} 秒后轮到你（每次训练最多 {run} 秒，常常更短）。你在队列中的位置也显示在下方的图表上。",
    "train_status_building": "正在准备数据和模型……",
    "train_status_started": "一个新的{task}模型，{params} 个参数，尚未训练。",
    "train_state_running": "**训练中……**",
    "train_state_paused": "**已暂停**：每次运行（开始或继续）最多训练 {seconds:.0f} 秒，好让每个人都轮得到。按“继续”接着训练。",
    "train_state_stepped": "**又训练了 {n} 步。** 再按“单步”，或按“继续”。",
    "train_state_stopped": "**已停止。** “继续”会从停下的地方精确地接着训练。",
    "train_state_finished": "**已完成**全部 {steps} 步。",
    "train_state_diverged": "**训练发散**：{message}",
    "train_progress": "第 **{step}** 步，共 {steps} 步 · 各次运行共训练 {elapsed:.1f} 秒 · 训练损失 **{loss:.3f}** · "
                      "学习率 {lr:.2e} · 每秒 {tokens_per_s:,.0f} 个词元",
    "train_heldout": "留出集，第 {step} 步：验证损失 **{val_loss:.3f}**（困惑度 **{perplexity:.2f}**）· 准确率 **{accuracy}**{exact}",
    "train_exact": " · 完全匹配 **{exact}**",
    "train_computed": "计算方式：{where}。",
    "train_computed_on": "在 {device} 上用 {how}",
    "train_gpu_quota": "**GPU 被拒绝：你今天的 GPU 配额已用完**，训练改在 CPU 上继续（更慢，但不会丢失进度）。{left}{when}到时按“继续”即可再用 GPU 训练。（{detail}）",
    "train_gpu_signed_out": "**GPU 被拒绝：你没有登录 Hugging Face**，访客的少量 GPU 配额已用完，训练改在 CPU 上继续（更慢，但不会丢失进度）。{when}在 huggingface.co 登录（免费账号有自己的每日配额），刷新本页后按“继续”。（{detail}）",
    "train_gpu_outside_hf": "**GPU 被拒绝：本页不是在 huggingface.co 上打开的**，因此它和所有这样打开的人共用这个 Space 的一小份 GPU 配额，用不上你自己的配额；训练改在 CPU 上继续（更慢，但不会丢失进度）。请打开 {link}，登录后在那里训练。（{detail}）",
    "train_gpu_space_page": "这个 Space 在 huggingface.co 上的页面",
    "train_gpu_busy": "**现在没有空闲的 GPU**，训练改在 CPU 上继续（更慢，但不会丢失进度）；过一分钟按“继续”会再试 GPU。（{detail}）",
    "train_gpu_unavailable": "**无法使用 GPU**，训练改在 CPU 上继续（更慢，但不会丢失进度）。（{detail}）",
    "train_gpu_left": "还剩 {seconds} 秒配额。",
    "train_gpu_retry": "配额将在 {retry_in} 后恢复。",
    "btn_train_download_best": "下载最佳权重",
    "train_best": "验证损失在第 {step} 步最低（{val_loss:.3f}）：之后的训练更多地拟合了训练数据，而不是留出数据。那一步的权重也可以下载（下载最佳权重）。",
    "train_published": "这个模型现在以 **{name}** 出现在每个标签页的模型选择器中（仅限本会话）；“下载”可以保存它。",
    "train_sample_seq2seq": "**模型现在写出的内容**（第 {step} 步，贪心解码，留出输入）：",
    "train_sample_lm": "**模型现在写出的内容**（第 {step} 步）：探针文本的开头，然后是以温度 {temperature} 采样的续写：",
    "train_sample_mlm": "**模型现在写出的内容**（第 {step} 步）：它在被选中位置上的猜测：",
    "col_train_input": "输入",
    "col_train_output": "模型",
    "col_train_expected": "期望",
    "fig_train_curves": "训练：{task}",
    "fig_train_probe": "第 {step} 步的探针输入：{kind}",
    "fig_train_scores": "训练过程中每个头的{score}",
    "w_loss": "损失",
    "w_train_loss": "训练损失",
    "w_val_loss": "验证损失",
    "w_accuracy": "准确率",
    "w_exact_match": "完全匹配",
    "w_learning_rate": "学习率",
    "w_tokens_per_s": "词元/秒",
    "err_config_stacks": "编码器-解码器至少需要一个编码器层和一个解码器层。",
    "err_heads_divide": "d_model（{d_model}）必须是头数（{heads}）的倍数：每个头分到 d_model / 头数 个维度。"
                        "试试 d_model = {suggestion}。",
    "err_rope_head_dim": "RoPE 成对旋转维度，所以头的大小 d_model / 头数 必须是偶数（现在是 {head_dim}）。"
                         "请修改 d_model 或头数。",
    "err_kv_heads_divide": "{heads} 个查询头平均分组共用键/值头，所以键/值头数必须能整除 {heads}（{kv_heads} 不能）。请用 {choices} 之一，或用 0 表示每个查询头一个。",
    "err_warmup_steps": "预热（{warmup} 步）比整个训练（{steps} 步）还长。请减少预热步数。",
    "err_train_too_large": "这个模型有 {params} 个参数；这台共享 CPU 最多实时训练 {limit} 个。"
                           "请减少层数，或减小 d_model 或 d_ff。",
    "err_train_vocab": "这段文本有 {vocab} 种不同的字符，用它训练的模型会有 {vocab} 个词元；"
                       "这里的模型最多 {limit} 个。请换一段不同字符更少的文本。",
    "err_train_too_slow": "一个训练步约需 {gflops:.1f} GFLOPs；这台共享 CPU 最多允许 {limit:.0f}。"
                          "请减小批大小、d_model、d_ff 或层数。",
    "err_shakespeare_missing": "这台服务器上没有 tiny Shakespeare：本地没有副本，也无法下载。"
                               "请选择内置文本，或粘贴、上传一段文本。",
    "err_text_file_missing": "请先选择要上传的 .txt 文件，或换一种训练文本。",
    "err_text_file_type": "「{name}」不是 .txt 文件。请上传文件名以 .txt 结尾的纯文本文件。",
    "err_text_file_size": "文件大小为 {size:.1f} MB；文本文件上限为 {limit} MB。请上传更短的文本。",
    "err_text_not_utf8": "「{name}」不是 UTF-8 文本（第 {position} 个字节不是有效的 UTF-8）。"
                         "请另存为 UTF-8 后重新上传。",
    "err_train_text_short": "文本对这个块大小来说太短：共 {tokens} 个词元，{train} 个用于训练，{val} 个留作衡量模型；块大小 {block_size} 在两部分中各至少需要 {needed} 个。请粘贴更长的文本，或把“块大小”设为不超过 {largest}。",
    "err_train_text_short_any": "文本太短：共 {tokens} 个词元，{train} 个用于训练，{val} 个留作衡量模型；即使最小的“块大小”也需要更多。请粘贴更长的文本。",
    "note_followed": "现在显示 **{model}**：本会话当前使用的模型（最近选择、上传或训练的那个）。",
    "note_followed_replaced": "现在显示 **{model}**：本会话当前使用的模型。它读不懂之前的输入，所以视图从它自己的示例开始。",
    "train_status_refused": "未开始：表单被拒绝（见按钮旁的说明）。",
    "err_train_setup": "无法开始训练：{error}",
    "err_train_running": "本会话已经有一个训练在运行。请先按“停止”，或等它结束。",
    "err_train_nothing": "没有可以继续的训练：请先按“开始”（或“单步”）。",
    "err_train_finished": "这次训练已完成全部 {steps} 步。请调高步数并按“开始”训练一个新模型。",
    "err_train_diverged": "这次训练发散了（{message}）。请修改设置后按“开始”。",
    "err_train_stop_timeout": "训练还没有停下；请稍后再按一次“停止”。",
    # ------------------------------------------------------------------ labs
    "tab_labs": "实验室",
    "labs_explanation": (
        "**实验室**里的每个实验都用实验回答一个问题。*错误*实验把正确模型和一个换入了经典错误的模型并排训练"
        "（模型代码本身没有“错误开关”：错误是通过替换一个组件引入的，就像它本来会被写错的那样）。*消融*实验每次只改变"
        "一个设计选择。所有变体从同一个随机种子出发，按同样的顺序读取同样的批次；在结构相同的地方，初始权重也完全相同。"
        "它们轮流训练，所以中途停下的实验也是在同一步上比较。\n\n"
        "**怎么看一个实验。** 曲线把各个变体叠在一起（训练损失为实线，验证损失为虚线）。注意力网格在同一个留出输入上"
        "并排显示参考模型和一个变体，可选训练前或训练后。检查项直接测量症状（例如：改动后面的词元，前面的 logit 会不会变）。"
        "每次完成或停止的运行都会保存在本会话中，方便与下一个实验比较。"),
    "lbl_lab": "实验",
    "lab_kind_bug": "错误",
    "lab_kind_ablation": "消融",
    "btn_lab_run": "运行实验",
    "lbl_lab_metric": "曲线",
    "lab_metric_losses": "损失和验证损失",
    "lab_metric_accuracy": "准确率",
    "lab_metric_exact_match": "完全正确率",
    "lbl_lab_variant": "与参考模型对比的变体",
    "lbl_lab_kind": "注意力",
    "lbl_lab_stage": "时间点",
    "lab_stage_start": "训练前",
    "lab_stage_end": "训练后",
    "lbl_lab_kept": "本会话保存的结果（勾选以比较）",
    "btn_lab_forget": "清除保存的结果",
    "param_lab": "实验",
    "param_lab_kept": "保存的结果",
    "param_lab_metric": "曲线",
    "param_lab_variant": "变体",
    "param_lab_kind": "注意力",
    "param_lab_stage": "时间点",
    "lab_card_question": "**{kind}。** {question}",
    "lab_card_varies": "**区别在于：** {varies}。**数据：** {data}。",
    "lab_card_size": "{layers} 层 · d_model {d_model} · {heads} 个头 · {steps} 步，每批 {batch} · 峰值学习率 {lr:g} · "
                     "种子 {seed} · 总共最多 {budget:.0f} 秒。",
    "lab_data_task": "{task}任务（{knobs}）",
    "lab_data_corpus": "{corpus}，每个字符一个词元，窗口长度 {block}",
    "lab_card_variants": "**参考：** {reference} · **与它并排训练：** {others}",
    "list_separator": "、",
    "lab_status_idle": "按 **运行实验**：所有变体从同一个种子出发轮流训练，总共最多 {budget:.0f} 秒。",
    "lab_status_queued": "正在等待空闲的训练名额；你在队列中的位置显示在图表上。",
    "lab_status_building": "正在构建各个变体，并在训练前测量它们……",
    "lab_status_running": "**训练中……** 已完成计划步数的 {percent:.0%} · 用时 {elapsed:.1f} 秒（上限 {budget:.0f} 秒）",
    "lab_status_variant": " · 最近一轮：第 {step} 步（共 {steps} 步），损失 {loss:.3f}",
    "lab_status_stopping": "**正在停止**，等当前这一轮结束……",
    "lab_status_done": "**完成**：{step} 步，用时 {seconds:.1f} 秒。结果已保存在下方。",
    "lab_status_stopped": "**已停止**，停在第 {step} 步（共 {steps} 步，{seconds:.1f} 秒）：各变体在这一步上比较。"
                          "结果已保存在下方。",
    "fig_lab_curves": "{title}：各变体并排比较",
    "fig_lab_attention": "<b>{variant}</b><br>{stage}（第 {step} 步）",
    "fig_lab_compare": "保存的结果：验证损失",
    "lab_explanation_heading": "#### 这些运行说明了什么",
    "lab_no_result": "运行实验后，这里会显示每个变体的曲线、注意力、检查项和输出。",
    "lab_this_run": "#### 本次运行\n种子 {seed} · 数据：{data}",
    "lab_samples_heading": "**训练后各变体写出的内容**（留出输入）：",
    "lab_sample_expected": "应为",
    "lab_kept_item": "#{number} {title} · {seconds:.0f} 秒 · 第 {step} 步",
    "err_lab_running": "本会话已有一个实验在运行。请先按“停止”，或等它结束。",
    # Hostile uploads: a model over the upload limits is refused from its config
    "err_upload_too_large": "这个模型超出了本应用接受的大小：{field} 为 {value}，上限是 {limit}（上传的模型与训练页使用相同的限制）。",
    "upload_field_parameters": "参数量",
    "upload_field_tokenizer_bytes": "分词器的字节数",

    # Links, forms and the Attention tab's refusal state (issue 16)
    "err_form_not_text": "{name}必须是文字。",
    "err_form_too_long": "{name}有 {length} 个字符，上限是 {limit}。请缩短。",
    "err_form_not_flag": "{name}只能是开或关（链接中写 1 或 0），收到的是 {value}。",
    "link_repeated": "{name}出现了不止一次；使用第一个值。",
    "link_too_long": "这个链接长 {size} KB，而应用只读取不超过 {limit} KB 的链接。它可能被截断了，或者被粘贴了两次。",
    "link_too_long_open": "不带这个链接打开 Transformer 游乐场",
    "link_unknown_param": "{name} 不是这个视图的参数。",
    "link_model_not_shipped": "{name}：没有随应用提供名为“{value}”的模型（链接只能指向这些模型：{choices}）。",
    "page_opening": '<span class="page-opening">正在打开页面…</span>',
    "link_note_intro": "**此链接中的部分参数被忽略了**（改用默认值）：",
    "link_note_more": "- 另有 {n} 项",
    "link_private": "这个视图显示的是仅属于你本次会话的模型，因此没有链接：链接只能指向随应用提供的模型。",
    "link_not_ready": "这个视图还没有链接：请先绘制它。",
    "link_copied": "已复制链接：{address}",
    "btn_copy_link": "复制链接",
    "btn_show_qr": "显示二维码",
    "qr_title": "此视图链接的二维码",
    "btn_class_room": "课堂房间",
    "room_title": "课堂房间：接下来是什么？",
    "room_board_title": "课堂房间看板",
    "lbl_room_code": "房间码",
    "lbl_room_nickname": "昵称（可选）",
    "info_room_nickname": "只有老师允许时才显示；纯文本，最多 20 个字符",
    "btn_room_join": "加入",
    "lbl_room_guess": "你对下一个词元的猜测",
    "info_room_guess": "输入它，或从下面的列表中选；老师揭晓前可以修改",
    "lbl_room_pick": "或从模型的词表中选",
    "btn_room_send": "提交猜测",
    "lbl_room_nicknames": "允许昵称",
    "btn_room_open": "开一个房间",
    "lbl_room_model": "模型",
    "lbl_room_passage": "文段",
    "info_room_passage": "它的最后一个词元就是要猜的；留空则抽取模型训练时没见过的文本",
    "btn_room_start": "开始一轮",
    "btn_room_reveal": "揭晓",
    "btn_room_close": "关闭房间",
    "room_explain": "**全班就是一个语言模型。** 每位学生猜下一个词元；条形图把全班选每个词元的比例和模型给它的概率并排放。"
                    "$N$ 位作答的学生中有 $n(t)$ 位选了 $t$，就是分布 "
                    "$p_\\text{class}(t) = (n(t) + 1/V) / (N + 1)$（$V$：模型词表大小；好像多了一位随机猜的学生，"
                    "所以没人选的词元带来很大但有限的意外）。对数损失是 $-\\ln p(a)$（$a$：真实的下一个词元），单位奈特：越低越不意外。"
                    "注意力图逐层（各头平均）显示模型为了猜测读了前面哪些词元。",
    "room_join_at": "加入地址：{link}",
    "room_in": "你在房间 **{code}** 里。",
    "room_join_intro": "房间 **{code}**：按“加入”参加。",
    "room_names": "已加入：{names}",
    "room_waiting": "等老师开始一轮。",
    "room_round_prompt": "**第 {round} 轮**（{model}）：接下来是什么？\n\n{prompt}",
    "room_your_guess": "你的猜测：**{guess}**。老师揭晓前可以修改。",
    "room_no_guess_yet": "你还没有猜。",
    "room_revealed_student": "下一个词元是 **{answer}**。你猜的是 {guess} {mark}。",
    "room_record": "你的成绩：{rounds} 轮中猜对 {right} 轮。",
    "room_no_round": "已有 {students} 人加入。选一个模型和文段，然后按“开始一轮”。",
    "room_answered": "**{students} 人中 {answered} 人**已作答。",
    "room_reveal": "下一个词元是 **{answer}**。全班：{share:.0%} 选了它（p = {p_class:.3f}，对数损失 "
                   "{class_loss:.2f} 奈特）。模型：p = {p_model:.3f}（对数损失 {model_loss:.2f} 奈特）。",
    "room_match": "**全班对模型**，已进行 {rounds} 轮。平均对数损失 全班 {class_loss:.2f}，模型 {model_loss:.2f} 奈特/词元"
                  "（越低越好）；首选猜对：全班 {class_right}，模型 {model_right}。最让全班意外的一轮：第 "
                  "{surprise_round} 轮（**{answer}**，对数损失 {loss:.2f}）。",
    "room_hist_title": "全班的猜测（{answered} 份）与模型的概率",
    "room_series_class": "全班",
    "room_series_model": "模型",
    "room_axis_token": "下一个词元",
    "room_axis_share": "比例 / 概率",
    "room_attention_title": "模型读了什么：注意力（各头平均）",
    "room_layer": "第{n}层",
    "room_axis_layer": "层",
    "room_axis_key": "前面的词元",
    "room_axis_weight": "权重",
    "room_closed_by_you": "房间已关闭，学生们会看到提示。",
    "room_full_rooms": "本服务器的 {limit} 个课堂房间都在使用中；请先关闭一个，或稍后再试。",
    "room_not_teacher": "只有开这个房间的老师才能这样做。",
    "room_full_rounds": "这个房间已经进行了 {limit} 轮；要继续请开一个新房间。",
    "room_round_open": "还有一轮没揭晓：先揭晓再开始下一轮。",
    "room_no_open_round": "现在没有进行中的一轮：等老师开始。",
    "room_full_students": "这个房间已满（{limit} 位学生）。",
    "room_bad_guess": "输入 1 到 {limit} 个字符的猜测，或从列表中选一个。",
    "room_not_student": "这个浏览器还没有加入房间：请按“加入”。",
    "room_not_in_vocabulary": "“{guess}”不是这个模型的词元：请从列表中选。",
    "room_too_many_changes": "你已经改了 {limit} 次猜测：以最后一次为准。",
    "room_closed": "房间 {code} 已被老师关闭。",
    "room_expired": "房间 {code} 已过期：3 小时没有人使用。",
    "room_unknown": "没有房间 {code}：请核对投影上的房间码。",
    "room_model_not_playable": "一轮需要一个从左到右写文本的模型（仅解码器）。",
    "room_bad_passage": "请给出至少两个词元、最多 400 个字符的文段。",
    "room_unknown_model": "这里没有模型“{model}”；请从这些中选：{choices}。",
    "room_type_passage": "{model} 没有可抽取的留出文本：请输入一个文段。",
    "lbl_room_poll": "或把某一课的问题作为全班投票",
    "btn_room_poll": "作为全班投票",
    "room_poll_predict": "{lesson}：预测",
    "room_poll_check": "{lesson}：检查题",
    "room_poll_prompt": "**第 {round} 轮**，来自《{lesson}》的全班投票：\n\n{question}",
    "room_poll_reveal": "答案：**{answer}**，{choice}。全班 {share:.0%} 选了它。{feedback}",
    "room_unknown_poll": "没有这道课程问题：请从列表中选。",
    "room_hist_title_poll": "全班的回答（{answered} 份）",
    "room_axis_token_poll": "答案",
    "room_poll_revealed_student": "答案是 **{answer}**。你选的是 {guess} {mark}。",
    "qr_close": "关闭（Esc）",
    "qr_too_long": "这个链接有 {length} 个字符，太长，无法生成在教室另一头也能扫描的二维码（最多 {limit} 个）："
                   "请缩短视图中的文本，或改为复制链接。",
    "qr_loopback": "这是本机自己的地址：手机和其他电脑都打不开。要在课堂上分享此视图，请用 GRADIO_SERVER_NAME=0.0.0.0 启动应用，再显示二维码：它会给出本机的网络地址。",
    "qr_network_address": "本机的网络地址：同一网络（教室的 Wi-Fi）中的手机可以打开它。",
    "qr_bad_address": "无法把此页面的地址画成二维码。",
    "link_unknown_part": "这个视图没有可隐藏的部分“{value}”（可以隐藏：{choices}）。",
    "param_hide": "隐藏（hide）",
    "common.complete": "完成",
    "a11y_range_slider": "{label}（滑块）",
    "a11y_number_input": "{label}（数值）",
    "a11y_reset_slider": "恢复默认值",
    "a11y_svg_export": "下载为 SVG 矢量图",
    "lbl_controls": "控件",
    "param_model": "模型",
    "param_text": "输入",
    "param_target": "目标",
    "param_mean": "各头平均",
    "param_step": "训练步数",
    "param_view": "视图",
    "param_lang": "语言",
    "param_present": "演示模式",
    "refused_title": "此输入没有可显示的内容",
    "refused_summary": "**输入被拒绝**：{reason}",      # the colon outside: "：**" before a character is not bold
    "refused_other": "无法按这些控件绘制视图。",

    # What a model reads (issue 15, item 8)
    "accepted_chars": "只接受这些字符：{chars}",
    "accepted_many": "接受其训练文本中的 {n} 个字符。",
    "accepted_any": "接受任何文字（它的分词器按字节工作）。",
    "input_outside_training_fixed": "⚠️ **{model}** 只在恰好 {low} 个字符的输入上训练过；这个输入有 {n} 个。"
                                    "它会写出训练时的长度，而不是正确完成任务。",
    "input_outside_training": "⚠️ **{model}** 在 {low} 到 {high} 个字符的输入上训练；这个输入有 {n} 个。预计会出错。",
    # ------------------------------------------------------------------ forms: lists of integers
    "err_form_not_integers": "{name}必须是一个或多个介于 {low} 和 {high} 之间的整数，用逗号分隔。",
    # Issue 19: masks drawn, attention by hand, LayerNorm by hand, fill in the blanks, embeddings, exposure bias
    "param_position": "位置",
    "w_feature": "特征",
    "what_token": "词元",
    "err_mask_same_length": "两个输入都是 {n} 个词元，没有任何填充。请让其中一个比另一个短。",
    "mask_input_row": "输入 {k}（{n} 个词元）",
    "mask_panel": "{name} {shape}",
    "mask_key_padding": "键填充",
    "mask_causal": "因果",
    "mask_combined": "组合",
    "mask_applied": " ✔ 模型使用",
    "mask_visible": "可见",
    "mask_hidden": "被遮住（分数 −∞，权重 0）",
    "mask_empty_row": "没有可见的键：0/0 = NaN",
    "fig_masks": "{kind}的掩码：两个输入组成的填充批次",
    "fig_masks_left": "在左边填充的批次上做因果自注意力：没有任何可见键的行（红色）",
    "mask_left_column": "左填充：因果 & 键填充",
    "mask_intro": "两个输入分别有 {n1} 和 {n2} 个词元，在右边用 `<pad>` 填充成一个张量 [B, T] = [2, {t}]"
                  "（序列到序列模型的解码器先读 `<bos>`，多一个词元）。深色格：该查询（行）可以关注该键（列）。"
                  "浅色格：被遮住，它的分数在 softmax 之前变成 −∞，所以权重正好是 0。每个掩码都以能表达全部信息的"
                  "最小形状构造，再广播到 [B, H, Tq, Tk]：填充因序列而异、但对每个查询都一样，形状 [B, 1, 1, Tk]；"
                  "因果掩码对每个序列都一样，形状 [1, 1, Tq, Tk]；两者组合为 [B, 1, Tq, Tk]。",
    "mask_note_encoder": "**编码器自注意力**使用源序列的键填充掩码 [B, 1, 1, S]，在各个头和 S 个查询上广播。"
                         "填充位置的查询仍能看到真实词元，所以没有空行；它的输出从不被使用。",
    "mask_note_decoder": "**解码器自注意力**使用因果掩码 [1, 1, T, T]。与键填充组合后，只有填充位置的查询那几行"
                         "会不同：右填充时每个填充都在所有真实词元之后，因果掩码已经对真实查询遮住了填充，而损失"
                         "忽略在填充位置上的预测。所以模型只使用因果掩码。",
    "mask_note_cross": "**交叉注意力**：查询是目标序列的词元，键是源序列的词元，所以掩码是源序列的键填充 "
                       "[B, 1, 1, S]，在各个头和 T 个查询上广播。没有因果掩码：每个目标位置都可以读整个源序列。",
    "mask_nan": "**整行都被遮住会怎样。** 在左边填充的这个批次上做因果自注意力时，较短输入的前几个查询将看不到任何键（红色行）："
                "这一行的分数全是 −∞，softmax 计算 e^−∞ / Σ e^−∞ = 0 / 0 = NaN。输入 {k} 的查询 {row} 经过模型自己的"
                "注意力函数得到：[{weights}]。一个 NaN 会扩散：下一层中每个读取该位置的查询都会得到 NaN，即使权重"
                "为 0（0 × NaN = NaN），损失也随之变成 NaN。模型从结构上避免了它：在右边填充，只遮住键，每个查询"
                "至少保留一个可见的键（填充掩码下是第一个词元，因果掩码下是它自己）；空输入会被拒绝。",
    "wa_q": "Q（查询）",
    "wa_k": "K（键）",
    "wa_v": "V（值）",
    "wa_output": "输出 = 权重 · V",
    "wa_scores": "Q Kᵀ",
    "wa_scaled": "除以 √d_k = {root}",
    "wa_masked": "加掩码（−∞ = 被遮住）",
    "wa_weights": "逐行 softmax",
    "fig_wa_vectors": "{kind}，第 {layer} 层，第 {head} 个头：Q、K、V 和输出（d_k = {dk}）",
    "fig_wa_steps": "从分数到权重",
    "wa_explain": "模型在你输入的前几个词元上运行（每一侧最多 4 个；序列到序列模型的目标是 `<bos>` 加上它自己输出的"
                  "开头），并记录这个头的 Q、K 和 V：{n} 个查询，{m} 个键，d_k = {dk}。每个分数是 Q 的一行与 K 的"
                  "一行的点积：查询 {row}（{token}）与键 0（{key_token}）：{terms} + …（还有 {more} 项）= {dot}。除以 "
                  "√d_k = {root} 使分数的分布范围不随 d_k 增大：{dot} ÷ {root} = {scaled}。掩码把被遮住的分数设为 "
                  "−∞。逐行 softmax：减去该行的最大值（结果不变，只是避免溢出），取指数（{exps}），再除以它们的和 "
                  "{total}：权重 {weights}，和为 1。输出是权重乘以 V：输出的每一行都是 V 各行的加权平均。\n\n"
                  "**与模型核对：** 这些权重与模型记录的权重最多相差 {weights_error:.1e}；用同样方法算出全部 "
                  "{heads} 个头，拼接后经过 W_o，与该子层记录的输出相差不超过 {out_error:.1e}。",
    "ln_input": "输入 x",
    "ln_normalised": "归一化 x̂",
    "ln_output": "输出 γ·x̂ + β",
    "fig_ln_vector": "{token}（位置 {position}）的 LayerNorm，第 {layer} 块",
    "ln_explain": "**词元 {token}，d = {d} 个特征。** 均值 μ = {mean}；方差 σ² = (x − μ)² 的平均 = {variance}"
                  "（除以 d，而不是 d − 1）；ε = {eps}；√(σ² + ε) = {std}。归一化后的 x̂ = (x − μ) / √(σ² + ε) "
                  "在各特征上均值为 0、方差约为 1；输出是 γ·x̂ + β，γ（增益）和 β（偏置）是这个 LayerNorm 学到的"
                  "参数。前 {shown} 个特征：",
    "bn_batch": "一个小批次 x",
    "bn_layer": "LayerNorm：按行",
    "bn_batchnorm": "BatchNorm：按列",
    "fig_bn": "LayerNorm（按词元）vs BatchNorm（按特征）",
    "bn_explain": "行：{n} 个词元；列：它们在残差流中的前 {f} 个特征，构成一个小批次（不含 γ 和 β）。"
                  "**LayerNorm** 在每一行的特征上归一化：每个词元有自己的均值和方差，与其他词元无关（归一化后各行"
                  "均值：{layer_means}）。**BatchNorm** 在批次上对每一列归一化：每个特征一个均值和方差，由批次中的"
                  "词元共享（归一化后各列均值：{batch_means}），所以一个词元的输出取决于哪些词元与它同在一个批次，"
                  "推理时还需要滑动平均。Transformer 使用 LayerNorm：序列长度不一，批次也可能很小。",
    "rn_embedding": "{stack}：嵌入",
    "rn_block": "{stack}：第 {i} 块之后",
    "rn_final": "{stack}：最后的 LayerNorm",
    "fig_rn": "每一层之后残差流的大小",
    "rn_norm": "‖x‖（L2 范数）",
    "rn_mean": "所有词元的平均",
    "rn_each": "每个词元",
    "err_fill_needs_masked_model": "“{model}”不是掩码（仅编码器）模型。请选择 masked-char 或其他仅编码器模型来填空。",
    "err_fill_no_blank": "文本中没有空格位。请在需要模型填入词元的地方输入 {blank}。",
    "err_fill_too_many_blanks": "文本中有 {n} 个空格位（{blank}），上限是 {limit}。请删掉一些。",
    "fill_blank_title": "空格 {k}（位置 {position}）",
    "fig_fill": "掩码模型为每个空格给出的候选",
    "fill_explain": "每个 {blank} 变成一个 `<mask>` 词元（共 {n} 个）。模型看到整段文本、每个空格的两侧，并在每个空格"
                    "处给每个普通词元一个概率；图中画出前 {k} 个，最好的为红色。每个空格填入最好的候选后："
                    "**{filled}**。所有空格同时填入，每个都不知道其他空格填了什么。",
    "err_not_one_token": "“{value}”不是“{model}”的一个词元（它是 {n} 个词元）。请输入一个词元，例如：{examples}。",
    "fig_emb_neighbours": "按余弦相似度，{token} 的最近邻",
    "fig_emb_map": "嵌入表（{n} 个词元 × {d} 维）在前两个主成分上的投影",
    "emb_component": "主成分 {k}（方差的 {share:.0%}）",
    "emb_marked": "{token} 及其近邻",
    "emb_others": "其他词元",
    "emb_explain": "{v} 个词元中的每一个都是嵌入表的一行：训练中学到的 {d} 个数。余弦相似度 "
                   "cos(a, b) = a·b / (‖a‖ ‖b‖) 比较方向：1 表示方向相同，0 表示无关，−1 表示相反。与 **{token}** "
                   "最接近的是 **{nearest}**（{cosine:.3f}）。用法相似的词元往往靠得很近。散点图把嵌入表投影到方差"
                   "最大的两个方向上（PCA：把各行中心化，再做奇异值分解）；两者合计保留 {share:.0%} 的方差，所以图上"
                   "的距离只能粗略反映 {d} 维中的距离。特殊词元（`<pad>`、`<bos>` 等）不包括在内。",
    "err_exposure_needs_decoder": "“{model}”不会逐个写出词元。请选择仅解码器或编码器-解码器模型。",
    "fig_xb": "同一目标上的教师强制与自由运行",
    "xb_target": "目标",
    "xb_teacher": "教师强制",
    "xb_free": "自由运行",
    "xb_probability": "p(目标词元)",
    "xb_parted": "在此分开",
    "xb_explain": "**教师强制**（模型训练的方式）：在每个位置，解码器读取到目前为止真实的目标，并预测下一个词元。"
                  "**自由运行**（模型使用的方式）：它读取自己之前的输出。蓝色：词元与目标相同；橙色：不同。两者读取"
                  "相同的词元，直到自由运行第一次写出与目标不同的词元（框出的位置）；从下一个位置起，它们的输入就"
                  "分开了，自由运行的模型从训练中从未见过的前缀继续，错误会累积。训练与使用之间的这种差距称为暴露"
                  "偏差。下方的图：两种方式给正确目标词元的概率。",
    "xb_parted_at": "它们在位置 {position} 分开：目标是 **{wanted}**，模型写出了 **{written}**。",
    "xb_never_parted": "这里它们从未分开：自由运行恰好写出了目标，所以两者始终读取相同的词元。改变目标，看模型在哪里"
                       "走上自己的路。",
    "xb_counts": "{n} 个词元中正确的个数：教师强制 {teacher}，自由运行 {free}。",
    "rn_explain_pre": "这个模型是前置归一化（pre-norm）：每个子层读取归一化后的副本 LN(x)，再把输出加到残差流上，"
                      "x ← x + sublayer(LN(x))。残差流本身没有被重新缩放，所以它的大小通常一层比一层大；"
                      "最后的 LayerNorm 在输出层之前把它重新缩放。",
    "rn_explain_post": "这个模型是后置归一化（post-norm）：x ← LN(x + sublayer(x)) 在每个子层之后都归一化残差流，"
                       "所以它的大小在各层之间大致不变，由 LayerNorm 的 γ 和 β 决定。",
    # Load from the Hugging Face Hub (GPT-2 family)
    "hub_explanation": "也可以**从 Hugging Face Hub 载入 GPT-2、Llama 或 Qwen2 模型**（gpt2、distilgpt2、"
                       "HuggingFaceTB/SmolLM2-135M、Qwen/Qwen2.5-0.5B，或这些系列中不超过 5 亿参数的其他仓库）。它的权重在本游乐场自己手写的模型中运行，所以每个视图都能用它。"
                       "模型只下载一次，由使用本应用的所有人共享；只读取 safetensors 权重。",
    "lbl_hub_repository": "Hugging Face Hub 仓库",
    "btn_hub_load": "从 Hub 载入",
    "hub_failed": "**未载入**。{reason}",
    "hub_done": "已载入 **{name}**（{layers} 层，{heads} 个头，{params} 个参数）。所有能使用它的标签页都已选中它。"
                "它的文本结束词元（`<|endoftext|>`）就是本游乐场的 `<eos>`（作为输入时也是 `<bos>`）。",
    "err_hub_name": "「{name}」不是 Hugging Face Hub 仓库名。请输入例如 gpt2、distilgpt2 或 openai-community/gpt2。",
    "err_hub_import": "无法载入 {repository}：{error}",
    "err_hub_unreachable": "无法载入 {repository}：本服务器连不上 Hugging Face Hub，也没有它的副本。请载入之前载入过的模型，"
                           "或改为上传一个 .safetensors 检查点。",
    "err_hub_not_found": "Hugging Face Hub 上没有公开仓库 {repository}。请检查名称，例如 gpt2、distilgpt2 或 "
                         "openai-community/gpt2。",
    "err_hub_gated": "{repository} 是受限仓库：只有登录并同意其条款的用户才能下载。请载入公开的模型，例如 gpt2 或 distilgpt2。",
    "err_hub_too_large": "{repository} 有 {parameters:,} 个参数，超过本应用为课堂运行的上限 {limit:,}。"
                         "请载入更小的模型，例如 gpt2 或 distilgpt2。",
    "err_hub_not_gpt2": "{repository} 是 {kind} 模型，不是 GPT-2：本游乐场只运行 GPT-2 系列模型，"
                        "例如 gpt2、distilgpt2 或 gpt2-medium。",
    "err_hub_unsupported_family": "{repository} 是 {kind} 模型：本游乐场运行 GPT-2、Llama 和 Qwen2 模型，"
                                  "例如 gpt2、HuggingFaceTB/SmolLM2-135M 或 Qwen/Qwen2.5-0.5B。",
    "err_hub_unsupported_field": "无法载入 {repository}：它的 config.json 设置了 {field}，这是本游乐场手写模型没有实现的变体。"
                                 "请改为载入 HuggingFaceTB/SmolLM2-135M 或 Qwen/Qwen2.5-0.5B。",
    "err_hub_busy": "内存中已有 {limit} 个 Hub 模型（{models}）正在使用。请载入其中之一，或等某个会话不再使用后重试。",
    # ------------------------------------------------------------------ induction heads
    "task_induction": "归纳（重复的随机词元）",
    "fig_train_formation": "归纳头的形成",
    "w_formation_previous": "前一个词元得分，第 0 层（最高的头）",
    "w_formation_induction": "归纳得分，后面各层（最高的头）",
    "w_formation_threshold": "归纳头阈值",
    "w_formation_crossed": "越过于",
    "w_formation_score": "探针上的得分",
    "train_sample_repeats": "**模型现在写出的内容**（第 {step} 步，贪心解码）：探针的第一遍再加一个词元，"
                            "然后是模型的续写，与它应当写出的重复内容对照：",
    "induction_verdict_named": "**归纳头：** {heads}。在 {n} 条「{period} 个随机词元写两遍」的序列上，它们的得分至少为 "
                               "{threshold}，而损失从第一遍的 {first:.2f} 降到第二遍的 {second:.2f}：模型查找同一个词元"
                               "上次出现后紧跟着的词元，从而预测重复的内容。",
    "induction_verdict_low_score": "**没有归纳头。** 在 {n} 条「{period} 个随机词元写两遍」的序列上，最高的归纳得分是 "
                                   "{score:.2f}（第 {layer} 层，第 {head} 个头）；归纳头需要 {threshold}（未训练的头约为 "
                                   "0.05），损失在第一遍为 {first:.2f}，第二遍为 {second:.2f}。归纳头只有在重复出现的序列上"
                                   "训练足够之后才会形成：这里的小型文本模型在文本上训练得不够久，还没有形成。用重复的随机"
                                   "词元训练的 **induction** 模型有归纳头。",
    "induction_verdict_no_copy_gain": "**没有归纳头。** 在 {n} 条「{period} 个随机词元写两遍」的序列上，第 {layer} 层第 "
                                      "{head} 个头得分 {score:.2f}（阈值 {threshold}），但第二遍的损失（{second:.2f}）"
                                      "并不明显低于第一遍（{first:.2f}；至多应为其 {ratio:g} 倍）：这种注意力模式并没有让"
                                      "模型预测出重复的内容。",
    "induction_verdict_other_arch": "只有仅解码器（GPT 式）模型才会被判定是否有归纳头：它们根据前面的词元预测重复内容的下一个词元。",
    # Switching heads off and the logit lens
    "param_ho_heads": "要关闭的注意力头",
    "param_ho_how": "关闭注意力头的方式",
    "ho_how_zero": "输出置零",
    "ho_how_mean": "输出替换为它在整个输入上的平均值",
    "ho_explain": "一个注意力头的输出是注意力结果中属于它的那一段，在输出投影 W_o 把各个头混合之前。关闭一个头，"
                  "就是把这一段置零，或替换为它在输入各位置上的平均值，模型的其余部分照常运行。"
                  "关闭后预测变化最大的头，就是模型最依赖的头。",
    "err_ho_no_heads": "请至少选择一个要关闭的注意力头。",
    "err_ho_unknown_head": "{model} 没有注意力头“{value}”；请从列表中选择。",
    "w_ho_before": "所有头开启",
    "w_ho_after": "关闭这些头",
    "w_ho_top_after": "关闭后的首选",
    "fig_ho_distribution_next": "下一个词元：所有头开启 vs. 关闭 {n} 个头",
    "fig_ho_distribution_last": "最后一个位置的预测：所有头开启 vs. 关闭 {n} 个头",
    "ho_summary": "关闭 {n} 个头（{how}）后，预测变化了 KL(开启 ‖ 关闭) = {kl:.4f} 奈特（没有变化时为 0）。"
                  "首选词元：所有头开启时为 {before}（{p_before:.1%}），关闭后为 {after}（{p_after:.1%}）。",
    "ho_generation": "**贪心输出，所有头开启：** {before}\n\n**关闭这些头后：** {after}\n\n"
                     "{total} 个词元中有 {changed} 个改变（粗体）。",
    "ho_exact_match": "在 {task} 任务的 {n} 个留出样例上的**完全匹配率**：所有头开启时 {before:.0%}，"
                      "关闭后 {after:.0%}。",
    "lens_explain": "在每一层之后，把残差流按最后一层的方式读出：经过最终归一化（前置归一化模型）和输出头。"
                    "每个格子是模型若在此停下会预测的词元，颜色表示它的概率：放得下时写在格子里，鼠标悬停时总会显示它和它的概率。"
                    "最后一行就是模型自己的预测。",
    "fig_logit_lens_next": "Logit 透镜：每一层之后模型会预测的下一个词元",
    "fig_logit_lens_last": "Logit 透镜：每一层之后模型在每个位置会预测的词元",
    "w_lens_layer_decoder": "解码器层",
    "w_lens_layer_encoder": "编码器层",
    "w_lens_position": "输入位置",
    "w_lens_top_token": "首选词元",
    # --- Tiny texts, measuring and training stability (block size, perplexity, BLEU, schedules, clipping) ---
    "data_rhyme": "童谣（教程 1，407 个字符）",
    "lbl_train_block": "块大小（模型一次读入的词元数）",
    "lbl_train_schedule": "学习率调度",
    "lbl_train_decay_every": "阶梯调度：每隔多少步下降",
    "lbl_train_decay_factor": "阶梯调度：乘以",
    "lbl_train_clip": "裁剪梯度范数",
    "lbl_train_clip_threshold": "裁剪阈值（梯度范数的上限）",
    "param_block_size": "块大小",
    "param_schedule": "学习率调度",
    "param_decay_every": "两次下降之间的步数",
    "param_decay_factor": "下降倍数",
    "param_clip": "梯度裁剪",
    "param_grad_clip": "裁剪阈值",
    "schedule_constant": "恒定",
    "schedule_step": "阶梯衰减",
    "schedule_linear": "线性衰减",
    "schedule_cosine": "余弦衰减",
    "schedule_inverse_sqrt": "平方根倒数（原论文）",
    "fig_lr_schedule": "每一步的学习率：{schedule}",
    "w_val_perplexity": "验证困惑度",
    "w_grad_norm": "梯度范数（裁剪前）",
    "w_clip_threshold": "裁剪阈值",
    "train_bleu": " · BLEU **{bleu:.1f}**（字符级）",
    "err_inverse_sqrt_warmup": "平方根倒数调度至少需要 1 步预热（它的学习率按 步数 × 预热步数^-1.5 增长）。请把预热步数设为 1 或更多。",
    "train_stability_explanation": (
        "**块大小**是模型一次读入的词元数。文本的最后十分之一留作验证，它必须装得下一个块再加后面一个词元："
        "407 个字符的童谣留出 41 个字符，所以块最大为 40（建议 32）。块比童谣里重复的副歌还短时，模型分不清是第几遍副歌，"
        "生成时可能在各段之间跳转。\n\n"
        "**困惑度** = exp(验证损失)，损失是每个词元的平均交叉熵（以 nat 计）：模型平均而言相当于在多少个同样可能的词元之间犹豫"
        "（1 = 确定且正确）。\n\n"
        "**BLEU**（序列到序列任务，由 sacrebleu 按字符计算）：所有贪心输出相对目标的 1 到 4 元组精确率的几何平均，"
        "在整个留出集上合并统计，再乘以输出比目标短时的简短惩罚；取值 0 到 100。它只统计共有的字符 n 元组，"
        "并不衡量含义；一个几乎正确的输出 BLEU 很高，完全匹配却算它错。\n\n"
        "**梯度范数**是裁剪前整个梯度的长度。裁剪把长于阈值的梯度按比例缩到阈值，一个糟糕的批次就不会把权重推得太远。\n\n"
        "**调度**：恒定；阶梯（每 N 步乘以一个倍数）；线性或余弦衰减到学习率的十分之一；"
        "原论文的 d_model^-0.5 · min(step^-0.5, step · warmup^-1.5)，预热期间上升，之后按 1/√step 下降，且不使用学习率这一栏。"
        "除最后一种外，都先线性预热。"),
    # Class walk-through: error title, empty figures
    "err_title": "出错了",
    "empty_train_curves": "模型训练时，损失、准确率和学习率曲线显示在这里：选择任务后按“开始”。",
    "empty_train_probe": "探针输入上每一层、每个头的注意力显示在这里，并随训练更新：按“开始”。",
    "empty_train_scores": "每个头的得分随训练步数的变化显示在这里：按“开始”。",
    "empty_lab_curves": "各变体的曲线并排显示在这里：按“运行实验”。",
    "empty_lab_attention": "实验运行后，这个变体在探针输入上的注意力显示在这里：按“运行实验”。",
    "empty_lab_compare": "勾选保存的结果，在这里比较它们的验证损失。",

    # Generate tab's form and links (issue 16)
    "param_prompt": "提示词",
    # Labs tab links (issue 16): the view picks as a link names them
    "param_metric": "曲线",
    "param_variant": "变体",
    "param_stage": "时间点",
    # Lessons tab
    "tab_lessons": "课程",
    "param_lesson": "课程",
    "lbl_lesson": "课程",
    "lesson_look_for": "### 看什么",
    "lesson_experiment": "### 实验：先预测，再运行",
    "lbl_prediction": "你的预测",
    "btn_lesson_run_wait": "请先做出预测",
    "lesson_predicted_right": "**你的预测正确。** {feedback}",
    "lesson_predicted_wrong": "**你的预测不对。** {feedback}",
    "lesson_check": "### 检验理解",
    "lbl_check_answer": "你的答案",
    "lesson_right": "✅ **正确。** {feedback}",
    "lesson_wrong": "❌ **不对。** {feedback}",
    "lesson_explore": "[在“{tab}”标签页中继续探索](?{query})",
    "btn_previous": "← 上一课",
    "btn_next": "下一课 →",
    "lesson_position": "第 {n} 课，共 {total} 课",
    "lesson_timeline_note": "从上到下，这些图是发布模型 **{model}** 在训练第 {shown} 步时的样子（保存了第 {steps} 步的检查点）；可以在“训练”标签页自己训练一个。",
    "lesson_perplexity_note": "困惑度是 $e^{{\\text{{loss}}}}$：$e^{{{loss:.4f}}} \\approx {ppl:.3f}$。",
    "fig_lesson_shuffle": "打乱输入：输出是否也只是被打乱？",
    "fig_lesson_held_out": "发布模型在留出数据上的结果",
    "fig_lesson_perplexity": "验证损失与困惑度",
    "fig_lesson_cost": "GPT-2 small：上下文为 {n} 时每个词元的参数、FLOPs 与内存",
    "w_encoding": "编码",
    "w_largest_difference": "最大差异",
    "w_verdict": "结论",
    "w_metric": "指标",
    "w_model": "模型",
    "w_quantity": "量",
    "w_component": "部分",
    "w_exp_loss": "e^损失（困惑度）",
    # Inside the model tab (issue 19: embeddings, attention by hand, masks, LayerNorm, fill in the blanks)
    "tab_inside": "模型内部",
    "param_emb_model": "嵌入：模型",
    "param_emb_token": "词元",
    "param_worked_model": "手算注意力：模型",
    "param_worked_text": "手算注意力：输入",
    "param_worked_site": "手算注意力：注意力",
    "param_worked_layer": "手算注意力：层",
    "param_worked_head": "手算注意力：头",
    "param_mask_model": "掩码：模型",
    "param_mask_first": "第一个输入",
    "param_mask_second": "第二个输入",
    "param_norm_model": "LayerNorm：模型",
    "param_norm_text": "LayerNorm：输入",
    "param_norm_layer": "LayerNorm：层",
    "param_norm_position": "词元位置",
    "param_fill_model": "填空：模型",
    "param_fill_text": "带空格的文本",
    "lbl_inside_token": "词元（按显示的写法：␣ 表示空格）",
    "lbl_inside_mask_first": "第一个输入",
    "lbl_inside_mask_second": "第二个输入（长度不同）",
    "lbl_inside_position": "词元位置（0 = 第一个）",
    "lbl_inside_fill_text": "带空格的文本（_ 表示一个空）",
    "btn_inside_emb": "找近邻",
    "btn_inside_worked": "一步步算",
    "btn_inside_mask": "显示掩码",
    "btn_inside_norm": "归一化",
    "btn_inside_fill": "填空",
    "inside_emb_heading": "### 嵌入：把词元变成向量",
    "inside_emb_explanation": (
        "每个模型的第一层都用词元的编号去查**嵌入表**：一个“词表大小 × d_model”的矩阵，数值在训练中学得，"
        "词元 i 变成第 i 行。两行方向相同时余弦相似度接近 1。柱状图列出与你的词元那一行最接近的行；"
        "散点图把每一行投影到嵌入表的前两个主成分上（d_model 维点云的二维投影）。"),
    "inside_worked_heading": "### 手算注意力：一个头，每个数字",
    "inside_worked_explanation": (
        "某一层的一个头，作用在前几个词元上：Q = X W_Q，K = X W_K，V = X W_V（X：进入该子层的向量，"
        "前置归一化的模型中是经过 LayerNorm 之后的）。分数 $QK^\\top/\\sqrt{d_k}$，加上掩码（查询不能看的位置为 −∞），"
        "每一行做 softmax，输出为 $\\mathrm{softmax}(QK^\\top/\\sqrt{d_k} + M)\\,V$。下面的说明手算其中一行，"
        "并与模型实际算出的结果核对。"),
    "inside_mask_heading": "### 掩码：每个查询能看到什么",
    "inside_mask_explanation": (
        "两个长度不同的输入组成一个批次：较短的一个在右侧用 `<pad>` 补齐。**填充掩码**遮住 pad 键；"
        "**因果掩码**遮住查询之后的键（解码器不能读到未来）。解码器的自注意力只用因果掩码：在右侧补齐时，"
        "因果关系已经让每个真实查询看不到任何 pad 键（图下的说明解释了原因）。被遮住的格子在 "
        "softmax 之前设为 −∞，权重因此恰好为 0。最后一张图改为在左侧补齐：这时在因果掩码下，开头的 pad 查询一个键也看不到，"
        "而只有 −∞ 的 softmax 结果是 NaN。"),
    "inside_norm_heading": "### LayerNorm 与残差流",
    "inside_norm_explanation": (
        "每个块把子层的输出加到**残差流**上：每个词元一个 d_model 维向量。**LayerNorm** 对单个词元的向量做缩放："
        "减去它在各特征上的均值，除以 $\\sqrt{\\sigma^2 + \\epsilon}$，再乘以学得的增益 γ、加上偏置 β。"
        "第一张图跟踪一个词元（选择层和位置）；第二张在一个小批次上比较 LayerNorm 与 BatchNorm；"
        "第三张显示每个块之后残差流的大小。"),
    "inside_fill_heading": "### 填空：掩码语言模型",
    "inside_fill_explanation": (
        "一个像 BERT 那样训练的仅编码器模型：训练文本中的一些词元被替换为 `<mask>`，模型学会从两侧预测它们。"
        "在缺字符的地方输入 _；每个空变成一个 `<mask>`，模型在每个空上给每个词元一个概率。"
        "只有仅编码器模型能做到（masked-char 就是一个）。"),
    "err_form_not_names": "{name}必须是用逗号分隔的名称列表（字母、数字、“.”、“_”或“-”）。",
    "err_form_too_many": "{name}列出了 {n} 项；上限是 {limit}。请删去一些。",
    "lbl_ho_panel": "关闭注意力头",
    "lbl_lens_panel": "Logit lens（逐层解读）",
    "btn_ho_run": "关闭并比较",
    "btn_lens_run": "显示 logit lens",
    # Train tab's form (issue 16)
    "param_pasted": "你的文本",
    # Generate tab: exposure bias panel (issue 19, item 10)
    "lbl_xb_panel": "暴露偏差：教师强制与自由运行",
    "param_xb_target": "提示之后的目标",
    "info_xb_target": "模型在提示之后应当写出的文本（对序列到序列模型：它对源序列的输出）。按回车键或按钮。",
    "btn_xb_run": "用两种方式解码",
    # --- Attention summary: held-out loss and perplexity (issue 19) ---
    "attention_held_out": "留出集损失 **{loss:.4f}** 奈特/词元，困惑度 e^损失 = **{perplexity:.3f}**："
                          "平均而言，模型的不确定程度相当于在这么多个等可能的词元中选一个。",
    "attention_held_out_unknown": "这个模型没有已知的留出集损失，因此也没有困惑度（只有在这里训练或随应用提供的模型才有）。",
    # Lessons tab: live experiments
    "lesson_live_queued": "正在等待空闲的训练名额；你在队列中的位置显示在这里。",
    "lesson_live_step": "第 **{step}** 步（最多 {steps} 步）· {elapsed:.0f} 秒 · 训练损失 {loss:.3f}",
    "lesson_live_copy": "留出数据上的完全匹配率 **{exact}**（目标：{goal}）· 最强的交叉注意力对角线分数 {diagonal}",
    "lesson_live_rhyme": "目标：训练损失降到 {goal} 或更低，这时模型已经把童谣背下来了。",
    "lesson_live_induction_wait": "注意力头分数随探针输入的第一个快照出现。",
    "lesson_live_induction": "第 0 层最佳头的前一词元分数 **{previous:.2f}** · 第 1 层最佳头的归纳分数 **{induction:.2f}**（达到 {threshold:.2f} 即为归纳头）",
    "lesson_live_reached": "**在第 {step} 步达到目标**，训练用时 {seconds:.0f} 秒；训练停在第 {stopped} 步。它的模型 **{name}** 已加入你在各个标签页中的模型（训练页显示这次运行）。",
    "lesson_live_stopped": "**在第 {step} 步停止**，尚未达到目标。再按一次实验按钮，可从新的随机权重重新训练。",
    "lesson_live_missed": "**本次运行未达到目标**（共 {step} 步）：服务器繁忙时，一次运行在限定时间内训练的步数更少。可以在训练页按“继续”接着训练，或再按一次实验按钮，从新的随机权重重新开始。",
    "lesson_live_finished": "**在预设的 {step} 步内未达到目标**。再按一次实验按钮，从新的随机权重重新训练。",
    "err_lesson_runs_live": "这一课的实验是现场训练：请按它自己的运行按钮。",
    "err_lesson_not_live": "这一课的实验展示的是发布模型的视图，没有可以训练或停止的东西。",
    "w_values": "数值",
    "shape_values": "均值 {mean:.3g} · 标准差 {std:.3g} · 最大 {max:.3g}",
    "stage_repetition": "重复惩罚之后",
    "settings_greedy": "贪心",
    "settings_sample": "温度 {temperature} 采样",
    "settings_top_k": "top-k {k}",
    "settings_top_p": "top-p {p}",
    "settings_repetition": "重复惩罚 {penalty}",
    "fig_candidates_titled": "{title}（选中：{token}）",
    "meaning_uniform": "在它的 {v} 个输出中均匀猜测得 ln {v} = {uniform:.2f}",
    "meaning_unigram": "只知道每个词元的出现频率得 {unigram:.2f}",
    "meaning_perplexity": "困惑度 {ppl:.2f}：不确定程度相当于在 {ppl:.1f} 个词元中公平地选一个",
    "meaning_join": "；",
    "meaning_exact": "完全匹配率 {exact:.1%}：完全正确的输出所占比例",
    "meaning_bleu": "BLEU {bleu:.1f}（满分 100）：共有的字符 n 元组，部分正确的输出得部分分",
    "meaning_exact_bleu": "完全匹配率 {exact:.1%}（整条输出完全正确）对照 BLEU {bleu:.1f}（满分 100；共有的字符 n 元组，给部分分）",
    "lesson_chinese_note": "**{chars} 个字符，UTF-8 中 {bytes} 个字节，{n} 个 BPE 词元。**",
    "fig_lesson_neighbours_step": "{model} 在训练第 {step} 步时 {token} 的最近邻",
    "lesson_neighbours_note": "同一个模型在第 {first} 步和第 {last} 步。离 `{token}` 最近的：第 {first} 步是 {start_top}（余弦 {start_cos:.2f}）；第 {last} 步是 {end_top}（{end_cos:.2f}）。就整张表而言：第 {first} 步时 {n_vowels} 个元音中有 {start_vowels} 个的最近邻是另一个元音，第 {last} 步时是 {end_vowels} 个；{letters} 个字母中，另一种大小写位列其最近 5 个之内的，从 {start_cases} 个变为 {end_cases} 个；每个词元与最近邻的平均余弦从 {start_mean:.2f} 变为 {end_mean:.2f}。",
    "w_token_embeddings": "词元嵌入",
    "w_position_vectors": "位置向量",
    "w_random_directions": "随机方向（k / D）",
    "fig_lesson_add_concat": "{model}：位置向量在词元嵌入主要方向上的分布",
    "w_token_directions": "词元嵌入的前 k 个方向",
    "w_energy_share": "能量占比",
    "w_directions_marker": "k = {k}：词元方差的 {share:.0%}",
    "lesson_add_concat_note": "在 **{model}**（{d} 维）中，词元嵌入的前 {k} 个方向占它们方差的 {token:.0%}，却只含学到的位置向量能量的 {position:.1%}，而 {k} 个随机方向会含 {random:.1%}：模型把位置大多放在词元几乎不用的方向上，所以相加的效果几乎和拼接一样，却不用加宽模型。",
    "lesson_shapes_note": "复制模型 **{model}** 读 `abcdefghij`（{n} 个词元）：编码器自注意力的权重是 {weights}，查询是 {q}（{h} 个头）。",
    "w_per_head": "{h} 个 [D, {dh}] 投影，每个头一个",
    "w_fused": "一个 [D, {d}] 投影，再切分给各头",
    "w_projection": "查询的算法",
    "w_parameters": "参数量",
    "w_time_ms": "耗时（毫秒，中位数）",
    "fig_lesson_fused": "{model}：在 {tokens} 个词元上，每个头单独投影与合并投影",
    "lesson_fused_note": "两种算法得到相同的查询：最大差异为 {difference:.1e}（舍入误差），参数都是 {params:,} 个。在这台服务器上，{tokens} 个词元时 {h} 次小乘法用了 {per_head_ms:.3f} 毫秒，一次 [D, {d}] 乘法用了 {fused_ms:.3f} 毫秒（多次运行的中位数；时间随机器和负载而变）。",
    "fig_lesson_activations": "ReLU vs GELU：各 {units} 个前馈单元，以学习率 {lr:g} 训练 {steps} 步之后",
    "w_input_z": "输入 z",
    "w_output": "输出",
    "w_slope": "斜率",
    "w_largest_input": "一个单元在文本上的最大输入",
    "w_units": "单元数",
    "lesson_activations_note": "同一个小解码器的两份拷贝，种子和数据相同，一个用 ReLU、一个用 GELU，以较高的学习率 {lr:g} 训练 {steps} 步。在探针文本每个位置上输入都不超过 0 的前馈单元：**ReLU {units} 个中有 {relu} 个**，**GELU {units} 个中有 {gelu} 个**；{more}。在 ReLU 下这样的单元输出恰好为 0，也得不到这段文本的任何梯度，无法恢复：它死了。在 GELU 下同样的单元仍有很小的输出和斜率，还能继续学习。最终训练损失：ReLU {relu_loss:.2f}，GELU {gelu_loss:.2f}。",
    "w_grad_embedding": "嵌入",
    "w_grad_output": "输出",
    "w_grad_block": "第 {i} 块",
    "fig_lesson_gradients": "初始化时每层的梯度范数（{depth} 个块，同一批数据）",
    "lesson_gradients_note": "初始权重和数据都相同。有残差连接时每个块得到的梯度差不多：前置归一化模型从 {pre_low:.3f} 到 {pre_high:.3f}（最大与最小相差 {pre_spread:.2f} 倍），后置归一化从 {post_low:.3f} 到 {post_high:.3f}（相差 {post_spread:.2f} 倍）。前置归一化中，x + F(LN(x)) 通过一条恒等通路把梯度交给下面的块；后置归一化中，梯度还要经过后面每一个层归一化的雅可比矩阵，但权重标准差只有 0.02 时每个子层给残差流加的东西很少，每个层归一化对梯度的缩放几乎相同，所以初始化时两种放法差别很小。Xiong 等人（2020）测到的差距——后置归一化模型靠近输出的块梯度最大——取决于他们的初始化和训练过程；后置归一化在高学习率下会怎样，见后置归一化的几个实验。去掉残差后，每个块的梯度都要穿过后面的所有块：从 {none_low:.2f} 到 {none_high:.2f}，相差 {none_spread:.2f} 倍，至少是有残差时最大值的 {factor:.0f} 倍：在这个深度上梯度是变大了，而不是消失。",
    "fig_lesson_init": "信号经过 {layers} 个普通线性层：N(0, 0.02) vs Xavier",
    "w_linear_layers": "经过的线性层数",
    "w_signal_std": "信号的标准差",
    "lesson_init_note": "用 N(0, 0.02) 时，D = {small} 每层把信号缩放 {gain_small:.3f} 倍（0.02 · √{small} = {expected_small:.3f}），D = {large} 时缩放 {gain_large:.3f} 倍（0.02 · √{large} = {expected_large:.3f}）：经过 {layers} 层后分别只剩原来的 {final_small:.1e} 和 {final_large:.1e}。Xavier 保持大小不变（D = {large} 时每层 {xavier:.3f} 倍）。",
    "fig_lesson_timeline_scores": "{model} 第 {step} 步：每个头的「{score}」得分（{kind}）",
    "fig_lesson_candidates_step": "{model} 第 {step} 步，在“{prompt}”之后",
    "lesson_candidates_note": "top-k 10 保留 {kept_k} 个候选，随后 top-p 0.9 保留 {kept_p} 个。被选中词元的概率在过滤后是 {p:.1%}（过滤前 {raw:.1%}）：原始概率为 {raw:.1%} 的词元，出人意料的程度相当于在 {n:.1f} 个中公平地选中一个。",
    "lesson_temperature_note": "温度 **{low}** 时，最可能的词元 `{token}`（原始 {raw:.1%}）得到 **{low_share:.1%}**，{low_90} 个词元就占了 90% 的概率；温度 **{high}** 时它只得到 **{high_share:.1%}**，要 {high_90} 个词元才占到 90%。",
    "w_rep_greedy": "贪心",
    "w_rep_penalty": "贪心，重复惩罚 {penalty}",
    "w_rep_beam": "束搜索，束宽 {width}",
    "w_rep_sample": "采样，温度 1",
    "fig_lesson_repetition": "{model}：生成的 {n} 个词元中重复的 4 词元片段占比，按解码方式",
    "w_prompt": "提示",
    "w_repeated_share": "重复的 4 词元片段",
    "lesson_repetition_note": "**{model}**，在 {prompts} 个提示之后各生成 {n} 个词元。已写过的 4 词元片段的平均占比：贪心 **{greedy:.0%}**，加重复惩罚 {factor} 的贪心 **{penalty:.0%}**，束搜索（束宽 {width}）**{beam:.0%}**，采样 **{sample:.0%}**。重复最多的是：**{most}**。第一个提示之后，贪心写的是“{greedy_text}…”，束搜索写的是“{beam_text}…”。",
    "w_uniform_loss": "均匀 ln V",
    "w_unigram_loss": "一元模型",
    "w_as_unsure_as": "困惑度",
    "w_token_accuracy": "准确率",
    "w_bleu": "BLEU",
    "w_meaning": "含义",
    "lesson_measuring_note": "每个损失的单位都是奈特/词元。**均匀**即 ln V，在 V 个输出中平均猜测的损失；**一元模型**是只知道每个词元在数据中出现频率的模型的损失（数据不在手边时为 –）。低于一元模型损失的部分，就是模型从上下文中学到的。**困惑度** e^损失：不确定程度相当于在这么多个词元中公平地选一个。**完全匹配率**统计整条完全正确的输出；**BLEU**（0-100）按共有的字符 n 元组给部分分。",
    "lesson_bleu_listed": "模型卡上有 BLEU 的：{models}。",
    "lesson_bleu_missing": "{models} 的模型卡没有列出 BLEU（–）：它们是在测量 BLEU 之前生成的。",
    "w_self_attention": "自注意力：4 n D² + 2 n² D",
    "w_recurrent": "循环层：2 n D²",
    "fig_lesson_recurrence": "一层处理 n 个宽度为 D = {d} 的位置所需的乘加次数：自注意力 vs 循环层",
    "w_sequence_length": "序列长度 n",
    "w_multiply_adds": "每层的乘加次数",
    "lesson_recurrence_note": "连同各自的投影一起按同样的口径计算，D = {d} 时自注意力层在任何长度上的乘加次数都多于 tanh 循环层：n = {n0} 时是它的 {ratio0:.2f} 倍，n = {n} 时是 {ratio:.2f} 倍（{attention:,} 对 {recurrent:,}）。注意力换来的是时间和距离：循环层要分 {steps} 步依次计算，第一个词元要经过其中 {path} 步才能到达最后一个；注意力同时计算所有位置，任意两个位置之间只隔一步。",
    "meaning_sentence": "作为参照：{parts}。",
    "w_below_zero": "个单元没有正输入",
    "lesson_activations_more_relu": "ReLU 留下的没有正输入的单元更多",
    "lesson_activations_more_gelu": "GELU 留下的没有正输入的单元更多",
    "lesson_activations_more_same": "两者留下的没有正输入的单元一样多",
    "w_grad_series_pre": "前置归一化",
    "w_grad_series_post": "后置归一化",
    "w_grad_series_no_residual": "前置归一化、去掉残差",
    "lesson_findings_too_short": "这次运行还没来得及显示什么就结束了；请再运行一次。",
    "lesson_score_previous": "前一词元",
    "lesson_score_induction": "归纳",
    "lesson_findings_first": "在你这次运行中，**{first}**分数先达到它最高值的一半，在第 {a} 步；{second}分数在第 {b} 步。",
    "lesson_findings_same": "在你这次运行中，两个分数在同一个快照（第 {step} 步）达到各自最高值的一半。",
    "lesson_findings_not_risen": "在你这次运行中，{names}分数还没有上升。",
    "lesson_findings_rise": "前一词元分数从 {previous_from:.2f} 升到 {previous_to:.2f}，归纳分数从 {induction_from:.2f} 升到 {induction_to:.2f}。",
    "lesson_findings_goal": "归纳分数在第 {step} 步越过 {threshold:.2f}。",
    "lesson_findings_copy": "在你这次运行中，训练损失从 {loss:.2f} 开始，到第 {halved} 步已减半；留出数据上的完全匹配率在第 {exact} 步首次高于 0%。",
    "lesson_findings_copy_loss": "损失先动。",
    "lesson_findings_copy_exact": "完全匹配率先动。",
    "lesson_findings_copy_goal": "它在第 {step} 步达到目标。",
    "lesson_findings_copy_same": "两者在同一步变化。",
    "lesson_findings_copy_pattern": "训练结束时，最好的头的对角线分数为 {diagonal:.2f}，反对角线分数为 {anti:.2f}（达到 {formed:.1f} 才算形成）：{pattern}",
    "lesson_findings_pattern_diagonal": "形成了一条对角线。",
    "lesson_findings_pattern_anti_diagonal": "形成了一条反对角线。",
    "lesson_findings_pattern_none": "两者都还没有形成，交叉注意力仍然是分散的。",
    "lesson_findings_together": "两者相差 {gap} 步，不超过这次运行 {span} 步的 {share:.0%}：属于同一段步数。",
    "lesson_findings_apart": "两者相差 {gap} 步，超过这次运行 {span} 步的 {share:.0%}：不属于同一段步数。",
    "lesson_findings_rhyme_memorised": "它达到了目标：模型把童谣背下来了。",
    "lesson_findings_rhyme_flat": "损失仍在 ln V 附近：运行结束时模型还没学到多少。",
    "lesson_findings_rhyme_level": "损失停在 ln V 和目标之间：运行结束时模型还没把童谣背下来。",
    "lesson_run_matched": "**你这次运行证实了你的预测。** {feedback}",
    "lesson_run_not_matched": "**你这次运行没有证实你的预测：** 它显示的是“{shown}”。测量结果见下方。",
    "lesson_run_none_matched": "**你这次运行没有证实你的预测**，也没有证实另外两个选项。测量结果见下方。",
    "lesson_run_undecided": "**你这次运行在能判断你的预测之前就结束了。** 测量结果见下方；再运行一次，让它跑完。",
    "lesson_findings_rhyme": "在你这次运行中，训练损失从第 {first_step} 步的 {first:.2f} 降到第 {last_step} 步的 {last:.2f}；在童谣的 {v} 个词元中均匀猜测得 ln {v} = {uniform:.2f}。",
    "fig_ho_distribution_after": "在 {context} 之后的预测：全部头开启 vs. 关闭 {n} 个头",
    "ho_where": "条形图显示两个贪心输出第一次分开处的预测（如果从不分开，则是输入末尾处）：在 {context} 之后。",
    "status_unsure": "过滤之前，模型的不确定程度相当于在 **{n:.1f}** 个词元中公平地选一个（e 的分布熵次方）；被选词元的原始概率 {p:.1%} 就是抽样时选中它的次数占比。",
    "attention_weight_meaning": "每个注意力权重都是一个查询的注意力中分给某个键的份额：一行之和为 1，所以 0.25 就是四分之一。如果平均分给 {n} 个键，每个得到 1/{n} = {even:.3f}。",
    "settings_join": "，",
    "kind_title_encoder": "编码器自注意力",
    "kind_title_decoder": "解码器自注意力",
    "kind_title_cross": "交叉注意力",
    "sentence_join": "",
    # --- 解释一个答案：激活修补、直接 logit 归因、线性探针、猜字游戏 ---
    "what_corrupted": "损坏的输入",
    "lbl_pt_panel": "激活修补：哪个激活携带了答案",
    "param_pt_corrupted": "损坏的输入",
    "info_pt_corrupted": "上面的文本改动一个或几个词元（词元总数不变）。留空：使用建议的损坏输入。",
    "btn_pt_suggest": "建议一个损坏输入",
    "btn_pt_run": "修补",
    "pt_explain": "让模型运行两次：一次读**干净**输入（上面的文本），一次读改动了一个或几个词元的**损坏**副本，使它的答案改变。"
                  "度量是**正确答案的 logit 差**：在读出答案的位置上 logit[正确] − logit[错误]，其中正确答案是模型对干净输入的回答，"
                  "错误答案是它对损坏输入的回答。它经过归一化：干净运行得 **1**，损坏运行得 **0**。每个格子把损坏输入再运行一次，"
                  "并从干净运行中复制一个激活（某一层某个位置的残差流，或某个头的输出）：接近 1 表示这个激活单独就携带了答案，"
                  "接近 0 表示它不携带答案需要的任何信息。序列到序列模型把两个输入都当作源序列读取；它的解码器读取干净输出，"
                  "直到两个输出第一次分开的地方。",
    "err_pt_no_suggestion_seq2seq": "{model} 没有应用能够改动源序列的任务；请自己输入一个损坏输入（改动一个字符）。",
    "err_pt_no_suggestion_task": "对这个输入改动任何一个字符，都不会改变 {model} 在 {task} 任务上写出的结果；"
                                 "请用它的示例，或自己输入一个损坏输入。",
    "err_pt_no_flip": "改动这个输入的任何一个词元，都不能让 {model} 在末尾的答案翻转（logit 差至少变化 1）；"
                      "请自己输入一个损坏输入，或换一个输入（示例都可以）。",
    "err_pt_lengths": "损坏输入有 {corrupted} 个词元，干净输入有 {clean} 个：修补逐个位置比较两者，"
                      "所以只改动词元，不要增加或删除。",
    "err_pt_same": "损坏输入与干净输入相同：请改动一个词元。",
    "err_pt_same_answer": "{model} 对两个输入写出相同的输出，没有可以恢复的答案：请改动一个会改变其输出的字符。",
    "err_pt_no_spread": "两个输入的 logit 差相同，没有什么可以恢复：请选择一个会改变模型答案的损坏输入。",
    "err_pt_small_spread": "干净输入上的 logit 差为 {clean:.3f}，损坏输入上为 {corrupted:.3f}：两者相差不到 {least:g}，"
                           "百分比会变成除以噪声。请改动一个会改变模型答案的词元，或点击“建议一个损坏输入”。",
    "err_pt_too_costly": "在这个输入上修补 {model}，即使不画“每个头在每个位置”的图，也会在共享的机器上耗时过长；请用更短的输入。",
    "pt_changed": "损坏输入与干净输入有 **{n}** 个词元不同，位置：{positions}。",
    "pt_changed_item": "{position}（{old} → {new}）",
    "pt_changed_join": "，",
    "pt_left_out": "“每个头在每个位置”的图已略去：它的 {runs:,} 次修补运行会在共享的机器上耗时过长。用更短的输入就能看到它。",
    "w_pt_restored": "恢复比例",
    "w_pt_blocks_passed": "层（经过的块数）",
    "w_pt_position_decoder": "位置（模型读取的内容）",
    "w_pt_position_encoder": "源序列位置",
    "w_pt_site_encoder_self_attn": "编码器",
    "w_pt_site_decoder_self_attn": "自注意力",
    "w_pt_site_decoder_cross_attn": "交叉",
    "w_pt_head": "头",
    "fig_pt_residual": "修补残差流：每个层 x 位置恢复了多少答案",
    "fig_pt_source": "修补编码器的残差流（改动的源序列从这里进入）",
    "fig_pt_heads": "在所有位置修补每个头的输出",
    "fig_pt_head_positions": "每次在一个位置修补每个头的输出",
    "pt_answers": "**正确答案** {right}，**错误答案** {wrong}，在位置 {position} 读出。logit 差：干净输入上为 "
                  "**{clean:.3f}**（记为 1），损坏输入上为 **{corrupted:.3f}**（记为 0）。",
    "pt_residual_where": "进入第一个块时，答案位于位置 {first_position}（{first_token}），修补它恢复 {first_value:.0%}；"
                         "离开最后一个块时位于位置 {last_position}（{last_token}），恢复 {last_value:.0%}。",
    "pt_best_head": "恢复最多的头：**{head}**，恢复答案的 {value:.0%}。",
    "param_dla_token": "要解释的词元",
    "info_dla_token": "直接 logit 归因拆分这个词元的 logit。留空：模型最可能的词元。",
    "dla_explain": "**直接 logit 归因。** 在前置归一化（pre-norm）模型中，离开最后一个块的残差流是各部分写入内容的和："
                   "嵌入、每个头、每个 MLP。最终归一化把这个和除以它的离散程度 σ；把 σ 固定为这个输入上的值，归一化就是线性的，"
                   "于是一个词元的 logit 恰好拆成每个部分一份（它的输出经过固定的归一化和反嵌入），再加上归一化的偏置。"
                   "只通过后面的层起作用的头在这里显示得很少；激活修补能看到它。",
    "err_dla_one_token": "对这个模型，“{token}”是 {n} 个词元；请输入恰好一个词元（字符级模型就是一个字符）。",
    "err_dla_never_predicts": "{model} 从不预测“{token}”：它的 logit 是固定的，不是算出来的。请换一个词元。",
    "dla_post_norm": "直接 logit 归因拆分的是前置归一化模型的残差流。这是一个后置归一化（post-norm）模型：每个块都以一个"
                     " LayerNorm 结束，它会重新缩放之前写入的所有内容之和，所以无法区分各部分的份额。激活修补仍然可用。",
    "fig_dla_short": "直接 logit 归因",
    "fig_dla": "每个部分给“{token}”的 logit 增加了多少（{where}）",
    "w_dla_next": "下一个词元",
    "w_dla_first_output": "输出的第一个词元",
    "w_dla_last": "最后一个位置",
    "w_dla_part": "部分",
    "w_dla_share": "对 logit 的份额",
    "w_dla_total": "各部分之和",
    "w_dla_logit": "模型的 logit",
    "w_dla_cross": "交叉",
    "w_dla_attention_bias": "注意力偏置",
    "w_dla_embedding": "词元嵌入",
    "w_dla_positions": "位置嵌入",
    "w_dla_norm_bias": "最终归一化的偏置",
    "dla_summary": "**{token}** 的 logit（{where}）：各部分之和为 **{total:.3f}**；模型的 logit 为 **{logit:.3f}**。"
                   "最终归一化的缩放 1/σ = {scale:.4f} 固定为这个输入上的值。份额最大的是 {top}，{top_value:+.3f}。",
    "lbl_pr_panel": "线性探针：每一层让什么变得可读",
    "param_pr_property": "探针读取的性质",
    "btn_pr_run": "训练探针",
    "pr_explain": "**探针**是从某一层的残差流到某个性质的逻辑回归，在一部分位置上训练几秒钟，再在留出的序列上测量。"
                  "准确率高说明这一层以一条直线就能读出的形式保存了这个性质。**对照任务**把标签在位置之间打乱后交给同样的向量，"
                  "这些向量不含任何关于标签的信息：它的探针得分就是这种大小的探针的随机水平。**只看位置**在每个位置回答最常见的标签，"
                  "所以主要由位置决定的性质不会被算作各层的功劳。虚线是随机水平，即总是回答最常见的标签。",
    "pr_property_inside": "在重复之中（这一块之前出现过吗？）",
    "pr_property_offset": "在重复中的位置（t mod 周期）",
    "pr_property_letter": "正在复制的字母",
    "pr_property_index": "正在复制的源序列下标",
    "pr_property_vowel": "下一个字符是元音",
    "pr_property_line_end": "下一个字符结束这一句（，或。）",
    "pr_offered": "{model} 可用的探针：",
    "pr_none_offered": "应用能探测的性质对 {model} 都没有意义：探针只为 induction 模型（重复）、reverse（复制的内容）、"
                       "shakespeare-char（元音）和 tang-poems-char（句末）提供。",
    "err_pr_none": "{model} 没有可用的探针；请选择 induction、reverse、shakespeare-char 或 tang-poems-char。",
    "err_pr_not_offered": "{model} 不探测 {property}；请从这些中选择：{offered}。",
    "err_pr_corpus": "模型训练用的文本（{corpus}）不在这台机器上，也无法下载。",
    "stand_in_played": "这台机器上没有 tiny Shakespeare，也无法下载，所以改用内置的英文文本：{model} 同样从未读过这段文本。",
    "fig_pr": "{model} 上的线性探针：{property}",
    "w_pr_blocks_passed": "层（经过的块数；0 = 嵌入）",
    "w_pr_accuracy": "留出数据准确率",
    "w_pr_probe": "探针",
    "w_pr_control": "对照任务（标签打乱）",
    "w_pr_position_only": "只看位置",
    "w_pr_chance": "随机水平",
    "pr_reads": "**第 {layer} 层**读出它的准确率为 **{accuracy:.0%}**，对照 {control:.0%}，随机水平 {chance:.0%}"
                "（第 n 层是经过 n 个块之后的残差流）。它从第 {first} 层开始可读：探针在那里比对照和随机水平都高出 {margin:.0f} 个百分点。",
    "pr_position_only": "只看位置就能读出 {position:.0%}：最好的一层在此之上多出 {gain:+.0f} 个百分点。",
    "pr_at_chance": "**没有哪一层能读出它**：最好的是第 {layer} 层，得分 {accuracy:.0%}，对照 {control:.0%}，"
                    "随机水平 {chance:.0%}。模型没有以一条直线能读出的形式保存这个性质。",
    "pr_counts": "在 {n_train:,} 个位置上训练，在 {n_test:,} 个留出位置上测量。",
    "lbl_gg_panel": "猜下一个字：你与模型对战",
    "param_gg_guess": "你的猜测",
    "info_gg_guess": "一个字符；空格输入 ␣，换行输入 ↵。按回车。",
    "param_gg_step": "与训练到这一步的模型再赛一局",
    "btn_gg_play": "猜",
    "btn_gg_new": "新游戏",
    "btn_gg_rematch": "再赛一局",
    "gg_explain": "文本来自语料中模型从未训练过的部分。输入你认为接下来的字符；模型猜它最可能的那个（logit 的 argmax）。"
                  "两者都按真实文本计分，每局 10 轮。然后在同样的轮次上与训练早期的模型再赛一局。",
    "err_gg_no_model": "没有可以对战的文本字符级模型（shakespeare-char 或 tang-poems-char）。",
    "err_gg_no_timeline": "{model} 没有训练时间线，无法再赛。",
    "err_gg_one_char": "请输入恰好一个字符（空格输入 ␣，换行输入 ↵），收到的是“{guess}”。",
    "err_gg_over": "这局已经结束：请按“新游戏”，或选一个训练步数再按“再赛一局”。",
    "err_gg_pick_step": "请选择要对战的训练步数。",
    "gg_context_intro": "**第 {round} / {rounds} 轮**，对手 **{model}**（{at}）。它读取最后 {n} 个字符；接下来是什么？",
    "gg_final": "训练完成时",
    "gg_at_step": "第 {step} 步",
    "gg_table_head": "| 轮 | 真实 | 你 | 模型 | 模型给真实字符的概率 |",
    "gg_rematch": "**再赛一局**：同样的 {rounds} 轮，对手是第 {step} 步的模型。在这些轮次上，第 {step} 步的模型猜对 "
                  "**{earlier}** 个；第 {last} 步的模型猜对 **{final}** 个。",
    "gg_replayed": "被重赛的那局（{at}）：你 {learner}，模型 {model}，共 {rounds} 轮。",
    "gg_round": "**第 {round} 轮：** 文本接下来是 **{answer}**。你：{learner} {learner_mark} · 模型（{at}）："
                "{model} {model_mark}，把握 {p:.0%}；它给真实字符的概率为 {p_answer:.1%}。",
    "gg_score": "**比分：** {rounds} / {total} 轮后，你 {learner}，模型 {model}。",
    "gg_over": "**本局结束：** 你 {learner}，模型 {model}，共 {total} 轮。选一个更早的训练步数并按“再赛一局”，"
               "在同样的轮次上与还没学到这么多的模型对战。",
    "gg_started": "新的一局，共 {rounds} 轮：输入接下来的那个字符。",
    "gg_none": "按**新游戏**与 {model} 对战。",
    "gg_finished_context": "这局已经结束。",
    "data_tang_poems": "唐诗（106,000 字）",
    "lesson_patching_note": "修补图和条形图读取的是训练完成时的模型。干净：{clean} · 损坏：{corrupted}（位置 {changed} "
                            "的词元，即最后一个词元前一次出现之后的那个，被改动了）。",
}

"""The course: sixteen lessons in the order of the tutorials' syllabus, in English and Chinese.

Every formula here is checked against the math (and, where the app computes it, against the
code's own numbers in the tests), not against the tutorials.
"""
from __future__ import annotations

from playground.bilingual import Bilingual

from .lesson import Choice, Experiment, Lesson, Question
from .llms import LLMS

T = Bilingual

DECODING_TEMPERATURES = (0.2, 2.0)     # lesson 11's two temperatures: its text and its figures
REPETITION_PENALTY = 1.5               # lesson 11's repetition penalty ...
REPETITION_TOKENS = 60                 # ... and the tokens each decoding writes


def right(en: str, zh: str, why_en: str, why_zh: str, outcome: str = "") -> Choice:
    return Choice(T(en, zh), True, T(why_en, why_zh), outcome)


def wrong(en: str, zh: str, why_en: str, why_zh: str, outcome: str = "") -> Choice:
    return Choice(T(en, zh), False, T(why_en, why_zh), outcome)


TOKENS = Lesson(
    id="tokens",
    title=T("1 · Tokens: characters and byte-level BPE", "1 · 词元：字符与字节级 BPE"),
    explanation=T(
        "A model reads numbers, not text. A **tokenizer** cuts text into pieces and gives each piece an id.\n\n"
        "- **Characters**: one token per character. Small vocabulary, long sequences, and any character it "
        "never saw becomes `<unk>`.\n"
        "- **Byte-level BPE**: start from the 256 possible bytes of UTF-8, then repeatedly **merge** the most "
        "frequent adjacent pair into a new token. Frequent words become one token; rare text falls back to "
        "bytes, so nothing is ever unknown.",
        "模型读的是数字而不是文字。**分词器**把文本切成片段，并给每个片段一个编号（id）。\n\n"
        "- **字符级**：每个字符一个词元。词表小、序列长；没见过的字符会变成 `<unk>`。\n"
        "- **字节级 BPE**：从 UTF-8 的 256 个字节出发，反复把最常见的相邻一对**合并**成新词元。常见的词成为一个词元；"
        "罕见的文本退回到字节，所以永远不会出现未知词元。"),
    look_for=T(
        "- The same text as characters and as BPE tokens: count both.\n- The merges in the order BPE learned "
        "them: the first ones join the most frequent pairs (in the merges shown, a space and the letter after it).\n- Chinese text shown "
        "as byte pieces like `<E6><B3>`.\n- Below the figures, a game: a character model reads text it never "
        "trained on, one character at a time, and so do you. Guess the next character against it, then rematch "
        "it as it was early in its training.",
        "- 同一段文本的字符切分与 BPE 切分：数一数各有多少词元。\n- BPE 学到合并的先后顺序：最先合并的是最常见的一对"
        "（在图中的合并里，是空格加它后面的字母）。\n- 中文显示为 `<E6><B3>` 这样的字节片段。\n- 图的下面有一个游戏：一个字符级模型一次一个字符地"
        "读它从未训练过的文本，你也一样。和它比赛猜下一个字符，然后和训练早期的它再赛一局。"),
    experiment=Experiment(
        predict=Question(
            T("A BPE trained on English tokenizes 注意力 (3 Chinese characters). How many tokens?",
              "一个用英文训练的 BPE 对“注意力”（3 个汉字）分词，会得到几个词元？"),
            (wrong("Exactly 1", "恰好 1 个", "Only a merge learned from Chinese text could make one token of it.",
                   "只有从中文语料里学到的合并才能把它变成一个词元。"),
             wrong("Exactly 3, one per character", "恰好 3 个，每字一个",
                   "BPE does not work on characters but on bytes; each character here is 3 bytes.",
                   "BPE 处理的是字节而不是字符；这里每个汉字有 3 个字节。"),
             right("More than 3, up to 9 (one per byte)", "多于 3 个，最多 9 个（每字节一个）",
                   "Each character is 3 UTF-8 bytes and English text taught BPE few merges of these bytes.",
                   "每个汉字是 3 个 UTF-8 字节，而英文语料几乎没有教会 BPE 合并这些字节。"))),
        run=T("Tokenize 注意力", "对“注意力”分词"),
        view="tokens_chinese",
        reveal=T("Each of these Chinese characters takes 3 bytes in UTF-8 (as most do), and a BPE that learned few merges of those bytes "
                 "keeps them apart: byte-level BPE never needs `<unk>`, but it pays in sequence length for text it "
                 "was not trained on.",
                 "在 UTF-8 中这几个汉字各占 3 个字节（大多数汉字都是），而没学到多少这些字节合并的 BPE 会把它们分开：字节级 BPE 从不需要 "
                 "`<unk>`，但对没训练过的文本要付出更长的序列。")),
    check=Question(
        T("Why does a byte-level BPE never produce `<unk>`?", "为什么字节级 BPE 永远不会产生 `<unk>`？"),
        (right("All 256 bytes are in its base vocabulary, and every text is a sequence of bytes",
               "256 个字节都在它的基础词表里，而任何文本都是字节序列",
               "So any text can always be written, at worst one byte per token.",
               "因此任何文本都能写出来，最差也就是一个字节一个词元。"),
         wrong("Its vocabulary holds every word of every language", "它的词表包含所有语言的所有单词",
               "Its vocabulary is limited (a few hundred entries in the one shown here, about 50,000 in GPT-2); it "
               "covers everything through bytes, not words.",
               "它的词表是有限的（这里的只有几百项，GPT-2 的约 5 万项）；它是靠字节而不是单词覆盖一切的。"),
         wrong("It deletes characters it does not know", "它会删除不认识的字符",
               "Nothing is deleted: decoding the ids gives back the exact text.",
               "不会删除任何内容：把 id 解码回去能得到完全相同的文本。"))),
    views=("tokens_compare", "tokens_merges"),
    link={"view": "tokenizer"},
    game=True,
)

EMBEDDINGS = Lesson(
    id="embeddings",
    title=T("2 · Embeddings: a lookup table that learns", "2 · 嵌入：会学习的查找表"),
    explanation=T(
        "The embedding is a matrix $E$ of shape $[V, D]$: token id $i$ becomes row $i$, a vector of $D$ numbers. "
        "The lookup is the same as multiplying a one-hot vector by $E$, but without the multiplication.\n\n"
        "At the start the rows are random. Training moves the rows of tokens that behave alike closer together, "
        "so **cosine similarity** $\\cos(a, b) = \\frac{a \\cdot b}{\\lVert a \\rVert \\lVert b \\rVert}$ between "
        "rows starts to mean something. Projecting the table onto its two main directions (PCA) draws it on a "
        "page.",
        "嵌入是一个形状为 $[V, D]$ 的矩阵 $E$：编号为 $i$ 的词元取出第 $i$ 行，即 $D$ 个数的向量。"
        "查表等价于 one-hot 向量乘以 $E$，只是省去了乘法。\n\n"
        "一开始各行是随机的。训练会让用法相似的词元的行靠得更近，于是行与行之间的**余弦相似度** "
        "$\\cos(a, b) = \\frac{a \\cdot b}{\\lVert a \\rVert \\lVert b \\rVert}$ 才开始有意义。"
        "把整张表投影到它最主要的两个方向（PCA）上，就能画在一页纸上。"),
    look_for=T(
        "- A trained model's nearest neighbours of a letter: its other case, other vowels or consonants.\n"
        "- In the PCA picture, which tokens group together: the clearest split is lower-case against upper-case "
        "letters.\n"
        "- The experiment compares one model, shakespeare-char, at its first and its last checkpoint.",
        "- 训练后的模型里一个字母的最近邻：它的大小写、其他元音或辅音。\n- PCA 图中哪些词元聚在一起：最明显的分界在小写字母和大写字母之间。\n"
        "- 实验比较的是同一个模型 shakespeare-char 的第一个和最后一个检查点。"),
    experiment=Experiment(
        predict=Question(
            T("In an untrained model, how similar is a token's embedding to its nearest neighbour (cosine)?",
              "在未训练的模型里，一个词元的嵌入与它最近邻的余弦相似度大约是多少？"),
            (wrong("Close to 1", "接近 1", "Random vectors in many dimensions are almost never aligned.",
                   "高维空间里的随机向量几乎从不同向。"),
             right("Small, well below 0.5", "很小，远低于 0.5",
                   "Random directions in D dimensions have cosines around ±1/√D; the best of a few dozen is still "
                   "small.", "D 维中的随机方向，余弦约为 ±1/√D；几十个里最大的那个也仍然很小。"),
             wrong("Exactly −1", "恰好 −1", "That would need two rows to be exact opposites, which chance never gives.",
                   "那需要两行恰好方向相反，随机初始化不会出现。"))),
        run=T("Compare the first and the last checkpoint", "比较第一个和最后一个检查点"),
        view="embeddings_untrained_vs_trained",
        reveal=T("Training changes both **who** is close and **how** close: at the start a token's neighbours are "
                 "arbitrary, after training they are tokens used alike (other vowels, the same letter in the "
                 "other case), and the mean cosine to the nearest neighbour has risen, as the counts above show.",
                 "训练既改变**谁**离得近，也改变离得**多**近：一开始一个词元的最近邻是任意的，训练后是用法相近的词元"
                 "（其他元音、同一字母的另一种大小写），与最近邻的平均余弦也升高了，上面的统计显示了这一点。")),
    check=Question(
        T("Looking up token id 7 in $E$ gives…", "在 $E$ 中查找编号 7 的词元得到……"),
        (right("Row 7 of E, the same as one_hot(7) · E", "E 的第 7 行，等于 one_hot(7) · E",
               "A one-hot vector selects exactly one row.", "one-hot 向量恰好选出一行。"),
         wrong("Column 7 of E", "E 的第 7 列",
               "Columns are features (D of them); tokens are rows (V of them).", "列是特征（D 个），行才是词元（V 个）。"),
         wrong("The number 7 times a learned scale", "数字 7 乘以一个学到的缩放系数",
               "Ids are names, not quantities: token 7 is not \"more\" than token 6.",
               "编号只是名字而不是数量：词元 7 并不比词元 6“更多”。"))),
    views=("embeddings_neighbours", "embeddings_pca"),
    link={"view": "inside"},
)

POSITIONS = Lesson(
    id="positions",
    title=T("3 · Positions: where each token stands", "3 · 位置：每个词元在哪里"),
    explanation=T(
        "Self-attention compares every token with every other, but nothing in it knows their **order**. The "
        "original Transformer adds a fixed table to the embeddings:\n\n"
        "$$PE_{(pos, 2i)} = \\sin\\left(pos / 10000^{2i/d}\\right), \\qquad "
        "PE_{(pos, 2i+1)} = \\cos\\left(pos / 10000^{2i/d}\\right)$$\n\n"
        "Dimension pair $i$ is a wave of wavelength $2\\pi \\cdot 10000^{2i/d}$: the **first** dimensions turn "
        "fast, the last ones slowly, so together they give every position a distinct pattern.\n\n"
        "**Add or concatenate?** Writing $[x; p]$ would keep token and position apart by construction, but widen "
        "every layer after it. Adding keeps the width; the two stay apart only if they use different directions "
        "of the $D$ dimensions, and a trained model arranges that (the figure measures it).\n\n"
        "The formula gives a code to every position, however far; whether a model trained on short inputs can "
        "use the codes of longer ones is a different question, which the Labs tab's length lab tests.",
        "自注意力会把每个词元与其他所有词元比较，但它本身不知道它们的**顺序**。原始 Transformer 在嵌入上加一张固定的表：\n\n"
        "$$PE_{(pos, 2i)} = \\sin\\left(pos / 10000^{2i/d}\\right), \\qquad "
        "PE_{(pos, 2i+1)} = \\cos\\left(pos / 10000^{2i/d}\\right)$$\n\n"
        "第 $i$ 对维度是一条波长为 $2\\pi \\cdot 10000^{2i/d}$ 的波：**前面的**维度变化快，后面的维度变化慢，"
        "合起来就让每个位置都有独特的模式。\n\n"
        "**相加还是拼接？** 写成 $[x; p]$ 能让词元和位置天然分开，但之后的每一层都要变宽。相加保持宽度不变；"
        "只有两者使用 $D$ 维中不同的方向时才能分开，而训练好的模型会这样安排（图中测量了这一点）。\n\n"
        "这个公式能给任意远的位置编码；但在短输入上训练的模型能否用上更长位置的编码，是另一个问题，实验室页的长度实验会检验它。"),
    look_for=T(
        "- In the heatmap, stripes that are narrow on the left (fast dimensions) and wide on the right.\n"
        "- Where a trained model puts its position vectors: in the directions its tokens use, or beside them.\n"
        "- Without positions, a shuffled input gives the same outputs, shuffled.",
        "- 热力图中左边条纹窄（变化快的维度），右边条纹宽。\n- 训练好的模型把位置向量放在哪里：放在词元使用的方向上，还是旁边。\n"
        "- 没有位置编码时，打乱的输入得到的是同样被打乱的输出。"),
    experiment=Experiment(
        predict=Question(
            T("A model without any positional encoding reads a sentence, then the same words shuffled. Its outputs…",
              "一个没有任何位置编码的模型先读一句话，再读同样的词打乱顺序后的句子。它的输出……"),
            (right("are the same vectors, shuffled the same way", "是同样的向量，按同样的方式被打乱",
                   "Without positions, self-attention is permutation-equivariant: it cannot tell the orders apart.",
                   "没有位置信息时，自注意力对排列是等变的：它分不出两种顺序。"),
             wrong("are completely different vectors", "是完全不同的向量",
                   "Every token sees the same set of tokens either way, so nothing changes but the order.",
                   "无论哪种顺序，每个词元看到的都是同一组词元，所以只有顺序变了。"),
             wrong("are the same vectors in the original order", "是按原顺序排列的同样向量",
                   "Each output stays with its own token, and the tokens moved.", "每个输出跟着自己的词元走，而词元的位置变了。"))),
        run=T("Shuffle the input", "打乱输入"),
        view="positions_shuffle",
        reveal=T("The outputs match the shuffled original up to rounding: order is invisible without positions.",
                 "输出与打乱后的原输出在舍入误差内一致：没有位置编码，顺序是看不见的。")),
    check=Question(
        T("Which dimensions of the sinusoidal table change fastest from one position to the next?",
          "正弦位置编码表中，哪些维度随位置变化最快？"),
        (right("The first ones (small i)", "前面的维度（i 小）",
               "Their wavelength $2\\pi \\cdot 10000^{2i/d}$ is shortest: $2\\pi$ at $i = 0$.",
               "它们的波长 $2\\pi \\cdot 10000^{2i/d}$ 最短：$i = 0$ 时为 $2\\pi$。"),
         wrong("The last ones (large i)", "后面的维度（i 大）",
               "Those have wavelengths up to $2\\pi \\cdot 10000$: they barely move over a few hundred positions.",
               "它们的波长长达 $2\\pi \\cdot 10000$：在几百个位置内几乎不变。"),
         wrong("All at the same speed", "所有维度一样快",
               "The frequency shrinks geometrically with $i$; that spread is what makes positions distinct.",
               "频率随 $i$ 按几何级数减小；正是这种差异让各个位置可以区分。"))),
    views=("positions_table", "positions_curves", "positions_add_vs_concat"),
    link={"view": "positional"},
)

ATTENTION = Lesson(
    id="attention",
    title=T("4 · Attention by hand", "4 · 手算注意力"),
    explanation=T(
        "For each token, attention asks: which other tokens should I read from?\n\n"
        "$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M\\right) V$$\n\n"
        "1. $Q = XW_Q$, $K = XW_K$, $V = XW_V$ (queries, keys, values);\n2. $QK^\\top$: every query against "
        "every key;\n3. divide by $\\sqrt{d_k}$ so the scores do not grow with the head size;\n4. add the mask "
        "$M$ ($-\\infty$ where a query must not look);\n5. softmax along each row: weights that sum to 1;\n"
        "6. weights times $V$: each output is a weighted average of values.",
        "对每个词元，注意力回答：我该从哪些词元读取信息？\n\n"
        "$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M\\right) V$$\n\n"
        "1. $Q = XW_Q$，$K = XW_K$，$V = XW_V$（查询、键、值）；\n2. $QK^\\top$：每个查询与每个键相比；\n"
        "3. 除以 $\\sqrt{d_k}$，使分数不随头的维度增大；\n4. 加上掩码 $M$（不允许看的位置为 $-\\infty$）；\n"
        "5. 按行做 softmax：得到和为 1 的权重；\n6. 权重乘以 $V$：每个输出都是值的加权平均。"),
    look_for=T(
        "- Each matrix of the worked example with its numbers (this example has no mask; the experiment adds the "
        "causal one, whose hidden entries become 0 after softmax).\n"
        "- Each row of the weights sums to 1.",
        "- 示例中每个矩阵及其数值（这个示例没有掩码；实验加上因果掩码，被遮住的位置在 softmax 之后变为 0）。\n- 权重的每一行之和为 1。"),
    experiment=Experiment(
        predict=Question(
            T("In a causal (decoder) head, how many non-zero weights does the first token's row have?",
              "在因果（解码器）注意力头中，第一个词元那一行有几个非零权重？"),
            (right("Exactly one: itself", "恰好一个：它自己",
                   "The mask hides every later token, so softmax puts all the weight on the only key left.",
                   "掩码遮住了所有后面的词元，softmax 把全部权重放在唯一剩下的键上。"),
             wrong("One per token of the input", "输入中每个词元一个",
                   "That is an encoder head: a causal head may not look ahead.", "那是编码器的注意力头：因果注意力不能向后看。"),
             wrong("None: the row is all zeros", "没有：整行都是 0",
                   "Softmax always produces weights that sum to 1 over the keys it may see.",
                   "softmax 在可见的键上总会产生和为 1 的权重。"))),
        run=T("Work through a causal head", "计算一个因果注意力头"),
        view="attention_by_hand_causal",
        reveal=T("The first row is 1.0 on the first token: a causal head's first token can only read itself.",
                 "第一行在第一个词元上为 1.0：因果注意力中第一个词元只能读它自己。")),
    check=Question(
        T("Why divide the scores by $\\sqrt{d_k}$?", "为什么要把分数除以 $\\sqrt{d_k}$？"),
        (right("If q and k have unit-variance entries, q · k has variance d_k: the division keeps the scores at "
               "unit scale, so softmax does not saturate",
               "若 q、k 的各分量方差为 1，则 q · k 的方差为 d_k：除法让分数保持单位尺度，softmax 不会饱和",
               "Saturated softmax is nearly one-hot, and its gradients vanish.",
               "饱和的 softmax 几乎是 one-hot，梯度会消失。"),
         wrong("To make the weights sum to 1", "为了让权重之和为 1",
               "Softmax does that on its own, whatever the scale.", "无论尺度如何，softmax 本身就保证了这一点。"),
         wrong("To save computation", "为了节省计算", "It adds a division; it saves nothing.", "它多了一次除法，并不省计算。"))),
    views=("attention_by_hand",),
    link={"view": "inside"},
)

HEADS = Lesson(
    id="heads",
    title=T("5 · Many heads and their shapes", "5 · 多头与张量形状"),
    explanation=T(
        "Multi-head attention runs $H$ attentions side by side, each on its own slice of $D_h = D / H$ features:\n\n"
        "$[B, T, D] \\to [B, T, H, D_h] \\to$ (transpose) $[B, H, T, D_h]$; scores $[B, H, T_q, T_k]$; output "
        "$[B, H, T, D_h] \\to$ (transpose back) $[B, T, H \\cdot D_h] \\to W_O$.\n\n"
        "Splitting adds no parameters: the $H$ heads together have the same parameters as one head of width $D$, "
        "but each can attend somewhere different. It does cost memory: $H$ attention maps of $T \\times T$ "
        "instead of one.\n\n"
        "**Per-head or fused projections?** Head $h$ could have its own $W_Q^h$ of shape $[D, D_h]$. Side by side, "
        "the $H$ of them are one $[D, D]$ matrix, so the model computes $XW_Q$ once and cuts it into $H$ slices: the "
        "same numbers and parameters, one large matrix product instead of $H$ small ones.",
        "多头注意力并行运行 $H$ 个注意力，每个使用自己那份 $D_h = D / H$ 个特征：\n\n"
        "$[B, T, D] \\to [B, T, H, D_h] \\to$（转置）$[B, H, T, D_h]$；分数 $[B, H, T_q, T_k]$；输出 "
        "$[B, H, T, D_h] \\to$（转置回来）$[B, T, H \\cdot D_h] \\to W_O$。\n\n"
        "拆分不增加参数：$H$ 个头合起来与一个宽度为 $D$ 的头参数相同，但每个头可以关注不同的地方。"
        "代价在内存上：要存 $H$ 张 $T \\times T$ 的注意力图，而不是一张。\n\n"
        "**每个头单独投影，还是合并投影？** 第 $h$ 个头可以有自己的 $[D, D_h]$ 矩阵 $W_Q^h$。把 $H$ 个并排放在一起，"
        "就是一个 $[D, D]$ 矩阵，所以模型只算一次 $XW_Q$，再切成 $H$ 份：数值和参数完全相同，只是一次大的矩阵乘法代替了 $H$ 次小的。"),
    look_for=T(
        "- The table of shapes of a real forward pass, stage by stage, with the mean, spread and largest value "
        "of each tensor: the attention weights stay between 0 and 1, the scores and the stream do not.\n"
        "- Where the head axis appears and disappears.\n- Per-head and fused projections side by side.",
        "- 一次真实前向传播中每一步的张量形状表，以及每个张量的均值、标准差和最大值：注意力权重始终在 0 到 1 之间，"
        "分数和残差流则不然。\n- 头这一维在哪里出现、又在哪里消失。\n- 每个头单独投影与合并投影的对比。"),
    experiment=Experiment(
        predict=Question(
            T("One sequence of 10 tokens, a layer with H heads: what shape do its self-attention weights have?",
              "一条 10 个词元的序列，经过一个有 H 个头的层：自注意力权重的形状是？"),
            (right("[1, H, 10, 10]", "[1, H, 10, 10]", "Batch, heads, queries, keys: one weight per query-key "
                   "pair in every head.", "批次、头、查询、键：每个头里每对查询-键一个权重。"),
             wrong("[1, 10, H, D_h]", "[1, 10, H, D_h]", "That is the split activations before the transpose, not "
                   "the weights.", "那是转置之前拆分后的激活值，不是权重。"),
             wrong("[1, 10, 10]", "[1, 10, 10]", "Each head has its own weights: the head axis stays.",
                   "每个头都有自己的权重：头这一维保留着。"))),
        run=T("Trace a forward pass", "追踪一次前向传播"),
        view="heads_shapes",
        reveal=T("The table lists the weights as [1, H, 10, 10], next to q, k and v as [1, H, 10, D_h].",
                 "表中权重为 [1, H, 10, 10]，旁边的 q、k、v 为 [1, H, 10, D_h]。")),
    check=Question(
        T("Merging heads with `.view` right after `.transpose(1, 2)` raises an error. Why?",
          "在 `.transpose(1, 2)` 之后直接用 `.view` 合并头会报错，为什么？"),
        (right("transpose makes the tensor non-contiguous and view needs contiguous memory: use reshape or "
               ".contiguous()", "transpose 使张量不连续，而 view 需要连续内存：用 reshape 或先 .contiguous()",
               "view never copies, so it can only reinterpret memory laid out in the order it asks for.",
               "view 从不复制数据，只能重新解释已按所需顺序排列的内存。"),
         wrong("view cannot change the number of dimensions", "view 不能改变维数",
               "It can; it just cannot reorder memory.", "它可以改变维数，只是不能重新排列内存。"),
         wrong("The head sizes do not add up to D", "各个头的维度之和不等于 D",
               "They do, since D = H · D_h; the error is about memory layout.",
               "它们相加正好等于 D（D = H · D_h）；错误来自内存布局。"))),
    views=("heads_shapes", "heads_fused"),
    link={"view": "attention", "model": "copy"},
)

MASKS = Lesson(
    id="masks",
    title=T("6 · Masks: padding, causal, and both", "6 · 掩码：填充、因果与两者结合"),
    explanation=T(
        "A mask says which keys a query may attend to; masked scores become $-\\infty$, so softmax gives them "
        "weight 0.\n\n- **Padding mask** $[B, 1, 1, T]$: hides the `<pad>` keys of shorter sequences in a batch, "
        "for every head and query.\n- **Causal mask** $[1, 1, T, T]$: lower-triangular, so position $t$ sees only "
        "$0..t$ — the decoder may not read the future it has to predict.\n- **Both**: their logical AND, "
        "broadcast to $[B, 1, T, T]$.",
        "掩码规定查询可以关注哪些键；被掩码的分数变成 $-\\infty$，softmax 后权重为 0。\n\n"
        "- **填充掩码** $[B, 1, 1, T]$：对每个头、每个查询，遮住批次中较短序列的 `<pad>` 键。\n"
        "- **因果掩码** $[1, 1, T, T]$：下三角，位置 $t$ 只能看到 $0..t$——解码器不能读取它要预测的未来。\n"
        "- **两者结合**：逻辑与，广播成 $[B, 1, T, T]$。"),
    look_for=T(
        "- The padded batch of two sequences and each mask over it, with the shape it is broadcast from.\n"
        "- Cross-attention uses the source's padding mask only: the target may look at every real source token.",
        "- 两条序列组成的填充批次，以及在其上的每种掩码和它广播前的形状。\n- 交叉注意力只用源序列的填充掩码：目标可以看所有真实的源词元。"),
    experiment=Experiment(
        predict=Question(
            T("What does softmax return for a row in which every key is masked (all $-\\infty$)?",
              "如果一行里所有键都被掩码（全为 $-\\infty$），softmax 返回什么？"),
            (right("NaN", "NaN", "$e^{-\\infty} = 0$ everywhere, so it divides 0 by 0.",
                   "每一项都是 $e^{-\\infty} = 0$，于是成了 0 除以 0。"),
             wrong("A uniform row", "均匀分布的一行", "Equal finite scores give a uniform row; $-\\infty$ is not "
                   "finite.", "相等的有限分数才给出均匀分布；$-\\infty$ 不是有限数。"),
             wrong("All zeros", "全是 0", "The numerator is 0 but so is the denominator.", "分子是 0，但分母也是 0。"))),
        run=T("Mask a whole row", "遮住整整一行"),
        view="masks_nan",
        reveal=T("Every score of the row is $-\\infty$, so softmax computes $0/0$: the fully masked row turns to "
                 "NaN and would spread through every later layer. The models here "
                 "avoid it: a query always has at least one key it may see (itself, or a real source token).",
                 "这一行的每个分数都是 $-\\infty$，softmax 算出的是 $0/0$：完全被掩码的一行变成 NaN，并会传遍后面的所有层。"
                 "这里的模型避免了这一点：每个查询至少有一个可以看的键"
                 "（它自己，或一个真实的源词元）。")),
    check=Question(
        T("A padding mask of shape $[B, 1, 1, T]$ masks…", "形状为 $[B, 1, 1, T]$ 的填充掩码遮住的是……"),
        (right("keys: no query may attend to a padding position", "键：任何查询都不能关注填充位置",
               "The last axis is the key axis; broadcasting repeats it over heads and queries.",
               "最后一维是键的维度；广播会把它复制到所有头和查询。"),
         wrong("queries: padding positions get no output", "查询：填充位置没有输出",
               "Padding queries still produce (ignored) outputs; the mask acts on the keys.",
               "填充位置的查询仍会产生（被忽略的）输出；掩码作用在键上。"),
         wrong("the future positions", "未来的位置", "That is the causal mask, $[1, 1, T, T]$.",
               "那是因果掩码，形状 $[1, 1, T, T]$。"))),
    views=("masks",),
    link={"view": "inside"},
)

BLOCK = Lesson(
    id="block",
    title=T("7 · The block: residual, LayerNorm, feed-forward", "7 · Transformer 块：残差、层归一化、前馈网络"),
    explanation=T(
        "A block is two sub-layers, attention then a feed-forward network $\\mathrm{FFN}(x) = W_2\\,"
        "\\mathrm{act}(W_1 x + b_1) + b_2$ (usually $d_{ff} = 4D$), each wrapped the same way:\n\n"
        "- **pre-norm** (GPT-2): $x + F(\\mathrm{LN}(x))$\n- **post-norm** (original): $\\mathrm{LN}(x + F(x))$\n\n"
        "The **residual** $x + F(\\cdot)$ lets each sub-layer add to the stream instead of replacing it. "
        "**LayerNorm** normalises each token's vector over its features:\n\n"
        "$$\\mathrm{LN}(x) = \\gamma \\odot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta,\\quad "
        "\\mu = \\tfrac{1}{D}\\sum_j x_j,\\; \\sigma^2 = \\tfrac{1}{D}\\sum_j (x_j - \\mu)^2$$\n\n"
        "**ReLU or GELU?** $\\mathrm{ReLU}(z) = \\max(0, z)$ is exactly 0, with slope 0, for every negative input: a "
        "unit whose input is negative everywhere is **dead**, it neither contributes nor learns. "
        "$\\mathrm{GELU}(z) = z\\,\\Phi(z)$ bends smoothly and keeps a small output and slope below 0.\n\n"
        "**Initial weights.** A $[D, D]$ layer with entries of standard deviation $s$ scales its input by about "
        "$s\\sqrt{D}$. Xavier picks $s = 1/\\sqrt{D}$ to keep it; GPT-2 (and the models here) use $s = 0.02$, "
        "which shrinks a plain stack of layers but works in a Transformer: each sub-layer only **adds** to the "
        "residual stream, and LayerNorm rescales what it reads.\n\n"
        "**Gradients per layer.** The last figure takes one batch through untrained pre-norm, post-norm and "
        "residual-free stacks with the same weights and measures each block's gradient: what the norm's place does "
        "at this initialisation, and what removing the residual path does.",
        "一个块由两个子层组成：先是注意力，再是前馈网络 $\\mathrm{FFN}(x) = W_2\\,\\mathrm{act}(W_1 x + b_1) + b_2$"
        "（通常 $d_{ff} = 4D$），两者用同样的方式包裹：\n\n"
        "- **前置归一化**（GPT-2）：$x + F(\\mathrm{LN}(x))$\n- **后置归一化**（原始论文）：$\\mathrm{LN}(x + F(x))$\n\n"
        "**残差** $x + F(\\cdot)$ 让每个子层在残差流上做加法，而不是替换它。**层归一化**对每个词元的向量在特征维上归一化：\n\n"
        "$$\\mathrm{LN}(x) = \\gamma \\odot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta,\\quad "
        "\\mu = \\tfrac{1}{D}\\sum_j x_j,\\; \\sigma^2 = \\tfrac{1}{D}\\sum_j (x_j - \\mu)^2$$\n\n"
        "**ReLU 还是 GELU？** $\\mathrm{ReLU}(z) = \\max(0, z)$ 对每个负输入都恰好输出 0，斜率也是 0："
        "一个输入处处为负的单元就**死**了，既不起作用也不学习。$\\mathrm{GELU}(z) = z\\,\\Phi(z)$ 是一条光滑曲线，"
        "在 0 以下仍保留很小的输出和斜率。\n\n"
        "**初始权重。** 元素标准差为 $s$ 的 $[D, D]$ 层会把输入放大约 $s\\sqrt{D}$ 倍。Xavier 取 $s = 1/\\sqrt{D}$ "
        "保持大小不变；GPT-2（以及这里的模型）用 $s = 0.02$，它会让单纯堆叠的线性层越算越小，但在 Transformer 里可行："
        "每个子层只是往残差流上**加**东西，而层归一化会重新缩放它读到的输入。\n\n"
        "**每层的梯度。** 最后一张图让同一批数据通过权重相同、未训练的前置归一化、后置归一化和没有残差的模型，"
        "测量每个块的梯度：看归一化的位置在这种初始化下起什么作用，去掉残差通路又起什么作用。"),
    look_for=T(
        "- One token's vector through LayerNorm, number by number.\n- LayerNorm normalises along the features, "
        "BatchNorm along the batch.\n- The size of the residual stream after every layer.\n- How many units of a "
        "feed-forward layer a ReLU would leave dead on a piece of text.\n- A signal through a stack of layers "
        "initialised N(0, 0.02) and Xavier.\n- Each block's gradient in a pre-norm, a post-norm and a residual-free stack.",
        "- 一个词元的向量逐个数字地经过层归一化。\n- 层归一化沿特征维归一化，批归一化沿批次维。\n- 每层之后残差流的大小。\n"
        "- 在一段文本上，前馈层有多少单元会被 ReLU 变成死单元。\n- 信号经过按 N(0, 0.02) 和 Xavier 初始化的多层线性层。\n"
        "- 前置归一化、后置归一化和没有残差的模型中每个块的梯度。"),
    experiment=Experiment(
        predict=Question(
            T("After the normalising step of LayerNorm (before $\\gamma$ and $\\beta$), a token's vector has…",
              "经过层归一化的归一化步骤后（乘 $\\gamma$、加 $\\beta$ 之前），一个词元的向量……"),
            (right("mean 0 and variance about 1", "均值为 0，方差约为 1",
                   "Subtracting $\\mu$ and dividing by $\\sqrt{\\sigma^2 + \\epsilon}$ does exactly that (the "
                   "$\\epsilon$ makes the variance a hair below 1).",
                   "减去 $\\mu$ 再除以 $\\sqrt{\\sigma^2 + \\epsilon}$ 正好做到这一点（$\\epsilon$ 让方差略小于 1）。"),
             wrong("values between 0 and 1", "取值在 0 到 1 之间", "That is min-max scaling; LayerNorm values can be "
                   "negative or above 1.", "那是最小-最大缩放；层归一化的值可以为负或大于 1。"),
             wrong("length 1", "长度为 1", "That is L2 normalisation; after LayerNorm the length is about √D.",
                   "那是 L2 归一化；层归一化之后的长度约为 √D。"))),
        run=T("Normalise one token", "归一化一个词元"),
        view="layernorm_by_hand",
        reveal=T("The table shows mean 0.000 and variance 1.000 (to rounding) before $\\gamma$ and $\\beta$ rescale "
                 "and shift it.", "表中显示乘 $\\gamma$、加 $\\beta$ 之前均值为 0.000、方差为 1.000（舍入误差内）。")),
    check=Question(
        T("Which axis does LayerNorm normalise?", "层归一化在哪一维上归一化？"),
        (right("The features of each token, separately", "每个词元各自的特征维",
               "So it works the same for a batch of one and while decoding token by token.",
               "因此批大小为 1 或逐词元解码时，它的行为都一样。"),
         wrong("The batch, for each feature", "对每个特征，在批次维上",
               "That is BatchNorm, whose statistics depend on the other sequences in the batch.",
               "那是批归一化，它的统计量依赖批次里的其他序列。"),
         wrong("The positions of each sequence", "每条序列的各个位置",
               "Normalising over positions would mix tokens, and leak the future in a decoder.",
               "在位置上归一化会混合各个词元，在解码器里还会泄露未来的信息。"))),
    views=("layernorm_by_hand", "layernorm_vs_batchnorm", "residual_norms", "block_activations", "block_init",
           "block_gradients"),
    link={"view": "inside"},
)

ARCHITECTURES = Lesson(
    id="architectures",
    title=T("8 · Three architectures", "8 · 三种架构"),
    explanation=T(
        "- **Encoder-only** (BERT): bidirectional self-attention; every position sees the whole input. Good for "
        "understanding and filling in (masked-char).\n- **Decoder-only** (GPT): causal self-attention; predicts "
        "the next token (shakespeare-char).\n- **Encoder-decoder** (the original): the encoder reads the source, "
        "the decoder writes the target and reads the source through **cross-attention** — queries from the "
        "target, keys and values from the encoder's output (copy, reverse, dates).",
        "- **仅编码器**（BERT）：双向自注意力，每个位置都看得到整个输入。适合理解和填空（masked-char）。\n"
        "- **仅解码器**（GPT）：因果自注意力，预测下一个词元（shakespeare-char）。\n"
        "- **编码器-解码器**（原始结构）：编码器读取源序列，解码器写出目标序列，并通过**交叉注意力**读取源序列——"
        "查询来自目标，键和值来自编码器的输出（copy、reverse、dates）。"),
    look_for=T(
        "- The encoder's attention fills the whole square; the decoder's only the lower triangle.\n"
        "- The reverse model's cross-attention: an anti-diagonal.",
        "- 编码器的注意力填满整个方阵；解码器的只有下三角。\n- reverse 模型的交叉注意力：一条反对角线。"),
    experiment=Experiment(
        predict=Question(
            T("The reverse model writes \"jihgfedcba\" for \"abcdefghij\". What pattern does its cross-attention show?",
              "reverse 模型把 “abcdefghij” 写成 “jihgfedcba”。它的交叉注意力呈现什么图案？"),
            (right("An anti-diagonal: the first output looks at the last input", "反对角线：第一个输出看最后一个输入",
                   "To write the reversed text, output step $t$ reads input $n - 1 - t$.",
                   "要写出反转后的文本，第 $t$ 步输出读取第 $n - 1 - t$ 个输入。"),
             wrong("A diagonal", "对角线", "That is the copy model: output $t$ reads input $t$.",
                   "那是 copy 模型：第 $t$ 个输出读第 $t$ 个输入。"),
             wrong("Uniform rows", "均匀的行", "A trained model knows where to look; uniform rows would average all "
                   "inputs.", "训练好的模型知道该看哪里；均匀的行会把所有输入平均掉。"))),
        run=T("Show cross-attention of reverse", "显示 reverse 的交叉注意力"),
        view="architectures_reverse_cross",
        reveal=T("The strongest weights run from the top right to the bottom left: each output reads the input "
                 "position mirrored from the end.", "最强的权重从右上延伸到左下：每个输出读取从末尾镜像过来的输入位置。")),
    check=Question(
        T("Which architecture lets a position use tokens to its right?", "哪种架构允许一个位置使用它右边的词元？"),
        (right("Encoder-only (and the encoder of an encoder-decoder)", "仅编码器（以及编码器-解码器中的编码器）",
               "Encoder self-attention has no causal mask.", "编码器的自注意力没有因果掩码。"),
         wrong("Decoder-only", "仅解码器", "Its causal mask hides every later position.", "它的因果掩码遮住所有后面的位置。"),
         wrong("None of them", "都不行", "Bidirectional encoders do exactly that; it is why BERT can fill in blanks.",
               "双向编码器正是这样做的；这也是 BERT 能填空的原因。"))),
    views=("architectures_three",),
    link={"view": "attention", "model": "reverse", "kind": "cross"},
)

COPY_TRAINING = Lesson(
    id="copy-training",
    title=T("9 · Training the copy task live", "9 · 现场训练复制任务"),
    explanation=T(
        "Training minimises the cross-entropy $L = -\\frac{1}{N}\\sum_t \\log p(y_t \\mid y_{<t}, x)$ of the right "
        "next token, with **teacher forcing**: the decoder reads the true target shifted right, so all positions "
        "train at once.\n\n**Exact match** counts sequences that are entirely right when the model writes them "
        "itself (greedy). The loss averages over tokens and exact match is all-or-nothing per sequence, so the two "
        "need not move together: watch which moves first, and the findings under the run say when each did.\n\n"
        "The figures show the shipped *copy* model at three checkpoints of its training. **Run** trains the Train "
        "tab's copy preset (2 encoder and 2 decoder layers, width 64) from random weights in your session and "
        "stops as soon as held-out exact match reaches 99%.",
        "训练最小化正确下一个词元的交叉熵 $L = -\\frac{1}{N}\\sum_t \\log p(y_t \\mid y_{<t}, x)$，"
        "并使用**教师强制**：解码器读取右移一位的真实目标，所以所有位置同时训练。\n\n"
        "**完全匹配率**统计模型自己（贪心）写出的序列中完全正确的比例。损失对词元求平均，完全匹配对每条序列全有或全无，所以两者不一定同时变化：看哪个先动，运行下面的结论会写出各自在哪一步变化。\n\n"
        "图中是发布的 *copy* 模型在训练中三个检查点的样子。**运行**会在你的会话里用训练页的 copy 预设"
        "（编码器 2 层、解码器 2 层，宽度 64）从随机权重开始训练，一旦留出数据上的完全匹配率达到 99% 就停下。"),
    look_for=T(
        "- While it trains: the loss curve and the exact-match curve, and which moves first.\n- The cross-attention "
        "on the probe input turning into a diagonal, and each head's diagonal score over the steps.\n- Under the "
        "checkpoints, exposure bias: how much worse a model does writing on its own than reading the true prefix, "
        "with teacher forcing and with scheduled sampling.",
        "- 训练时：损失曲线与完全匹配率曲线，以及哪个先动。\n- 探针输入上的交叉注意力逐渐变成对角线，以及每个头的对角线分数随步数的变化。\n"
        "- 检查点下面是曝露偏差：模型自己写比读真实前缀差多少，分别在教师强制和计划采样下。"),
    experiment=Experiment(
        predict=Question(
            T("As the copy model trains, what appears in its cross-attention?", "复制模型训练过程中，交叉注意力里会出现什么？"),
            (right("A diagonal", "一条对角线", "To copy, output $t$ must read input $t$.", "要复制，第 $t$ 个输出必须读第 $t$ 个输入。", "diagonal"),
             wrong("An anti-diagonal", "一条反对角线", "That is what reversing needs, not copying.", "那是反转需要的，而不是复制。",
                   "anti_diagonal"),
             wrong("Nothing: cross-attention stays uniform", "什么也没有：交叉注意力保持均匀",
                   "Then the decoder could not know which token to copy next.", "那样解码器就不知道下一个该复制哪个词元。",
                   "none"))),
        run=T("Train copy live", "现场训练 copy"),
        view="",
        reveal=T("To copy, decoder position $t$ has to read source position $t$, the token it writes next, so a "
                 "copying model is expected to draw a diagonal in its cross-attention. What your run showed:",
                 "要复制，解码器位置 $t$ 必须读取源序列位置 $t$，也就是它接下来要写的词元，所以一个会复制的模型的交叉注意力"
                 "应当出现一条对角线。你这次运行的结果："),
        live="copy"),
    check=Question(
        T("The loss is already low but exact match is still 0%. Why?", "损失已经很低，但完全匹配率仍为 0%，为什么？"),
        (right("Exact match needs every token of a sequence right; a few errors per sequence keep it at 0",
               "完全匹配要求序列中每个词元都对；每条序列错几个就会让它保持为 0",
               "The loss averages over tokens; exact match is all-or-nothing per sequence.",
               "损失是对词元求平均；完全匹配对每条序列是全有或全无。"),
         wrong("Exact match is computed on the training data", "完全匹配是在训练数据上计算的",
               "It is measured on held-out sources the model never trained on.", "它在模型从未训练过的留出数据上测量。"),
         wrong("The loss is wrong", "损失算错了", "Both are right; they measure different things.", "两者都没错，只是衡量的东西不同。"))),
    views=("train_copy", "copy_scheduled_sampling"),
    link={"view": "train", "task": "copy"},
)

CHAR_LM = Lesson(
    id="char-lm",
    title=T("10 · A character language model", "10 · 字符级语言模型"),
    explanation=T(
        "A decoder-only model trained to predict the next character. On a tiny text, such as the 407-character "
        "rhyme of the first tutorial, it **memorises**: training loss falls near 0 and greedy generation writes "
        "the rhyme back. On Shakespeare (1 MB) it cannot memorise; it learns spelling, words and the shape of a "
        "play.\n\nThe **block size** is how many characters it reads at once; it must fit the text.\n\n"
        "The first figure is one training window of the rhyme; the others show the shipped *shakespeare-char* "
        "model's next-character probabilities after "
        "\"ROMEO: What light\" before and after its training. **Run** trains the Train tab's character preset "
        "(2 layers, width 128, blocks of 32 characters) on the rhyme from random weights in your session and "
        "stops as soon as the training loss is 0.3 or less.",
        "一个训练来预测下一个字符的仅解码器模型。在很小的文本上（比如第一篇教程里 407 个字符的童谣），它会**背下来**："
        "训练损失接近 0，贪心生成会把童谣原样写回。在莎士比亚（1 MB）上它背不下来，而是学到拼写、单词和剧本的格式。\n\n"
        "**块大小**是它一次读多少个字符；它必须放得进文本。\n\n"
        "第一张图是童谣的一个训练窗口；其余的图是发布的 *shakespeare-char* 模型在训练前后对“ROMEO: What light”之后下一个字符的概率。"
        "**运行**会在你的会话里用训练页的字符预设（2 层，宽度 128，块大小 32 个字符）从随机权重开始训练童谣，"
        "一旦训练损失降到 0.3 或更低就停下。"),
    look_for=T(
        "- In the first figure, one training window: each target is the character after the input above it.\n"
        "- The rhyme's training loss falling from about $\\ln 37 \\approx 3.6$ (37 tokens, all equally likely) to "
        "0.3.\n- What the model writes after a piece of the rhyme: at the end, the rhyme itself.",
        "- 第一张图是一个训练窗口：每个目标都是它上方输入字符的下一个字符。\n"
        "- 童谣的训练损失从约 $\\ln 37 \\approx 3.6$（37 个词元，全都一样可能）降到 0.3。\n"
        "- 模型在一段童谣之后写出的内容：到最后，就是童谣本身。"),
    experiment=Experiment(
        predict=Question(
            T("Trained on the 407-character rhyme alone, where does the training loss go?",
              "只在 407 个字符的童谣上训练，训练损失会怎样？"),
            (right("Down to 0.3 and below: the model learns the rhyme by heart", "降到 0.3 及以下：模型把童谣背下来",
                   "A model with about 400,000 parameters can store 407 characters; nothing forces it to generalise.",
                   "一个约 40 万参数的模型装得下 407 个字符；没有什么迫使它去泛化。", "memorised"),
             wrong("It stays near ln 37 ≈ 3.6: the text is too short to learn from",
                   "停在 ln 37 ≈ 3.6 附近：文本太短，学不到东西",
                   "A short text is the easiest to learn: the same windows come back at every step.",
                   "短文本最容易学：每一步都会再看到同样的窗口。", "flat"),
             wrong("It levels off near 1.5, like a model of Shakespeare", "停在 1.5 左右，和莎士比亚模型一样",
                   "Shakespeare is too large to memorise, so its loss stays higher; the rhyme is not.",
                   "莎士比亚太大，背不下来，所以它的损失停得更高；童谣却背得下来。", "level"))),
        run=T("Train on the rhyme live", "现场训练童谣"),
        view="",
        reveal=T("A model that writes the rhyme back as written has memorised these 407 characters rather than "
                 "learned English. Trained on tiny Shakespeare (the figures above), the same kind of model cannot "
                 "memorise; it learns which characters tend to follow which. What your run showed:",
                 "按原文把童谣写回来的模型背下了这 407 个字符，而不是学会了英语。在 tiny Shakespeare 上训练（上面的图），"
                 "同样的模型背不下来，学到的是哪些字符常常跟在哪些字符后面。你这次运行的结果："),
        live="rhyme"),
    check=Question(
        T("Training loss 0.2 while validation loss rises. What is happening?", "训练损失 0.2，而验证损失在上升。发生了什么？"),
        (right("Overfitting: the model memorises the training text", "过拟合：模型在背训练文本",
               "It gets better at text it saw and worse at text it did not.", "它在见过的文本上越来越好，在没见过的文本上越来越差。"),
         wrong("The learning rate is too low", "学习率太低", "A low learning rate slows both losses; it does not "
               "split them.", "学习率低会让两个损失都下降得慢，而不会让它们分开。"),
         wrong("The validation set is broken", "验证集坏了", "This split is the classic sign of overfitting.",
               "这种分叉正是过拟合的典型迹象。"))),
    views=("char_lm_window", "char_lm_timeline"),
    link={"view": "train", "task": "char-lm", "data": "rhyme"},
)

DECODING = Lesson(
    id="decoding",
    title=T("11 · Decoding: greedy, temperature, top-k, top-p, beam", "11 · 解码：贪心、温度、top-k、top-p、束搜索"),
    explanation=T(
        "The model gives a distribution $p = \\mathrm{softmax}(z)$ over the next token. Decoding chooses:\n\n"
        "- **greedy**: the most likely token;\n- **temperature** $T$: $\\mathrm{softmax}(z / T)$ — below 1 "
        "sharper, above 1 flatter;\n- **top-k**: keep the $k$ most likely, renormalise;\n- **top-p**: keep the "
        "smallest set whose probabilities sum to at least $p$;\n- **beam search**: keep the $B$ best partial "
        "sequences by total log-probability;\n- **repetition penalty** $r$: before choosing, divide the probability "
        "of every token already in the text by $r$ (subtract $\\ln r$ from its logit) and renormalise.\n\n"
        "A probability on a bar is the share of draws that would pick that token when sampling from the distribution "
        "that bar shows.",
        "模型给出下一个词元的分布 $p = \\mathrm{softmax}(z)$。解码负责选择：\n\n"
        "- **贪心**：选概率最大的词元；\n- **温度** $T$：$\\mathrm{softmax}(z / T)$——小于 1 更尖锐，大于 1 更平坦；\n"
        "- **top-k**：保留概率最大的 $k$ 个，再归一化；\n- **top-p**：保留概率之和至少为 $p$ 的最小集合；\n"
        "- **束搜索**：按总对数概率保留 $B$ 个最好的部分序列；\n"
        "- **重复惩罚** $r$：选择之前，把文本中已出现的每个词元的概率除以 $r$（即从它的 logit 中减去 $\\ln r$），再归一化。\n\n"
        "条形上的概率，就是从这组条形所示的分布中采样时选中该词元的次数占比。"),
    look_for=T(
        "- The candidate bars at two temperatures: the figure titles name them.\n- The bars before and after "
        "top-k and top-p, the chosen token marked.\n- The beam tree: the best path and the hypotheses that fell "
        "away.",
        "- 两个温度下的候选条形图：图的标题写明了温度。\n- top-k 和 top-p 前后的条形图，被选中的词元有标记。\n"
        "- 束搜索树：最佳路径以及被淘汰的假设。"),
    experiment=Experiment(
        predict=Question(
            T("A small language model writes 60 tokens after a prompt, decoded four ways. Which repeats itself most "
              "(the largest share of 4-token pieces it has already written)?",
              "一个小语言模型在提示之后写 60 个词元，用四种方式解码。哪一种最爱重复自己（已经写过的 4 词元片段占比最大）？"),
            (wrong("Greedy", "贪心", "Greedy does loop, but beam search, which keeps the most likely whole sequences, "
                   "loops even more.", "贪心确实会打转，但保留最可能整句的束搜索转得更厉害。"),
             right("Beam search", "束搜索",
                   "It keeps the sequences with the highest total probability, and once a phrase has been written, "
                   "writing it again is very likely: repetition is what it finds.",
                   "它保留总概率最高的序列，而一句话写过一次之后，再写一遍的概率很高：它找到的正是重复。"),
             wrong("Sampling at temperature 1", "温度 1 的采样",
                   "Sampling draws a different token now and then, which breaks loops: it repeats least.",
                   "采样时不时会抽到别的词元，把循环打断：它重复得最少。"))),
        run=T("Decode four ways and count repeats", "用四种方式解码并统计重复"),
        view="decoding_repetition",
        reveal=T("The most likely continuation is not the most natural one: a phrase already written makes itself "
                 "more likely, so greedy and beam search, which chase likelihood, fall into loops; sampling and a "
                 "repetition penalty break them.",
                 "最可能的续写并不是最自然的：写过的话会让自己更可能再出现，所以追求似然的贪心和束搜索会陷入循环；"
                 "采样和重复惩罚能打破循环。")),
    check=Question(
        T("Top-p with p = 0.9 keeps…", "p = 0.9 的 top-p 保留……"),
        (right("the smallest set of most likely tokens whose probabilities sum to at least 0.9",
               "概率之和至少为 0.9 的、由最可能词元组成的最小集合",
               "So it keeps few tokens when the model is sure and many when it is not.", "因此模型有把握时保留得少，没把握时保留得多。"),
         wrong("the 90% most likely tokens of the vocabulary", "词表中最可能的 90% 的词元",
               "It counts probability mass, not tokens.", "它计算的是概率质量，而不是词元个数。"),
         wrong("every token with probability above 0.9", "概率大于 0.9 的每个词元",
               "At most one token can have probability above 0.5.", "概率大于 0.5 的词元最多只有一个。"))),
    views=("decoding_temperature", "decoding_candidates", "decoding_beam"),
    link={"view": "generate", "model": "shakespeare-char"},
)

MEASURING = Lesson(
    id="measuring",
    title=T("12 · Measuring a model", "12 · 衡量一个模型"),
    explanation=T(
        "- **Loss**: mean cross-entropy per token, in nats.\n- **Perplexity** $= e^{\\text{loss}}$: the model is "
        "as unsure as if it chose uniformly among that many tokens.\n- **Accuracy**: share of tokens whose top "
        "prediction is right.\n- **Exact match**: share of whole sequences written entirely right.\n- **BLEU**: "
        "$\\mathrm{BP} \\cdot \\exp\\big(\\sum_{n=1}^{4} \\tfrac{1}{4} \\log p_n\\big)$, the geometric mean of n-gram "
        "precisions with a brevity penalty; partial credit for partly right outputs, not a measure of meaning.\n\n"
        "These measure what comes out. A **linear probe** measures what is inside: a logistic regression reads a "
        "property from the residual stream of one layer, trained on some positions and scored on held-out ones. "
        "The **control task** gives the same vectors the labels shuffled among the positions, so what its probe "
        "scores is chance for a probe of that size; **position only** answers the commonest label at each "
        "position, what the position alone tells.",
        "- **损失**：每个词元的平均交叉熵，单位是奈特（nats）。\n- **困惑度** $= e^{\\text{loss}}$：模型的不确定程度，"
        "相当于在这么多个词元中均匀地选一个。\n- **准确率**：最高预测正确的词元所占比例。\n- **完全匹配率**：整条序列完全写对的比例。\n"
        "- **BLEU**：$\\mathrm{BP} \\cdot \\exp\\big(\\sum_{n=1}^{4} \\tfrac{1}{4} \\log p_n\\big)$，即带长度惩罚的 n 元组精确率"
        "几何平均；对部分正确的输出给部分分，它不衡量意思是否正确。\n\n"
        "这些衡量的是输出。**线性探针**衡量的是内部：一个逻辑回归从某一层的残差流读出一个性质，在一部分位置上训练，"
        "在留出的位置上打分。**对照任务**把标签在位置之间打乱后交给同样的向量，所以它的探针得分就是这种大小的探针的随机水平；"
        "**只看位置**在每个位置回答最常见的标签，即单凭位置能知道多少。"),
    look_for=T(
        "- Each validation loss beside two baselines: $\\ln V$, uniform guessing among the $V$ outputs, and the "
        "unigram loss of a model that knows only how often each token occurs.\n- Perplexity as the number of "
        "equally likely tokens the model is as unsure between.\n- Exact match beside BLEU where a card has both.\n"
        "- The probes of the induction model: whether a token is inside a repeat is read far above the control "
        "and chance, its offset inside the repeat at no layer.",
        "- 每个验证损失旁边的两个基准：$\\ln V$，即在 $V$ 个输出中均匀猜测；以及只知道每个词元出现频率的一元（unigram）模型的损失。\n"
        "- 困惑度：模型的不确定程度相当于在多少个等可能的词元中选一个。\n- 模型卡同时列出时，完全匹配率旁边的 BLEU。\n"
        "- induction 模型的探针：一个词元是否在重复之中，读出的准确率远高于对照和随机水平；它在重复中的位置则没有哪一层读得出。"),
    experiment=Experiment(
        predict=Question(
            T("A character model has validation loss 1.5 nats per character. Its perplexity is about…",
              "一个字符级模型的验证损失是每字符 1.5 奈特。它的困惑度大约是……"),
            (right("4.5", "4.5", "$e^{1.5} \\approx 4.48$: as unsure as a uniform choice among 4 to 5 characters.",
                   "$e^{1.5} \\approx 4.48$：相当于在 4 到 5 个字符中均匀选择。"),
             wrong("1.5", "1.5", "That is the loss itself; perplexity is its exponential.", "那是损失本身；困惑度是它的指数。"),
             wrong("0.22", "0.22", "That is $e^{-1.5}$, the probability of a choice among 4.5, not the perplexity.",
                   "那是 $e^{-1.5}$，即在 4.5 个中选一个的概率，不是困惑度。"))),
        run=T("Measure shakespeare-char", "测量 shakespeare-char"),
        view="measuring_perplexity",
        reveal=T("The table shows the shipped model's validation loss and $e$ to that power next to it.",
                 "表中列出发布模型的验证损失，以及旁边以 $e$ 为底的指数值。")),
    check=Question(
        T("A model scores BLEU 60 but exact match 20%. Can both be true?", "一个模型 BLEU 为 60，但完全匹配率只有 20%。两者可能同时成立吗？"),
        (right("Yes: BLEU gives credit for matching n-grams, exact match only for whole sequences",
               "可以：BLEU 对匹配的 n 元组给分，完全匹配只对整条序列给分",
               "Outputs that are mostly right raise BLEU without being exact.", "大部分正确的输出能提高 BLEU，但不算完全匹配。"),
         wrong("No: a BLEU of 60 means 60% of outputs are exact", "不可能：BLEU 60 表示 60% 的输出完全正确",
               "BLEU is not a share of sequences.", "BLEU 不是序列的比例。"),
         wrong("No: exact match must be higher than BLEU", "不可能：完全匹配率一定高于 BLEU",
               "Neither bounds the other. Corpus BLEU pools n-grams over all outputs and applies one brevity penalty: "
               "with half the outputs exact and half empty, exact match is 50% but BLEU is about 37, the penalty "
               "for the missing length.",
               "两者谁也不是对方的上界或下界。语料级 BLEU 把所有输出的 n 元组合在一起，再乘一个长度惩罚：一半输出完全正确、"
               "一半为空时，完全匹配率是 50%，BLEU 却约为 37，差在缺少的长度受到的惩罚。"))),
    views=("measuring_table", "measuring_probes"),
    link={"view": "train"},
)

BUGS = Lesson(
    id="bugs",
    title=T("13 · Classic bugs, predicted before they run", "13 · 经典错误：先预测再运行"),
    explanation=T(
        "Most Transformer bugs do not crash: they train, and the numbers look fine. The Labs tab trains a broken "
        "model beside the correct one on the same seed and data. Predict the symptom first, then run it.\n\n"
        "The one here: the causal mask built as **0/1 floats**, `torch.tril(torch.ones(T, T))`, where the "
        "attention expects booleans. A float mask is **added** to the scores, $\\text{softmax}(s + m)$: the "
        "allowed keys get $+1$ and the future keys $+0$, so nothing is hidden (a boolean mask turns the hidden "
        "keys' scores into $-\\infty$, whose weight is exactly 0). The model trains without an error; whether its loss "
        "gives the bug away is what the run shows, and the leak itself shows only when you test for it. **Run** trains the Labs tab's float-mask lab, "
        "the broken model and the reference side by side, in your session, and then measures both.",
        "大多数 Transformer 的错误不会崩溃：模型照样训练，数字看起来也正常。实验室页面在同样的种子和数据上，"
        "把有错误的模型和正确的模型并排训练。先预测症状，再运行。\n\n"
        "这里的错误是：因果掩码被构造成 **0/1 浮点数** `torch.tril(torch.ones(T, T))`，而注意力期望的是布尔值。"
        "浮点掩码会被**加**到分数上，$\\text{softmax}(s + m)$：允许的键加 $+1$，未来的键加 $+0$，什么也没有遮住"
        "（布尔掩码会把被遮住的键的分数变成 $-\\infty$，其权重恰好为 0）。模型训练时不会报错；它的损失能否暴露这个错误，要看运行的结果，"
        "而泄漏本身只有专门去检验才会显现。**运行**会在你的会话里运行实验室页的浮点掩码实验，"
        "把出错的模型和参考模型并排训练，然后对两者进行测量。"),
    look_for=T(
        "- The two models' losses side by side as they train: does anything look wrong?\n- At the end, its attention "
        "reaching to the right of the diagonal (the future), where the reference's weights are exactly 0.",
        "- 训练过程中两个模型的损失并排对比：能看出哪里不对吗？\n- 训练结束时，它的注意力伸到对角线右侧（未来），"
        "而参考模型在那里的权重恰好为 0。"),
    experiment=Experiment(
        predict=Question(
            T("With the 0/1 float mask, change only the last character of the input. The model's outputs at the "
              "earlier positions…", "使用 0/1 浮点掩码时，只改输入的最后一个字符。模型在前面各位置的输出……"),
            (right("change: the future leaks into them", "会变：未来泄漏进来了",
                   "A future key's mask value 0 is added to its score, so its weight stays positive: every position "
                   "reads a little of the positions after it.",
                   "未来键的掩码值 0 被加到它的分数上，所以它的权重仍然是正的：每个位置都会读到一点它后面的位置。", "leak"),
             wrong("stay exactly the same: the mask is lower-triangular", "完全不变：掩码是下三角的",
                   "Its shape is right, but a float mask is added, not used to hide: only $-\\infty$ (False in a "
                   "boolean mask) gives a weight of exactly 0.",
                   "它的形状没错，但浮点掩码是被加上去的，而不是用来遮住：只有 $-\\infty$（布尔掩码中的 False）"
                   "才会让权重恰好为 0。", "same"),
             wrong("become NaN", "变成 NaN",
                   "NaN comes from a row whose every score is $-\\infty$; this mask adds only 0 and 1, so no score "
                   "is $-\\infty$.",
                   "NaN 来自所有分数都是 $-\\infty$ 的一行；这个掩码只加 0 和 1，所以没有哪个分数是 $-\\infty$。", "nan"))),
        run=T("Run the float-mask lab", "运行浮点掩码实验"),
        view="",
        reveal=T("A float mask is added to the scores, so no future key gets weight exactly 0, and changing only the "
                 "last character can move the logits at earlier positions: the check measures whether it does. What "
                 "your run showed:",
                 "浮点掩码是加到分数上的，所以没有哪个未来的键的权重恰好为 0，只改最后一个字符就可能让前面位置的 logit 变化："
                 "检查项测量它是否真的变了。你这次运行的结果："),
        live="float-mask"),
    check=Question(
        T("Which bug lets attention saturate into nearly one-hot weights once training has grown the queries and keys "
          "of a head with a large $d_k$?",
          "对 $d_k$ 很大的头，一旦训练让查询和键变大，哪个错误会让注意力饱和成几乎 one-hot 的权重？"),
        (right("Forgetting to divide the scores by √d_k", "忘记把分数除以 √d_k",
               "For query and key entries of size about 1, unscaled scores spread like $\\sqrt{d_k}$, which saturates "
               "softmax. With this app's small initial weights (0.02) the entries start far smaller, so the scores do "
               "too and attention starts near uniform; the saturation comes as training grows them (the "
               "attention-scale lab measures both).",
               "查询和键的各分量大小约为 1 时，未缩放的分数波动幅度约为 $\\sqrt{d_k}$，会让 softmax 饱和。"
               "本应用的初始权重很小（0.02），分量一开始远小于 1，分数也很小，注意力起初接近均匀；"
               "饱和出现在训练让它们变大之后（注意力缩放实验两者都测）。"),
         wrong("Forgetting the positional encoding", "忘记位置编码", "That hides order; it does not sharpen the "
               "weights.", "那会隐藏顺序，但不会让权重变尖锐。"),
         wrong("Forgetting the residual connection", "忘记残差连接", "That hurts deep models' training; it does "
               "not change one softmax's sharpness.", "那会妨碍深层模型的训练，但不改变单个 softmax 的尖锐程度。"))),
    views=("bugs_lab",),
    link={"view": "labs", "lab": "float-mask"},
)

HEADS_FORM = Lesson(
    id="heads-form",
    title=T("14 · Heads that form: previous-token and induction", "14 · 逐渐形成的注意力头：前一词元头与归纳头"),
    explanation=T(
        "Some heads do recognisable jobs. A **previous-token head** attends from each position to the one before "
        "it. An **induction head** completes repeats: at a token it has seen before, it attends to the token "
        "that **followed** the earlier occurrence, and copies it — $[A][B] \\dots [A] \\to [B]$.\n\n"
        "It needs two layers: a previous-token head in layer 0 writes \"my predecessor was A\" into each position, "
        "and layer 1's induction head searches for it.\n\nThe first figures show the shipped *induction* model at three "
        "checkpoints. The next ones show its heads at work once trained. **Activation patching** reads a repeat as "
        "it is (clean) and with the token that followed the earlier occurrence changed (corrupted), and copies one "
        "activation at a time from the clean run into the corrupted one: an activation that brings the answer back "
        "carries it. **Direct logit attribution** splits the answer's logit into what each head and each MLP "
        "writes.\n\n**Run** trains the same preset (2 layers of 2 heads, width 64, on random blocks of 8 to 32 "
        "tokens written again and again) from random weights in your session, follows both scores and stops as "
        "soon as a layer-1 head's induction score reaches 0.3.",
        "有些注意力头承担可识别的任务。**前一词元头**让每个位置关注它前面的那个位置。**归纳头**补全重复："
        "在一个之前出现过的词元处，它关注前一次出现时**紧跟其后**的词元，并把它复制出来——$[A][B] \\dots [A] \\to [B]$。\n\n"
        "这需要两层：第 0 层的前一词元头把“我前面是 A”写进每个位置，第 1 层的归纳头再去搜索它。\n\n"
        "前几张图是发布的 *induction* 模型的三个检查点。后面几张图显示训练好后它的头如何工作。**激活修补**读取一段重复的原样"
        "（干净）和把前一次出现之后的那个词元改掉的版本（损坏），每次把一个激活从干净运行复制到损坏运行：能把答案带回来的激活"
        "就携带着答案。**直接 logit 归因**把答案的 logit 拆成每个头和每个 MLP 写入的份额。\n\n**运行**会在你的会话里用同样的预设（2 层、每层 2 个头、宽度 64，"
        "训练数据是 8 到 32 个词元的随机块反复书写）从随机权重开始训练，跟踪这两个分数，"
        "一旦第 1 层某个头的归纳分数达到 0.3 就停下。"),
    look_for=T(
        "- While it trains: the loss plateau, then the drop.\n- The previous-token score of layer 0 and the "
        "induction score of layer 1: when each starts to rise, and the step where the induction score crosses its "
        "threshold.\n- In the patching maps: the answer sits at the changed position as it enters the first block and "
        "at the last position as it leaves the last; the head that restores most is in layer 1.\n- In the "
        "attribution bars: layer 1's heads add far more to the answer's logit than layer 0's, and the layer-1 MLP "
        "adds the single largest share. Attribution credits each part with what it writes into the logit directly: "
        "an MLP that turns what the heads moved into the answer's direction gets that share, not the head that "
        "found the token.",
        "- 训练时：损失平台期，然后骤降。\n- 第 0 层的前一词元分数和第 1 层的归纳分数：各自从什么时候开始上升，"
        "以及归纳分数越过阈值的那一步。\n- 修补图中：答案进入第一个块时位于被改动的位置，离开最后一个块时位于最后一个位置；"
        "恢复最多的头在第 1 层。\n- 归因条形图中：第 1 层的头给答案 logit 增加的远多于第 0 层的头，而单项最大的是第 1 层的 MLP。归因把每个部件直接写进 logit 的份额记在它名下：把注意力头搬来的信息变成答案方向的 MLP 得到这一份，而不是找到这个词元的那个头。"),
    experiment=Experiment(
        predict=Question(
            T("The induction head reads what the previous-token head writes. When do the two form during training?",
              "归纳头读取前一词元头写下的信息。训练中这两个头什么时候形成？"),
            (right("In the same stretch of steps: neither lowers the loss without the other",
                   "在同一段步数里：缺了另一个，谁都降不了损失",
                   "A previous-token head is of no use until something reads it, and an induction head has nothing "
                   "to read without it; the two form in one phase change, with the drop in loss.",
                   "没有谁读取，前一词元头就没有用；没有前一词元头，归纳头也没有东西可读；两者在同一次相变中形成，损失随之骤降。",
                   "same"),
             wrong("The previous-token head long before the induction head", "前一词元头远早于归纳头",
                   "It alone does not lower the loss on random repeated blocks, so nothing drives it to form early.",
                   "在随机重复的块上，单靠它降不了损失，所以没有什么推动它提前形成。", "previous"),
             wrong("The induction head long before the previous-token head", "归纳头远早于前一词元头",
                   "Without the previous-token information it has nothing to search for.",
                   "没有前一词元的信息，它就没有东西可搜索。", "induction"))),
        run=T("Train the induction model live", "现场训练 induction 模型"),
        view="",
        reveal=T("Neither head lowers the loss alone, so the two scores are expected to rise in the same stretch of "
                 "steps, with the drop in the loss. What your run showed:",
                 "单独哪个头都降不了损失，所以两个分数预计会在同一段步数里上升，损失也随之下降。你这次运行的结果："),
        live="induction"),
    check=Question(
        T("At position $t$, an induction head attends to…", "在位置 $t$，归纳头关注的是……"),
        (right("the token right after the previous occurrence of the current token", "当前词元上一次出现位置的下一个词元",
               "That token is the prediction for what comes next.", "那个词元就是对下一个词元的预测。"),
         wrong("the token right before position t", "位置 t 前面紧挨着的词元",
               "That is a previous-token head.", "那是前一词元头。"),
         wrong("the first token of the sequence", "序列的第一个词元", "That is a first-token (\"attention sink\") "
               "head.", "那是首词元（“注意力汇聚”）头。"))),
    views=("heads_form_timeline", "heads_form_patching", "heads_form_attribution"),
    link={"view": "attention", "model": "induction"},
)

COST = Lesson(
    id="cost",
    title=T("15 · What it costs: parameters, FLOPs, memory", "15 · 代价：参数量、计算量、内存"),
    explanation=T(
        "A block with $d_{ff} = 4D$ holds about $12D^2$ weights: $4D^2$ in attention ($W_Q, W_K, W_V, W_O$) and "
        "$8D^2$ in the feed-forward network. A forward pass costs about $2N$ FLOPs per token for $N$ parameters, plus attention's own $4 \\cdot L \\cdot T \\cdot D$ at context $T$, which grows with the context (the FLOPs figure). "
        "While decoding, the **KV cache** keeps $2 \\cdot L \\cdot T \\cdot D$ numbers so old tokens are not "
        "recomputed.\n\nGPT-2 small ($L = 12$, $D = 768$, $V = 50257$, 1024 positions) has **124,439,808** "
        "parameters, 38.6 million of them in the token embedding.\n\n"
        "**Why attention replaced recurrence.** A recurrent layer $h_t = \\tanh(W h_{t-1} + U x_t)$ costs $2nD^2$ "
        "multiply-adds over $n$ positions, in $n$ steps that must run one after another, and the first token "
        "reaches the last through $n - 1$ of them. A self-attention layer costs $4nD^2$ for its $Q$, $K$, $V$ and "
        "output projections plus $2n^2D$ for $QK^\\top$ and the weighted sum of $V$: more at every length, but all "
        "positions at once, every pair one step apart. Attention won on parallel hardware and short paths, not on "
        "multiply-adds.",
        "一个 $d_{ff} = 4D$ 的块约有 $12D^2$ 个权重：注意力中 $4D^2$（$W_Q, W_K, W_V, W_O$），前馈网络中 $8D^2$。"
        "对 $N$ 个参数，一次前向传播每个词元约需 $2N$ 次浮点运算，再加上注意力自己在上下文长度为 $T$ 时的 $4 \\cdot L \\cdot T \\cdot D$，它随上下文增长（见计算量的图）。解码时，**KV 缓存**保存 $2 \\cdot L \\cdot T \\cdot D$ "
        "个数，避免重复计算旧词元。\n\nGPT-2 small（$L = 12$，$D = 768$，$V = 50257$，1024 个位置）有 **124,439,808** 个参数，"
        "其中 3860 万在词元嵌入里。\n\n"
        "**为什么注意力取代了循环网络。** 循环层 $h_t = \\tanh(W h_{t-1} + U x_t)$ 处理 $n$ 个位置要 $2nD^2$ 次乘加，"
        "分 $n$ 步依次计算，第一个词元要经过 $n - 1$ 步才能到达最后一个。自注意力层的 $Q$、$K$、$V$ 和输出投影要 $4nD^2$ 次，"
        "再加上 $QK^\\top$ 和对 $V$ 的加权求和的 $2n^2D$ 次：在任何长度上都更多，但所有位置同时计算，任意两个位置之间只隔一步。"
        "注意力胜在能并行、路径短，而不是乘加次数少。"),
    look_for=T(
        "- The parameter treemap: embeddings against blocks.\n- FLOPs and KV-cache memory growing with the "
        "context length.\n- A self-attention layer's cost against a recurrent layer's, and the sequential steps each needs.",
        "- 参数树状图：嵌入与各个块的对比。\n- 计算量和 KV 缓存内存随上下文长度增长。\n"
        "- 自注意力层与循环层的代价，以及各自需要依次计算的步数。"),
    experiment=Experiment(
        predict=Question(
            T("In GPT-2 small, which holds more parameters: the token embedding (50257 × 768) or one block?",
              "在 GPT-2 small 中，哪个参数更多：词元嵌入（50257 × 768）还是一个块？"),
            (right("The token embedding: 38.6 M against about 7.1 M per block", "词元嵌入：3860 万，而每个块约 710 万",
                   "$50257 \\cdot 768 \\approx 38.6$ M, while a block is about $12 \\cdot 768^2 \\approx 7.1$ M.",
                   "$50257 \\cdot 768 \\approx 38.6$ M，而一个块约 $12 \\cdot 768^2 \\approx 7.1$ M。"),
             wrong("One block", "一个块", "A block is about $12D^2$ = 7.1 M, less than a fifth of the embedding.",
                   "一个块约 $12D^2$ = 710 万，不到嵌入的五分之一。"),
             wrong("They are about equal", "两者差不多", "They differ by more than five times.", "两者相差五倍以上。"))),
        run=T("Count GPT-2 small", "统计 GPT-2 small"),
        view="cost_gpt2",
        reveal=T("The treemap puts 38,597,376 parameters in the token embedding and 7,087,872 in each block.",
                 "树状图显示词元嵌入有 38,597,376 个参数，每个块有 7,087,872 个。")),
    check=Question(
        T("Doubling $D$ (with $d_{ff} = 4D$) multiplies a block's parameters by about…",
          "把 $D$ 加倍（$d_{ff} = 4D$）会让一个块的参数量大约变为原来的……"),
        (right("4", "4 倍", "They grow with $D^2$.", "它们随 $D^2$ 增长。"),
         wrong("2", "2 倍", "Only the biases and LayerNorms grow linearly; the matrices grow with $D^2$.",
               "只有偏置和层归一化线性增长；矩阵随 $D^2$ 增长。"),
         wrong("8", "8 倍", "That would be $D^3$; a matrix of $D \\times D$ has $D^2$ entries.",
               "那是 $D^3$；$D \\times D$ 的矩阵只有 $D^2$ 个元素。"))),
    views=("cost_treemap", "cost_kv_cache", "cost_recurrence"),
    link={"view": "architecture", "preset": "gpt2-small"},
)

LESSONS: tuple[Lesson, ...] = (TOKENS, EMBEDDINGS, POSITIONS, ATTENTION, HEADS, MASKS, BLOCK, ARCHITECTURES,
                               COPY_TRAINING, CHAR_LM, DECODING, MEASURING, BUGS, HEADS_FORM, COST, LLMS)

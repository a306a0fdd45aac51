"""Lesson 16: from the 2017 Transformer to today's LLMs (Llama, Qwen): the four pieces they changed,
side by side with GPT-2, and Chinese text through a byte-level BPE.

Its numbers are filled in from its figures or checked against them (see the Lessons tab's llm_lesson).
"""
from __future__ import annotations

from playground.bilingual import Bilingual as T

from .lesson import Choice, Experiment, Lesson, Question

CHINESE_VOCAB = 2000          # the two byte-level BPEs of the experiment: tokens each (the English one caps lower)
KV_TOKENS = 16                # tokens read before the KV cache is measured

LLMS = Lesson(
    id="llms",
    title=T("16 · From the 2017 Transformer to today's LLMs", "16 · 从 2017 年的 Transformer 到今天的大模型"),
    explanation=T(
        "Llama, Qwen, Mistral and SmolLM keep the decoder-only stack of GPT-2 and change four of its pieces. The "
        "figures put GPT-2 small (**124,439,808** parameters) beside Qwen2.5-0.5B (**494,032,768**), both counted "
        "from their published shapes.\n\n"
        "1. **RMSNorm** instead of LayerNorm. LayerNorm centres and scales, "
        "$\\mathrm{LN}(x) = \\gamma \\odot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta$; RMSNorm only scales, "
        "$\\mathrm{RMS}(x) = \\gamma \\odot \\frac{x}{\\sqrt{\\mathrm{mean}(x^2) + \\epsilon}}$. It drops the mean $\\mu$ and the "
        "bias $\\beta$: half the parameters of a norm, and one reduction less. Since $\\mathrm{mean}(x^2) = \\sigma^2 + \\mu^2$, the two "
        "agree exactly on a vector whose mean is 0.\n"
        "2. **SwiGLU** instead of GELU. The feed-forward becomes "
        "$W_{down}\\big(\\mathrm{silu}(W_{gate}x) \\odot W_{up}x\\big)$ with $\\mathrm{silu}(z) = z\\,\\sigma(z)$: one "
        "projection decides, unit by unit, how much of the other passes (a gate). Three matrices instead of two, so "
        "a width of $\\tfrac{8}{3}D$ costs what $4D$ did.\n"
        "3. **Rotary positions** instead of learned ones. Nothing is added to the embeddings: the query at position "
        "$m$ and the key at position $n$ are rotated by angles $m\\theta_i$ and $n\\theta_i$, "
        "$\\theta_i = b^{-2i/d_h}$, so their score depends on the positions only through $m - n$.\n"
        "4. **Grouped-query attention**: several query heads share one key/value head. Qwen2.5-0.5B has 14 query heads "
        "and 2 key/value heads, so its KV cache keeps 2 heads' keys and values per layer and token instead of 14.\n\n"
        "No Qwen weights or tokenizer are on this server: where a figure needs weights it says which stand-in it "
        "uses (a small model of the same kind with random weights, or a shipped model), and load Qwen2.5-0.5B under "
        "*Use your own model* to open its real attention in the Attention tab.",
        "Llama、Qwen、Mistral 和 SmolLM 保留了 GPT-2 的仅解码器堆叠，改了其中四个部件。图中把 GPT-2 small"
        "（**124,439,808** 个参数）和 Qwen2.5-0.5B（**494,032,768** 个）并排，两者都按公开的形状计数。\n\n"
        "1. 用 **RMSNorm** 代替 LayerNorm。LayerNorm 先中心化再缩放，"
        "$\\mathrm{LN}(x) = \\gamma \\odot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta$；RMSNorm 只缩放，"
        "$\\mathrm{RMS}(x) = \\gamma \\odot \\frac{x}{\\sqrt{\\mathrm{mean}(x^2) + \\epsilon}}$。它去掉了均值 $\\mu$ 和偏置 $\\beta$："
        "归一化层的参数少一半，也少一次归约。由于 $\\mathrm{mean}(x^2) = \\sigma^2 + \\mu^2$，对均值为 0 的向量两者完全一致。\n"
        "2. 用 **SwiGLU** 代替 GELU。前馈层变成 $W_{down}\\big(\\mathrm{silu}(W_{gate}x) \\odot W_{up}x\\big)$，"
        "其中 $\\mathrm{silu}(z) = z\\,\\sigma(z)$：一个投影逐个单元地决定另一个投影能通过多少（门控）。三个矩阵而不是两个，"
        "所以宽度 $\\tfrac{8}{3}D$ 的代价等于原来的 $4D$。\n"
        "3. 用**旋转位置编码**代替可学习的位置。嵌入上不再加任何东西：位置 $m$ 的查询和位置 $n$ 的键分别旋转角度 "
        "$m\\theta_i$ 和 $n\\theta_i$，$\\theta_i = b^{-2i/d_h}$，所以它们的分数只通过 $m - n$ 依赖于位置。\n"
        "4. **分组查询注意力**：几个查询头共享一个键/值头。Qwen2.5-0.5B 有 14 个查询头、2 个键/值头，"
        "所以它的 KV 缓存每层每个词元只存 2 个头的键和值，而不是 14 个。\n\n"
        "本服务器上没有 Qwen 的权重和分词器：图中需要权重时会注明用了哪个替身（同类的随机权重小模型，或发布的模型）；"
        "在“使用你自己的模型”中加载 Qwen2.5-0.5B，就能在注意力页打开它真正的注意力。"),
    look_for=T(
        "- The two treemaps: where the parameters went (Qwen's vocabulary of 151,936 tokens, the wider feed-forward) "
        "and the norms, a weight and a bias each in GPT-2, a weight only in Qwen.\n"
        "- A real residual vector of shakespeare-char through LayerNorm and RMSNorm: the same shape, shifted by the "
        "mean RMSNorm keeps.\n"
        "- The gate: silu lets large positive inputs through, shuts negative ones towards 0.\n"
        "- The score of a query with the key one position back, as the pair moves along the text: flat with rotary "
        "positions, wandering with learned ones.\n"
        "- The KV cache per token, counted from the caches the model keeps, with and without grouped queries.",
        "- 两张树状图：参数去了哪里（Qwen 151,936 个词元的词表、更宽的前馈层），以及归一化层：GPT-2 每个有权重和偏置，Qwen 只有权重。\n"
        "- shakespeare-char 真实的一个残差向量经过 LayerNorm 和 RMSNorm：形状相同，只差 RMSNorm 保留下来的均值带来的平移。\n"
        "- 门控：silu 让大的正输入通过，把负输入压向 0。\n"
        "- 查询与前一个位置的键的分数，随这对词元在文本中移动：旋转位置编码下是平的，可学习位置下上下波动。\n"
        "- 从模型保存的缓存中数出的每个词元的 KV 缓存，有无分组查询各一份。"),
    experiment=Experiment(
        predict=Question(
            T("Two byte-level BPEs (the kind of tokenizer Qwen uses), one learned on English text, one on Tang poems, "
              "read a line of a Tang poem neither saw. How many tokens per character does each need?",
              "两个字节级 BPE（Qwen 用的就是这种分词器），一个在英文文本上学习，一个在唐诗上学习，读一行两者都没见过的唐诗。"
              "每个字符各需要几个词元？"),
            (Choice(T("About 3 with the English one (a byte each), about 1 with the Chinese one",
                      "英文的约 3 个（每个字节一个），中文的约 1 个"), True,
                    T("A Chinese character is 3 bytes in UTF-8; only merges learned from Chinese text join them.",
                      "一个汉字在 UTF-8 中是 3 个字节；只有从中文文本学到的合并才能把它们连起来。")),
             Choice(T("About 1 with both: BPE works on characters", "两者都约 1 个：BPE 按字符工作"), False,
                    T("Byte-level BPE starts from bytes, not characters.", "字节级 BPE 从字节出发，而不是从字符出发。")),
             Choice(T("Fewer with the English one: it learned from more text", "英文的更少：它学的文本更多"), False,
                    T("What it learned are merges of English bytes; they do not join the bytes of Chinese characters.",
                      "它学到的是英文字节的合并，合并不了汉字的字节。")))),
        run=T("Tokenize a Tang line both ways", "用两种分词器切分一行唐诗"),
        view="llm_chinese",
        reveal=T("Byte-level BPE never fails on Chinese, but a tokenizer that learned no Chinese pays about three "
                 "tokens a character: a context of the same length holds a third of the text, and every step of "
                 "generation writes a third of a character. Qwen's vocabulary of 151,936 tokens was learned on "
                 "much Chinese text for this reason.",
                 "字节级 BPE 处理中文从不失败，但没学过中文的分词器每个汉字要付出约三个词元：同样长的上下文只装得下三分之一的文本，"
                 "生成的每一步只写出三分之一个字。正因如此，Qwen 那 151,936 个词元的词表是在大量中文文本上学出来的。")),
    check=Question(
        T("Qwen2.5-0.5B has 14 query heads and 2 key/value heads. Against multi-head attention, its KV cache per token is…",
          "Qwen2.5-0.5B 有 14 个查询头和 2 个键/值头。与多头注意力相比，它每个词元的 KV 缓存……"),
        (Choice(T("7 times smaller", "小 7 倍"), True,
                T("It keeps keys and values for 2 heads instead of 14 in each layer: 14 / 2 = 7.",
                  "每层只存 2 个头而不是 14 个头的键和值：14 / 2 = 7。")),
         Choice(T("the same: every query head still attends", "一样：每个查询头仍然在做注意力"), False,
                T("The queries are not cached; only the keys and values are, and there are fewer of them.",
                  "查询不进缓存；缓存的只是键和值，而它们变少了。")),
         Choice(T("2 times smaller", "小 2 倍"), False,
                T("That would be 7 key/value heads for 14 query heads.", "那是 14 个查询头配 7 个键/值头的情形。")))),
    views=("llm_parameters", "llm_norms", "llm_gate", "llm_rotary", "llm_kv_cache"),
    link={"view": "architecture", "preset": "Qwen2.5-0.5B"},
)

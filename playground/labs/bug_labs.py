"""The six classic bugs of the tutorials, each trained beside the correct model.

An explanation says what the bug changes, what to look at and the fix; what a run showed is in its
checks and its findings, filled in from that run (see findings and comparisons).
"""
from __future__ import annotations

from playground.bilingual import Bilingual
from playground.claims import Claim

from . import checks
from .comparisons import outcome_findings
from .bugs import (
    drop_residuals,
    forget_embedding_scale,
    forget_score_scale,
    mask_with_floats,
    merge_heads_via_contiguous,
    see_the_future,
    split_heads_wrongly,
)
from .findings import Finding, compared, last_value, word
from .lab import Lab, Variant
from .results import LabResult
from .presets import (
    CHAR_LM_MODEL,
    CHAR_LM_TRAIN,
    CHARACTERS,
    DEEP_LM_MODEL,
    DEEP_LM_TRAIN,
    HIGH_LR_TRAIN,
    SEQ2SEQ_MODEL,
    SEQ2SEQ_TRAIN,
    sequence_task,
)

REFERENCE = Variant("reference", Bilingual("reference (correct)", "参考（正确）"))
ORDINARY_GAP = 0.10     # a final loss within 10% of the reference's looks ordinary on the curves
LEAK_FLOOR = 1e-4       # an earlier logit moving by more than this when only the last token changes: a leak


def loss_verdict(value: float, reference: float) -> str:
    """"ordinary" when `value` is within ORDINARY_GAP of `reference` (relative), else "too_low" or "too_high"."""
    if abs(value - reference) <= ORDINARY_GAP * reference:
        return "ordinary"
    return "too_low" if value < reference else "too_high"


VERDICTS = {
    "ordinary": Bilingual("on the loss curves alone nothing gives the bug away",
                          "只看损失曲线，看不出任何错误"),
    "too_low": Bilingual("a loss too good to be true: the model reads what it has to predict",
                         "好得不真实的损失：模型读到了它要预测的东西"),
    "too_high": Bilingual("the bug shows as a worse loss", "这个错误表现为更差的损失"),
}


def mask_leak_findings(variant_id: str):
    """The findings of a lab whose variant lets the future leak into a causal model: its loss against
    the reference's (what the curves show), the leak the check measures, and its loss once the true
    causal mask is put back."""

    def findings(result: LabResult) -> list[Finding]:
        reference, broken = result.reference, result.variant(variant_id)
        ref_val, val = last_value(reference.history, "val_loss"), last_value(broken.history, "val_loss")
        out = []
        if ref_val is not None and val is not None:
            side, verdict = compared(val, ref_val), loss_verdict(val, ref_val)
            out.append(Finding(Bilingual(
                f"Its validation loss ended at {val:.3f}, {word(side, 'en')} the reference's {ref_val:.3f}: "
                f"{VERDICTS[verdict].en}.",
                f"它的验证损失最终为 {val:.3f}，{word(side, 'zh-CN')}参考模型的 {ref_val:.3f}：{VERDICTS[verdict].zh}。"),
                (Claim(f"{result.lab_id}: final validation loss against the reference's", side,
                       compared(broken.history["val_loss"][-1], reference.history["val_loss"][-1])),
                 Claim(f"{result.lab_id}: how the final validation loss looks", verdict,
                       loss_verdict(broken.final["val_loss"], reference.final["val_loss"])))))
        leak = next((c for c in result.checks if c.id == "future_leak" and c.stage == "end"), None)
        if leak is not None:
            leaks = leak.values[variant_id] > LEAK_FLOOR
            out.append(Finding(Bilingual(
                f"Changing only the last token moved an earlier logit by up to {leak.values[variant_id]:.3g} "
                f"(the reference's: {leak.values[reference.id]:.3g}): "
                + ("the future leaks in." if leaks else "no leak was measured."),
                f"只改最后一个词元，前面位置的 logit 最多变化了 {leak.values[variant_id]:.3g}"
                f"（参考模型：{leak.values[reference.id]:.3g}）：" + ("未来泄漏进来了。" if leaks else "没有测到泄漏。")),
                (Claim(f"{result.lab_id}: the variant's future leaks", leaks,
                       result.check("future_leak", "end").values[variant_id] > LEAK_FLOOR),
                 Claim(f"{result.lab_id}: the reference does not leak", True,
                       result.check("future_leak", "end").values[reference.id] <= LEAK_FLOOR))))
        causal = next((c for c in result.checks if c.id == "loss_with_causal_mask"), None)
        if causal is not None:
            side = compared(causal.values[variant_id], causal.values[reference.id])
            out.append(Finding(Bilingual(
                f"With the true causal mask put back, its held-out loss is {causal.values[variant_id]:.3f}, "
                f"{word(side, 'en')} the reference's {causal.values[reference.id]:.3f}.",
                f"换回真正的因果掩码后，它在留出数据上的损失为 {causal.values[variant_id]:.3f}，"
                f"{word(side, 'zh-CN')}参考模型的 {causal.values[reference.id]:.3f}。"),
                (Claim(f"{result.lab_id}: loss with the causal mask against the reference's", side,
                       compared(result.check("loss_with_causal_mask").values[variant_id],
                                result.check("loss_with_causal_mask").values[reference.id])),)))
        return out

    return findings

CAUSAL_MASK = Lab(
    id="causal-mask",
    kind="bug",
    title=Bilingual("Causal mask built upper-triangular", "因果掩码写成了上三角"),
    question=Bilingual(
        "What happens when the causal mask is built with torch.triu instead of torch.tril, so that each "
        "position may look at the characters after it?",
        "如果用 torch.triu 而不是 torch.tril 构造因果掩码，让每个位置都能看到它后面的字符，会发生什么？"),
    explanation=Bilingual(
        "With the upper-triangular mask, position i attends to positions i, i+1, …, so during training it can "
        "read the very character it has to predict. Its training and validation losses are measured with the same "
        "leaky mask, so compare them with the reference's: a loss far below the correct model's is too good to be "
        "true. The checks show the leak directly: changing only the last character changes the logits at earlier "
        "positions, which cannot happen in a causal model; and the held-out loss is measured again with the future "
        "hidden, as generation must see it. Fix: allowed = torch.tril(torch.ones(T, T)).bool(), so query i sees "
        "keys 0…i; a one-line test changes a later token and asserts that earlier logits do not move.",
        "使用上三角掩码时，位置 i 会关注 i、i+1、…，训练时它能直接读到自己要预测的那个字符。"
        "它的训练损失和验证损失都是用同一个漏掉未来的掩码测的，所以要和参考模型比较：远低于正确模型的损失好得不真实。"
        "检查项直接暴露了泄漏：只改最后一个字符，前面位置的 logit 就变了，而因果模型绝不会这样；"
        "检查项还会像生成时那样重新遮住未来，再测一次留出数据上的损失。"
        "修复：allowed = torch.tril(torch.ones(T, T)).bool()，让查询 i 只看到键 0…i；"
        "一行测试即可守住它：改动后面的词元，断言前面的 logit 不变。"),
    data=CHARACTERS,
    model_config=CHAR_LM_MODEL,
    train_config=CHAR_LM_TRAIN,
    variants=(REFERENCE, Variant("upper_triangular", Bilingual("upper-triangular mask", "上三角掩码"),
                                 bug=see_the_future)),
    varies=("mask_builder",),
    checks=(checks.future_leak("start"), checks.future_leak("end"), checks.loss_with_causal_mask()),
    findings=mask_leak_findings("upper_triangular"),
)

ATTENTION_SCALE = Lab(
    id="attention-scale",
    kind="bug",
    title=Bilingual("Missing 1/√d_k in the attention scores", "注意力分数缺少 1/√d_k"),
    question=Bilingual(
        "What does the 1/√d_k in softmax(QKᵀ/√d_k) do? A one-head model with d_k = 64 learns to reverse "
        "letters, with and without it.",
        "softmax(QKᵀ/√d_k) 中的 1/√d_k 有什么用？让一个单头、d_k = 64 的模型分别在有和没有它的情况下学习反转字母。"),
    explanation=Bilingual(
        "A dot product of two d_k-dimensional vectors whose entries are about 1 in size spreads like √d_k, "
        "so for the same queries and keys the unscaled scores are √64 = 8 times the reference's. This "
        "model's weights start small (standard deviation 0.02), so its queries and keys start far below 1 in "
        "size. Compare the two models' attention entropy (1 = spread evenly, 0 = a single key) before "
        "training and after it, as training grows the queries and keys: a saturated softmax, near one-hot, "
        "passes almost no gradient to the keys it ignores. The curves show whether that slows the unscaled "
        "model on reverse. Fix: scores = q @ k.transpose(-2, -1) / math.sqrt(d_k).",
        "两个 d_k 维向量的各分量大小约为 1 时，它们的点积的波动幅度随 √d_k 增长，所以对同样的查询和键，未缩放的分数是参考模型的 √64 = 8 倍。本模型的权重初始化得很小（标准差 "
        "0.02），查询和键一开始远小于 1。比较两个模型训练前和训练后的注意力熵（1 = 均匀分布，0 = 只看一个键），训练会让查询和键变大：饱和的 softmax 接近 "
        "one-hot，几乎不给被忽略的键传梯度。曲线显示这是否让未缩放的模型在反转任务上学得更慢。修复：scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)。"),
    data=sequence_task("reverse"),
    findings=outcome_findings(sequence_task("reverse")),
    model_config=SEQ2SEQ_MODEL.replace(n_heads=1),
    train_config=SEQ2SEQ_TRAIN,
    variants=(REFERENCE, Variant("unscaled", Bilingual("no 1/√d_k", "没有 1/√d_k"), bug=forget_score_scale)),
    varies=("score_fn",),
    checks=(checks.attention_entropy("start"), checks.attention_entropy("end")),
)

EMBEDDING_SCALE = Lab(
    id="embedding-scale",
    kind="bug",
    title=Bilingual("Missing √d_model embedding scale", "词嵌入缺少 √d_model 缩放"),
    question=Bilingual(
        "Token embeddings are multiplied by √d_model before the positional encoding is added. What happens on "
        "the copy task if that factor is forgotten?",
        "词嵌入在加上位置编码之前要乘以 √d_model。如果忘了这个因子，复制任务会怎样？"),
    explanation=Bilingual(
        "This model initialises token embeddings with standard deviation 1/√d_model, so that after the "
        "√d_model factor they are about as large as the sinusoidal encoding (values between -1 and 1). "
        "Without the factor the positional encoding starts several times larger than the token embedding "
        "(the check measures the ratio of their sizes before and after training), so at first the model "
        "mostly sees where a token is, not which token it is. On the curves, look at how long each model "
        "stays on its plateau on copy, and whether the broken one catches up as its embeddings grow. Fix: x "
        "= embed(ids) * math.sqrt(d_model) + pe (or initialise the embeddings larger if you drop the factor).",
        "本模型用标准差 1/√d_model 初始化词嵌入，乘上 √d_model 之后，它们与正弦位置编码（取值在 -1 到 1 "
        "之间）大小相当。少了这个因子，位置编码一开始就比词嵌入大好几倍（检查项测量训练前后两者大小之比），于是模型起初主要看到的是词元在哪里，而不是它是什么。在曲线上看每个模型在复制任务上的平台期停留多久，以及出错的模型会不会随着嵌入变大而追上来。修复：x "
        "= embed(ids) * math.sqrt(d_model) + pe（如果去掉这个因子，就要把嵌入初始化得更大）。"),
    data=sequence_task("copy"),
    findings=outcome_findings(sequence_task("copy")),
    model_config=SEQ2SEQ_MODEL,
    train_config=SEQ2SEQ_TRAIN,
    variants=(REFERENCE, Variant("unscaled_embedding", Bilingual("no √d_model", "没有 √d_model"),
                                 bug=forget_embedding_scale)),
    varies=("embed.scale",),
    checks=(checks.position_to_token_ratio("start"), checks.position_to_token_ratio("end")),
)

HEAD_SPLIT = Lab(
    id="head-split",
    kind="bug",
    title=Bilingual("Heads split with view but no transpose", "分头时只用 view 没有 transpose"),
    question=Bilingual(
        "Splitting into heads takes x.view(B, T, H, D/H).transpose(1, 2). What if the transpose is skipped and "
        "x.view(B, H, T, D/H) is used directly?",
        "分头的正确写法是 x.view(B, T, H, D/H).transpose(1, 2)。如果省掉 transpose，直接用 x.view(B, H, T, D/H) 呢？"),
    explanation=Bilingual(
        "x.view(B, H, T, D/H) only reinterprets memory: 'head' h receives a block of about T/H consecutive "
        "positions cut into rows of D/H numbers, so attention mixes fragments of positions inside that block "
        "instead of whole positions across the sequence. Every shape is still right, so nothing crashes. The "
        "first check compares the outputs with the reference's at the start, with identical weights. On "
        "reverse each output letter needs a letter from the other end of the source: the curves show what "
        "the broken model can still learn. Because the grouping depends on the sequence length, a position's "
        "logits can also differ between the whole sequence and its prefix (the second check), so generating "
        "one token at a time would compute yet another function. Fix: x.view(B, T, H, D/H).transpose(1, 2) "
        "to split and out.transpose(1, 2).reshape(B, T, D) to merge.",
        "x.view(B, H, T, D/H) 只是重新解释内存：第 h 个“头”拿到的是大约 T/H 个相邻位置，被切成长度为 D/H "
        "的行，每行只是某个位置向量的一段，于是注意力只在这一块里混合这些位置片段，而不是在整个序列的完整位置之间。形状全都对，所以不会报错。第一项检查在权重完全相同时，比较训练开始时它与参考模型的输出。在反转任务上，每个输出字母都需要源序列另一端的字母：曲线显示出错的模型还能学到什么。由于分组方式取决于序列长度，同一位置在完整序列和只给前缀时的 "
        "logit 也可能不同（第二项检查），所以逐个词元生成时它计算的又是另一个函数。修复：分头用 x.view(B, T, H, D/H).transpose(1, 2)，合并用 "
        "out.transpose(1, 2).reshape(B, T, D)。"),
    data=sequence_task("reverse"),
    findings=outcome_findings(sequence_task("reverse")),
    model_config=SEQ2SEQ_MODEL,
    train_config=SEQ2SEQ_TRAIN,
    variants=(REFERENCE, Variant("no_transpose", Bilingual("view without transpose", "只用 view 不转置"),
                                 bug=split_heads_wrongly)),
    varies=("split", "merge"),
    checks=(checks.output_change_vs_reference("start"), checks.prefix_consistency("end")),
)

MISSING_RESIDUAL = Lab(
    id="missing-residual",
    kind="bug",
    title=Bilingual("Residual connections missing in a deep stack", "深层网络缺少残差连接"),
    question=Bilingual(
        "What happens to an 8-layer model when each sub-layer replaces the stream, x = f(x), instead of adding "
        "to it, x = x + f(x)?",
        "如果 8 层模型的每个子层都替换掉残差流（x = f(x)），而不是加到上面（x = x + f(x)），会怎样？"),
    explanation=Bilingual(
        "Without the residual path every token's vector has to pass through 16 freshly initialised "
        "sub-layers in a row, and attention averages over positions in every one of them. The check measures "
        "how alike the last block's outputs at different positions are (mean cosine; 1 = the same vector "
        "everywhere), before and after training: near 1, which character sits where has been washed out, the "
        "'rank collapse' of deep attention without skip connections. On the curves, compare each model's "
        "loss with the letter-frequency loss the findings give for the text read: a model that ends there "
        "predicts characters by their frequency alone. Fix: x = x + sublayer(norm(x)) around every "
        "sub-layer; the residual stream also gives the gradient a direct path to the first layers.",
        "没有残差通路时，每个词元的向量要连续穿过 16 个刚初始化的子层，而且每一层的注意力都会在位置之间求平均。检查项测量训练前后最后一个块在不同位置上的输出有多相似（平均余弦；1 = "
        "每个位置都是同一个向量）：接近 1 "
        "时，哪个字符在哪里的信息就被抹掉了，这就是没有跳跃连接的深层注意力的“秩坍缩”。在曲线上，把每个模型的损失和结论中给出的、本次读取文本的字母频率损失相比：停在那里的模型只按出现频率预测字符。修复：每个子层外都写成 "
        "x = x + sublayer(norm(x))；残差流也让梯度能直接到达前面的层。"),
    data=CHARACTERS,
    findings=outcome_findings(CHARACTERS),
    model_config=DEEP_LM_MODEL,
    train_config=DEEP_LM_TRAIN,
    variants=(REFERENCE, Variant("no_residual", Bilingual("no residual", "没有残差"), bug=drop_residuals)),
    varies=("residual",),
    checks=(checks.token_similarity("start"), checks.token_similarity("end")),
)

POST_NORM_NO_WARMUP = Lab(
    id="post-norm-no-warmup",
    kind="bug",
    title=Bilingual("Deep post-norm without warm-up", "深层后置归一化且没有预热"),
    question=Bilingual(
        "Can an 8-layer post-norm Transformer train at a high learning rate with no warm-up, and does adding "
        "warm-up fix it?",
        "8 层的后置归一化 Transformer 能否在较高学习率、没有预热的情况下训练？加上预热能解决问题吗？"),
    explanation=Bilingual(
        "Post-norm applies LayerNorm after each residual addition, x = norm(x + f(x)), so no untouched "
        "identity path runs through the stack; pre-norm, x = x + f(norm(x)), keeps one. The three models "
        "train at the same high peak learning rate (0.03): the pre-norm reference, post-norm without warm-up "
        "and post-norm with a 20-step warm-up. On the curves, look for a loss that flattens at the "
        "letter-frequency loss (the findings give it for the text read), whether it recovers, and whether "
        "warm-up changes that. The original Transformer trained post-norm with a long warm-up and a smaller "
        "learning rate; pre-norm and a lower peak learning rate are the other fixes.",
        "后置归一化在每次残差相加之后做层归一化：x = norm(x + f(x))，整个网络里没有一条不被改动的恒等通路；前置归一化写成 x = x + "
        "f(norm(x))，保留了这条通路。三个模型用同样的高峰值学习率（0.03）训练：前置归一化的参考模型、无预热的后置归一化、有 20 "
        "步预热的后置归一化。在曲线上找一找停在字母频率损失（结论中给出本次读取文本的值）上的损失，看它能否恢复，以及预热是否改变这一点。原始 Transformer "
        "用后置归一化时配合了很长的预热和更小的学习率；前置归一化和更低的峰值学习率是另外两种修复。"),
    data=CHARACTERS,
    findings=outcome_findings(CHARACTERS),
    model_config=DEEP_LM_MODEL,
    train_config=HIGH_LR_TRAIN,
    variants=(
        REFERENCE,
        Variant("post_no_warmup", Bilingual("post-norm, no warm-up", "后置归一化，无预热"),
                model_changes=dict(norm="post"), train_changes=dict(warmup_steps=0)),
        Variant("post_warmup", Bilingual("post-norm, warm-up", "后置归一化，有预热"), model_changes=dict(norm="post")),
    ),
    varies=("norm", "warmup_steps"),
    checks=(checks.token_similarity("end"),),
)

MERGE_WITH_VIEW = Lab(
    id="merge-with-view",
    kind="bug",
    title=Bilingual("Heads merged with view on a non-contiguous tensor", "在非连续张量上用 view 合并多头"),
    question=Bilingual(
        "After attention, the heads [B, H, T, Dh] are put back side by side with x.transpose(1, 2).view(B, T, D). "
        "Why does this line stop the model with a RuntimeError, and what fixes it?",
        "注意力之后，用 x.transpose(1, 2).view(B, T, D) 把各头 [B, H, T, Dh] 重新拼在一起。"
        "为什么这一行会让模型抛出 RuntimeError？怎样修复？"),
    explanation=Bilingual(
        "transpose moves no numbers: it returns a view of the same memory with two strides swapped, so the result "
        "is no longer contiguous. view only reinterprets memory, and here it must join the head and feature "
        "dimensions into one of size D. After the transpose, one head's Dh numbers for a position are adjacent, "
        "but the next head's numbers for that position lie T·Dh places further on, so no single stride describes "
        "the joined dimension and torch refuses: the first check runs the line on the very tensor each model "
        "merges and shows the real error, which even suggests .reshape. Fix: x.transpose(1, 2).contiguous()"
        ".view(B, T, D), which first copies the numbers into the new order (the variant), or "
        "x.transpose(1, 2).reshape(B, T, D), which copies only when it must (the reference). Both compute the same "
        "function: the second check finds the same logits and the two curves coincide. The error needs more than "
        "one head and more than one position; while generating one token at a time (T = 1) view happens to work, "
        "so the mistake can hide until the first training step.",
        "transpose 不移动任何数字：它返回同一块内存的视图，只是交换了两个步长，因此结果不再连续。"
        "view 只是重新解释内存，而这里它要把“头”和“特征”两个维度合并成大小为 D 的一个维度。"
        "转置之后，同一位置上一个头的 Dh 个数是相邻的，但下一个头在该位置的数却在 T·Dh 个位置之后，"
        "没有任何单一步长能描述合并后的维度，于是 torch 拒绝执行：第一项检查在每个模型实际要合并的张量上运行这一行，"
        "显示真实的报错（报错里甚至建议改用 .reshape）。修复：x.transpose(1, 2).contiguous().view(B, T, D)，"
        "先把数字按新顺序复制一份（变体），或 x.transpose(1, 2).reshape(B, T, D)，只在必要时复制（参考模型）。"
        "两者计算的是同一个函数：第二项检查得到相同的 logit，两条曲线重合。"
        "这个错误只在多于一个头、多于一个位置时出现；逐个词元生成时（T = 1）view 恰好能用，所以这个错误可能一直藏到第一次训练。"),
    data=sequence_task("copy"),
    findings=outcome_findings(sequence_task("copy")),
    model_config=SEQ2SEQ_MODEL,
    train_config=SEQ2SEQ_TRAIN,
    variants=(REFERENCE, Variant("contiguous_view", Bilingual("transpose + contiguous + view", "transpose + contiguous + view"),
                                 bug=merge_heads_via_contiguous)),
    varies=("merge",),
    checks=(checks.merge_with_view(), checks.output_change_vs_reference("start")),
)

FLOAT_MASK = Lab(
    id="float-mask",
    kind="bug",
    title=Bilingual("A 0/1 float mask where a boolean mask is expected", "该用布尔掩码的地方用了 0/1 浮点掩码"),
    question=Bilingual(
        "The causal mask is built as torch.tril(torch.ones(T, T)) and passed on as floats. The attention reads a "
        "float mask as torch's scaled_dot_product_attention does: numbers added to the scores. What does the model "
        "learn, and what happens to a query whose every key is masked?",
        "因果掩码用 torch.tril(torch.ones(T, T)) 构造，并以浮点数传下去。注意力像 torch 的 "
        "scaled_dot_product_attention 一样理解浮点掩码：把它加到分数上。模型会学到什么？所有键都被遮住的查询又会怎样？"),
    explanation=Bilingual(
        "A boolean mask says which keys a query may see: False becomes -inf before the softmax, so those weights are "
        "exactly 0. A float mask is added to the scores instead, so the 0/1 mask adds 1 to the allowed keys and 0 to "
        "the future ones: nothing is hidden, and each position can read the characters after it. The future keys "
        "start 1 behind in the scores, so the model has to learn to use them; whether its loss then looks any "
        "different from the reference's is what the curves and the run's findings show. The first check shows "
        "earlier logits moving when only the last token changes, and the second measures the held-out loss with "
        "the correct mask put back. Fix: build the mask as booleans, torch.tril(torch.ones(T, T, "
        "dtype=torch.bool)), or as an additive mask of 0 (may attend) and -inf (hidden). The last check shows the "
        "other trap of masks: a query whose whole row is hidden gets softmax over nothing but -inf, 0/0, so every "
        "one of its weights is NaN, and a NaN spreads to everything computed from it. The reference never builds "
        "such a row: the causal mask always lets a query see itself, and the padding mask hides padded keys only, "
        "so every query keeps at least one key. With the 0/1 float mask the same row is not hidden at all: its "
        "weights spread over every key.",
        "布尔掩码说明查询可以看哪些键：False 在 softmax 之前变成 -inf，对应的权重恰好为 0。"
        "浮点掩码则是被加到分数上：0/1 掩码给允许的键加 1，给未来的键加 0——什么也没有遮住，每个位置都能读到它后面的字符。"
        "未来的键在分数上先落后 1，模型得学会去用它们；它的损失和参考模型相比看起来有没有不同，要看曲线和本次运行的结论。"
        "第一项检查显示只改最后一个词元时前面位置的 logit 也会变；第二项检查换回正确的掩码，再测留出数据上的损失。"
        "修复：把掩码构造成布尔型 torch.tril(torch.ones(T, T, dtype=torch.bool))，"
        "或构造成取值 0（可以关注）和 -inf（遮住）的加性掩码。最后一项检查展示掩码的另一个陷阱："
        "一整行都被遮住的查询，softmax 的输入全是 -inf，得到 0/0，它的每个权重都是 NaN，而 NaN 会传染给由它算出的一切。"
        "参考模型从不构造这样的行：因果掩码总让查询看到它自己，填充掩码只遮住填充的键，所以每个查询至少保留一个键。"
        "用 0/1 浮点掩码时，同一行根本没有被遮住：它的权重分散在所有键上。"),
    data=CHARACTERS,
    model_config=CHAR_LM_MODEL,
    train_config=CHAR_LM_TRAIN,
    variants=(REFERENCE, Variant("float_mask", Bilingual("0/1 float mask", "0/1 浮点掩码"), bug=mask_with_floats)),
    varies=("mask_builder",),
    checks=(checks.future_leak("end"), checks.loss_with_causal_mask(), checks.fully_masked_row()),
    findings=mask_leak_findings("float_mask"),
)

BUG_LABS = (CAUSAL_MASK, ATTENTION_SCALE, EMBEDDING_SCALE, HEAD_SPLIT, MISSING_RESIDUAL, POST_NORM_NO_WARMUP,
            MERGE_WITH_VIEW, FLOAT_MASK)

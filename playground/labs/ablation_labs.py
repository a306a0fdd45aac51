"""Ablations: one design choice varied at a time, trained beside the reference.

As in bug_labs, an explanation says what the variants change and what to look at; what a run showed
is in its checks and its findings, filled in from that run.
"""
from __future__ import annotations

from playground.bilingual import Bilingual
from playground.claims import Claim

from . import checks
from .comparisons import outcome_findings
from .bug_labs import REFERENCE
from .findings import Finding
from .lab import DataSpec, Lab, Variant
from .results import LabResult
from .presets import (
    BPE_TEXT,
    CHAR_LM_MODEL,
    CHAR_LM_TRAIN,
    CHARACTERS,
    DEEP_LM_MODEL,
    HIGH_LR_TRAIN,
    OVERFIT_MODEL,
    OVERFIT_TRAIN,
    SEQ2SEQ_MODEL,
    SEQ2SEQ_TRAIN,
    TINY_TEXT,
    sequence_task,
)

NO_POSITIONS = Variant("no_positions", Bilingual("no positional encoding", "没有位置编码"),
                       model_changes=dict(positional="none"))


def _no_positions_lab(task: str, title: Bilingual, question: Bilingual) -> Lab:
    return Lab(
        id=f"no-positions-{task}",
        kind="ablation",
        title=title,
        question=question,
        explanation=Bilingual(
            "Without positions, self-attention cannot tell one order from another: shuffle the source and the "
            "encoder's outputs come out shuffled in exactly the same way, whatever the weights (the check "
            "measures the difference, 0 up to rounding for such a model). The decoder reads them through "
            "cross-attention, a weighted sum that ignores their order, so it writes the very same output for the "
            "source and for any shuffle of it (see the examples): it can learn which letters occur but not "
            "where. Compare the two models' exact match; the findings say what each reached. The decoder's "
            "causal mask gives it a sense of its own positions, but nothing tells it the source's order.",
            "没有位置编码时，自注意力分辨不出顺序：打乱源序列，编码器的输出也按完全相同的方式被打乱，与权重无关（检查项测量这个差异，对这样的模型它在舍入误差内为 "
            "0）。解码器通过交叉注意力读取这些输出，这是一个与顺序无关的加权和，所以对源序列和它的任意打乱，模型写出的结果一模一样（见示例）：它能学到有哪些字母，却学不到它们在哪里。比较两个模型的完全匹配率；各自达到多少，见结论。解码器的因果掩码让它对自己的位置有所感知，但没有任何东西告诉它源序列的顺序。"),
        data=sequence_task(task),
        findings=outcome_findings(sequence_task(task)),
        model_config=SEQ2SEQ_MODEL,
        train_config=SEQ2SEQ_TRAIN,
        variants=(REFERENCE, NO_POSITIONS),
        varies=("positional",),
        checks=(checks.shuffled_source(),),
    )


NO_POSITIONS_COPY = _no_positions_lab(
    "copy", Bilingual("Copy without positional encoding", "没有位置编码的复制"),
    Bilingual("Can a Transformer copy a sequence if it is given no positional information at all?",
         "如果完全不给位置信息，Transformer 还能复制一个序列吗？"))

NO_POSITIONS_REVERSE = _no_positions_lab(
    "reverse", Bilingual("Reverse without positional encoding", "没有位置编码的反转"),
    Bilingual("Can a Transformer write a sequence backwards if it is given no positional information at all?",
         "如果完全不给位置信息，Transformer 还能把序列倒着写出来吗？"))

WEIGHT_TYING = Lab(
    id="weight-tying",
    kind="ablation",
    title=Bilingual("Weight tying on and off", "权重共享：开与关"),
    question=Bilingual(
        "What does sharing one matrix between the token embedding and the output layer change: the number of "
        "parameters, and the training curve?",
        "让词嵌入和输出层共用一个矩阵，会改变什么：参数量，以及训练曲线？"),
    explanation=Bilingual(
        "Tying removes the output layer's own V × D matrix, V × 64 here (the check counts both models' "
        "parameters; in GPT-2 small it is 38.6 million of 124 million). At initialisation the residual "
        "stream is mostly the embedding of the character just read, and a tied head scores every character "
        "by that same embedding, so the tied model starts out favouring the character it has just seen: "
        "compare the two models' first losses with ln V, a uniform guess, then follow whether the tied model "
        "catches up within the run. Tying pays off when the vocabulary is large and parameters are scarce; "
        "it is a trade, not a free improvement.",
        "共享权重省掉了输出层自己的 V × D 矩阵，这里是 V × 64（检查项统计两个模型的参数量；在 GPT-2 small 中是 1.24 亿中的 3860 "
        "万）。刚初始化时，残差流主要就是刚读到的字符的嵌入，而共享权重的输出层正是用同一组嵌入给每个字符打分，所以共享模型一开始偏向于预测刚刚看到的那个字符：把两个模型的初始损失和 ln "
        "V（均匀猜测）相比，再看共享模型在这次运行中能否追上来。词表很大、参数紧张时共享权重才划算：这是一种取舍，而不是白送的提升。"),
    data=CHARACTERS,
    findings=outcome_findings(CHARACTERS),
    model_config=CHAR_LM_MODEL,
    train_config=CHAR_LM_TRAIN,
    variants=(Variant("untied", Bilingual("untied (separate output layer)", "不共享（独立输出层）")),
              Variant("tied", Bilingual("tied", "共享"), model_changes=dict(tie_weights=True))),
    varies=("tie_weights",),
    checks=(checks.parameter_count(),),
)


def _norm_variants() -> tuple[Variant, ...]:
    return (
        Variant("pre_warmup", Bilingual("pre-norm, warm-up", "前置归一化，有预热")),
        Variant("pre_no_warmup", Bilingual("pre-norm, no warm-up", "前置归一化，无预热"), train_changes=dict(warmup_steps=0)),
        Variant("post_warmup", Bilingual("post-norm, warm-up", "后置归一化，有预热"), model_changes=dict(norm="post")),
        Variant("post_no_warmup", Bilingual("post-norm, no warm-up", "后置归一化，无预热"),
                model_changes=dict(norm="post"), train_changes=dict(warmup_steps=0)),
    )


NORM_SHALLOW = Lab(
    id="norm-depth-2",
    kind="ablation",
    title=Bilingual("Pre-norm vs post-norm at depth 2", "2 层时的前置归一化与后置归一化"),
    question=Bilingual(
        "In a 2-layer model at a high learning rate, does it matter where LayerNorm goes, or whether the "
        "learning rate is warmed up?",
        "在高学习率下的 2 层模型里，LayerNorm 放在哪里、学习率有没有预热，重要吗？"),
    explanation=Bilingual(
        "At depth 2 the same four choices train at the high learning rate (0.03) of the depth-8 lab. With "
        "only two blocks few LayerNorms are stacked on the residual path. Compare the four curves with one "
        "another and with the depth-8 lab's: how far apart they end, and what skipping warm-up changes in "
        "the first steps.",
        "在 2 层时，同样四种组合用 8 层实验的高学习率（0.03）训练。只有两个块时，残差通路上叠加的层归一化很少。把四条曲线互相比较，也和 8 层实验的比较：最后相差多远，不预热又让最初几步有什么不同。"),
    data=CHARACTERS,
    findings=outcome_findings(CHARACTERS),
    model_config=DEEP_LM_MODEL.replace(n_decoder_layers=2),
    train_config=HIGH_LR_TRAIN,
    variants=_norm_variants(),
    varies=("norm", "warmup_steps"),
)

NORM_DEEP = Lab(
    id="norm-depth-8",
    kind="ablation",
    title=Bilingual("Pre-norm vs post-norm at depth 8", "8 层时的前置归一化与后置归一化"),
    question=Bilingual(
        "The same four choices in an 8-layer model: which of them still train at a high learning rate?",
        "同样四种组合放到 8 层模型里：高学习率下哪些还能训练？"),
    explanation=Bilingual(
        "At depth 8 and learning rate 0.03 the four runs differ in where LayerNorm sits and in warm-up. "
        "Pre-norm keeps an identity path x + f(norm(x)) from the embeddings to the output, so the signal and "
        "the gradient always have a route through the eight blocks that no LayerNorm rescales; post-norm "
        "renormalises the whole stream after every sub-layer. Look for the runs whose loss flattens at the "
        "letter-frequency loss (the findings give it for the text read), whether the split follows the "
        "normalisation or the warm-up, and compare with the depth-2 lab. Warm-up is the classic remedy for "
        "deep post-norm; the findings say where each run ended.",
        "在 8 层、学习率 0.03 时，四个运行的区别在于层归一化的位置和有无预热。前置归一化保留了一条从嵌入到输出的恒等通路 x + "
        "f(norm(x))，信号和梯度总有一条不被任何层归一化重新缩放的路穿过 8 "
        "个块；后置归一化则在每个子层之后把整条残差流重新归一化。找一找损失停在字母频率损失（结论中给出本次读取文本的值）上的运行，看分组是按归一化位置还是按预热，并和 2 "
        "层实验比较。预热是深层后置归一化的经典补救办法；每个运行最后停在哪里，见结论。"),
    data=CHARACTERS,
    findings=outcome_findings(CHARACTERS),
    model_config=DEEP_LM_MODEL,
    train_config=HIGH_LR_TRAIN,
    variants=_norm_variants(),
    varies=("norm", "warmup_steps"),
    checks=(checks.token_similarity("end"),),
)

DECODER_ONLY_VS_ENCODER_DECODER = Lab(
    id="decoder-only-vs-encoder-decoder",
    kind="ablation",
    title=Bilingual("Decoder-only vs encoder-decoder on copy", "复制任务：仅解码器 vs 编码器-解码器"),
    question=Bilingual(
        "For copying, which is easier to train: an encoder-decoder (2 + 2 layers) or a decoder-only model "
        "(4 layers) that reads source and target as one sequence?",
        "对于复制任务，哪个更容易训练：编码器-解码器（2 + 2 层），还是把源和目标当作一条序列读入的仅解码器模型（4 层）？"),
    explanation=Bilingual(
        "The decoder-only model reads 'source <bos> target <eos>' as one sequence and is trained only on the "
        "target part; to copy, each target position has to find the source letter a fixed distance back with "
        "causal self-attention. The encoder-decoder gets that alignment from cross-attention, target "
        "position i reading source position i, with a second attention in every decoder block (the check "
        "counts both models' parameters). Compare when each model's exact match rises and where it ends. "
        "Decoder-only models such as GPT copy easily once trained.",
        "仅解码器模型把“源 <bos> 目标 "
        "<eos>”当作一条序列读入，只在目标部分计算损失；要复制，每个目标位置都得用因果自注意力找到固定距离之前的那个源字母。编码器-解码器则通过交叉注意力得到这种对齐：目标位置 i 读取源位置 "
        "i，每个解码器块因此多一个注意力层（检查项统计两个模型的参数量）。比较两个模型的完全匹配率从什么时候开始上升、最后到多少。像 GPT 这样的仅解码器模型训练后也能轻松复制。"),
    data=sequence_task("copy"),
    findings=outcome_findings(sequence_task("copy")),
    model_config=SEQ2SEQ_MODEL,
    train_config=SEQ2SEQ_TRAIN,
    variants=(
        Variant("encoder_decoder", Bilingual("encoder-decoder (2 + 2 layers)", "编码器-解码器（2 + 2 层）")),
        Variant("decoder_only", Bilingual("decoder-only (4 layers)", "仅解码器（4 层）"),
                model_changes=dict(arch="decoder_only", n_encoder_layers=0, n_decoder_layers=4)),
    ),
    varies=("arch", "n_encoder_layers", "n_decoder_layers"),
    checks=(checks.parameter_count(),),
)

POSITIONAL_ENCODINGS = Lab(
    id="positional-encodings",
    kind="ablation",
    title=Bilingual("Sinusoidal vs learned vs RoPE", "正弦 vs 可学习 vs RoPE 位置编码"),
    question=Bilingual(
        "Does the kind of positional encoding matter when an encoder-decoder learns to reverse letters?",
        "编码器-解码器学习反转字母时，位置编码的种类重要吗？"),
    explanation=Bilingual(
        "Reversing needs absolute positions: target letter i comes from source position S-1-i. The "
        "sinusoidal table gives every position a fixed, distinct code from the first step. Learned positions "
        "start as random vectors (a max_len × D table per stack, so more parameters) that must be trained "
        "before they mean anything. RoPE rotates queries and keys in self-attention so that their scores "
        "depend on the positions only through their offset; in this implementation cross-attention gets no "
        "rotation, so the decoder has no direct way to ask for 'the source position mirrored to mine'. "
        "Compare when each model's exact match rises and where it ends.",
        "反转需要绝对位置：目标第 i 个字母来自源序列的第 S-1-i 个位置。正弦表从第一步起就给每个位置一个固定且互不相同的编码。可学习的位置编码一开始只是随机向量（每个堆叠多一张 max_len × "
        "D 的表，参数更多），要先训练才有意义。RoPE "
        "在自注意力中旋转查询和键，使分数只通过两者的位置差依赖于位置；本实现的交叉注意力不做旋转，解码器没有直接办法去找“与我对称的源位置”。比较每个模型的完全匹配率从什么时候开始上升、最后到多少。"),
    data=sequence_task("reverse"),
    findings=outcome_findings(sequence_task("reverse")),
    model_config=SEQ2SEQ_MODEL,
    train_config=SEQ2SEQ_TRAIN.replace(max_steps=180),        # three variants: fewer steps each
    variants=(
        Variant("sinusoidal", Bilingual("sinusoidal", "正弦")),
        Variant("learned", Bilingual("learned", "可学习"), model_changes=dict(positional="learned")),
        Variant("rope", Bilingual("RoPE", "RoPE"), model_changes=dict(positional="rope")),
    ),
    varies=("positional",),
    checks=(checks.parameter_count(),),
)

OVERFITTING = Lab(
    id="overfitting",
    kind="ablation",
    title=Bilingual("Overfitting a tiny text, and dropout", "在小文本上过拟合，以及 dropout"),
    question=Bilingual(
        "A character model reads the same 10,000 characters again and again. Where do its training and validation "
        "losses part, and does dropout 0.2 keep them together?",
        "一个字符模型一遍又一遍地读同样的一万个字符。它的训练损失和验证损失从哪里开始分开？dropout 0.2 能让它们靠得更近吗？"),
    explanation=Bilingual(
        "The validation text is the last tenth of the bundled text, never trained on. What the model learns "
        "first (spelling, common words) carries over, so both losses fall together; once it learns the "
        "training text itself, the training loss falls faster than the validation loss and the curves part, "
        "and trained long enough the validation loss turns up. The check measures the gap at the end, with "
        "both losses taken without dropout. Dropout 0.2 zeroes a random fifth of the activations at every "
        "step (and scales the rest by 1/0.8), so no single path can carry a memorised detail: compare the "
        "two models' gaps. Dropout is switched off when evaluating and generating. More data is the stronger "
        "cure; dropout, weight decay and stopping at the lowest validation loss are the ones that fit a tiny "
        "text.",
        "验证文本是内置文本的最后十分之一，从不参与训练。模型最先学到的东西（拼写、常见词）可以迁移，所以两条损失一起下降；一旦它开始记住训练文本本身，训练损失就比验证损失下降得更快，两条曲线分开；训练得足够久，验证损失会回升。检查项测量训练结束时的差距，两种损失都在关闭 "
        "dropout 的情况下计算。dropout 0.2 在每一步随机把五分之一的激活置零（其余乘以 1/0.8），任何单条通路都无法单独记住细节：比较两个模型的差距。评估和生成时 dropout "
        "关闭。更多的数据是更有效的办法；对小文本来说，dropout、权重衰减以及在验证损失最低时停止训练是合适的手段。"),
    data=TINY_TEXT,
    findings=outcome_findings(TINY_TEXT),
    model_config=OVERFIT_MODEL,
    train_config=OVERFIT_TRAIN,
    variants=(REFERENCE, Variant("dropout", Bilingual("dropout 0.2", "dropout 0.2"), model_changes=dict(dropout=0.2))),
    varies=("dropout",),
    checks=(checks.generalisation_gap("end"),),
)

CHARACTERS_VS_BPE = Lab(
    id="characters-vs-bpe",
    kind="ablation",
    title=Bilingual("Characters vs BPE on the same text", "同一文本：字符与 BPE"),
    question=Bilingual(
        "The same model reads the same text as single characters or as byte-level BPE tokens (512 of them). Its "
        "loss per token is not comparable between the two: which one predicts the text better per character?",
        "同一个模型读同一段文本，一次按单个字符，一次按字节级 BPE 词元（共 512 个）。两者每个词元的损失不能直接比较："
        "按每个字符算，哪一个把文本预测得更好？"),
    explanation=Bilingual(
        "A BPE token spells several characters (the first check counts them), so predicting one token is a harder "
        "choice than predicting one character, among 512 options instead of about 65, and the BPE model's loss per "
        "token is much higher. That does not make it worse. Summing the loss over the held-out tokens and dividing "
        "by the characters they spell gives the loss per character, the same yardstick for both (the second check; "
        "bits per character = nats / ln 2). The BPE block is 16 tokens so that both models see a context of "
        "similar length in characters. Which one is ahead per character depends on the text and on how long they "
        "train (BPE's embedding and output tables are larger and each of its tokens is seen less often); the "
        "check gives the answer for this run. BPE also writes a text in fewer steps. Compare the curves with "
        "care: they plot loss per token.",
        "一个 BPE 词元包含好几个字符（第一项检查统计了平均数），所以预测一个词元比预测一个字符更难——要在 512 个选项"
        "而不是大约 65 个里选——BPE 模型每个词元的损失高得多。但这并不说明它更差。把验证集所有词元的损失加起来，"
        "再除以这些词元拼出的字符数，就得到每个字符的损失，这是两者共用的尺子（第二项检查；每字符比特数 = nat / ln 2）。"
        "BPE 的块取 16 个词元，让两个模型看到的上下文按字符计长度相近。按每个字符算哪一个领先，取决于文本和训练时长"
        "（BPE 的嵌入表和输出表更大，每个词元出现得更少）；检查项给出本次运行的答案。BPE 生成同样的文本所需步数也更少。"
        "比较曲线时要小心：曲线画的是每个词元的损失。"),
    data=CHARACTERS,
    model_config=CHAR_LM_MODEL,
    train_config=CHAR_LM_TRAIN,
    variants=(REFERENCE, Variant("bpe", Bilingual("BPE, 512 tokens", "BPE，512 个词元"), data=BPE_TEXT)),
    varies=("tokenizer", "vocab_size"),
    checks=(checks.characters_per_token(), checks.loss_per_character("end")),
)

TRAINED_LENGTH = 10                     # the length lab trains on sources of 1 to 10 letters ...
TESTED_LENGTHS = (12, 14, 16)           # ... and tests on longer ones
LEARNED = 0.99                          # exact match at the trained length before longer lengths are compared
CARRIES_OVER = 0.5                      # exact match at a longer length at least half of that at the trained length
# A decoder-only copier reads "source <bos> copy": room for the longest tested source, <bos> and its copy.
# Three layers: RoPE's values carry no position, and with two layers it learns the copy far more slowly than
# the other encodings. A narrow feed-forward layer (copying needs little of it) keeps a step about as cheap.
LENGTH_MODEL = SEQ2SEQ_MODEL.replace(arch="decoder_only", n_encoder_layers=0, n_decoder_layers=3, d_ff=128,
                                     max_len=2 * TESTED_LENGTHS[-1] + 1)
LENGTH_TRAIN = SEQ2SEQ_TRAIN.replace(max_steps=960)         # steps for every encoding to learn the trained length
# 3 x 960 steps on one thread: 375 s on a 2-vCPU machine shared with other work (load average 20); about
# 50 ms a step, some 2.5 minutes, with the machine to itself.
LENGTH_BUDGET_S = 420.0


def length_verdict(inside: float, beyond: list[float]) -> str:
    """"not_learned" (below LEARNED within the trained lengths), "carries" (every longer length keeps at
    least CARRIES_OVER of the trained length's exact match) or "stops"."""
    if inside < LEARNED:
        return "not_learned"
    return "carries" if min(beyond) >= CARRIES_OVER * inside else "stops"


LENGTH_VERDICTS = {
    "not_learned": Bilingual(f"below {LEARNED:.0%} at the trained length, it has not learned the task yet, so its "
                             "longer sources say nothing about extrapolation.",
                             f"在训练长度上低于 {LEARNED:.0%}，它还没学会这个任务，所以更长的源序列说明不了外推能力。"),
    "carries": Bilingual("what it learned carries over to longer sources.", "学到的东西迁移到了更长的源序列。"),
    "stops": Bilingual("what it learned does not carry over to lengths it never saw.",
                       "学到的东西没有迁移到没见过的长度。"),
}


def _length_findings(result: LabResult) -> list[Finding]:
    """Per variant: exact match within the trained lengths and beyond, and what that says; then whether
    any encoding that learned the task carried over."""
    trained = result.check(f"exact_match_length_{TRAINED_LENGTH}")
    tested = {length: result.check(f"exact_match_length_{length}") for length in TESTED_LENGTHS}
    out, verdicts = [], {}
    for variant in result.variants:
        inside = trained.values[variant.id]
        beyond = [tested[length].values[variant.id] for length in TESTED_LENGTHS]
        verdicts[variant.id] = verdict = length_verdict(inside, beyond)
        scores_en = ", ".join(f"{v:.0%} at {n}" for n, v in zip(TESTED_LENGTHS, beyond))
        scores_zh = "，".join(f"{n} 个字母 {v:.0%}" for n, v in zip(TESTED_LENGTHS, beyond))
        example = tested[TESTED_LENGTHS[0]].examples.get(variant.id, "")
        out.append(Finding(Bilingual(
            f"{variant.name.en}: {inside:.0%} of {TRAINED_LENGTH}-letter sources copied exactly, then {scores_en} "
            f"letters: {LENGTH_VERDICTS[verdict].en}" + (f" For example `{example}`." if example else ""),
            f"{variant.name.zh}：{TRAINED_LENGTH} 个字母的源序列完全匹配率 {inside:.0%}，更长时 {scores_zh}："
            f"{LENGTH_VERDICTS[verdict].zh}" + (f"例如 `{example}`。" if example else "")),
            (Claim(f"length lab: what {variant.id} shows", verdict,
                   length_verdict(result.check(f"exact_match_length_{TRAINED_LENGTH}").values[variant.id],
                                  [result.check(f"exact_match_length_{n}").values[variant.id]
                                   for n in TESTED_LENGTHS])),)))
    learned = [v for v in result.variants if verdicts[v.id] != "not_learned"]
    carried = [v for v in learned if verdicts[v.id] == "carries"]
    longest = TESTED_LENGTHS[-1]
    names_en = ", ".join(v.name.en for v in carried) or "none"
    names_zh = "、".join(v.name.zh for v in carried) or "没有一个"
    sinusoidal = tested[longest].values[result.reference.id]
    if not learned:
        closing = Bilingual(
            f"No encoding reached {LEARNED:.0%} exact match at the trained length, so this run compares no "
            f"extrapolation: train for more steps and run it again.",
            f"没有哪种编码在训练长度上达到 {LEARNED:.0%} 的完全匹配率，所以这次运行比较不了外推能力："
            f"多训练一些步数再运行一次。")
    elif verdicts[result.reference.id] == "stops":
        closing = Bilingual(
            f"Of the {len(learned)} encoding(s) that learned the trained length, carried over to {TESTED_LENGTHS[0]} "
            f"to {longest} letters: {names_en}. The sinusoidal table is defined at every position, and the model "
            f"using it copied {sinusoidal:.0%} of {longest}-letter sources: a formula that extends to any position "
            f"is not a model that has learned to use it there.",
            f"学会了训练长度的 {len(learned)} 种编码中，迁移到 {TESTED_LENGTHS[0]} 到 {longest} 个字母的有：{names_zh}。"
            f"正弦表在任何位置都有定义，用它的模型在 {longest} 个字母的源序列上完全匹配率为 {sinusoidal:.0%}："
            f"公式能延伸到任何位置，不等于模型学会了在那里使用它。")
    else:
        closing = Bilingual(
            f"Of the {len(learned)} encoding(s) that learned the trained length, carried over to {TESTED_LENGTHS[0]} "
            f"to {longest} letters: {names_en}.",
            f"学会了训练长度的 {len(learned)} 种编码中，迁移到 {TESTED_LENGTHS[0]} 到 {longest} 个字母的有：{names_zh}。")
    out.append(Finding(closing,
        (Claim("length lab: the encodings that carried over", tuple(v.id for v in carried),
               tuple(v.id for v in result.variants
                     if length_verdict(trained.values[v.id], [tested[n].values[v.id] for n in TESTED_LENGTHS])
                     == "carries")),)))
    return out


LENGTH_GENERALISATION = Lab(
    id="length-generalisation",
    kind="ablation",
    title=Bilingual("Longer than trained: sinusoidal vs learned vs RoPE", "比训练时更长：正弦 vs 可学习 vs RoPE"),
    question=Bilingual(
        f"Three decoder-only models, one per kind of positional encoding, learn to copy sources of 1 to "
        f"{TRAINED_LENGTH} letters. The tutorials say sinusoidal encodings let a model handle longer sequences than "
        f"it was trained on. Which of them copies sources of {', '.join(map(str, TESTED_LENGTHS))} letters?",
        f"三个仅解码器模型各用一种位置编码，学习复制 1 到 {TRAINED_LENGTH} 个字母的源序列。教程说正弦位置编码能让模型"
        f"处理比训练时更长的序列。它们当中谁能复制 {'、'.join(map(str, TESTED_LENGTHS))} 个字母的源序列？"),
    explanation=Bilingual(
        f"Each model reads 'source <bos> copy' as one sequence, as GPT would, and learns to write the copy: each "
        f"letter of the copy stands the source's length plus one positions after the letter it copies. The sinusoidal table is a "
        f"formula, so it gives position {2 * TESTED_LENGTHS[-1]} a code as readily as position 3, and a relative "
        f"offset is a fixed rotation of it; from that the tutorials conclude that a model using it extrapolates. "
        f"Whether it does is a question about the trained model, not the table: attention learned on the "
        f"positions of sources up to {TRAINED_LENGTH} letters has never seen the later ones, nor been asked to go "
        f"on copying after {TRAINED_LENGTH} letters. A learned table's rows past {2 * TRAINED_LENGTH} were never "
        f"trained at all (they keep their random start). RoPE rotates queries and keys so that attention scores "
        f"depend on the positions only through their offset; a decoder-only model has self-attention alone, so "
        f"RoPE acts in every attention here. Each encoding comes with the embedding scale it was published "
        f"with: the sinusoidal table beside token embeddings scaled by √d_model, as in the 2017 paper; the "
        f"learned table beside unscaled ones, as in GPT-2, since scaled ones would dwarf its small initial rows; "
        f"RoPE adds nothing to the embeddings. All three train with the same recipe (steps, learning rate, "
        f"warm-up, batch), and longer lengths are compared only for an encoding that reached {LEARNED:.0%} exact "
        f"match at the trained length. The checks decode fresh sources of exactly {TRAINED_LENGTH} letters (within "
        f"training) and of {', '.join(map(str, TESTED_LENGTHS))} letters; the findings say what this run shows.",
        f"每个模型都像 GPT 那样把“源序列 <bos> 副本”当作一条序列读入，学着写出副本：副本的每个字母，"
        f"都在它所复制的那个字母之后“源序列长度加一”个位置上。正弦表是一个公式，所以它给位置 {2 * TESTED_LENGTHS[-1]} 编码和给位置 3 "
        f"编码一样容易，相对偏移也只是一个固定的旋转；教程由此得出结论：用它的模型能外推。但能否外推是训练出来的模型的问题，"
        f"而不是这张表的问题：在最长 {TRAINED_LENGTH} 个字母的源序列的位置上学到的注意力从没见过后面的位置，"
        f"也从没被要求在 {TRAINED_LENGTH} 个字母之后继续复制。可学习的位置表在 {2 * TRAINED_LENGTH} 之后的行根本没有训练过"
        f"（保持随机初始值）。RoPE 旋转查询和键，让注意力分数只通过位置差依赖于位置；仅解码器模型只有自注意力，"
        f"所以这里每一个注意力都用到了 RoPE。每种编码都沿用它发表时的嵌入缩放：正弦表配上乘以 √d_model 的词嵌入，"
        f"如 2017 年的论文；可学习的位置表配上不缩放的词嵌入，如 GPT-2，因为缩放后的词嵌入会远远盖过它初始很小的行；"
        f"RoPE 不往嵌入上加任何东西。三个模型用同一套训练设置（步数、学习率、预热、批大小），"
        f"只有在训练长度上完全匹配率达到 {LEARNED:.0%} 的编码，才比较更长的长度。检查项对恰好 {TRAINED_LENGTH} 个字母"
        f"（训练范围内）以及 {'、'.join(map(str, TESTED_LENGTHS))} 个字母的新源序列做贪心解码；本次运行的结论写在下面。"),
    data=DataSpec(task="copy", knobs=dict(length=TRAINED_LENGTH, min_length=1, symbols=8)),
    model_config=LENGTH_MODEL,
    train_config=LENGTH_TRAIN,
    variants=(
        Variant("sinusoidal", Bilingual("sinusoidal", "正弦")),
        # GPT-2's convention: unscaled token embeddings, whose size its small initial position rows match.
        Variant("learned", Bilingual("learned", "可学习"), model_changes=dict(positional="learned", scale_embedding=False)),
        Variant("rope", Bilingual("RoPE", "RoPE"), model_changes=dict(positional="rope")),
    ),
    varies=("positional", "scale_embedding", "embed.scale"),
    checks=tuple(checks.exact_match_at_length(n) for n in (TRAINED_LENGTH, *TESTED_LENGTHS)),
    findings=_length_findings,
    budget_s=LENGTH_BUDGET_S,
)

ABLATION_LABS = (NO_POSITIONS_COPY, NO_POSITIONS_REVERSE, WEIGHT_TYING, NORM_SHALLOW, NORM_DEEP,
                 DECODER_ONLY_VS_ENCODER_DECODER, POSITIONAL_ENCODINGS, LENGTH_GENERALISATION, OVERFITTING,
                 CHARACTERS_VS_BPE)

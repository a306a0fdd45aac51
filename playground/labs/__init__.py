"""Labs: break the Transformer on purpose, or vary one design choice, and train it beside the reference.

    from playground.labs import list_labs, get_lab, LabRun
    run = LabRun(get_lab("causal-mask"))
    for progress in run.run():            # LabProgress per variant and round; close to stop
        curves = run.histories()
    result = run.result()                 # LabResult: plain data to keep in a session
    viz.compare_runs(result.runs("en"))
"""
from playground.bilingual import LANGUAGES, Bilingual

from .bugs import (
    drop_residuals,
    forget_embedding_scale,
    forget_score_scale,
    merge_heads_without_transpose,
    no_residual,
    see_the_future,
    split_heads_without_transpose,
    split_heads_wrongly,
    unscaled_scores,
    upper_triangular_mask,
)
from .checks import Check, Measurement
from .lab import DataSpec, Lab, Variant
from .registry import LABS, get_lab, lab_choices, list_labs
from .results import CheckResult, LabResult, VariantResult, compare_results
from .runner import LabProgress, LabRun, run_lab
from .summary import summarize

__all__ = [
    "LABS", "LANGUAGES", "Check", "CheckResult", "DataSpec", "Lab", "LabProgress", "LabResult", "LabRun",
    "Measurement", "Bilingual", "Variant", "VariantResult", "compare_results", "drop_residuals",
    "forget_embedding_scale", "forget_score_scale", "get_lab", "lab_choices", "list_labs",
    "merge_heads_without_transpose", "no_residual", "run_lab", "see_the_future", "split_heads_without_transpose",
    "split_heads_wrongly", "summarize", "unscaled_scores", "upper_triangular_mask",
]

"""Plotly figures for the playground: pure functions from arrays and plain Python data to
plotly.graph_objects.Figure, in one shared look (see theme). Titles and labels are parameters
with English defaults, so the UI can pass translated text."""
from playground.viz.architecture import architecture_diagram, parameter_treemap, shape_table
from playground.viz.charts import activation_comparison, grouped_bars, line_chart
from playground.viz.attention import (
    attention_filling,
    attention_grid,
    attention_head,
    attention_mean,
    attention_snapshots,
)
from playground.viz.embeddings import embedding_map, neighbour_bars
from playground.viz.generation import BeamNode, beam_tree, candidate_bars
from playground.viz.interpretability import (
    head_patching_heatmap,
    logit_attribution_bars,
    patching_heatmap,
    probe_accuracy,
)
from playground.viz.matrices import mask_grid, matrix_panels
from playground.viz.norms import layer_norm_vector, residual_norms
from playground.viz.logit_lens import logit_lens_heatmap
from playground.viz.theme import placeholder
from playground.viz.positional import (
    cosine_similarity,
    position_similarity,
    positional_curves,
    positional_heatmap,
    rope_angles,
    rope_rotation,
)
from playground.viz.predictions import blank_candidates, two_decodings
from playground.viz.windows import shifted_window
from playground.viz.tokenizer import merges_table, token_spans
from playground.viz.training import (
    compare_runs,
    fit_rate_axis,
    head_scores_heatmap,
    head_scores_over_steps,
    induction_formation,
    layer_gradient_norms,
    learning_rate_schedule,
    training_curves,
)

__all__ = [
    "BeamNode",
    "activation_comparison",
    "architecture_diagram",
    "attention_filling",
    "attention_grid",
    "attention_head",
    "attention_mean",
    "attention_snapshots",
    "beam_tree",
    "blank_candidates",
    "candidate_bars",
    "compare_runs",
    "cosine_similarity",
    "embedding_map",
    "fit_rate_axis",
    "head_patching_heatmap",
    "grouped_bars",
    "head_scores_heatmap",
    "head_scores_over_steps",
    "layer_norm_vector",
    "learning_rate_schedule",
    "line_chart",
    "mask_grid",
    "matrix_panels",
    "induction_formation",
    "logit_attribution_bars",
    "logit_lens_heatmap",
    "merges_table",
    "neighbour_bars",
    "parameter_treemap",
    "patching_heatmap",
    "placeholder",
    "position_similarity",
    "residual_norms",
    "positional_curves",
    "positional_heatmap",
    "probe_accuracy",
    "rope_angles",
    "rope_rotation",
    "shape_table",
    "shifted_window",
    "token_spans",
    "layer_gradient_norms",
    "training_curves",
    "two_decodings",
]

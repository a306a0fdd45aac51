"""What the page needs from the Inside the model tab (see page/page_needs.py): its sections a link
can hide, the figure a link names and the notes presenter mode hides."""
from __future__ import annotations

from ...page.hiding import explanation
from ...page.page_needs import PageNeeds

NEEDS = PageNeeds(
    view="inside",
    place=30,
    figure="inside-emb-neighbours",            # the first section's first figure
    parts={
        **explanation(),
        "embeddings": ("#inside-emb-heading", ".row:has(#inside-emb-model)", ".row:has(#inside-emb-neighbours)"),
        "worked": ("#inside-worked-heading", ".row:has(#inside-worked-model)", "#inside-worked-vectors",
                   "#inside-worked-steps", "#inside-worked-note"),
        "masks": ("#inside-mask-heading", ".row:has(#inside-mask-model)", "[id^='inside-mask-site-']",
                  "#inside-mask-padding"),
        "norms": ("#inside-norm-heading", ".row:has(#inside-norm-model)", ".row:has(#inside-norm-vector)",
                  ".row:has(#inside-norm-batch)", ".row:has(#inside-norm-residual)"),
        "fill": ("#inside-fill-heading", ".row:has(#inside-fill-model)", "#inside-fill-plot"),
    },
    scrolls_to_figure=True,
    presenter_hides=("#inside-emb-note", "#inside-mask-note", "#inside-fill-note"),
)

"""A teacher's reduced view: `hide=controls,scores` in a link hides those parts of the page.

Each tab names the parts it can hide (PARTS, by view: a name and the CSS selectors of its blocks,
read inside the tab), and the page names a few of its own (PAGE_PARTS: the own-model panel, the
tab row, the language control). A link's names are checked against the parts of the view it opens
(and the page's); the others are noted like every ignored parameter (see links.parse_link). On the
page each name becomes a class on <body> (`hide-NAME`, set by HIDE_JS from the address, which keeps
`hide=` as it keeps `present=1`) and hiding_css() hides the blocks of every part so named: a part
of the same name in another tab is hidden there too.
"""
from __future__ import annotations

import re

PARAM = "hide"
NAME = re.compile(r"[a-z_]{1,24}")
MAX_PARTS = 16                   # names a link may give

_CONTROLS = {"controls": ("[id$='-controls']",)}
_EXPLANATION = {"explanation": (".explanation", "#generate-explanation-panel", "#timeline-explanation")}

# Each tab's parts: name -> the CSS selectors of the blocks it hides (inside the tab).
PARTS: dict[str, dict[str, tuple[str, ...]]] = {
    "lessons": {
        "navigation": (".row:has(#lesson-picker)",),
        "explanation": ("#lesson-explanation", "#lesson-notes", "#lesson-look-for"),
        "experiment": ("#lesson-experiment-heading", "#lesson-prediction", ".row:has(#lesson-run)",
                       "#lesson-live-status", "[id^='lesson-outcome-']", "#lesson-verdict", "#lesson-reveal"),
        "check": ("#lesson-check-heading", "#lesson-answer", "#lesson-feedback"),
        "explore": ("#lesson-explore",),
        "game": ("#lesson-game-panel",),
    },
    "attention": {
        **_CONTROLS, **_EXPLANATION,
        "examples": ("#attention-examples",),
        "summary": ("#attention-summary",),
        "timeline": ("#attention-timeline-panel",),
        "grid": ("#attention-grid",),
        "head": (".row:has(#attention-head-plot)",),
        "scores": (".row:has(#attention-scores)",),
        "shapes": ("#attention-shapes-panel",),
        "heads_off": ("#attention-heads-off-panel",),
        "lens": ("#attention-lens-panel",),
        "patching": ("#attention-patching-panel",),
        "probes": ("#attention-probes-panel",),
    },
    "inside": {
        **_EXPLANATION,
        "embeddings": ("#inside-emb-heading", ".row:has(#inside-emb-model)", ".row:has(#inside-emb-neighbours)"),
        "worked": ("#inside-worked-heading", ".row:has(#inside-worked-model)", "#inside-worked-vectors",
                   "#inside-worked-steps", "#inside-worked-note"),
        "masks": ("#inside-mask-heading", ".row:has(#inside-mask-model)", "[id^='inside-mask-site-']",
                  "#inside-mask-padding"),
        "norms": ("#inside-norm-heading", ".row:has(#inside-norm-model)", ".row:has(#inside-norm-vector)",
                  ".row:has(#inside-norm-batch)", ".row:has(#inside-norm-residual)"),
        "fill": ("#inside-fill-heading", ".row:has(#inside-fill-model)", "#inside-fill-plot"),
    },
    "generate": {
        **_CONTROLS, **_EXPLANATION,
        "examples": ("#generate-examples",),
        "attention": (".row:has(#generate-token-cross)",),
        "filling": (".row:has(#generate-filling)",),
        "heads_off": ("#generate-heads-off-panel",),
        "lens": ("#generate-lens-panel",),
        "exposure": ("#generate-exposure-panel",),
        "game": ("#generate-game-panel",),
    },
    "train": {
        **_CONTROLS, **_EXPLANATION,
        "architecture": ("#train-architecture",),
        "optimiser": ("#train-optimiser",),
        "probe": ("#train-probe-kind", "#train-probe"),
        "scores": ("#train-score", "#train-scores"),
        "sample": ("#train-sample",),
        "download": ("#train-download",),
    },
    "labs": {
        **_CONTROLS, **_EXPLANATION,
        "attention": (".row:has(#labs-variant)", ".row:has(#labs-attention-reference)"),
        "kept": (".row:has(#labs-kept)", "#labs-compare"),
    },
    "positional": {
        **_CONTROLS, **_EXPLANATION,
        "curves": (".row:has(#pos-curves)",),
        "learned": (".row:has(#pos-model)", ".row:has(#pos-model-heatmap)"),
        "rope": (".row:has(#rope-plot)",),
        "shuffle": (".row:has(#shuffle-run)", "#shuffle-table"),
    },
    "tokenizer": {
        **_CONTROLS, **_EXPLANATION,
        "examples": ("#tok-examples",),
        "counts": ("#tok-counts",),
        "bpe": ("#tok-bpe-spans",),
        "merges": (".row:has(#tok-merges)",),
    },
    "architecture": {
        **_CONTROLS, **_EXPLANATION,
        "summary": ("#arch-summary",),
        "config": ("#arch-config",),
        "diagram": ("#arch-diagram",),
        "costs": ("#arch-costs",),
    },
}

# The page's own parts (outside the tabs).
PAGE_PARTS: dict[str, tuple[str, ...]] = {
    "own_model": ("#own-model-panel",),
    "tabs": ("#tabs > .tab-wrapper",),
    "language": ("#language",),
}


def hideable(view: str) -> list[str]:
    """The names a link to `view` may hide, the view's first."""
    return [*PARTS.get(view, {}), *PAGE_PARTS]


def parse_hide(value: str, view: str) -> tuple[tuple[str, ...], list[str]]:
    """(the parts of `view` that `value` ("controls,scores") names, the names it cannot hide there)."""
    known = set(hideable(view))
    names = [name.strip() for name in value.split(",") if name.strip()][:MAX_PARTS]
    parts = tuple(dict.fromkeys(name for name in names if name in known))
    return parts, [name for name in dict.fromkeys(names) if name not in known]


def hiding_css() -> str:
    """CSS that hides every part of every tab, and of the page, whose name is a class `hide-NAME` on <body>."""
    rules = []
    for view, parts in PARTS.items():
        for name, selectors in parts.items():
            rules.append(", ".join(f"body.hide-{name} #tab-{view} {selector}" for selector in selectors))
    for name, selectors in PAGE_PARTS.items():
        rules.append(", ".join(f"body.hide-{name} {selector}" for selector in selectors))
    return "\n".join(f"{rule} {{ display: none !important; }}" for rule in rules) + "\n"


# Page js: a class `hide-NAME` on <body> for each name in the address's `hide=` (letters and '_' only).
HIDE_JS = f"""
() => {{
  const value = new URLSearchParams(location.search).get('{PARAM}') || '';
  for (const name of value.split(',').slice(0, {MAX_PARTS})) {{
    if (/^{NAME.pattern}$/.test(name.trim())) document.body.classList.add('hide-' + name.trim());
  }}
}}
"""

"""The page's events that draw the tab on screen from the session: a tab picked, the language
changed, a model added (an upload, a model from the Hub). Each draws one tab, the one on screen,
from the session's workspace (TabWiring.show); a hidden tab is drawn when it is next picked.
(The page's opening, which draws the tab it opens on, is in links.py.)"""
from __future__ import annotations

from typing import Mapping

import gradio as gr

from ..session.workspace import Workspace
from ..text.i18n import label
from .context import LIGHT, PRIVATE, AppContext
from .drawing import DRAWN_JS, marking
from .language import SET_LOCALE_JS
from .runtime import guarded
from .wiring import selected


def page_targets(ctx: AppContext) -> list:
    """Every component that drawing some tab may update."""
    return list(dict.fromkeys(target for wiring in ctx.views.values() for target in wiring.targets))


def shown_tab(ctx: AppContext, workspace: Workspace, lang: str) -> dict:
    """Updates that draw the tab on screen (the first one before the page has said which) in `lang`."""
    view = workspace.shown_view or next(iter(ctx.views))
    return ctx.views[view].show(workspace, lang)


def wire(ctx: AppContext, tabs: gr.Tabs, tab_components: Mapping[str, gr.Tab], targets: list) -> None:
    """A tab picked draws it; a new language redraws the tab on screen (and translates every tab's
    name again: Gradio does so only for a tab once it has been opened). The panels are busy while
    either draws (see drawing.py)."""
    views = tuple(tab_components)            # a tab picked is known by its place (Gradio rebuilds a renamed tab)
    progress = {"show_progress_on": [tabs]}

    @guarded
    def on_select(lang: str, request: gr.Request, event: gr.EventData) -> dict:
        index = selected(event).get("index")
        view = views[index] if isinstance(index, int) and 0 <= index < len(views) else None
        workspace = ctx.workspace(request)
        if view not in ctx.views or workspace.language is None:
            return {}           # the page reports its first tab before it has opened: its opening draws it
        # The session's language: the page may report a tab it selects itself (its opening) with the
        # language control's value from before the opening set it.
        return ctx.views[view].show(workspace, workspace.language)

    # Every pick is drawn, one made while another tab is drawn too (Gradio's default drops it): each
    # draws only its own tab, and the session's tab on screen is the one whose pick started last.
    gr.on([tab.select for tab in tab_components.values()], on_select, [ctx.language], targets, js=marking(),
          trigger_mode="multiple", **LIGHT, **progress, **PRIVATE).then(None, js=DRAWN_JS, **PRIVATE)

    @guarded
    def on_language(lang: str, request: gr.Request) -> dict:
        workspace = ctx.workspace(request)
        with workspace.lock:
            workspace.language = lang
        names = {tab: gr.Tab(label=label(f"tab_{view}")) for view, tab in tab_components.items()}
        return {**names, **shown_tab(ctx, workspace, lang)}

    # A language chosen while the last one is drawn runs once that draw has ended, with the language
    # then chosen (Gradio's default drops it).
    ctx.language.input(on_language, [ctx.language], [*targets, *tab_components.values()], js=marking(SET_LOCALE_JS),
                       trigger_mode="always_last", **LIGHT, **progress, **PRIVATE).then(None, js=DRAWN_JS, **PRIVATE)

"""Each tab draws itself from the session when it is shown; the header's events only write the session.

Every tab has one draw event, on a click of its hidden redraw button, whose outputs are that tab's
own components and the header's. A tab picked clicks that button in the browser (pick_js): Gradio
also sends a tab's `select` when the page mounts its first tab and when an answer selects a tab, and
those ask the server for nothing. The page's opening is the draw of the tab its address names
(links.Opening): it records the link and what the browser keeps, then draws, in one round trip. The
header's other events (the language, a model uploaded or loaded from the Hub) change what several tabs
show: they record it in the session (the Workspace, and next_draws for what one draw consumes) and
write only the header's components; a browser step chained after them (ask_redraw) clicks the redraw
button of the tab on screen. Every other tab is drawn from the session when it is next picked. No
event's outputs span tabs.

A session's draws and its clicks on the same tab keep the learner's order (tab_order). The panels
show that a draw is under way (drawing.py) and stay usable meanwhile.
"""
from __future__ import annotations

from typing import Mapping

import gradio as gr

from ..text.i18n import label
from .context import FORM_INPUTS, LANGUAGE, LIGHT, PRIVATE, AppContext
from .drawing import ask_redraw_js, drawn_js, marking, pick_js
from .language import SET_LOCALE_JS
from .links import read_page_js
from .next_draws import next_draws
from .runtime import guarded
from .tab_order import order_of

REDRAW_CLASS = "tab-redraw"


def draws_progress() -> gr.HTML:
    """Where every tab's draw tracks its progress (in the page, not on screen). Gradio's page refreshes the
    loading state of every component an event has tracked on each status message of every later event,
    so the draws share one: a redraw button each, a learner's tour of the tabs made each later click
    refresh nine more."""
    return gr.HTML(visible="hidden", elem_id="draws-progress")


def redraw_button(view: str) -> gr.Button:
    """The tab's hidden redraw button (in the page, not on screen: a header event's browser step clicks it)."""
    return gr.Button(visible="hidden", elem_id=f"{view}-redraw", elem_classes=REDRAW_CLASS)


def tab_drawer(ctx: AppContext, view: str, folds: bool):
    """The tab `view`'s draw from the session, in the session's order of the tab's events (tab_order):
    a function of the workspace giving the tab's updates, or gr.skip() where the page shows them
    already or the page has not opened yet. `folds`: presenter mode folds its controls at its first draw."""
    wiring = ctx.views[view]
    controls = wiring.components.get("controls") if folds else None

    def draw(workspace) -> dict:
        if workspace.language is None:
            return gr.skip()           # asked before the page has opened: its opening draws the tab
        with workspace.lock:
            workspace.shown_view = view
        requests = next_draws(workspace)
        shown = {}

        def drawing(again: bool) -> dict:
            link_form = None if again else requests.forms.get(view)     # a click since has the last word
            shown["lang"] = workspace.language
            updates, shown["form"] = wiring.drawing(workspace, shown["lang"], link_form, again=again)
            if controls is not None and view in requests.folds:
                updates[controls] = gr.Accordion(open=False)
            return updates

        def commit() -> None:
            requests.take_form(view)
            requests.take_fold(view)
            # the language it was drawn in: a switch recorded meanwhile has the next draw draw it
            workspace.remember(view, shown["form"], shown["lang"])

        return order_of(workspace, view).draw(drawing, commit) or gr.skip()     # skip: the page shows it already

    return draw


def wire_tab(ctx: AppContext, view: str, redraw: gr.Button, progress: gr.HTML, folds: bool, opening) -> None:
    """The tab `view`'s draw: when its redraw button is clicked (by a pick, the page's opening or a header
    event), draw it from the session; its progress tracked on `progress` (draws_progress).
    `folds`: presenter mode folds its controls at its first draw. `opening` (links.Opening): the draw the
    page's opening asks for records the opening first and answers the header's parts as well."""
    drawer = tab_drawer(ctx, view, folds)

    @guarded
    def draw(request: gr.Request, *opening_values) -> dict:
        workspace, header = opening.open(view, request, *opening_values)
        if header is None:
            return gr.skip()           # asked before the page has opened: its opening draws the tab
        drawn = drawer(workspace or ctx.workspace(request))
        if not header:
            return drawn
        return header if drawn.get("__type__") == "update" else {**header, **drawn}    # gr.skip(): the header alone

    # Every draw asked for runs, one asked while another is under way too (Gradio's default drops it). Its
    # progress is tracked on a hidden leaf: Gradio's page copies the state of each component inside a
    # tracked one at each refresh (tracked on the tabs, that was every figure of the page, several
    # times per event).
    redraw.click(draw, opening.inputs, [*opening.outputs, *ctx.views[view].targets],
                 js=marking(read_page_js(view), view=view), trigger_mode="multiple", **LIGHT,
                 show_progress_on=[progress], **FORM_INPUTS, **PRIVATE).then(None, js=drawn_js(view), **PRIVATE)


def wire_picks(tab_components: Mapping[str, gr.Tab]) -> None:
    """A tab picked asks for its draw, in the browser (one event for every tab's select)."""
    gr.on([tab.select for tab in tab_components.values()], None, js=pick_js(), **PRIVATE)


def then_redraw(event, view_box: gr.components.Component | None = None) -> None:
    """Chain to a header event the browser step that has the tab on screen drawn (the tab `view_box`
    names, when given and not empty)."""
    event.then(None, [view_box] if view_box is not None else None, None, js=ask_redraw_js(), **PRIVATE)


def wire_language(ctx: AppContext, tab_components: Mapping[str, gr.Tab]) -> None:
    """A new language becomes the session's, every tab's name is translated again (Gradio does so only
    for a tab once it has been opened), the header's messages are written again in it (ctx.header_notes),
    and the tab on screen is drawn again in it; the others are drawn in it when next picked."""
    notes = dict(ctx.header_notes)

    @guarded
    def on_language(lang: str, request: gr.Request) -> dict:
        workspace = ctx.workspace(request)
        with workspace.lock:
            workspace.language = lang
            said = dict(workspace.header_notes)
        return {**{tab: gr.Tab(label=label(f"tab_{view}")) for view, tab in tab_components.items()},
                **{panel: said[elem_id](lang) for elem_id, panel in notes.items() if elem_id in said}}

    # A language chosen while the last one is recorded runs once it has ended, with the language then
    # chosen (Gradio's default drops it).
    changed = ctx.language.input(on_language, [ctx.language], [*tab_components.values(), *notes.values()],
                                 js=marking(SET_LOCALE_JS), trigger_mode="always_last", **LANGUAGE,
                                 show_progress="hidden", show_progress_on=[ctx.language], **PRIVATE)
    then_redraw(changed)

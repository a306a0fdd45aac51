"""Events of a tab, wired once: the tab's form in, updates keyed by component name out.

A tab's layout returns its components by name; its form's fields are named like the components
that hold them. `TabWiring.on(trigger, handler, outputs)` declares an event whose handler is a
plain function

    handler(workspace, form, lang) -> {"grid": figure, "layer": gr.Slider(maximum=3), ...}

Every event of the tab also rewrites the tab's link (the form after the handler's updates, as a
query string; see links.py) and gives every figure a camera button that saves a PNG at twice
the screen resolution, named after what it shows.

An event whose outputs are all of POSTPROCESSED_IN_HANDLER is declared with postprocess=False and
sends its updates already postprocessed (see postprocessed): Gradio would otherwise postprocess
each output in a thread hop of its own, ~0.3 ms of the server's event loop per output (6 to 8 an
attention view or generation step).
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import itertools
from typing import Any, Callable, Iterable, Mapping

import gradio as gr
import plotly.graph_objects as go
from gradio.components.plot import PlotData
from gradio.data_classes import GradioModel, GradioRootModel

from playground.viz.figure_json import figure_json

from ..session.workspace import Workspace
from .context import CHECK, FORM_INPUTS, PRIVATE, AppContext, light
from .forms import Form, ModelName, Refused, refusal_text
from .links import link_query
from .runtime import as_gradio_error, guarded, guarded_training
from .view_cache import SHARED_VIEWS
from .widgets import on_slide

Handler = Callable[[Workspace, Form, str], Mapping[str, Any]]
EXPORT_SCALE = 2                  # PNG pixels per screen pixel
LINK = "link"                     # the name of every tab's (hidden) link box among its updates
# Outputs whose postprocessing reads none of the properties an update may change (only its value,
# and properties set once in the layout), so the handler can postprocess them with the layout's
# component; a State is not postprocessed.
POSTPROCESSED_IN_HANDLER = (gr.Plot, gr.Markdown, gr.Textbox, gr.HighlightedText, gr.Radio, gr.Checkbox, gr.Button,
                            gr.State)


def postprocessed(component: gr.components.Component, update):
    """`update` (a value, gr.X(...) or gr.update(...)) of `component` as Gradio sends it once
    postprocessed: what an event declared with postprocess=False returns for it."""
    if isinstance(component, gr.State):
        return update
    if isinstance(update, gr.components.Component):
        if "value" not in update.constructor_args:
            return update
        sent = copy.copy(update)       # the update keeps its own arguments: it may be kept in the view cache
        sent._constructor_args = [{**update.constructor_args,
                                   "value": _serialised(component.postprocess(update.constructor_args["value"]))}]
        return sent
    if isinstance(update, dict) and update.get("__type__") == "update":
        return {**update, "value": _serialised(component.postprocess(update["value"]))} if "value" in update else update
    return _serialised(component.postprocess(update))


def _serialised(value):
    return value.model_dump() if isinstance(value, (GradioModel, GradioRootModel)) else value


def export_config(file_name: str) -> dict:
    """Plotly's config for a figure: its camera button saves a PNG at EXPORT_SCALE x, as `file_name`.png."""
    return {"toImageButtonOptions": {"format": "png", "filename": file_name, "scale": EXPORT_SCALE},
            "displaylogo": False}


def with_export(figure: go.Figure, file_name: str) -> PlotData:
    """The figure as gr.Plot sends it, with export_config (gr.Plot passes the JSON's "config" to
    Plotly), written in one pass (viz.figure_json)."""
    return PlotData(type="plotly", plot=figure_json(figure, export_config(file_name)))


def once_per_addition(handler: Handler) -> Handler:
    """`handler` for the events after which the session added a model, run once per addition in each
    view: the page may report one addition more than once, and a repeat returns no update, so it
    neither replaces what the user typed since nor takes the picker back to the added model."""
    @functools.wraps(handler)
    def drawn_once(workspace: Workspace, form: Form, lang: str):
        added = workspace.newest_model()
        if added is not None and not workspace.first_drawing(form.VIEW, added):
            return {}
        return handler(workspace, form, lang)
    return drawn_once


def any_of(*triggers):
    """One event for all of `triggers` (gr.on), for TabWiring.on. The page's code looks through every
    event for each of its blocks when it opens, so one event with three triggers (and one refusal
    handler) opens faster than three events with one each."""
    return triggers[0] if len(triggers) == 1 else functools.partial(gr.on, list(triggers))


def on_slides(*sliders) -> tuple:
    """widgets.on_slide for several sliders at once: one event for all of them (see any_of), and its
    options."""
    triggers, options = zip(*(on_slide(slider) for slider in sliders))
    return any_of(*triggers), options[0]


def file_name(*parts) -> str:
    """"copy-attention-grid-L1-H2": the parts joined, each kept to letters, digits, '.', '_' and '-'."""
    cleaned = ("".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in str(part)) for part in parts if part != "")
    return "-".join(cleaned)


def _language(value) -> str:
    """The language control's value ("en" when an API call sent none)."""
    return value if isinstance(value, str) else "en"


def value_of(update) -> tuple[bool, Any]:
    """(whether it sets a value, the value) of a handler's update: a plain value or gr.X(value=...)."""
    if isinstance(update, gr.components.Component):
        args = update.constructor_args
        return ("value" in args, args.get("value"))
    return True, update


def with_value(update, value):
    """`update` (a drawing's update of a component) also setting `value` (a form field's value) when
    it sets none itself: a gr.Dropdown(choices=...) then keeps the value the form names."""
    if isinstance(value, gr.components.Component) or not isinstance(update, gr.components.Component):
        return update
    if "value" in update.constructor_args:
        return update
    return type(update)(**{**update.constructor_args, "value": value})


class TabWiring:
    """One tab's components by name, its form, its link box, and the events between them."""

    def __init__(self, ctx: AppContext, form_type: type[Form], components: Mapping[str, gr.components.Component],
                 export_name: Callable[[Form, str], str] | None = None, controls: Handler | None = None):
        """export_name(form, component name): a figure's file name; controls(workspace, form, lang): the
        updates that fit the controls to the form's model (choices, ranges), used when a link opens."""
        missing = [name for name in form_type.params() if name not in components]
        if missing:
            raise ValueError(f"the {form_type.VIEW} form's fields {missing} have no component of the same name")
        self.ctx = ctx
        self.form_type = form_type
        self.components = dict(components)
        self.link = gr.Textbox(visible="hidden", elem_id=f"{form_type.VIEW}-link", elem_classes="view-link",
                               show_label=False)
        self._names = {id(self.components[name]): name for name in form_type.params()}
        self.export_name = export_name or (lambda form, name: file_name(form_type.VIEW, name))
        self.controls = controls
        self.opened: gr.State | None = None           # whether the session has opened the tab (see on_open)
        ctx.views[form_type.VIEW] = self

    @property
    def api_order(self) -> tuple[list[str], list[str]]:
        """The form's fields before the language and after it, in field order: the form's LATE
        fields (added after its API was published) come after it."""
        late = set(self.form_type.LATE)
        names = list(self.form_type.params())
        return [n for n in names if n not in late], [n for n in names if n in late]

    @property
    def inputs(self) -> list:
        """The form's components, in the form's field order, the language control, then the late
        fields (the order of an API call's arguments)."""
        early, late = self.api_order
        return [*(self.components[n] for n in early), self.ctx.language, *(self.components[n] for n in late)]

    def split(self, values: tuple) -> tuple[tuple, str]:
        """An event's values as (the form's values in field order, the language)."""
        early, late = self.api_order
        by_name = dict(zip([*early, "lang", *late], values))
        return tuple(by_name.get(n) for n in self.form_type.params()), _language(by_name.get("lang"))

    def read(self, values: tuple, lang: str) -> Form:
        """The form of the components' values (in field order); a refused one becomes a gr.Error in
        `lang` naming it."""
        try:
            return self.form_type.from_values(dict(zip(self.form_type.params(), values)))
        except Refused as error:
            raise gr.Error(refusal_text(error, lang), print_exception=False) from error

    def function(self, handler: Handler, link: bool = True, shared: bool = False, stream: bool = False,
                 trains: bool = False, postprocesses: bool = False) -> Callable:
        """The Gradio function of `handler`: the form's values and the language in, updates by
        component out (and the tab's link, when `link`).

        shared: `handler` is a pure function of the form and the language (no session state), so its
        updates for a form that names only shipped models are kept in the process's view cache and
        served to every session that asks for the same view.
        stream: `handler` is a generator of updates (a run that redraws as it goes); each is sent.
        trains: it builds or trains models (autograd on, the training threads; see runtime).
        postprocesses: the updates are sent postprocessed (for an event declared with postprocess=False)."""
        ctx = self.ctx
        guard = guarded_training if trains else guarded
        sent = self.postprocessed if postprocesses else self.by_component

        if stream:
            @guard
            def run_stream(values: tuple, lang: str, request: gr.Request | None):
                form = self.read(values, lang)
                try:
                    for updates in handler(ctx.workspace(request), form, lang):
                        yield sent(self.outgoing(form, dict(updates), lang, link))
                except Refused as error:
                    raise gr.Error(refusal_text(error, lang), print_exception=False) from error

            def event(request: gr.Request, *values):
                yield from run_stream(*self.split(values), request)
        else:
            @guard
            def run(values: tuple, lang: str, request: gr.Request | None):
                form = self.read(values, lang)
                return sent(self.updates(handler, ctx.workspace(request), form, lang, link, shared))

            def event(request: gr.Request, *values):
                return run(*self.split(values), request)

        event.__name__ = getattr(handler, "__name__", "event")
        event.__doc__ = handler.__doc__
        event.__signature__ = self.signature()
        return event

    def updates(self, handler: Handler, workspace: Workspace, form: Form, lang: str, link: bool = True,
                shared: bool = False) -> dict:
        """`handler`'s updates by name as they are sent (see outgoing), from the view cache when
        `shared` and the form names only shipped models; a refused input becomes a gr.Error in `lang`."""
        key = self.shared_key(handler, workspace, form, lang, link) if shared else None
        if key is not None and (kept := SHARED_VIEWS.get(key)) is not None:
            return kept
        try:
            updates = dict(handler(workspace, form, lang))
        except Refused as error:
            raise gr.Error(refusal_text(error, lang), print_exception=False) from error
        named = self.outgoing(form, updates, lang, link)
        if key is not None:
            SHARED_VIEWS.put(key, named)
        return named

    def outgoing(self, form: Form, updates: Mapping[str, Any], lang: str, link: bool) -> dict:
        """A handler's updates by name as they are sent: figures with their export config, and the
        tab's link (under LINK) for the form they leave on the page, when `link`."""
        shown = self.after(form, updates)
        named = {name: self._outgoing(shown, name, update) for name, update in updates.items()}
        if link:
            named[LINK] = link_query(self.ctx.registry, form.VIEW, shown, lang)
        return named

    def by_component(self, named: Mapping[str, Any]) -> dict:
        """Updates by component name (LINK for the tab's link) -> updates by component."""
        return {self.link if name == LINK else self.components[name]: value for name, value in named.items()}

    def postprocessed(self, named: Mapping[str, Any]) -> dict:
        """by_component, each update postprocessed (see postprocessed)."""
        return {component: postprocessed(component, update) for component, update in self.by_component(named).items()}

    def shared_key(self, handler: Handler, workspace: Workspace, form: Form, lang: str, link: bool):
        """The view cache's key of `handler` on `form`, or None when the form names a model that is
        not shipped (or that this session's own model of the same name hides)."""
        for name, spec in form.params().items():
            if isinstance(spec, ModelName):
                model = getattr(form, name)
                if self.ctx.registry.get(model) is None or model in workspace.models:
                    return None
        return (form.VIEW, handler.__module__, handler.__name__, link, form, lang)

    def signature(self) -> inspect.Signature:
        """(request, FIELD..., lang, LATE FIELD...): the API lists an event's parameters by the form's field names."""
        named = inspect.Parameter.POSITIONAL_OR_KEYWORD
        early, late = self.api_order
        return inspect.Signature([inspect.Parameter("request", named, annotation=gr.Request),
                                  *(inspect.Parameter(name, named) for name in [*early, "lang", *late])])

    def link_updates(self, workspace: Workspace, form: Form, lang: str) -> dict:
        """Updates by component that put `form` on the page (when a link opens)."""
        named = {name: getattr(form, name) for name in self.form_type.params()}
        if self.controls is not None:
            named.update(self.controls(workspace, form, lang))
        return {self.components[name]: update for name, update in named.items()}

    def after(self, form: Form, updates: Mapping[str, Any]) -> Form:
        """The form once `updates` are on the page (the values they set for the form's fields)."""
        changes = {}
        for name, update in updates.items():
            if name in self.form_type.params():
                sets, value = value_of(update)
                if sets:
                    changes[name] = value
        return dataclasses.replace(form, **changes) if changes else form

    def _outgoing(self, form: Form, name: str, update):
        if isinstance(update, go.Figure):
            return with_export(update, self.export_name(form, name))
        if isinstance(update, gr.Plot) and isinstance(update.constructor_args.get("value"), go.Figure):
            # a figure sent with other properties (its visibility): with its export config as well
            args = update.constructor_args
            return gr.update(**{**args, "value": with_export(args["value"], self.export_name(form, name))})
        return update

    def on(self, trigger, handler: Handler, outputs: Iterable[str], progress_on: str | None = None,
           refused: Handler | None = None, link: bool = True, shared: bool = False, stream: bool = False,
           trains: bool = False, **kwargs):
        """Declare `trigger(handler)`; updates go to the components named in `outputs`.

        progress_on: the component that shows the event's progress (default: the first output).
        refused: a handler whose updates are drawn when this one refuses its input (so no figure
        keeps showing an earlier input).
        link: whether the event rewrites the tab's link (an API event whose outputs are only the
        views leaves it to an event chained after it).
        """
        names = list(outputs)
        targets = [self.components[name] for name in names] + ([self.link] if link else [])
        shows_progress = self.components[progress_on or names[0]]
        postprocesses = all(isinstance(target, POSTPROCESSED_IN_HANDLER) for target in [*targets, self.link])
        options = {**light(shows_progress), **FORM_INPUTS, "postprocess": not postprocesses, **kwargs}
        if "api_name" not in options:
            options.update(PRIVATE)
        dependency = trigger(self.function(handler, link, shared, stream, trains, postprocesses), self.inputs, targets,
                             **options)
        if refused is not None:
            refused_targets = [self.components[name] for name in names]
            dependency.failure(self.function(refused, postprocesses=postprocesses), self.inputs,
                               refused_targets + [self.link], show_progress="hidden",
                               show_progress_on=[shows_progress], postprocess=not postprocesses, **FORM_INPUTS,
                               **PRIVATE)
        return dependency

    def on_model_added(self, handler: Handler, outputs: Iterable[str], **kwargs) -> None:
        """Redraw with `handler` when the session adds a model (AppContext.models_added), once per
        addition (see once_per_addition); `kwargs` as for `on`."""
        self.on(any_of(*self.ctx.models_added), once_per_addition(handler), outputs, **kwargs)

    def on_open(self, handler: Handler, outputs: Iterable[str], progress_on: str | None = None,
                shared: bool = False) -> None:
        """Draw the tab with `handler` when it is first opened, and again when the language changes
        after that (see AppContext.on_open); the page's load draws it with opening_updates when the
        page opens on this tab."""
        names = list(outputs)
        self.opening = (handler, shared)
        self.opening_targets = [self.components[name] for name in names] + [self.link]
        self.opening_progress = self.components[progress_on or names[0]]
        self.opened = self.ctx.on_open(self.function(handler, shared=shared), self.inputs, self.opening_targets,
                                       self.opening_progress)

    def redraw_updates(self, workspace: Workspace, form: Form, lang: str) -> dict:
        """Updates by component that draw the tab again for `form` in `lang` (as its first opening did)."""
        handler, shared = self.opening
        return self.by_component(self.updates(handler, workspace, form, lang, shared=shared))

    def opening_updates(self, workspace: Workspace, form: Form, lang: str) -> dict:
        """Updates by component that put `form` on the page (link_updates) and draw the tab for it
        as its first opening does, marking it opened: the page's load, when the page opens on this tab."""
        drawn = self.redraw_updates(workspace, form, lang)
        for component, update in self.link_updates(workspace, form, lang).items():
            drawn[component] = with_value(drawn[component], update) if component in drawn else update
        return {**drawn, self.opened: True}


def redraw_on_language(ctx: AppContext) -> None:
    """Declare one event for a language change: every tab the session has opened is drawn again in
    the new language, each from its own controls: one check and one drawing however many tabs the
    page has. The page may report the language it opened with as a change, which draws nothing. A
    tab that cannot be drawn keeps its figures and says why in a warning; the others are drawn."""
    views = [wiring for wiring in ctx.views.values() if wiring.opened is not None]
    inputs, outputs = [], []
    for wiring in views:
        inputs += [wiring.opened, *(wiring.components[name] for name in wiring.form_type.params())]
        outputs += wiring.opening_targets

    def language_changed(request: gr.Request, lang: str, *opened: bool) -> None:
        """Let the redrawing run only for a change of the language of a page that has drawn a tab.
        Checked before the tabs' controls are sent: on load, before the page shows what the load
        event drew, a control may still hold a value the server no longer offers."""
        if not any(opened) or not ctx.workspace(request).switch_language(_language(lang)):
            raise gr.Error("nothing to redraw", visible=False, print_exception=False)

    @guarded
    def redraw(request: gr.Request, lang: str, *values):
        lang = _language(lang)
        workspace = ctx.workspace(request)
        updates, given = {}, iter(values)                  # each tab's opened flag, then its form's fields
        for wiring in views:
            opened = next(given)
            fields = tuple(itertools.islice(given, len(wiring.form_type.params())))
            if not opened:
                continue
            try:
                updates.update(wiring.redraw_updates(workspace, wiring.read(fields, lang), lang))
            except Exception as error:
                gr.Warning(str(as_gradio_error(error, lang).message))
        return updates

    ctx.language.input(language_changed, [ctx.language, *(w.opened for w in views)], None, **CHECK, **PRIVATE).success(
        redraw, [ctx.language, *inputs], outputs, **light(*(w.opening_progress for w in views)), **FORM_INPUTS,
        **PRIVATE)

"""Events of a tab, wired once: the tab's form in, updates keyed by component name out.

A tab's layout returns its components by name; its form's fields are named like the components
that hold them. `TabWiring.on(trigger, handler, outputs)` declares an event whose handler is a
plain function

    handler(workspace, form, lang) -> {"grid": figure, "layer": gr.Slider(maximum=3), ...}

The session's Workspace is the one source of truth: every event leaves in it the form the tab
shows afterwards, and `TabWiring.drawing` draws the tab from it when the tab is shown (a tab picked,
or asked by a header event: the page opened, the language changed, a model added; see showing.py):
the tab then follows the model the session works with now, keeps what it can of its inputs, and
says in one line what it had to replace. A session's events on one tab keep the learner's order
(tab_order.py): a slow one never replaces what a later one drew. A
panel computed on request (heads switched off, the logit lens) is a `Derived` panel: it is
redrawn, or cleared, when what it was computed from changes.

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
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import gradio as gr
import plotly.graph_objects as go
from gradio.components.plot import PlotData
from gradio.data_classes import GradioModel, GradioRootModel

from playground.viz.figure_json import figure_json

from ..inputs.validation import refusal_text
from ..session import kept_models
from ..session.workspace import Workspace
from ..text.i18n import text
from .context import FORM_INPUTS, PRIVATE, AppContext, light
from .forms import Form, ModelName, Refused
from .links import link_query
from .runtime import as_gradio_error, guarded, guarded_training
from .tab_order import order_of
from .view_cache import SHARED_VIEWS
from .widgets import on_slide

Handler = Callable[[Workspace, Form, str], Mapping[str, Any]]
Adapter = Callable[[Form, Any], Form]
EXPORT_SCALE = 2                  # PNG pixels per screen pixel
PLOTLY_LOCALES = {                # the figure toolbar's words in the app's other language
    "zh-CN": {"Autoscale": "自动缩放", "Box Select": "矩形框选择", "Compare data on hover": "悬停时比较数据",
              "Double-click on legend to isolate one trace": "双击图例来突显对应轨迹",
              "Double-click to zoom back out": "双击返回缩小显示", "Download plot as a png": "下载图表为 PNG 格式",
              "Download plot": "下载图表", "Lasso Select": "套索选择", "Pan": "平移", "Reset": "重置",
              "Reset axes": "重置坐标轴", "Reset view": "重置视图", "Reset views": "重置视图",
              "Show closest data on hover": "悬停时显示最近的数据", "Snapshot succeeded": "生成快照成功",
              "Taking snapshot - this may take a few seconds": "正在生成快照，可能需要几秒钟",
              "Toggle Spike Lines": "启用/禁用尖峰线", "Toggle show closest data on hover": "启用/禁用悬停时显示最近的数据",
              "Zoom": "缩放", "Zoom in": "放大", "Zoom out": "缩小"},
}
LINK = "link"                     # the name of every tab's (hidden) link box among its updates
NOTE = "note"                     # the name of every tab's one-line note among its updates
# Outputs whose postprocessing reads none of the properties an update may change (only its value,
# and properties set once in the layout), so the handler can postprocess them with the layout's
# component: a slider reads its minimum and precision (an update changes its maximum), a dropdown its
# choices only to warn about a value outside them; a State is not postprocessed, a browser's state is
# written as JSON, a group or an accordion has no value.
POSTPROCESSED_IN_HANDLER = (gr.Plot, gr.Markdown, gr.Textbox, gr.HighlightedText, gr.Radio, gr.Checkbox, gr.Button,
                            gr.Slider, gr.Dropdown, gr.Group, gr.Accordion, gr.State, gr.BrowserState)


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


def export_config(file_name: str, lang: str = "en") -> dict:
    """Plotly's config for a figure: its camera button saves a PNG at EXPORT_SCALE x, as `file_name`.png;
    its toolbar speaks the session's language (Plotly's own words, as its locale files have them)."""
    config = {"toImageButtonOptions": {"format": "png", "filename": file_name, "scale": EXPORT_SCALE},
              "displaylogo": False}
    if lang in PLOTLY_LOCALES:
        config.update(locale=lang, locales={lang: {"dictionary": PLOTLY_LOCALES[lang]}})
    return config


def with_export(figure: go.Figure, file_name: str, lang: str = "en") -> PlotData:
    """The figure as gr.Plot sends it, with export_config (gr.Plot passes the JSON's "config" to
    Plotly), written in one pass (viz.figure_json)."""
    return PlotData(type="plotly", plot=figure_json(figure, export_config(file_name, lang)))


def any_of(*triggers):
    """One event for all of `triggers` (gr.on), for TabWiring.on. The page's code looks through every
    event for each of its blocks when it opens, so one event with three triggers opens faster than
    three events with one each. A trigger may itself be one of several (any_of's own)."""
    flat = [inner for trigger in triggers
            for inner in (trigger.args[0] if isinstance(trigger, functools.partial) else [trigger])]
    return flat[0] if len(flat) == 1 else functools.partial(gr.on, flat)


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


def selected(event: gr.EventData | None) -> dict:
    """What a `select` event picked ({"index": ..., "value": ...}: a radio's choice, an example's row),
    {} for other events."""
    data = getattr(event, "_data", None)
    return data if isinstance(data, dict) else {}


def example_adapter(samples: list[list], fields: tuple[str, ...], **also) -> Adapter:
    """The adapter of an examples dataset (widgets.examples_dataset) whose rows hold `fields`: the form
    with the clicked row's values, and `also`."""
    def adapted(form: Form, picked: dict) -> Form:
        index = picked.get("index")
        if not isinstance(index, int) or not 0 <= index < len(samples):
            return form
        return dataclasses.replace(form, **dict(zip(fields, samples[index])), **also)
    adapted.fields = (*fields, *also)
    return adapted


def picked_value(field: str) -> Adapter:
    """The adapter of a control whose `select` sets `field` to the value picked (a timeline step)."""
    def adapted(form: Form, picked: dict) -> Form:
        return dataclasses.replace(form, **{field: picked["value"]}) if "value" in picked else form
    adapted.fields = (field,)
    return adapted


def _with_given(given: Mapping[str, Any], updates: Mapping[str, Any]) -> dict:
    """A handler's updates with the values an adapter gave the form's fields: where the handler updates
    such a field without setting its value (new choices), the update sets the given value too."""
    return {**given, **updates, **{name: with_value(updates[name], value) for name, value in given.items()
                                   if name in updates}}


def _event(event_data) -> gr.EventData | None:
    """The event's data, None where Gradio had none to pass (a call made without an event)."""
    return event_data if isinstance(event_data, gr.EventData) else None


def _values(event_data, values: tuple) -> tuple:
    """The event's input values: Gradio passes its EventData only when it has one, and the first value
    then takes its place."""
    return values if isinstance(event_data, gr.EventData) or event_data is None else (event_data, *values)


@dataclass(frozen=True)
class Derived:
    """A panel a button computes from the tab's form (heads switched off, the logit lens, ...).

    Once drawn it stays tied to what it was computed from, the form's fields `depends_on`: when
    the tab is drawn again for other values of those fields the panel is cleared, and when it is
    drawn again in another language the panel is computed again in that language."""

    name: str
    handler: Handler
    outputs: tuple[str, ...]
    depends_on: tuple[str, ...]

    def key(self, form: Form, lang: str) -> tuple:
        return (lang, *(getattr(form, field) for field in self.depends_on))


class TabWiring:
    """One tab's components by name, its form, its link box, and the events between them."""

    def __init__(self, ctx: AppContext, form_type: type[Form], components: Mapping[str, gr.components.Component],
                 export_name: Callable[[Form, str], str] | None = None, controls: Handler | None = None,
                 draw: Handler | None = None, refused: Handler | None = None, derived: Iterable[Derived] = (),
                 shared: bool = False, initial: Callable[[Workspace], Form] | None = None):
        """export_name(form, component name): a figure's file name; controls(workspace, form, lang): the
        updates that fit the controls to the form's model (choices, ranges), used when a link opens;
        draw: the whole tab (what `show` draws), `refused` what it shows when draw refuses the form,
        `shared` whether draw's updates may be kept in the view cache (see `function`); derived: the
        tab's panels computed on request; initial(workspace): the form the tab shows first (default:
        layout_form)."""
        missing = [name for name in form_type.params() if name not in components]
        if missing:
            raise ValueError(f"the {form_type.VIEW} form's fields {missing} have no component of the same name")
        self.ctx = ctx
        self.form_type = form_type
        self.components = dict(components)
        self.link = gr.Textbox(visible="hidden", elem_id=f"{form_type.VIEW}-link", elem_classes="view-link",
                               show_label=False)
        self.note = getattr(ctx, "note", None)      # the tab's one-line note, declared at the top of the tab
        # A component an event updated is a new object in the session's state (Gradio rebuilds it), so a
        # trigger is known by its elem_id, which the rebuilt one keeps.
        self._names = {component.elem_id: name for name, component in self.components.items()
                       if getattr(component, "elem_id", None)}
        self.export_name = export_name or (lambda form, name: file_name(form_type.VIEW, name))
        self.controls = controls
        self.draw, self.refused, self.shared = draw, refused, shared
        self.derived = {panel.name: panel for panel in derived}
        self.initial = initial or self.layout_form
        ctx.views[form_type.VIEW] = self

    @property
    def view(self) -> str:
        return self.form_type.VIEW

    def layout_form(self, workspace: Workspace) -> Form:
        """The form the layout's controls start with (the form's defaults where they do not fit it),
        fitted to its model: what the tab shows first."""
        try:
            form = self.form_type.from_values({name: self.components[name].value for name in self.form_type.params()})
        except Refused:
            form = self.form_type()
        return form.fit(workspace.catalog, set())[0]

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

    @property
    def targets(self) -> list:
        """Every component `show` may update: the tab's components, its link and its note."""
        return [*self.components.values(), self.link, *([self.note] if self.note is not None else [])]

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
                 trains: bool = False, postprocesses: bool = False, by_trigger: Mapping[str, Handler] | None = None,
                 adapt: Mapping[str, Adapter] | None = None, derived: str | None = None,
                 refreshes: bool = False) -> Callable:
        """The Gradio function of `handler`: the form's values and the language in, updates by
        component out (and the tab's link, when `link`).

        shared: `handler` is a pure function of the form and the language (no session state), so its
        updates for a form that names only shipped models are kept in the process's view cache and
        served to every session that asks for the same view.
        stream: `handler` is a generator of updates (a run that redraws as it goes); each is sent.
        trains: it builds or trains models (autograd on, the training threads; see runtime).
        postprocesses: the updates are sent postprocessed (for an event declared with postprocess=False).
        by_trigger: the handler for the event's triggers by component name, where it is not `handler`.
        adapt: for a trigger by component name, the form it asks for, from the form and the value it
        picked (an example's row, a timeline step).
        derived: the name of the Derived panel this event draws.
        refreshes: the event draws the tab for a new form (a new model, input or setting): the Derived
        panels follow it (see derived_updates) and the tab's note is cleared.

        Every event leaves in the workspace the form the tab shows afterwards; a model picked in a
        model picker becomes the model the session works with."""
        ctx = self.ctx
        guard = guarded_training if trains else guarded
        sent = self.postprocessed if postprocesses else self.by_component
        by_trigger, adapt = dict(by_trigger or {}), dict(adapt or {})

        def prepared(values: tuple, lang: str, request, event) -> tuple[Workspace, Form, Handler, dict]:
            form = self.read(values, lang)
            trigger = self._names.get(getattr(getattr(event, "target", None), "elem_id", None))
            workspace = ctx.workspace(request)
            given = {}
            if trigger in adapt:
                adapted = adapt[trigger](form, selected(event))
                given = {name: getattr(adapted, name) for name in self.form_type.params()
                         if getattr(adapted, name) != getattr(form, name)}
                form = adapted
            params = self.form_type.params()
            for name in {*given, trigger}:
                if isinstance(params.get(name), ModelName):
                    workspace.choose_model(getattr(form, name))
            with workspace.lock:
                workspace.shown_view = self.view
            return workspace, form, by_trigger.get(trigger, handler), given

        def drawn(workspace: Workspace, form: Form, updates: dict, lang: str) -> dict:
            """The updates, with the Derived panels and the note that a new form leaves (see refreshes)."""
            if not refreshes:
                return updates
            shown = self.after(form, updates)
            updates = {**updates, **self.derived_updates(workspace, shown, lang)}
            if self.note is not None:
                updates[NOTE] = gr.Markdown("", visible=False)
            return updates

        if stream:
            @guard
            def run_stream(values: tuple, lang: str, request: gr.Request | None, event):
                workspace, form, chosen, given = prepared(values, lang, request, event)
                shown = form
                try:
                    for updates in chosen(workspace, form, lang):
                        named = drawn(workspace, form, self.outgoing(form, _with_given(given, updates), lang, link),
                                      lang)
                        given, shown = {}, self.after(shown, updates)
                        yield sent(named) or gr.skip()
                except Refused as error:
                    raise gr.Error(refusal_text(error, lang), print_exception=False) from error
                workspace.remember(self.view, shown, lang)

            def event(request: gr.Request, event_data: gr.EventData, *values):
                yield from run_stream(*self.split(_values(event_data, values)), request, _event(event_data))
        else:
            @guard
            def run(values: tuple, lang: str, request: gr.Request | None, event):
                order = order_of(ctx.workspace(request), self.view)
                with order.event() as ticket:        # in the order the learner made them (see tab_order)
                    workspace, form, chosen, given = prepared(values, lang, request, event)
                    updates = drawn(workspace, form,
                                    _with_given(given, self.updates(chosen, workspace, form, lang, link, shared)),
                                    lang)
                    shown = self.after(form, updates)
                    sending, whole = order.kept(ticket, sent(updates))
                    if whole:                        # else a later event of the tab has recorded its own
                        if derived is not None:
                            workspace.derived[(self.view, derived)] = self.derived[derived].key(shown, lang)
                        workspace.remember(self.view, shown, lang)
                    return sending or gr.skip()      # nothing left to send: every output stays as it is

            def event(request: gr.Request, event_data: gr.EventData, *values):
                return run(*self.split(_values(event_data, values)), request, _event(event_data))

        event.__name__ = getattr(handler, "__name__", "event")
        event.__doc__ = handler.__doc__
        event.__signature__ = self.signature()
        event.__annotations__ = {"request": gr.Request, "event_data": gr.EventData}
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
        named = {name: self._outgoing(shown, name, update, lang) for name, update in updates.items()}
        if link:
            named[LINK] = link_query(self.ctx.registry, form.VIEW, shown, lang)
        return named

    def by_component(self, named: Mapping[str, Any]) -> dict:
        """Updates by component name (LINK for the tab's link, NOTE for its note) -> updates by component."""
        special = {LINK: self.link, NOTE: self.note}
        return {special[name] if name in special else self.components[name]: value for name, value in named.items()}

    def postprocessed(self, named: Mapping[str, Any]) -> dict:
        """by_component, each update postprocessed (see postprocessed)."""
        return {component: postprocessed(component, update) for component, update in self.by_component(named).items()}

    def shared_key(self, handler: Handler, workspace: Workspace, form: Form, lang: str, link: bool):
        """The view cache's key of `handler` on `form`, or None when the form names a model that is
        not shipped, or one of this session's own models in any field (a preset, or a shipped name
        that the session's own model hides)."""
        for name, spec in form.params().items():
            value = getattr(form, name)
            if isinstance(spec, ModelName) and self.ctx.registry.get(value) is None:
                return None
            if isinstance(value, str) and value in workspace.models:
                return None
        return (form.VIEW, handler.__module__, handler.__name__, link, form, lang)

    def signature(self) -> inspect.Signature:
        """(request, event_data, FIELD..., lang, LATE FIELD=None...): the API lists an event's parameters by
        the form's field names; a late field may be left out of a call (its component's value, else the
        form's default: a control that starts empty, like a step picker, is then optional too)."""
        named = inspect.Parameter.POSITIONAL_OR_KEYWORD
        early, late = self.api_order
        return inspect.Signature([inspect.Parameter("request", named, annotation=gr.Request),
                                  inspect.Parameter("event_data", named, annotation=gr.EventData),
                                  *(inspect.Parameter(name, named) for name in [*early, "lang"]),
                                  *(inspect.Parameter(name, named, default=None) for name in late)])

    def link_updates(self, workspace: Workspace, form: Form, lang: str) -> dict:
        """Updates by component that put `form` on the page: its fields' values (a model picker listing
        the session's models), and the controls fitted to its model."""
        named = {name: list(value) if isinstance(value, tuple) else value       # a list field goes as a list
                 for name, value in ((name, getattr(form, name)) for name in self.form_type.params())}
        for name, spec in self.form_type.params().items():
            if isinstance(spec, ModelName) and getattr(workspace, "registry", None) is not None:
                choices = workspace.model_names(workspace.registry, spec.generative)
                named[name] = gr.Dropdown(choices=choices, value=getattr(form, name))
        if self.controls is not None:
            named.update(self.controls(workspace, form, lang))
        return {self.components[name]: update for name, update in named.items()}

    def after(self, form: Form, updates: Mapping[str, Any]) -> Form:
        """The form once `updates` are on the page (the values they set for the form's fields, as the
        form keeps them: a list of names as a tuple, for one)."""
        params, changes = self.form_type.params(), {}
        for name, update in updates.items():
            if name in params:
                sets, value = value_of(update)
                if sets:
                    try:
                        changes[name] = params[name].check(name, value)
                    except Refused:
                        continue                      # a value the page shows but the form would refuse
        return dataclasses.replace(form, **changes) if changes else form

    def _outgoing(self, form: Form, name: str, update, lang: str):
        if isinstance(update, go.Figure):
            return with_export(update, self.export_name(form, name), lang)
        if isinstance(update, gr.Plot) and isinstance(update.constructor_args.get("value"), go.Figure):
            # a figure sent with other properties (its visibility): with its export config as well
            args = update.constructor_args
            return gr.update(**{**args, "value": with_export(args["value"], self.export_name(form, name), lang)})
        return update

    def on(self, trigger, handler: Handler, outputs: Iterable[str], progress_on: str | None = None,
           refused: Handler | None = None, link: bool = True, shared: bool = False, stream: bool = False,
           trains: bool = False, by_trigger: Mapping[str, Handler] | None = None,
           adapt: Mapping[str, Adapter] | None = None, derived: str | None = None, refreshes: bool = False,
           **kwargs):
        """Declare `trigger(handler)`; updates go to the components named in `outputs` (LINK and NOTE
        may be named among them to place them; the link is added last where it is not).

        progress_on: the component that shows the event's progress (default: the first output).
        refused: a handler whose updates are drawn when this one refuses its input (so no figure
        keeps showing an earlier input).
        link: whether the event rewrites the tab's link.
        by_trigger, adapt, derived, refreshes: see `function` (an event that refreshes also updates the
        Derived panels' outputs and the note, placed before LINK where it is named, else last).
        """
        names = list(outputs)
        for trigger_name, adapter in (adapt or {}).items():
            unsent = [field for field in getattr(adapter, "fields", ()) if field not in names]
            if unsent:        # Gradio would refuse the event's updates of them at every such trigger
                raise ValueError(f"the {self.view} tab's {trigger_name} sets {unsent}, which its event does not update")
        if refreshes:
            extra = [name for name in (*self.derived_outputs(), *([NOTE] if self.note is not None else []))
                     if name not in names]
            at = names.index(LINK) if LINK in names else len(names)
            names[at:at] = extra
        if link and LINK not in names:
            names.append(LINK)
        special = {LINK: self.link, NOTE: self.note}
        targets = [special[name] if name in special else self.components[name] for name in names]
        shows_progress = self.components[progress_on or names[0]]
        postprocesses = all(isinstance(target, POSTPROCESSED_IN_HANDLER) for target in targets)
        options = {**light(shows_progress), **FORM_INPUTS, "postprocess": not postprocesses, **kwargs}
        if "api_name" not in options:
            options.update(PRIVATE)
        fn = self.function(handler, link, shared, stream, trains, postprocesses, by_trigger, adapt, derived,
                           refreshes)
        dependency = trigger(fn, self.inputs, targets, **options)
        if trains and self.ctx.kept_model is not None:        # the browser keeps the model it trained
            dependency.then(self._keep_model, None, [self.ctx.kept_model], show_progress="hidden", **PRIVATE)
        if refused is not None:
            refused_targets = [target for name, target in zip(names, targets) if name not in (LINK, NOTE)]
            dependency.failure(self.function(refused, postprocesses=postprocesses, adapt=adapt), self.inputs,
                               refused_targets + [self.link], show_progress="hidden",
                               show_progress_on=[shows_progress], postprocess=not postprocesses, **FORM_INPUTS,
                               **PRIVATE)
        return dependency

    def _keep_model(self, request: gr.Request):
        return kept_models.record(self.ctx.workspace(request))

    def derived_outputs(self) -> list[str]:
        """The outputs of every Derived panel of the tab."""
        return [name for panel in self.derived.values() for name in panel.outputs]

    def derived_updates(self, workspace: Workspace, form: Form, lang: str) -> dict:
        """The Derived panels of the tab for `form` in `lang`, by name: a panel drawn for other values of
        what it depends on is cleared; one drawn in another language is computed again."""
        updates = {}
        for panel in self.derived.values():
            with workspace.lock:
                drawn = workspace.derived.get((self.view, panel.name))
            if drawn is None:
                continue
            key = panel.key(form, lang)
            if drawn == key:
                continue
            if drawn[1:] == key[1:]:                     # the same inputs in another language: computed again
                try:
                    updates.update(self.outgoing(form, panel.handler(workspace, form, lang), lang, link=False))
                    workspace.derived[(self.view, panel.name)] = key
                    continue
                except (gr.Error, Refused):
                    pass
            updates.update({name: self._cleared(name) for name in panel.outputs})
            workspace.derived.pop((self.view, panel.name), None)
        return updates

    def _cleared(self, name: str):
        return None if isinstance(self.components[name], gr.Plot) else ""

    def show(self, workspace: Workspace, lang: str, form: Form | None = None, note: str = "") -> dict:
        """`drawing`'s updates, its form recorded in the session as what the tab shows."""
        updates, shown = self.drawing(workspace, lang, form, note)
        workspace.remember(self.view, shown, lang)
        return updates

    def drawing(self, workspace: Workspace, lang: str, form: Form | None = None, note: str = "",
                again: bool = False) -> tuple[dict, Form]:
        """Updates by component that draw the tab from the session when it is shown (a tab picked, or
        asked by a header event: the page opened on it, the language changed, a model added), and the
        form they show (for the caller to record: Workspace.remember): `form` (a link's) or the form the
        tab last showed, following the model the session works with now (a link's form shows the models
        it names); nothing when the page already shows that drawing, unless `again` (an event of the tab
        ran since the draw was asked for). A form the tab cannot draw shows why (`refused`), and the note
        says so; `note` is shown in the tab's note too."""
        with workspace.lock:
            remembered = workspace.forms.get(self.view)
            if form is None:                           # a link's form shows what it names
                form, followed = self.follow(workspace, remembered or self.initial(workspace), lang)
            else:
                followed = ""
            unchanged = (form == remembered and workspace.drawn.get(self.view) == workspace.drawing_key(form, lang)
                         and not note and not followed and not again)
        if unchanged or self.draw is None:
            return {}, form
        notes = [note, followed]
        try:
            named = self.updates(self.draw, workspace, form, lang, shared=self.shared)
        except Exception as error:
            notes.append(str(as_gradio_error(error, lang).message))
            named = self.outgoing(form, self.refused(workspace, form, lang) if self.refused else {}, lang, link=True)
        shown = self.after(form, named)
        named.update(self.derived_updates(workspace, shown, lang))
        updates = self.by_component(named)
        for component, update in self.link_updates(workspace, shown, lang).items():
            updates[component] = with_value(updates[component], update) if component in updates else update
        if self.note is not None:
            message = "\n\n".join(filter(None, notes))
            updates[self.note] = gr.Markdown(message, visible=bool(message))
        return updates, shown

    def follow(self, workspace: Workspace, form: Form, lang: str) -> tuple[Form, str]:
        """`form` showing the model the session works with now where the tab can show it, with inputs
        the model can read, fitted to it (its layers, kinds, ...); and a note saying what was replaced
        ("" when nothing was)."""
        followed, replaced = form.follow(workspace.catalog, workspace.current_model)
        if followed == form:
            return form, ""
        fitted, _ = followed.fit(workspace.catalog, set())
        model = next((getattr(fitted, name) for name, spec in fitted.params().items()
                      if isinstance(spec, ModelName) and getattr(fitted, name) != getattr(form, name)), None)
        if model is None:
            return fitted, ""
        key = "note_followed_replaced" if replaced else "note_followed"
        return fitted, text(lang, key, model=model)

"""Every view is a link: the page's address describes the tab on show and its controls.

The scheme (documented in README): `?view=TAB&PARAM=VALUE&...&lang=LANG[&present=1][&hide=PARTS]`, where the
parameters are the fields of the tab's form (see forms.py and each tab's form.py), every one
written out. Opening a link selects the tab, sets its controls and draws it; a parameter that is
unknown, out of range or names a model that is not shipped keeps its default, and a note at the
top of the page names it and says why. Changing a control rewrites the address in place
(history.replaceState: no reload, no history entry per slider move). A session's own model
cannot be linked: its link is PRIVATE_LINK and "Copy link" says so.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Mapping

import gradio as gr

from ..inputs.validation import link_name, refusal_text
from ..session.workspace import SessionsFull
from ..text.i18n import LANGUAGES, label, text
from ..text.markup import literal
from .context import PRIVATE
from .early_plotly import LOAD_FUNCTION
from . import drawing, hiding
from .forms import Form, ModelName, Refused, decode_query, encode_query
from .page_needs import PageNeeds
from .language import LANGUAGE_ID, PROBE_ID, SET_LOCALE_JS, detect_language
from .runtime import as_gradio_error, start_warm_up
from .next_draws import next_draws
from .sharing import share_js, shared

PRIVATE_LINK = "#private"          # the link of a view that shows a session's own model
PAGE_PARAMS = ("view", "lang", "present", hiding.PARAM, "room")   # room=CODE: the class room's student page
MAX_NOTED = 12                     # ignored parameters the note lists (then how many more)


def link_query(registry, view: str, form: Form, lang: str) -> str:
    """"view=attention&model=copy&...&lang=en", or PRIVATE_LINK when the form names a model the
    registry does not ship (a session's own)."""
    for name, spec in form.params().items():
        if isinstance(spec, ModelName) and registry.get(getattr(form, name)) is None:
            return PRIVATE_LINK
    return encode_query({"view": view, **form.to_query(), "lang": lang})


@dataclass
class LinkedPage:
    """What a link asks for: the tab, the language (None: the browser's), presenter mode, the parts
    it hides (see hiding.py), the tab's form (None: a tab without a form, or no view named), every
    part that was ignored and the parameters it named."""

    view: str
    lang: str | None = None
    present: bool = False
    hide: tuple[str, ...] = ()
    form: Form | None = None
    ignored: list[Refused] = field(default_factory=list)
    named: set[str] = field(default_factory=set)      # the form's parameters the link named and kept
    given: set[str] = field(default_factory=set)      # the form's parameters the link named, kept or not


def parse_link(query: str, tabs: tuple[str, ...], forms: Mapping[str, type[Form]], registry,
               needs: Mapping[str, PageNeeds] | None = None) -> LinkedPage:
    """The page `query` ("?view=attention&layer=1...") describes, where `needs` says what each view can
    hide (see hiding.py); never fails: what cannot be used is left at its default and listed in `ignored`."""
    pairs = decode_query(query or "")
    given: dict[str, str] = {}
    ignored: list[Refused] = []
    for name, value in pairs:
        if name in given:
            ignored.append(Refused(name, "link_repeated"))
        else:
            given[name] = value
    page = LinkedPage(view=tabs[0])
    if "view" in given:
        if given["view"] in tabs:
            page.view = given["view"]
        else:
            ignored.append(Refused("view", "err_bad_choice", value=given["view"][:40], choices=", ".join(tabs)))
    if "lang" in given:
        if given["lang"] in LANGUAGES:
            page.lang = given["lang"]
        else:
            ignored.append(Refused("lang", "err_bad_choice", value=given["lang"][:40], choices=", ".join(LANGUAGES)))
    if "present" in given:
        if given["present"] in ("0", "1"):
            page.present = given["present"] == "1"
        else:
            ignored.append(Refused("present", "err_bad_choice", value=given["present"][:40], choices="0, 1"))
    if hiding.PARAM in given:
        tab_parts = needs[page.view].parts if needs and page.view in needs else ()
        page.hide, unknown = hiding.parse_hide(given[hiding.PARAM], tab_parts)
        ignored += [Refused(hiding.PARAM, "link_unknown_part", value=name[:40],
                            choices=", ".join(hiding.hideable(tab_parts))) for name in unknown]
    form_type = forms.get(page.view)
    known = set(PAGE_PARAMS) | (set(form_type.params()) if form_type else set())
    ignored += [Refused(name, "link_unknown_param") for name in given if name not in known]
    if form_type is None:
        page.ignored = ignored
        return page
    form, refused = form_type.from_query({k: v for k, v in given.items() if k not in PAGE_PARAMS})
    ignored += refused
    form, unshipped = _shipped_models(form, registry)
    ignored += unshipped
    named = {name for name in given if name in form_type.params()} - {e.param for e in ignored}
    form, unfit = form.fit(registry, named)
    page.form, page.ignored, page.named = form, ignored + unfit, named - {e.param for e in unfit}
    page.given = {name for name in given if name in form_type.params()}
    return page


def _shipped_models(form: Form, registry) -> tuple[Form, list[Refused]]:
    """The form with every model that is not shipped replaced by the registry's default."""
    changes, refused = {}, []
    for name, spec in form.params().items():
        value = getattr(form, name)
        if isinstance(spec, ModelName) and registry.get(value) is None:
            changes[name] = registry.default(spec.generative)
            if value != spec.default:
                refused.append(Refused(name, "link_model_not_shipped", value=value[:40],
                                       choices=", ".join(registry.names(spec.generative))))
    return (dataclasses.replace(form, **changes) if changes else form), refused


def note_text(ignored: list[Refused], lang: str) -> str:
    """The note shown above the page: each ignored parameter and why, the first MAX_NOTED of them,
    names and values written literally and names cut short ("" when nothing was ignored)."""
    if not ignored:
        return ""
    lines = [f"- {literal(link_name(error.param))}: {refusal_text(error, lang)}"
             for error in ignored[:MAX_NOTED]]
    if len(ignored) > MAX_NOTED:
        lines.append(text(lang, "link_note_more", n=len(ignored) - MAX_NOTED))
    return text(lang, "link_note_intro") + "\n" + "\n".join(lines)


def copy_message(link: str, address: str, lang: str) -> str:
    """What "Copy link" says: the copied address, or why this view has none."""
    if link == PRIVATE_LINK:
        return text(lang, "link_private")
    if not link:
        return text(lang, "link_not_ready")
    return text(lang, "link_copied", address=literal(address))


# The js of a tab's draw event (see Opening): for the draw the page's opening asked for (OPEN_JS), the
# language a link names (switching Gradio's own locale to it) or else the page's (from the probe), the
# address's query, what the browser keeps, and presenter mode as a class on <body>; for any other draw (a
# pick, a header event's), nothing but the page's language once the page has opened (none before: the
# opening draws the tab), and no query nor kept state.
def read_page_js(view: str) -> str:
    """The opening's inputs as the draw of the tab `view` sends them (see above)."""
    return READ_PAGE_JS.replace("VIEW", json.dumps(view))


READ_PAGE_JS = f"""
async (current, query, ...kept) => {{
  const draws = window.playgroundDraws || {{}};
  if (draws.opening !== VIEW) return [draws.opened ? current : null, null, ...kept.map(() => null)];
  draws.opening = null;
  draws.openingDrawn = VIEW;
  window.{LOAD_FUNCTION}?.();       // Plotly's code runs while the server draws (see early_plotly)
  const linkedTab = document.getElementById(`tab-${{VIEW}}-button`);
  if (linkedTab?.getAttribute('aria-selected') !== 'true') draws.echo = VIEW;    // its answer selects the tab
  document.addEventListener('click', (event) => {{      // a tab the learner picks while the opening is on its way
    const tab = event.isTrusted && !draws.opened && event.target.closest && event.target.closest('#tabs [role=tab]');
    if (tab) draws.picked = tab;
  }}, true);
  const params = new URLSearchParams(location.search);
  if (params.get('present') === '1') document.body.classList.add('present');
  const wanted = params.get('lang');
  if ({list(LANGUAGES)!r}.includes(wanted)) {{
    const setLocale = {SET_LOCALE_JS};
    await setLocale(wanted);
    return [wanted, location.search, ...kept];
  }}
  const probe = document.querySelector('#{PROBE_ID}');
  const code = probe ? probe.innerText.trim() : '';
  return [code || current || '', location.search, ...kept];
}}
"""


def open_js(views: tuple[str, ...]) -> str:
    """Page js when it has loaded (or its reopen button is clicked): ask the tab the address names (the
    first tab when it names none it has) for the draw that opens the page (see Opening). Its redraw
    button, not its tab: the request leaves at once, and the answer picks the tab already drawn (a tab
    picked first would be laid out empty before the request left)."""
    return OPEN_JS.replace("VIEWS", json.dumps(list(views)))


OPEN_JS = f"""
() => {{
  {drawing.SET_JS}
  const views = VIEWS;
  const wanted = new URLSearchParams(location.search).get('view');
  const view = views.includes(wanted) ? wanted : views[0];
  draws.opening = view;
  document.getElementById(`${{view}}-redraw`)?.click();
}}
"""


# Event js, after any tab's link changes and after a tab is picked: write the link of the tab on screen
# into the address bar (history.replaceState: no reload, no history entry). Plotly refers to a
# figure's gradients and clip paths by url("<the address it was drawn at>#id") where the page has a
# <base> element, and such a reference breaks once the address changes: every one is pointed at
# the new address, so colour bars keep their gradient for the whole session. Plotly keeps the address
# of a figure's first draw for all its later draws (its _context._baseUrl), so that is moved too: a
# figure first drawn while another tab's link was in the address bar lost its colour bar whenever it
# was drawn again.
def write_address_js(views: tuple[str, ...]) -> str:
    """Event js with every tab's link (in `views` order) as its inputs: write the link of the tab on
    screen into the address bar."""
    return WRITE_ADDRESS_JS.replace("VIEWS", json.dumps(list(views))).replace("LANGUAGE_ID", LANGUAGE_ID)


WRITE_ADDRESS_JS = r"""
async (...links) => {
  await new Promise((done) => {        // after the page has drawn the update (a page not drawing frames: 100 ms)
    requestAnimationFrame(() => requestAnimationFrame(done));
    setTimeout(done, 100);
  });
  const views = VIEWS;
  const index = views.findIndex((view) => {
    const panel = document.querySelector(`#tab-${view}`);
    return panel && panel.offsetParent !== null;
  });
  const link = index >= 0 ? links[index] : '';
  if (!link) return;
  const lang = document.querySelector('#LANGUAGE_ID input:checked')?.value;   // a private view keeps the language
  const query = link.startsWith('#') ? `view=${views[index]}` + (lang ? `&lang=${encodeURIComponent(lang)}` : '')
                                     : link;
  const kept = new URLSearchParams(location.search);
  const present = kept.get('present') === '1' ? '&present=1' : '';
  const hide = (kept.get('hide') || '').replace(/[^a-z_,]/g, '');
  history.replaceState(history.state, '', '?' + query + present + (hide ? '&hide=' + hide : ''));
  const base = location.href.split('#')[0];
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    if (plot._context && plot._context._baseUrl) plot._context._baseUrl = base;
  }
  for (const element of document.querySelectorAll('.js-plotly-plot [style*="url("], .js-plotly-plot [clip-path]')) {
    for (const name of ['style', 'clip-path']) {
      const value = element.getAttribute(name);
      if (value && value.includes('url(')) {
        element.setAttribute(name, value.replace(/url\((['"]?)[^#'")]*#/g, `url($1${base}#`));
      }
    }
  }
  window.dispatchEvent(new Event('resize'));     // figures drawn while their tab was hidden fill it now
}
"""


# "Copy link": the shown tab's link and the address it is shared by (sharing.py: on a Space, its
# huggingface.co page) go to the server (which says what happened); that address goes to the
# clipboard unless the view is private.
COPY_JS = """
async (request, lang) => {
  let link = '';
  for (const box of document.querySelectorAll('.view-link')) {
    const panel = document.querySelector(`#tab-${box.id.replace(/-link$/, '')}`);
    const field = box.querySelector('textarea, input');
    if (panel && panel.offsetParent !== null && field) link = field.value;
  }
  const address = SHARED_ADDRESS();
  if (link && !link.startsWith('#')) {
    try {
      await navigator.clipboard.writeText(address);
    } catch (error) {
      const area = document.createElement('textarea');
      area.value = address;
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
  }
  return [link + '\\n' + address, lang];
}
"""


def build_copy_button() -> tuple[gr.Button, gr.Markdown]:
    """The Copy link button and what it said (for the page's header)."""
    copy = gr.Button(label("btn_copy_link"), elem_id="copy-link", size="sm", scale=0, min_width=130)
    copied = gr.Markdown(elem_id="copy-link-status", scale=2)
    return copy, copied


def build_link_note() -> tuple[gr.Markdown, gr.Textbox]:
    """The note about the parts of a link that were ignored, and the address's query (read on load)."""
    # Until the opening replaces it, the note says the page is opening (and Gradio shows the event's place in
    # the queue on it): a wait in a busy queue looked like a page that would never draw.
    note = gr.Markdown(label("page_opening"), elem_id="link-note")
    query = gr.Textbox(visible="hidden", elem_id="page-query", show_label=False)
    return note, query


def build_opening() -> gr.Button:
    """The hidden button that runs the page's opening again (drawing.watch_js), and what the page says
    when it could not be drawn."""
    reopen = gr.Button(visible="hidden", elem_id=drawing.REOPEN_ID)
    gr.Markdown(label("page_stuck"), elem_id=drawing.STUCK_ID)
    return reopen


class Opening:
    """The page's opening, in one round trip: once the page has loaded, its script asks the tab the
    address names for a draw (open_js), and that draw's event (showing.wire_tab) sends, besides, the
    page's language, the address's query and what the browser keeps for the session (`inputs`, read
    by read_page_js; any other draw of a tab sends nulls). `open` records them in the session (the
    language, the link: the form of the tab it names, presenter mode's folded controls; what the
    browser kept), and the same event then draws the tab and answers `outputs`, the header's: the
    language, the query, the tab selected and the note about what the link ignored."""

    def __init__(self, ctx, tabs: gr.Tabs, tab_keys: tuple[str, ...], note: gr.Markdown, query: gr.Textbox):
        self.ctx, self.tabs, self.keys, self.note, self.query = ctx, tabs, tab_keys, note, query
        self.inputs = [ctx.language, query, *(state for state, _, _ in ctx.kept)]
        self.outputs = [ctx.language, query, tabs, note]
        ctx.header_notes[note.elem_id] = note          # what the link ignored follows the page's language

    def open(self, view: str, request: gr.Request, probe=None, address_query=None, *kept_values):
        """The session's workspace with the opening recorded (`view`: the tab drawn), and the header's
        updates; (None, {}) when the draw was another (its js sent no query), (None, None) for one asked
        before the page has opened (its js sent no language either: the opening draws the tab)."""
        if address_query is None:
            return None, ({} if probe is not None else None)
        ctx = self.ctx
        start_warm_up()
        lang = detect_language(probe, request.headers.get("accept-language") if request else None)
        page = parse_link(address_query or "", self.keys, {v: w.form_type for v, w in ctx.views.items()},
                          ctx.registry, ctx.page_needs)
        try:
            workspace = ctx.workspace(request, opens_page=True)
        except SessionsFull as full:                   # a newcomer on a full server, told in the page's language
            raise as_gradio_error(full, lang) from full
        requests = next_draws(workspace)
        ignored = page.ignored
        said = ctx.say_in_header(workspace, self.note, lambda lang: note_text(ignored, lang), lang)[self.note]
        header = {self.query: address_query, self.tabs: gr.Tabs(selected=view),
                  self.note: gr.Markdown(said, visible=bool(said))}
        if requests.opened:              # asked again (its answer was slow or lost): the link is applied once,
            del header[self.tabs]        # and the learner, who may have picked another tab since, stays there
            return workspace, {ctx.language: workspace.language or lang, **header}
        requests.opened = True
        self._keep(workspace, page, view, kept_values)
        with workspace.lock:
            workspace.language = lang
            named_models = [name for name, spec in (page.form.params().items() if page.form is not None else ())
                            if isinstance(spec, ModelName) and name in page.named]
            if named_models:                       # the model the link shows first is the one to work with,
                workspace.choose_model(getattr(page.form, named_models[0]))    # a kept one just restored or not
            if page.form is not None and page.given:
                requests.forms[page.view] = page.form
                workspace.drawn.pop(page.view, None)
            if page.present:
                requests.folds.update(ctx.views)   # each tab folds its controls at its first draw (showing.tab_drawer)
        return workspace, {ctx.language: lang, **header}

    def _keep(self, workspace, page: LinkedPage, view: str, kept_values) -> None:
        """What the browser kept for the session into its workspace; a tab that shows what was kept starts
        from it where the link names nothing of that tab's (only when the browser kept something the
        session lacked)."""
        for (_, keep, kept_view), value in zip(self.ctx.kept, kept_values):
            kept_view = kept_view or view                    # None: what every tab shows (a model)
            holds_a_place, adds = keep(workspace, value)
            moves = holds_a_place and not (kept_view == page.view and page.given)
            if not (moves or adds):
                continue       # nothing the session lacked: the tab stays as drawn
            with workspace.lock:
                if moves:
                    workspace.forms.pop(kept_view, None)
                    next_draws(workspace).forms.pop(kept_view, None)
                workspace.drawn.pop(kept_view, None)            # drawn with what was kept


def wire_page(demo: gr.Blocks, ctx, tab_components: Mapping[str, gr.Tab], query: gr.Textbox, copy: gr.Button,
              copied: gr.Markdown, reopen: gr.Button) -> None:
    """Open the page once it has loaded (or its reopen button is clicked): the draw of the tab the address
    names opens it (see Opening). Keep the address bar in step with the tab on screen; Copy link."""
    views = ctx.views
    gr.on([demo.load, reopen.click], None, None, None, js=open_js(tuple(tab_components)), **PRIVATE)
    links = [wiring.link for wiring in views.values()]
    # The language too: a view of the session's own model keeps its link (PRIVATE_LINK) in every language.
    gr.on([*(link.change for link in links), *(tab.select for tab in tab_components.values()), ctx.language.change],
          None, links, None, js=write_address_js(tuple(views)), trigger_mode="always_last", **PRIVATE)

    def on_copy(payload: str, lang: str, request: gr.Request) -> dict:
        link, address = shared(payload)
        return ctx.say_in_header(ctx.workspace(request), copied, lambda lang: copy_message(link, address, lang), lang)

    copy.click(on_copy, [query, ctx.language], [copied], js=share_js(COPY_JS), show_progress="hidden", **PRIVATE)

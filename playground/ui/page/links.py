"""Every view is a link: the page's address describes the tab on show and its controls.

The scheme (documented in README): `?view=TAB&PARAM=VALUE&...&lang=LANG[&present=1]`, where the
parameters are the fields of the tab's form (see forms.py and each tab's form.py), every one
written out. Opening a link selects the tab, sets its controls and draws it; a parameter that is
unknown, out of range or names a model that is not shipped keeps its default, and a note at the
top of the page names it and says why. Changing a control rewrites the address in place
(history.replaceState: no reload, no history entry per slider move). A session's own model
cannot be linked: its link is PRIVATE_LINK and "Copy link" says so.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

import gradio as gr

from ..text.i18n import LANGUAGES, label, text
from ..text.markup import literal
from .context import LIGHT, PRIVATE
from .forms import Form, ModelName, Refused, decode_query, encode_query, link_name, refusal_text
from .language import PROBE_ID, SET_LOCALE_JS, detect_language
from .runtime import as_gradio_error, guarded, start_warm_up

PRIVATE_LINK = "#private"          # the link of a view that shows a session's own model
PAGE_PARAMS = ("view", "lang", "present")
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
    """What a link asks for: the tab, the language (None: the browser's), presenter mode, the
    tab's form (None: a tab without a form, or no view named) and every part that was ignored."""

    view: str
    lang: str | None = None
    present: bool = False
    form: Form | None = None
    ignored: list[Refused] = field(default_factory=list)


def parse_link(query: str, tabs: tuple[str, ...], forms: Mapping[str, type[Form]], registry) -> LinkedPage:
    """The page `query` ("?view=attention&layer=1...") describes; never fails: what cannot be used
    is left at its default and listed in `ignored`."""
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
    page.form, page.ignored = form, ignored + unfit
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


# Page js on load: the language a link names (switching Gradio's own locale to it) or else the
# page's (from the probe), the address's query, and presenter mode as a class on <body>.
READ_PAGE_JS = f"""
async (current, query) => {{
  const params = new URLSearchParams(location.search);
  if (params.get('present') === '1') document.body.classList.add('present');
  const wanted = params.get('lang');
  if ({list(LANGUAGES)!r}.includes(wanted)) {{
    const setLocale = {SET_LOCALE_JS};
    await setLocale(wanted);
    return [wanted, location.search];
  }}
  const probe = document.querySelector('#{PROBE_ID}');
  const code = probe ? probe.innerText.trim() : '';
  return [code || current || '', location.search];
}}
"""


def address_js(view: str, check_shown: bool) -> str:
    """Event js: write a view's link into the address bar (only while its tab shows, when `check_shown`)."""
    check = (f"const panel = document.querySelector('#tab-{view}');"
             " if (!panel || panel.offsetParent === null) return;") if check_shown else ""
    return f"""
(link) => {{
  {check}
  if (!link) return;
  const query = link.startsWith('#') ? 'view={view}' : link;
  const present = new URLSearchParams(location.search).get('present') === '1' ? '&present=1' : '';
  history.replaceState(history.state, '', '?' + query + present);
}}
"""


# "Copy link": the shown tab's link and the address go to the server (which says what happened);
# the address goes to the clipboard unless the view is private.
COPY_JS = """
async (request, lang) => {
  let link = '';
  for (const box of document.querySelectorAll('.view-link')) {
    const panel = document.querySelector(`#tab-${box.id.replace(/-link$/, '')}`);
    const field = box.querySelector('textarea, input');
    if (panel && panel.offsetParent !== null && field) link = field.value;
  }
  const address = location.href;
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


def build_link_note() -> tuple[gr.Markdown, gr.Textbox, gr.State]:
    """The note about the parts of a link that were ignored, the address's query (read on load)
    and the view the page opens with."""
    note = gr.Markdown(visible=False, elem_id="link-note")
    query = gr.Textbox(visible="hidden", elem_id="page-query", show_label=False)
    return note, query, gr.State("")


def wire_page(demo: gr.Blocks, ctx, tabs: gr.Tabs, keys: tuple[str, ...], note: gr.Markdown, query: gr.Textbox,
              copy: gr.Button, copied: gr.Markdown, tab_components: Mapping[str, gr.Tab]):
    """Open the page in one event once it has loaded (its language, the link applied, the tab it
    opens with drawn), and keep the address bar in step with the views.

    Sets ctx.started: that page-load event."""
    views = ctx.views
    targets = [ctx.language, query, tabs, note, ctx.linked_view]
    for wiring in views.values():
        targets += list(wiring.components.values())       # the form's fields and the controls that follow them
        if wiring.opened is not None:
            targets += [*wiring.opening_targets, wiring.opened]
    targets = list(dict.fromkeys(targets))

    def open_page(probe: str, address_query: str, request: gr.Request):
        start_warm_up()
        lang = detect_language(probe, request.headers.get("accept-language") if request else None)
        page = parse_link(address_query or "", keys, {v: w.form_type for v, w in views.items()}, ctx.registry)
        out = {ctx.language: lang, query: address_query, tabs: gr.Tabs(selected=page.view), ctx.linked_view: page.view}
        message = note_text(page.ignored, lang)
        workspace = ctx.workspace(request)
        workspace.switch_language(lang)
        wiring = views.get(page.view)
        if wiring is not None and page.form is not None:
            try:
                opening = wiring.opening_updates if wiring.opened is not None else wiring.link_updates
                out.update(opening(workspace, page.form, lang))
            except Exception as error:         # the tab opens with the link's controls, saying why it has no views
                out.update(wiring.link_updates(workspace, page.form, lang))
                message = "\n\n".join(filter(None, (message, str(as_gradio_error(error, lang).message))))
        if page.present:
            out.update({w.components["controls"]: gr.Accordion(open=False)
                        for w in views.values() if "controls" in w.components})
        out[note] = gr.Markdown(message, visible=bool(message))
        return out

    # Its progress shows on the note alone: Gradio's page refreshes the loading state of every
    # component that has ever shown an event's progress, on each status change of any event, so an
    # event whose progress covered all these targets would slow every later event of the page.
    ctx.started = demo.load(guarded(open_page), [ctx.language, query], targets, js=READ_PAGE_JS, **LIGHT,
                            show_progress_on=[note], **PRIVATE)
    for view, wiring in views.items():
        wiring.link.change(None, [wiring.link], None, js=address_js(view, check_shown=True), **PRIVATE)
        tab_components[view].select(None, [wiring.link], None, js=address_js(view, check_shown=False), **PRIVATE)

    def on_copy(payload: str, lang: str) -> str:
        link, _, address = (payload or "").partition("\n")
        return copy_message(link, address, lang)

    copy.click(on_copy, [query, ctx.language], [copied], js=COPY_JS, show_progress="hidden", **PRIVATE)

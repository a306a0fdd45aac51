""""Show QR code": the address of the view on screen drawn as a QR code over the whole page, large
enough to scan from the back of a room when projected; a click anywhere on it, or Escape, closes it.

One event: its js sends the shown tab's link and the address it is shared by (as Copy link's
does: on a Space, its huggingface.co page; see sharing.py); the server draws the address with segno as an SVG that fills the screen's smaller side, or says why there is
no code (a session's own model has no link; an address too long to scan across a room). An address on
127.0.0.1 or localhost, which no phone can open, is drawn with a note saying so, unless the server
listens on the network: then the machine's network address is drawn instead, and the note says so. Closing
is the page's alone (a class on <body>), so it costs no event.
"""
from __future__ import annotations

import html

import gradio as gr
import segno

from ..text.i18n import label, text
from .context import PRIVATE, AppContext
from .links import PRIVATE_LINK, copy_message
from .sharing import is_loopback, network_address, share_js, shared

ERROR_CORRECTION = "m"            # 15% of the code may be lost (a glare on the screen) and it still reads
MAX_QR_CHARS = 600                # a longer address makes modules too small to scan across a room
PANEL_ID = "qr-code"
CLOSED_CLASS = "qr-closed"
SCHEMES = ("http://", "https://")

CSS = f"""
#{PANEL_ID} {{ position: fixed; inset: 0; z-index: 1000; background: #fff;
  display: flex; align-items: center; justify-content: center; cursor: pointer; }}
#{PANEL_ID} figure {{ display: flex; flex-direction: column; align-items: center; gap: var(--spacing-md); margin: 0; }}
#{PANEL_ID} svg {{ width: min(78vh, 94vw); height: min(78vh, 94vw); }}
#{PANEL_ID} figcaption {{ max-width: 94vw; overflow-wrap: anywhere; text-align: center; color: #111; }}
body.{CLOSED_CLASS} #{PANEL_ID} {{ display: none !important; }}
"""

# Event js: show the panel again (a click had closed it) and send "<shown tab's link>\n<address>".
SHOW_JS = f"""
async (payload, lang) => {{
  document.body.classList.remove('{CLOSED_CLASS}');
  let link = '';
  for (const box of document.querySelectorAll('.view-link')) {{
    const panel = document.querySelector(`#tab-${{box.id.replace(/-link$/, '')}}`);
    const field = box.querySelector('textarea, input');
    if (panel && panel.offsetParent !== null && field) link = field.value;
  }}
  return [link + '\\n' + SHARED_ADDRESS(), lang];
}}
"""

# The panel's own js: a click on it or Escape closes it.
CLOSE_JS = f"""
const close = () => document.body.classList.add('{CLOSED_CLASS}');
element.addEventListener('click', close);
document.addEventListener('keydown', (event) => {{ if (event.key === 'Escape') close(); }});
"""


def qr_svg(address: str) -> str:
    """`address` as an inline SVG QR code (a viewBox, no fixed size: the page sizes it)."""
    code = segno.make_qr(address, error=ERROR_CORRECTION)
    return code.svg_inline(scale=1, border=4, omitsize=True, dark="#000", light="#fff")


def refusal(link: str, address: str, lang: str) -> str:
    """Why the view on screen has no QR code ("" when it has one)."""
    if link == PRIVATE_LINK or not link:
        return copy_message(link, address, lang)
    if not address.startswith(SCHEMES) or any(ch.isspace() for ch in address):
        return text(lang, "qr_bad_address")
    if len(address) > MAX_QR_CHARS:
        return text(lang, "qr_too_long", length=len(address), limit=MAX_QR_CHARS)
    return ""


def panel_html(address: str, lang: str, note: str = "") -> str:
    """The panel: the code, the address under it (as text), `note` (plain text) and a close button."""
    title = html.escape(text(lang, "qr_title"))
    caption = html.escape(address) + (f"<br>{html.escape(note)}" if note else "")
    return (f'<figure role="dialog" aria-label="{title}">{qr_svg(address)}'
            f"<figcaption>{caption}</figcaption>"
            f'<button type="button" class="qr-close">{html.escape(text(lang, "qr_close"))}</button></figure>')


def aimed_at(payload: str) -> tuple[str, str, str | None]:
    """(the view's link, the address its code holds, the text key of the note under the code) for
    "<link>\\n<address>": this computer's own address, which no phone opens, becomes the machine's
    network address where the server listens on it."""
    link, address = shared(payload)
    if not is_loopback(address):
        return link, address, None
    reachable = network_address(address)
    return (link, reachable, "qr_network_address") if reachable else (link, address, "qr_loopback")


def drawn(aim: tuple[str, str, str | None], lang: str) -> tuple:
    """The panel for an aimed_at target (hidden, and the status saying why, when there is no code)."""
    link, address, note = aim
    why = refusal(link, address, lang)
    if why:
        return gr.HTML(visible=False), why
    return gr.HTML(panel_html(address, lang, text(lang, note) if note else ""), visible=True), ""


def build_button() -> gr.Button:
    """The "Show QR code" button (for the page's header, beside Copy link)."""
    return gr.Button(label("btn_show_qr"), elem_id="show-qr", size="sm", scale=0, min_width=130)


def build_panel() -> gr.HTML:
    """The panel the code shows in (hidden until asked for)."""
    return gr.HTML(visible=False, elem_id=PANEL_ID, js_on_load=CLOSE_JS)


def wire(ctx: AppContext, button: gr.Button, panel: gr.HTML, status: gr.Markdown) -> None:
    """`button` draws the code of the address on screen into `panel`; `status` says why when it cannot, and
    the session keeps that as a function of the language (ctx.say_in_header): a new language writes it again.
    (The open panel covers the page, the language control too, until it is closed.)"""

    def on_show(payload: str, lang: str, request: gr.Request) -> dict:
        aim = aimed_at(payload)               # once: the code is drawn once and the status said again later
        link, address, _ = aim
        return {panel: drawn(aim, lang)[0], **ctx.say_in_header(ctx.workspace(request), status,
                                                                lambda lang: refusal(link, address, lang), lang)}

    button.click(on_show, [status, ctx.language], [panel, status], js=share_js(SHOW_JS), show_progress="hidden",
                 **PRIVATE)

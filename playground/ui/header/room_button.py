"""The main page's way into the class room: a "Class room" button in the header (beside Show QR code)
that opens the teacher's board in a new browser tab, and `?room=CODE` links that go to the student page.

The button's one event hands the session's own models (trained, uploaded, GPT-2 from the Hub) to the
board under a one-time token, so a round can ask the model the class just trained; it writes one
hidden box of the header and nothing else. A link `?room=CODE` to the main page is sent to the light
student page before the nine tabs load (a script in the page's <head>).
"""
from __future__ import annotations

import secrets

import gradio as gr

from ..page.context import PRIVATE
from ..text.i18n import label
from .room_api import RoomActions
from .room_page import BOARD_PATH, STUDENT_PATH
from .room_rounds import playable

# Event js, once the server has kept the session's models: open the board in a new tab (the same tab
# when the browser blocks it), in the page's language, with the token that claims the models.
OPEN_BOARD_JS = f"""
(token, lang) => {{
  const url = new URL('{BOARD_PATH}', location.href);
  url.search = '';
  if (lang) url.searchParams.set('lang', lang);
  if (token) url.searchParams.set('host', token);
  const opened = window.open(url.href, '_blank');
  if (!opened) location.href = url.href;
}}
"""

# In the page's <head>: a link to the main page naming a room goes to the student page instead.
ROOM_LINK_HEAD = f"""<script>
(() => {{
  const params = new URLSearchParams(location.search);
  const code = (params.get('room') || '').replace(/[^A-Za-z0-9]/g, '').slice(0, 9);
  if (!code || /\\/({STUDENT_PATH}|{BOARD_PATH})\\/?$/.test(location.pathname)) return;
  const url = new URL('{STUDENT_PATH}', location.href);
  url.search = '?code=' + code + (params.get('lang') ? '&lang=' + encodeURIComponent(params.get('lang')) : '');
  location.replace(url.href);
}})();
</script>"""


def build_button() -> tuple[gr.Button, gr.Textbox]:
    """The Class room button (for the header, beside Show QR code) and the hidden box its event writes."""
    button = gr.Button(label("btn_class_room"), elem_id="class-room", size="sm", scale=0, min_width=130)
    token = gr.Textbox(visible=False, elem_id="class-room-token")
    return button, token


def wire(button: gr.Button, token: gr.Textbox, ctx, actions: RoomActions) -> None:
    """The button keeps the session's models for the board it opens, then opens it."""

    def hand_over(request: gr.Request) -> str:
        workspace = ctx.workspace(request)
        with workspace.lock:
            models = {name: entry for name, entry in workspace.models.items() if playable(entry)}
        if not models:
            return ""
        handle = secrets.token_urlsafe(12)
        actions.handoffs.give(handle, models)
        return handle

    button.click(hand_over, None, [token], show_progress="hidden", concurrency_id="room", **PRIVATE).then(
        None, [token, ctx.language], None, js=OPEN_BOARD_JS, **PRIVATE)

"""The page: a header with the language control, then one tab per view."""
from __future__ import annotations

import os
from pathlib import Path

import gradio as gr
from starlette.middleware import Middleware

from .header import room_button, room_page
from .header.room_api import RoomActions
from .page import accessibility, discarded_draws, drawing, early_plotly, hiding, idle_frames, links, qr, showing
from .page.context import LIGHT, LIGHT_CONCURRENCY, PRIVATE, AppContext
from .server.fair_queue import FairQueue
from .page.language import LANGUAGE_ID, MARK_PAGE_LANGUAGE_JS, PROBE_ID, toast_title_css
from .page.page_script import page_js
from .page.phone import phone_css
from .page.present import present_css
from .page.runtime import configure_torch
from .server.first_script import FirstScript
from .server.link_size import LinkSize
from .server.security_headers import SecurityHeaders
from .server.queue_streams import CountedQueueStreams, QueueStreams
from .server.session_end import end_session
from .server.session_state import lean_sessions
from .server.static_cache import KeptResponses
from .inputs.validation import MAX_FILE_BYTES
from .server import memory, session_costs
from .header import own_models
from playground.zoo import ModelRegistry
from .session.threads import positive_int_env
from .session.workspace import IDLE_SECONDS, MAX_SESSIONS, WorkspaceStore
from .tabs import PAGE_NEEDS, TABS
from .text.i18n import DEFAULT_LANGUAGE, I18N, LANGUAGES, label

# Gradio rebuilds its monitoring summary (a pandas table of up to 10,000 past events) after every
# event unless told otherwise: a cost per event that grows with the events served, ~10 ms per event
# after a few hundred. The app rebuilds it once per ANALYTICS_EVENTS events, over as many.
ANALYTICS_EVENTS = 1000
# Gradio's queue looks for new events every 1 ms while it has none to start (and its progress loop
# every 10 ms): ~10% of a core on an idle server, and a grab of the GIL each time under load. A
# few milliseconds more before an event starts is not felt.
QUEUE_POLL_SECONDS = 0.005
PROGRESS_POLL_SECONDS = 0.05
# By default Gradio sends every waiting event its place in the queue each time an event starts: with
# a class's events waiting, that is a message per waiting event per event started, more work the
# longer the queue. Places are sent once a second instead.
QUEUE_STATUS_SECONDS = 1.0
CACHE_CLEANUP = (1800, 3600)   # every 30 min, delete files Gradio keeps for the page (downloads) older than 1 h
TITLE = "Transformer Playground"
MAX_SESSIONS_ENV = "PLAYGROUND_MAX_SESSIONS"   # tabs the server keeps sessions for (a larger machine holds more)
# A figure not drawn yet (one a panel's button computes, before it is pressed or after what it was
# computed from changed) takes no room: Gradio's empty box only shows an icon. It shows while its
# event runs (the status tracker's progress) and once drawn; a refusal is said by its message.
UNDRAWN_FIGURE_CSS = """
.block:has(> .empty.unpadded_box):has(> [data-testid='status-tracker'].hide),
.block:has(> .empty.unpadded_box):has(> [data-testid='status-tracker'] span.error) { display: none !important; }
"""
CSS = """
#page-header { align-items: center; }
#app-title { min-width: min(440px, 100%) !important; }
.block.explanation { overflow: visible; }
.explanation { font-size: 1.02rem; }
.accepted { font-size: 0.9rem; }
""" + UNDRAWN_FIGURE_CSS + present_css(PAGE_NEEDS.values()) + qr.CSS + hiding.hiding_css(PAGE_NEEDS.values()) \
    + drawing.CSS + room_page.CSS


def create_app(pretrained_dir: str | Path | None = None, max_sessions: int | None = None,
               idle_seconds: float = IDLE_SECONDS) -> gr.Blocks:
    """The whole app; models come from `pretrained_dir` (default: $PLAYGROUND_PRETRAINED_DIR or pretrained/).
    Its `workspaces` is the store of its sessions' workspaces, for `max_sessions` tabs (default:
    $PLAYGROUND_MAX_SESSIONS or MAX_SESSIONS)."""
    memory.bound_arenas()                    # before the server's threads allocate (see server.memory)
    configure_torch()
    session_costs.install()
    registry = ModelRegistry(pretrained_dir)
    max_sessions = max_sessions or positive_int_env(MAX_SESSIONS_ENV, MAX_SESSIONS)
    store = WorkspaceStore(max_sessions, idle_seconds, registry=registry)
    rooms = RoomActions(registry)
    with gr.Blocks(title=TITLE, delete_cache=CACHE_CLEANUP) as demo:
        gr.Markdown(label("locale_code"), elem_id=PROBE_ID, visible="hidden")
        # "page-header", not "header": Plotly gives each of a table's header blocks that id
        with gr.Row(elem_id="page-header"):
            gr.Markdown(label("app_title"), elem_id="app-title", scale=4)
            show_qr = qr.build_button()                 # beside Copy link, before what Copy link says
            class_room, room_token = room_button.build_button()
            copy, copied = links.build_copy_button()
            language = gr.Radio([(name, code) for code, name in LANGUAGES.items()], value=DEFAULT_LANGUAGE,
                                label=label("lbl_language"), elem_id=LANGUAGE_ID, scale=1, min_width=240)
        note, query = links.build_link_note()
        reopen = links.build_opening()
        redraws = {key: showing.redraw_button(key) for key, _ in TABS}     # in the header: on the page before its tab
        draws_progress = showing.draws_progress()
        qr_panel = qr.build_panel()
        language.change(None, [language], None, js=MARK_PAGE_LANGUAGE_JS, **PRIVATE)
        ctx = AppContext(registry, store, language, page_needs=PAGE_NEEDS)
        ctx.header_notes[copied.elem_id] = copied        # what Copy link or the QR code said
        upload, upload_status, hub = own_models.build(ctx)
        # One page, not one page per tab (Gradio's demo.route): a routed page holding the Attention tab
        # alone took 4.1 s to open and draw (median of 5, shared 2-core machine at load ~6) where picking
        # that tab here took 0.66 s, and every switch would be such an opening (see README, "Serving a class").
        tab_components = {}
        with gr.Tabs(elem_id="tabs", overflow_behavior="wrap") as tab_set:     # a phone shows every tab
            for key, module in TABS:
                with gr.Tab(label(f"tab_{key}"), id=key, elem_id=f"tab-{key}") as tab:
                    ctx.note = gr.Markdown(visible=False, elem_id=f"{key}-note", elem_classes="tab-note")
                    module.build(ctx)
                tab_components[key] = tab
        own_models.wire(ctx, upload, upload_status, hub)         # after the tabs: its kept model is read after theirs
        # The page opens in one round trip: the draw of the tab a link names records the link and what the
        # browser keeps, then draws (page.links.Opening); every tab draws itself from the session (page.showing).
        opening = links.Opening(ctx, tab_set, tuple(tab_components), note, query)
        for key in tab_components:
            showing.wire_tab(ctx, key, redraws[key], draws_progress, folds=not PAGE_NEEDS[key].open_controls,
                             opening=opening)
        showing.wire_picks(tab_components)
        showing.wire_language(ctx, tab_components)
        links.wire_page(demo, ctx, tab_components, query, copy, copied, reopen)
        qr.wire(ctx, show_qr, qr_panel, copied)
        room_button.wire(class_room, room_token, ctx, rooms)

        async def on_unload(request: gr.Request) -> None:
            """The tab closed (Gradio's heartbeat ended): forget the session everywhere, on the event loop
            where Gradio's queue changes its own per-session stores."""
            if request is not None and request.session_hash:
                end_session(demo, store, request.session_hash)

        demo.unload(on_unload)
        gr.api(echo, api_name="echo", api_visibility="undocumented", **LIGHT)
    room_page.build(demo, rooms)             # the class room's own pages: room (students), room-board (teacher)
    demo.queue_streams = QueueStreams()      # each session's open message streams (server.session_end)
    demo.workspaces = store                  # the sessions' workspaces (read by the benches and tests)
    demo.rooms = rooms.rooms                 # the class rooms (read by the benches and tests)
    for setting in ("GRADIO_ANALYTICS_CACHE_FREQUENCY", "GRADIO_ANALYTICS_MAX_EVENTS"):
        os.environ.setdefault(setting, str(ANALYTICS_EVENTS))         # read when the queue is made
    # Waiting lines are bounded per session, per client and per group by the fair queue, not by
    # Gradio's one max_size over all groups (which one client could fill for everyone).
    demo.queue(default_concurrency_limit=LIGHT_CONCURRENCY, max_size=None, status_update_rate=QUEUE_STATUS_SECONDS)
    demo.fair_queue = FairQueue(demo, store)
    demo._queue.sleep_when_free = QUEUE_POLL_SECONDS
    demo._queue.progress_update_sleep_when_free = PROGRESS_POLL_SECONDS
    return demo


def echo(value: str) -> str:
    """Return `value`: an event that does no work, so a benchmark can measure what Gradio itself
    costs per event (queue, routing, serialisation) next to the app's real events."""
    return value


# Run before Gradio's scripts in every page of the app: see idle_frames and discarded_draws.
FIRST_SCRIPT = idle_frames.FRAMES_SCRIPT + discarded_draws.SKIP_DISCARDED_DRAWS_SCRIPT


def launch_kwargs() -> dict:
    """Arguments for demo.launch(): the theme, the css (presenter mode, the QR code, a link's hidden
    parts), the translations, the page's script (page_script) and the <head>'s own styles (a phone's
    layout, reduced motion).

    Host and port come from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT, which Gradio reads itself.
    Server-side rendering stays off (Spaces would turn it on where Node is installed) so the page
    is rendered the same way everywhere, the way the browser tests see it. A file larger than any
    upload limit is refused by Gradio while it arrives, before it is written to disk. The page and
    Gradio's hashed scripts and styles are compressed once per process, the scripts and styles kept
    by the browser (see static_cache), the page asks for no frames while nothing on it moves
    (idle_frames, first_script) nor draws a figure Gradio is replacing (discarded_draws), and
    sessions start without a copy of every component's config (see session_state). A link longer
    than the app reads gets the app's own page (link_size).
    """
    return {
        "theme": accessibility.theme(),
        "css": CSS + toast_title_css(),
        "i18n": I18N,
        "js": page_js(PAGE_NEEDS.values()),
        "head": f"<style>{phone_css()}{accessibility.REDUCED_MOTION_CSS}</style>{room_button.ROOM_LINK_HEAD}",
        "footer_links": ["api", "settings"],
        "ssr_mode": False,
        "max_file_size": MAX_FILE_BYTES,
        "app_kwargs": {"middleware": [Middleware(SecurityHeaders), Middleware(LinkSize),
                                      Middleware(CountedQueueStreams), Middleware(KeptResponses),
                                      Middleware(FirstScript, script=FIRST_SCRIPT,
                                                 pages=("/", f"/{room_page.STUDENT_PATH}", f"/{room_page.BOARD_PATH}")),
                                      *([Middleware(FirstScript, script=early_plotly.EARLY_PLOTLY_SCRIPT, pages=("/",))]
                                        if early_plotly.EARLY_PLOTLY_SCRIPT else [])],
                       "lifespan": lean_sessions},
    }

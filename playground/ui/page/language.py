"""Keeping the page's language and the session's language the same.

Gradio translates static text in the browser, following the browser's language and the
Settings menu, and never tells the server which language it chose. The page therefore holds a
hidden probe, a gr.I18n text whose translation is the language code itself ("en" / "zh-CN"):
- on load, the probe's text becomes the session's language (the language radio's value),
  so server-made text matches the labels from the first render (a link's `lang` comes first:
  see links.READ_PAGE_JS);
- when the user picks a language in the radio, Gradio's own locale switches too (the browser
  re-imports Gradio's already-loaded core module and calls its changeLocale);
- when the user picks a language in the Settings menu, the probe's text changes and a small
  observer selects the same language in the radio, which re-renders the server-made text.
"""
from __future__ import annotations

from ..text.i18n import LANGUAGES, language_from_accept, normalise_language, text

PROBE_ID = "locale-probe"
LANGUAGE_ID = "language"

LOCALE_WAIT_MS = 5000        # a switch not shown by the probe by then lets the next one go

# Event js: switch Gradio's own locale to the radio's new value, then pass the value on, once the probe
# shows it. Gradio loads a language's translations the first time it is asked for and only then takes
# it as its locale; its changeLocale does not wait for that. So a switch waits for the one before it
# and ends when the probe shows its language: switched to Chinese and back at once, the page took
# Chinese after English once the Chinese translations had loaded, and the probe's observer then picked
# Chinese in the radio. While a switch is under way (window.playgroundLocaleBusy) the observer leaves
# the radio alone.
SET_LOCALE_JS = f"""
async (lang) => {{
  window.playgroundLocaleAsked = lang;
  window.playgroundLocaleBusy = (window.playgroundLocaleBusy || 0) + 1;
  const switched = (window.playgroundLocaleSwitch || Promise.resolve()).then(async () => {{
    const url = performance.getEntriesByType('resource').map((entry) => entry.name)
      .find((name) => /\\/core-[^/]*\\.js$/.test(name));
    if (!url) return;
    const core = await import(url);
    if (!core.changeLocale) return;
    core.changeLocale(lang);
    const until = performance.now() + {LOCALE_WAIT_MS};
    for (;;) {{
      const probe = document.querySelector('#{PROBE_ID}');
      if (!probe || probe.innerText.trim() === lang || performance.now() > until) return;
      await new Promise((done) => setTimeout(done, 25));
    }}
  }}).catch((error) => console.warn('could not switch the page language', error));
  window.playgroundLocaleSwitch = switched;
  await switched;
  window.playgroundLocaleBusy -= 1;
  return lang;
}}
"""

# Event js: mark the page with its language (<html data-lang="...">) for what only CSS can translate.
MARK_PAGE_LANGUAGE_JS = "(lang) => { document.documentElement.dataset.lang = lang; }"


def toast_title_css() -> str:
    """CSS that writes the error toast's title in the page's language: Gradio's page titles a toast
    with its type ("Error") and never shows the title the server sends with the error."""
    rules = []
    for lang in LANGUAGES:
        if lang == "en":
            continue
        page, title = f'html[data-lang="{lang}"]', text(lang, "err_title")
        rules.append(f"{page} .toast-title.error {{ font-size: 0; }}\n"
                     f'{page} .toast-title.error::before {{ content: "{title}"; '
                     f"font-size: var(--text-lg); }}\n"
                     f"{page} .toast-title.error .toast-count {{ font-size: var(--text-lg); }}")
    return "\n".join(rules) + "\n"


# Page js (launch(js=...)): when the probe's translation changes (Settings menu), select the same
# language in the radio so the server-made text follows; a change the page's own switch made is not
# followed (SET_LOCALE_JS).
FOLLOW_SETTINGS_JS = f"""
() => {{
  const follow = () => {{
    const probe = document.querySelector('#{PROBE_ID}');
    if (!probe) {{ setTimeout(follow, 250); return; }}
    new MutationObserver(() => {{
      const code = probe.innerText.trim();
      if (window.playgroundLocaleBusy || code === window.playgroundLocaleAsked) return;
      const input = document.querySelector(`#{LANGUAGE_ID} input[value="${{code}}"]`);
      if (input && !input.checked) input.click();
    }}).observe(probe, {{subtree: true, childList: true, characterData: true}});
  }};
  follow();
}}
"""


def detect_language(probe: str | None, accept_language: str | None) -> str:
    """The session's language: the page's (read from the probe), else the request's Accept-Language."""
    if probe and probe.strip() in ("en", "zh-CN"):
        return probe.strip()
    if probe and probe.strip():
        return normalise_language(probe)
    return language_from_accept(accept_language)

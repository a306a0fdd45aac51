import re
import shutil
import subprocess
from pathlib import Path

import pytest
from gradio.i18n import I18nData

from playground.ui.page.language import detect_language
from playground.ui.text.i18n import STRINGS, label, language_from_accept, normalise_language, placeholders, text

UI_SOURCE = Path(__file__).resolve().parents[2] / "playground" / "ui"


def test_both_languages_have_the_same_keys_and_fields():
    en, zh = STRINGS["en"], STRINGS["zh-CN"]
    assert set(en) == set(zh)
    mismatched = [key for key in en if placeholders(en[key]) != placeholders(zh[key])]
    assert mismatched == []


def test_every_chinese_text_is_translated():
    untranslated = [key for key, value in STRINGS["zh-CN"].items()
                    if value == STRINGS["en"][key] and re.search(r"[A-Za-z]{4,}", value)
                    and not re.fullmatch(r"[\w\s·{}.\-()=/,:$→]*", value.replace("_", ""))]
    assert untranslated == []


def test_every_literal_key_used_in_the_code_exists():
    used = set()
    for path in UI_SOURCE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\b(?:label|text|t|fail)\((?:lang, )?["']([a-z][a-z0-9_]+)["']""", source))
    assert used, "the pattern found no keys"
    assert sorted(used - set(STRINGS["en"])) == []


def test_server_text_follows_the_language_and_fills_values():
    assert text("en", "err_too_long", what="input", length=300, limit=200) == \
        "The input has 300 characters; the limit is 200. Shorten it."
    assert "300" in text("zh-CN", "err_too_long", what="输入", length=300, limit=200)
    assert text("fr", "btn_step") == "Step"                      # unsupported codes read as English


def test_label_is_translated_by_the_browser_and_refuses_unknown_keys():
    assert isinstance(label("btn_step"), I18nData)
    with pytest.raises(KeyError):
        label("no_such_key")


@pytest.mark.parametrize("header, expected", [
    ("zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"), ("en-US,en;q=0.9", "en"), ("fr-FR,zh-TW;q=0.5", "zh-CN"),
    ("de-DE,fr;q=0.8", "en"), ("en;q=0.3,zh;q=0.9", "zh-CN"), ("", "en"), (None, "en"),
])
def test_accept_language_picks_the_preferred_supported_language(header, expected):
    assert language_from_accept(header) == expected


def test_the_page_language_wins_over_the_request_header():
    assert detect_language("zh-CN", "en-US") == "zh-CN"
    assert detect_language("en", "zh-CN") == "en"
    assert detect_language("", "zh-CN,zh") == "zh-CN"
    assert normalise_language("zh_Hans_CN") == "zh-CN" and normalise_language("pt-BR") == "en"


def test_every_text_is_used():
    source = "".join(p.read_text(encoding="utf-8") for p in UI_SOURCE.rglob("*.py") if not p.name.startswith("strings_"))
    families = ("tab_", "what_", "param_", "corpus_", "note_positions_", "enc_", "arch_", "tm_", "comp_", "dw_",
                "kind_", "score_", "shape_", "stage_", "strategy_", "reason_", "lbl_cfg_", "fig_token_attention_",
                "verdict_", "norm_", "lab_kind_", "lab_metric_", "lab_stage_",
                "schedule_")     # keys built with f-strings
    unused = [key for key in STRINGS["en"] if f'"{key}"' not in source and not key.startswith(families)]
    assert unused == []


FONT_LIST = shutil.which("fc-list")
CHROMIUM = Path("/usr/bin/chromium")
WRITTEN_BY_THE_INTERFACE = [UI_SOURCE / "text", UI_SOURCE / "course"]     # its texts and its lessons


def chinese(char: str) -> bool:
    """A CJK ideograph or punctuation, or a full-width form: the CJK font's (its own browser tests look at it)."""
    code = ord(char)
    return 0x4E00 <= code <= 0x9FFF or 0x3000 <= code <= 0x303F or 0xFF00 <= code <= 0xFFEF


@pytest.mark.skipif(FONT_LIST is None or not CHROMIUM.exists(), reason="needs fontconfig and Debian's chromium "
                                                                       "with the fonts tests/install_chromium.sh adds")
def test_every_symbol_the_interface_writes_has_a_glyph_in_the_fonts_of_a_bare_linux_browser():
    """A character no installed font draws shows as an empty box: a colour emoji (a check mark for a right
    answer) where there is no emoji font, as in Debian's chromium with its own fonts and the CJK one."""
    symbols = {char for folder in WRITTEN_BY_THE_INTERFACE for path in folder.rglob("*.py")
               for char in path.read_text(encoding="utf-8") if ord(char) > 127 and not chinese(char)}
    undrawn = [f"{char} U+{ord(char):04X}" for char in sorted(symbols)
               if not subprocess.run([FONT_LIST, f":charset={ord(char):x}", "family"], capture_output=True,
                                     text=True, check=True).stdout.strip()]
    assert undrawn == []

import hashlib
import urllib.error

import pytest

from playground.data import CharTokenizer, CorpusUnavailable, LMData, bundled_text, corpora, load_corpus, tiny_shakespeare

FAKE = "First Citizen:\nBefore we proceed any further, hear me speak.\n".encode()
REAL_SHARED = corpora.SHARED_SHAKESPEARE_PATH
REAL_DOWNLOAD = corpora.download_bytes


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    """No network, an empty cache, no shared copy, and a small file standing in for the real one."""
    monkeypatch.delenv(corpora.SHAKESPEARE_ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(corpora, "SHARED_SHAKESPEARE_PATH", tmp_path / "shared" / "tinyshakespeare.txt")
    monkeypatch.setattr(corpora, "SHAKESPEARE_SHA256", hashlib.sha256(FAKE).hexdigest())
    monkeypatch.setattr(corpora, "SHAKESPEARE_BYTES", len(FAKE))
    monkeypatch.setattr(corpora, "_last_failure", [])        # no failed download remembered from another test

    def no_network(url, timeout):
        raise AssertionError("tests must not download")

    monkeypatch.setattr(corpora, "download_bytes", no_network)


def _serve(monkeypatch, body=FAKE):
    calls = []

    def fake_download(url, timeout):
        calls.append((url, timeout))
        return body

    monkeypatch.setattr(corpora, "download_bytes", fake_download)
    return calls


def test_bundled_text_is_a_small_original_english_text():
    text = bundled_text()
    assert 5_000 < len(text.encode("utf-8")) < 50_000
    assert "attention" in text and "\n" in text
    data = LMData(text, CharTokenizer.from_text(text), block_size=64)
    assert len(data.train_ids) > 4_000
    assert load_corpus("bundled") == text


def test_env_var_path_wins(monkeypatch, tmp_path):
    own = tmp_path / "my_shakespeare.txt"
    own.write_text("To be, or not to be", encoding="utf-8")
    monkeypatch.setenv(corpora.SHAKESPEARE_ENV_VAR, str(own))
    assert tiny_shakespeare() == "To be, or not to be"


def test_env_var_to_a_missing_file_is_reported(monkeypatch, tmp_path):
    monkeypatch.setenv(corpora.SHAKESPEARE_ENV_VAR, str(tmp_path / "missing.txt"))
    with pytest.raises(CorpusUnavailable, match="PLAYGROUND_SHAKESPEARE.*fix the path.*bundled text"):
        tiny_shakespeare()


def test_shared_copy_is_used_when_its_checksum_matches(tmp_path):
    corpora.SHARED_SHAKESPEARE_PATH.parent.mkdir(parents=True)
    corpora.SHARED_SHAKESPEARE_PATH.write_bytes(FAKE)
    assert tiny_shakespeare(allow_download=False) == FAKE.decode()


def test_download_is_verified_cached_and_then_used_offline(monkeypatch):
    calls = _serve(monkeypatch)
    assert tiny_shakespeare() == FAKE.decode()
    assert calls == [(corpora.SHAKESPEARE_URL, corpora.DOWNLOAD_TIMEOUT_S)]
    assert corpora.shakespeare_cache_path().read_bytes() == FAKE
    assert not list(corpora.shakespeare_cache_path().parent.glob("*.part"))
    assert tiny_shakespeare(allow_download=False) == FAKE.decode()
    assert tiny_shakespeare() == FAKE.decode() and len(calls) == 1


def test_checksum_mismatch_is_rejected_and_not_cached(monkeypatch):
    _serve(monkeypatch, body=FAKE.replace(b"speak", b"sneak"))
    with pytest.raises(CorpusUnavailable, match="failed its checksum.*not cached.*bundled text"):
        tiny_shakespeare()
    assert not corpora.shakespeare_cache_path().exists()


def test_corrupt_cache_is_ignored_and_replaced(monkeypatch):
    cache = corpora.shakespeare_cache_path()
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"truncated")
    _serve(monkeypatch)
    assert tiny_shakespeare() == FAKE.decode()
    assert cache.read_bytes() == FAKE


def test_nothing_available_offline_points_to_the_bundled_text():
    with pytest.raises(CorpusUnavailable, match="downloading is off.*bundled text") as info:
        tiny_shakespeare(allow_download=False)
    assert isinstance(info.value, RuntimeError)


def test_network_failure_points_to_the_bundled_text(monkeypatch):
    def unreachable(url, timeout):
        raise urllib.error.URLError("no route to host")

    monkeypatch.setattr(corpora, "download_bytes", unreachable)
    with pytest.raises(CorpusUnavailable, match="could not be downloaded.*no route to host.*bundled text"):
        load_corpus("tiny_shakespeare")


def test_unknown_corpus_name():
    with pytest.raises(ValueError, match="unknown corpus 'wiki'.*bundled"):
        load_corpus("wiki")


@pytest.mark.skipif(not REAL_SHARED.is_file(), reason="no shared tiny Shakespeare next to the repository")
def test_real_shared_copy_passes_the_real_checksum(monkeypatch):
    monkeypatch.undo()
    monkeypatch.setattr(corpora, "download_bytes", lambda url, timeout: pytest.fail("tests must not download"))
    monkeypatch.setattr(corpora, "shakespeare_cache_path", lambda: REAL_SHARED.parent / "no-such-cache.txt")
    monkeypatch.delenv(corpora.SHAKESPEARE_ENV_VAR, raising=False)
    text = tiny_shakespeare(allow_download=False)
    assert len(text.encode("utf-8")) == 1_115_394 and text.startswith("First Citizen:")


def test_the_rhyme_is_the_first_tutorials_407_characters():
    text = corpora.load_corpus("rhyme")
    assert len(text) == 407 and text == corpora.rhyme_text()
    assert text.count("Twinkle, twinkle, little star,") == 3
    assert "rhyme" in corpora.CORPORA


def test_the_tang_poems_are_bundled_simplified_one_poem_per_paragraph_and_say_where_they_come_from():
    text = load_corpus("tang_poems")                        # the fixture forbids downloading: it works offline
    assert text == corpora.tang_poems_text() and "tang_poems" in corpora.CORPORA
    data = text.encode("utf-8")
    assert len(data) <= 300_000
    note = corpora.TANG_POEMS_PATH.with_suffix(".md").read_text(encoding="utf-8")
    assert hashlib.sha256(data).hexdigest() in note and "MIT" in note and "public domain" in note
    poems = text.rstrip("\n").split("\n\n")
    assert len(poems) == 1938 and text.endswith("。\n\n")
    for poem in poems:
        title, *lines = poem.split("\n")
        assert title and lines and all(line[-1] in "。？！" for line in lines), poem
    assert "春眠不觉晓，处处闻啼鸟。" in text and "床前看月光，疑是地上霜。" in text    # the 全唐诗 reading
    traditional = set("們這國詩風東來時無為書聲門長車馬鳥雲")       # frequent characters OpenCC's t2s rewrites
    assert not traditional & set(text)
    source = corpora.CORPUS_SOURCES["tang_poems"]
    assert "public domain" in source and "MIT" in source and "chinese-poetry 2.0.1" in source
    assert "t2s" in source and "tang_poems.md" in source


def test_a_download_without_an_answer_is_given_up_at_its_deadline_and_not_tried_again_at_once(monkeypatch):
    import threading
    import time

    hanging = threading.Event()

    def never_answers(url, timeout):          # a name lookup that hangs, as on a machine without a network
        hanging.wait(5)
        raise OSError("no network")

    monkeypatch.setattr(corpora.urllib.request, "urlopen", never_answers)
    monkeypatch.setattr(corpora, "download_bytes", REAL_DOWNLOAD)
    monkeypatch.setattr(corpora, "DOWNLOAD_TIMEOUT_S", 0.3)
    started = time.monotonic()
    with pytest.raises(CorpusUnavailable, match="could not be downloaded.*0 s"):
        tiny_shakespeare()
    assert time.monotonic() - started < 2
    calls = []
    monkeypatch.setattr(corpora, "download_bytes", lambda url, timeout: calls.append(url))
    with pytest.raises(CorpusUnavailable, match="a moment ago"):
        tiny_shakespeare()
    assert calls == []
    hanging.set()

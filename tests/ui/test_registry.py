from playground.zoo import ModelRegistry


def test_pretrained_models_load_once_frozen_and_broken_ones_are_reported(registry):
    assert registry.names()[:3] == ["copy", "tiny-bert", "tiny-gpt"]
    assert any(problem.startswith("broken:") and "pickle" in problem for problem in registry.problems)
    for entry in registry.entries():
        assert not entry.model.training
        assert not any(p.requires_grad for p in entry.model.parameters())
    assert registry.get("copy") is registry.get("copy")


def test_generative_models_exclude_encoder_only(registry):
    assert "tiny-bert" not in registry.names(generative_only=True)
    assert registry.default(generative_only=True) == "copy"


def test_an_empty_directory_still_offers_clearly_named_untrained_models(tmp_path):
    empty = ModelRegistry(tmp_path / "missing")
    assert empty.names() == ["untrained-gpt", "untrained-seq2seq"]
    assert all(entry.source == "untrained" for entry in empty.entries())


def test_the_directory_comes_from_the_environment(monkeypatch, pretrained_dir):
    monkeypatch.setenv("PLAYGROUND_PRETRAINED_DIR", str(pretrained_dir))
    assert "tiny-gpt" in ModelRegistry().names()

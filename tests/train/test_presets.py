import pytest

from playground.data import CorpusUnavailable, LMData, MLMData, bundled_text, load_corpus, tasks, tiny_shakespeare
from playground.data.tokenizer import NUM_SPECIAL
from playground.model import count_parameters
from playground.train import PRESETS, Trainer, get_preset

from .helpers import events

NAMES = ["copy", "reverse", "sort", "dates", "shakespeare-char", "shakespeare-bpe", "masked-char", "tang-poems-char"]
ARCH = {"seq2seq": "encoder_decoder", "lm": "decoder_only", "mlm": "encoder_only"}


def test_every_named_preset_exists_with_the_architecture_its_data_needs():
    assert set(NAMES) <= set(PRESETS)
    for name in NAMES:
        preset = get_preset(name)
        assert preset.model_config.arch == ARCH[preset.kind], name
    with pytest.raises(ValueError, match="unknown preset 'gpt5'; choose one of"):
        get_preset("gpt5")


@pytest.mark.parametrize("name", ["copy", "reverse", "sort", "dates"])
def test_seq2seq_presets_build_a_trainer_that_steps(name):
    preset = PRESETS[name]
    trainer = preset.trainer(max_steps=1, val_size=8)
    assert trainer.model_config == preset.model_config
    assert trainer.tokenizer == tasks.get(preset.task, **preset.task_knobs).tokenizer
    final = events(trainer.run())[-1]
    assert final.status == "finished" and final.exact_match is not None


@pytest.mark.parametrize("name, data_type", [("shakespeare-char", LMData), ("shakespeare-bpe", LMData),
                                             ("masked-char", MLMData), ("tang-poems-char", LMData)])
def test_language_model_presets_fit_their_vocabulary_to_the_given_text(name, data_type):
    preset = PRESETS[name]
    trainer = preset.trainer(text=bundled_text(), max_steps=1, val_size=4, snapshot_every_s=None)
    assert isinstance(trainer.objective.data, data_type)
    assert trainer.model_config.vocab_size == trainer.tokenizer.vocab_size
    assert trainer.model_config.replace(vocab_size=preset.model_config.vocab_size) == preset.model_config
    final = events(trainer.run())[-1]
    assert final.status == "finished" and final.exact_match is None


def test_preset_vocabularies_match_tiny_shakespeare():
    try:
        text = tiny_shakespeare(allow_download=False)
    except CorpusUnavailable:
        pytest.skip("tiny Shakespeare is not available offline")
    assert PRESETS["shakespeare-char"].build_tokenizer(text).vocab_size == PRESETS["shakespeare-char"].model_config.vocab_size
    assert PRESETS["masked-char"].model_config.vocab_size == PRESETS["shakespeare-char"].model_config.vocab_size


def test_the_tang_poem_preset_reads_the_bundled_poems_with_a_vocabulary_of_their_characters():
    preset = PRESETS["tang-poems-char"]
    text = load_corpus("tang_poems")
    assert (preset.corpus, preset.tokenizer, preset.block_size) == ("tang_poems", "char", preset.model_config.max_len)
    assert preset.build_tokenizer(text).vocab_size == preset.model_config.vocab_size == len(set(text)) + NUM_SPECIAL
    trainer = preset.trainer(max_steps=1, snapshot_every_s=None)
    assert trainer.objective.data.tokenizer.unknown_chars(text) == []
    assert trainer.model_config == preset.model_config


def test_quick_variant_shortens_the_schedule_caps_the_time_and_never_grows_the_model():
    for preset in PRESETS.values():
        quick = preset.quick()
        assert (quick.task, quick.corpus, quick.tokenizer) == (preset.task, preset.corpus, preset.tokenizer)
        assert quick.train_config.max_seconds == 60.0
        assert quick.train_config.max_steps < preset.train_config.max_steps
        assert quick.train_config.warmup_steps <= quick.train_config.max_steps // 5
        assert count_parameters(quick.model_config)["total"] <= count_parameters(preset.model_config)["total"]
        assert quick.block_size is None or quick.block_size <= quick.model_config.max_len
    quick_char = PRESETS["shakespeare-char"].quick()
    assert quick_char.model_config.n_decoder_layers < PRESETS["shakespeare-char"].model_config.n_decoder_layers
    trainer = quick_char.trainer(text=bundled_text(), max_steps=2, val_size=4, snapshot_every_s=None)
    assert trainer.objective.data.block_size == 64
    assert events(trainer.run())[-1].status == "finished"


def test_empty_text_and_text_for_a_task_are_refused():
    with pytest.raises(ValueError, match="the corpus is empty"):
        PRESETS["shakespeare-char"].trainer(text="")
    with pytest.raises(ValueError, match="takes no text"):
        PRESETS["copy"].trainer(text="hello")


def test_a_shorter_run_shortens_the_warm_up_to_fit():
    config = PRESETS["dates"].train_changed(max_steps=10)
    assert config.max_steps == 10 and config.warmup_steps == 2
    assert isinstance(PRESETS["copy"].trainer(max_steps=3, val_size=4), Trainer)


def test_the_seed_rhyme_is_memorised_and_written_back():
    from playground.data import rhyme_text
    from playground.generate import Stepper
    from playground.train import TrainEvent
    from playground.train.presets import RHYME_BLOCK_SIZE, rhyme_preset

    text = rhyme_text()
    trainer = rhyme_preset().trainer(text, eval_every_s=None, snapshot_every_s=None, max_steps=300)
    assert trainer.objective.data.block_size == RHYME_BLOCK_SIZE == trainer.model_config.max_len
    events = [item for item in trainer.run() if isinstance(item, TrainEvent)]
    assert min(event.loss for event in events) <= 0.3
    assert events[-1].val_loss is not None                                   # validation works on 41 characters
    prompt = "Twinkle, twinkle, little star,\n"
    stepper = Stepper(trainer.model, trainer.tokenizer, prompt, trace_attention=False)
    written = "".join(trainer.tokenizer.decode([step.chosen]) for step in stepper.run(max_steps=31))
    assert written == "    How I wonder what you are!\n"

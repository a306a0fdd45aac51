"""The process's device: CUDA, then MPS, then CPU; PLAYGROUND_DEVICE overrides; a missing device is refused.

This machine has no GPU, so CUDA and MPS are simulated by monkeypatching torch's availability
checks: what is tested is the choice, and that every path runs on the CPU chosen explicitly.
"""
import pytest
import torch

from playground import device as device_module
from playground.data import tasks
from playground.device import DEVICE_VARIABLE, ZERO_GPU_VARIABLE, available_devices, choose_device, default_device, model_device, resolve_device
from playground.generate import Stepper
from playground.generate.beam import beam_search
from playground.model import ModelConfig, build_model
from playground.train import Trainer, TrainConfig


@pytest.fixture
def machine(monkeypatch):
    """Pretend this machine has ``cuda`` GPUs and/or ``mps``; the process choice starts afresh."""
    monkeypatch.setattr(device_module, "_chosen", None)
    monkeypatch.delenv(DEVICE_VARIABLE, raising=False)
    monkeypatch.delenv(ZERO_GPU_VARIABLE, raising=False)

    def have(cuda: int = 0, mps: bool = False):
        monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda > 0)
        monkeypatch.setattr(torch.cuda, "device_count", lambda: cuda)
        monkeypatch.setattr(torch.backends.mps, "is_available", lambda: mps)

    return have


@pytest.mark.parametrize("cuda, mps, best", [(2, True, "cuda:0"), (1, False, "cuda:0"), (0, True, "mps"), (0, False, "cpu")])
def test_the_best_device_is_cuda_then_mps_then_cpu(machine, cuda, mps, best):
    machine(cuda=cuda, mps=mps)
    assert default_device() == torch.device(best)
    assert available_devices()[-1] == "cpu"


def test_the_choice_is_made_once_per_process(machine, monkeypatch):
    machine(cuda=1)
    assert default_device() == torch.device("cuda:0")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert default_device() == torch.device("cuda:0")


@pytest.mark.parametrize("value, wanted", [("cpu", "cpu"), ("CUDA", "cuda:0"), ("cuda:1", "cuda:1"), (" mps ", "mps")])
def test_the_environment_variable_overrides_the_choice(machine, monkeypatch, value, wanted):
    machine(cuda=2, mps=True)
    monkeypatch.setenv(DEVICE_VARIABLE, value)
    assert default_device() == torch.device(wanted)


@pytest.mark.parametrize("value", ["cuda", "cuda:0", "mps"])
def test_a_device_the_machine_lacks_is_refused_naming_what_it_has(machine, monkeypatch, value):
    machine(cuda=0, mps=False)
    monkeypatch.setenv(DEVICE_VARIABLE, value)
    with pytest.raises(ValueError, match=rf"{DEVICE_VARIABLE}=.*not available on this machine; it has cpu"):
        default_device()


def test_a_gpu_index_beyond_the_machine_is_refused(machine):
    machine(cuda=2, mps=False)
    with pytest.raises(ValueError, match="'cuda:2' is not available on this machine; it has cuda:0, cuda:1, cpu"):
        resolve_device("cuda:2")


@pytest.mark.parametrize("value", ["tpu", "gpu", "cpu:1", "cuda:x"])
def test_a_name_that_is_not_a_device_is_refused(machine, value):
    machine()
    with pytest.raises(ValueError, match="unknown device .*use one of cpu, cuda, cuda:N or mps"):
        resolve_device(value)


def test_on_zero_gpu_the_process_stays_on_the_cpu_without_asking_cuda(machine, monkeypatch):
    machine(cuda=1)
    monkeypatch.setenv(ZERO_GPU_VARIABLE, "true")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: pytest.fail("CUDA asked outside a spaces.GPU call"))
    assert default_device() == torch.device("cpu")


def test_on_zero_gpu_the_environment_variable_still_decides(machine, monkeypatch):
    machine(cuda=1)
    monkeypatch.setenv(ZERO_GPU_VARIABLE, "1")
    monkeypatch.setenv(DEVICE_VARIABLE, "cuda")
    assert default_device() == torch.device("cuda:0")


def test_choose_device_fixes_the_process_choice(machine):
    machine(cuda=1)
    assert choose_device("cpu") == torch.device("cpu")
    assert default_device() == torch.device("cpu")
    with pytest.raises(ValueError, match="'mps' is not available"):
        choose_device("mps")


def test_training_generation_and_beam_search_run_on_the_cpu_chosen_explicitly(machine, monkeypatch):
    machine(cuda=0)
    monkeypatch.setenv(DEVICE_VARIABLE, "cpu")
    task = tasks.get("copy", length=4, symbols=4)
    config = ModelConfig(arch="encoder_decoder", d_model=16, n_heads=2, n_encoder_layers=1, n_decoder_layers=1,
                         d_ff=32, vocab_size=task.tokenizer.vocab_size, max_len=8)
    trainer = Trainer(config, TrainConfig(max_steps=3, batch_size=4, val_size=8, warmup_steps=1), task)
    events = list(trainer.run())
    assert model_device(trainer.model) == torch.device("cpu")
    assert events[-1].step == 3 and events[-1].val_loss is not None
    stepper = Stepper(trainer.model, trainer.tokenizer, "abcd")
    step = stepper.step()
    assert step.raw_probs.shape == (config.target_vocab_size,)
    assert beam_search(trainer.model, trainer.tokenizer, "abcd", beam_width=2, max_new_tokens=3).best is not None


def test_a_model_without_parameters_is_on_the_cpu():
    assert model_device(torch.nn.ReLU()) == torch.device("cpu")
    model = build_model(ModelConfig(arch="decoder_only", d_model=16, n_heads=2, n_decoder_layers=1, d_ff=32,
                                    vocab_size=20, max_len=16))
    assert model_device(model) == torch.device("cpu")


def test_the_bench_accepts_device_cuda_where_there_is_one(machine, monkeypatch, capsys):
    import playground.bench.train as train_suite
    from playground.bench.__main__ import main

    machine(cuda=1)
    monkeypatch.setattr(train_suite, "run", lambda quick: [{"device": str(default_device())}])
    assert main(["train", "--device", "cuda"]) == 0
    assert capsys.readouterr().out.strip() == '{"device": "cuda:0"}'


def test_the_bench_refuses_device_cuda_without_one_naming_what_there_is(machine, capsys):
    from playground.bench.__main__ import main

    machine(cuda=0)
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--device", "cuda"])
    assert exit_.value.code == 2
    assert "device 'cuda' is not available on this machine; it has cpu" in capsys.readouterr().err

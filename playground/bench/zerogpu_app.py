"""`python -m playground.bench.zerogpu_app`: the app served as on a ZeroGPU Space, for the class
bench (playground.bench.zerogpu_class), with the fake platform's environment
(zerogpu_platform.platform_environment) and GRADIO_SERVER_PORT set by the caller.

The real `spaces` is imported first, as a Space's app does; a worker it forks starts in
WORKER_START_S and trains on this machine's CPU in place of the GPU.
Nothing else is imported before `spaces`: the training function must be decorated by it.
The workers keep the priority of the training thread that forks them (playground.ui.session.worker).
"""
from playground.bench.zerogpu_platform import BLACKWELL, prepare_spaces

QUEUE_S = 1.0                  # a GPU call's wait in the platform's queue before its GPU comes
WORKER_START_S = 2.0           # a new worker's start on the platform (CUDA, the weights moved)
GPU_MODEL = BLACKWELL          # the current nodes': `spaces` asks for 1.5 times a call's duration there


def main() -> None:
    prepare_spaces(GPU_MODEL, worker_start_s=WORKER_START_S)
    import torch

    from playground.train import zerogpu

    zerogpu.GPU = torch.device("cpu")                  # no GPU here: the workers train on the CPU
    import app
    from playground.ui import launch_kwargs
    app.demo.launch(**launch_kwargs())


if __name__ == "__main__":
    main()

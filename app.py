"""Entry point: `python app.py` serves the Transformer Playground.

GRADIO_SERVER_NAME and GRADIO_SERVER_PORT set the address; PLAYGROUND_PRETRAINED_DIR the models.
On a ZeroGPU Space the training function that runs on the GPU is registered with `spaces` by the
first import, before the app is built and launched, as ZeroGPU requires.
"""
from playground.train import zerogpu  # noqa: F401  (registers the ZeroGPU training function at start-up)
from playground.ui import create_app, launch_kwargs

demo = create_app()

if __name__ == "__main__":
    demo.launch(**launch_kwargs())

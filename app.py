"""Entry point: `python app.py` serves the Transformer Playground.

GRADIO_SERVER_NAME and GRADIO_SERVER_PORT set the address; PLAYGROUND_PRETRAINED_DIR the models.
"""
from playground.ui import create_app, launch_kwargs

demo = create_app()

if __name__ == "__main__":
    demo.launch(**launch_kwargs())

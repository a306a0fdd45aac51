"""The Gradio app: tabs, per-session workspaces, English and Simplified Chinese text."""
from .app import create_app, launch_kwargs

__all__ = ["create_app", "launch_kwargs"]

"""Entry point: `python app.py` serves the Transformer Playground."""
import gradio as gr


def create_app() -> gr.Blocks:
    with gr.Blocks(title="Transformer Playground") as demo:
        gr.Markdown("# Transformer Playground")
    return demo


demo = create_app()

if __name__ == "__main__":
    demo.launch()

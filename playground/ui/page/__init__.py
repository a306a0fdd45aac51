"""Gradio machinery: events, forms, links, language, the page's caches."""

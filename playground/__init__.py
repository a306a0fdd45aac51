"""Transformer Playground: a hand-written Transformer you can train, step through and inspect."""

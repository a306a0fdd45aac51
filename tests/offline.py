"""A corpus loader as on a machine with no copy of tiny Shakespeare and no network."""
from typing import Callable

from playground.data import CorpusUnavailable


def without_tiny_shakespeare_loader(real_load: Callable) -> Callable:
    """`real_load` (a module's load_corpus), refusing tiny Shakespeare as an offline machine does."""
    def load(name, allow_download=True):
        if name == "tiny_shakespeare":
            raise CorpusUnavailable("not on this machine, and no network")
        return real_load(name, allow_download)
    return load

"""Models from the Hugging Face Hub (or a folder with the same files) in the playground's own stack."""
from .fetch import HubImportError, Repository
from .gpt2 import ImportedModel, import_gpt2, load_gpt2
from .tokenizer import IdMap

__all__ = ["HubImportError", "IdMap", "ImportedModel", "Repository", "import_gpt2", "load_gpt2"]

"""Models from the Hugging Face Hub (or a folder with the same files) in the playground's own stack:
GPT-2, and the Llama (Llama 3, SmolLM2) and Qwen2 (Qwen2.5) families."""
from .fetch import HubImportError, Repository
from .gpt2 import ImportedModel, import_gpt2, load_gpt2
from .llama import import_llama
from .load import SUPPORTED_FAMILIES, import_model, load_model
from .tokenizer import IdMap

__all__ = ["SUPPORTED_FAMILIES", "HubImportError", "IdMap", "ImportedModel", "Repository", "import_gpt2",
           "import_llama", "import_model", "load_gpt2", "load_model"]

"""Where an object's tensors live: every tensor reachable from it, found by walking its attributes.

A model moved with `.to()` must take every tensor it holds along (parameters, buffers, and anything a
module keeps between passes); what a GPU worker hands back must hold none on the GPU. `tensors_on`
lists what stayed behind, by path, so a check can name it.
"""
from __future__ import annotations

import types

import torch
from torch import nn

_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
           types.GeneratorType, str, bytes, int, float, bool, complex, type(None))


def _attributes(obj) -> list[tuple[str, object]]:
    """An object's attributes by name; a module's parameters, buffers and submodules under their own names."""
    attributes = list(vars(obj).items())
    if isinstance(obj, nn.Module):
        registered = ("_parameters", "_buffers", "_modules")
        attributes = [(n, v) for n, v in attributes if n not in registered] + \
            [pair for kind in registered for pair in vars(obj)[kind].items()]
    return attributes


def tensors_on(obj, device_type: str, path: str = "") -> list[str]:
    """The paths of every tensor reachable from `obj` that lives on a device of `device_type` ("cuda", "cpu").

    Walks tensors, attributes of objects (an nn.Module's parameters, buffers, submodules and anything
    else it keeps), and the items and keys of lists, tuples, sets and dicts, each object once.
    """
    found: list[str] = []
    seen: set[int] = set()
    stack: list[tuple[str, object]] = [(path or type(obj).__name__, obj)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, _OPAQUE) or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, torch.Tensor):
            if item.device.type == device_type:
                found.append(where)
            continue
        if isinstance(item, dict):
            stack.extend((f"{where}[{key!r}]", value) for key, value in item.items())
            stack.extend((f"{where}.keys()", key) for key in item)
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend((f"{where}[{i}]", value) for i, value in enumerate(item))
        elif hasattr(item, "__dict__"):
            stack.extend((f"{where}.{name}", value) for name, value in _attributes(item))
    return sorted(found)

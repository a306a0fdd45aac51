"""Hook points: the named places of a forward pass where an activation can be read or replaced.

Every activation listed in trace.py passes through a HookPoint, an identity that knows its name
("decoder.1.cross_attn.weights"), held by the module whose forward computes the activation as an
attribute `hook_PART`. The names are set once, from the module tree, after a model is built
(`name_hook_points`), so no constructor is handed a name.
A hook is a function

    hook(tensor, name) -> None (keep the tensor) or a tensor of the same shape (use it instead)

and is active in two ways:

    with hooks(model, {"decoder.0.resid_post": read, "*.z": replace}):   # names or glob patterns
        logits = model(ids)

runs the hooks for the passes inside the block, in the current thread (or asyncio task) only: a
model shared by many users answers each of them with their own hooks. (Keep the block around the
model calls themselves, not around a `yield`: a streamed handler may resume in another thread.)
A HookPoint may also carry hooks of its own (`with_hook`), which run in every pass through it;
`heads_off` builds a view of a model from such points. Recording (Trace), switching heads off and
activation patching are all hooks. With no hook active, a hook point costs one context-variable
lookup.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from fnmatch import fnmatchcase
from typing import Callable, Iterator, Mapping

import torch
from torch import nn

Hook = Callable[[torch.Tensor, str], "torch.Tensor | None"]
Matcher = Callable[[str], bool]


class _ActiveHooks:
    """The hooks active in a context, each with the names it applies to; resolved once per name."""

    def __init__(self, entries: tuple[tuple[Matcher, Hook], ...]):
        self.entries = entries
        self._by_name: dict[str, tuple[Hook, ...]] = {}

    def at(self, name: str) -> tuple[Hook, ...]:
        found = self._by_name.get(name)
        if found is None:
            found = self._by_name[name] = tuple(hook for matches, hook in self.entries if matches(name))
        return found


_ACTIVE: ContextVar[_ActiveHooks | None] = ContextVar("playground_active_hooks", default=None)


def _apply(hook: Hook, x: torch.Tensor, name: str) -> torch.Tensor:
    out = hook(x, name)
    if out is None:
        return x
    if not isinstance(out, torch.Tensor) or out.shape != x.shape:
        shape = tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
        raise ValueError(f"a hook at {name} returned {shape}; return None or a tensor of the activation's "
                         f"shape {tuple(x.shape)}")
    return out


class HookPoint:
    """The identity at one named activation: the hooks active for its name read or replace it.

    A plain attribute of the module it sits in rather than a submodule: nn.Module finds submodules
    through __getattr__ (~0.8 us a lookup), which every pass would pay at every activation.
    """

    def __init__(self, name: str = "", own_hooks: tuple[Hook, ...] = ()):
        self.name = name
        self.own_hooks = own_hooks

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        active = _ACTIVE.get()
        if active is None and not self.own_hooks:
            return x
        for hook in self.own_hooks:
            x = _apply(hook, x, self.name)
        if active is not None:
            for hook in active.at(self.name):
                x = _apply(hook, x, self.name)
        return x

    @property
    def hooked(self) -> bool:
        """Whether a hook will see this activation in a pass run now."""
        active = _ACTIVE.get()
        return bool(self.own_hooks) or (active is not None and bool(active.at(self.name)))

    def with_hook(self, hook: Hook) -> "HookPoint":
        """A new point of the same name that runs this point's own hooks, then `hook`, in every pass."""
        return HookPoint(self.name, (*self.own_hooks, hook))

    def __repr__(self) -> str:
        return f"HookPoint({self.name!r})"


@contextmanager
def active_hooks(entries: tuple[tuple[Matcher, Hook], ...]) -> Iterator[None]:
    """Run `entries` ((which names, hook) pairs) after the hooks already active, inside the block."""
    outer = _ACTIVE.get()
    token = _ACTIVE.set(_ActiveHooks((outer.entries if outer is not None else ()) + entries))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


HOOK_PREFIX = "hook_"
UNNAMED_CONTAINERS = ("blocks", "embed")   # module paths a name leaves out: decoder.blocks.1 -> decoder.1


def name_hook_points(module: nn.Module, prefix: str = "") -> None:
    """Name every hook point of `module` from where it sits: attribute hook_PART of the submodule at path P
    is named P.PART, with P's containers left out ("decoder.blocks.1.self_attn" -> "decoder.1.self_attn.q",
    "decoder.embed" -> "decoder.tok_embed", the model itself -> "logits"); each submodule holding points
    gets that path as its `name`. `prefix` names `module` itself (a layer built on its own)."""
    for path, submodule in module.named_modules():
        parts = [part for part in f"{prefix}.{path}".split(".") if part and part not in UNNAMED_CONTAINERS]
        name = ".".join(parts)
        points = [(attribute, point) for attribute, point in vars(submodule).items() if isinstance(point, HookPoint)]
        if points and name:
            submodule.name = name
        for attribute, point in points:
            part = attribute.removeprefix(HOOK_PREFIX)
            point.name = f"{name}.{part}" if name else part


def hook_points(model: nn.Module) -> dict[str, tuple[nn.Module, str, HookPoint]]:
    """Every hook point of `model` by name, as (the module holding it, its attribute there, the point),
    module by module (encoder first, then decoder, then the logits)."""
    return {point.name: (module, attribute, point) for module in model.modules()
            for attribute, point in vars(module).items() if isinstance(point, HookPoint)}


def hook_names(model: nn.Module) -> list[str]:
    """The names of every activation of `model` that hooks can read or replace."""
    return list(hook_points(model))


def _glob(pattern: str) -> Matcher:
    return lambda name: fnmatchcase(name, pattern)


@contextmanager
def hooks(model: nn.Module, named: Mapping[str, Hook]) -> Iterator[None]:
    """Run each hook at the activations its name or glob pattern matches, for the passes inside the block.

    The hooks apply to this thread (or asyncio task) only, so a model shared by many users is not
    changed for anyone else. A name or pattern that matches nothing in `model` is refused.
    """
    if not isinstance(named, Mapping):
        raise TypeError(f"hooks are given as {{name or pattern: hook}}, got {type(named).__name__}")
    names = hook_names(model)
    for pattern, hook in named.items():
        if not isinstance(pattern, str) or not any(fnmatchcase(n, pattern) for n in names):
            raise ValueError(f"{pattern!r} names no activation of this model; its names are like {names[:6]} "
                             f"(hook_names(model) lists all {len(names)})")
        if not callable(hook):
            raise TypeError(f"the hook for {pattern!r} must be a function (tensor, name) -> tensor or None")
    with active_hooks(tuple((_glob(pattern), hook) for pattern, hook in named.items())):
        yield

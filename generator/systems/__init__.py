"""The registry of rule systems: one line per system, each a module exposing SYSTEM (see base.System)."""

from __future__ import annotations

import importlib

from ..errors import UsageError
from ..schema import suggest
from .base import System

REGISTRY = {
    "fireteam-tomorrow": "generator.systems.fireteam",
    "para-bellum": "generator.systems.parabellum",
    "warspike": "generator.systems.warspike",
    "morschauser-modern": "generator.systems.morschauser",
}

_loaded: dict[str, System] = {}


def known() -> list[str]:
    return list(REGISTRY)


def get(system_id: str) -> System:
    """The system registered under this id; an unknown id lists the known ones."""
    if system_id not in REGISTRY:
        raise UsageError(
            f"unknown system {system_id!r}{suggest(system_id, REGISTRY)}; known systems: {', '.join(REGISTRY)}"
        )
    if system_id not in _loaded:
        _loaded[system_id] = importlib.import_module(REGISTRY[system_id]).SYSTEM
    return _loaded[system_id]

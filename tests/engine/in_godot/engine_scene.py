"""The node the in-engine tests run under: set by the runner scene, read by the fixtures."""

from typing import Optional

_root: Optional[object] = None


def set_root(node: object) -> None:
    global _root
    _root = node


def root() -> object:
    if _root is None:
        raise RuntimeError("the in-engine tests run inside Godot: res://tests/engine/in_godot/run_tests.tscn")
    return _root

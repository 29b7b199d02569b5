"""Fixtures of the in-engine tests: the running SceneTree, and frames driven by hand.

These tests run inside Godot (``run_tests.tscn``); the host suite skips this
folder. Nodes are reached as the engine hands them out, and our node scripts'
methods are called through ``call()``, as a GDScript game would.
"""

import os
from typing import Iterator, List

import pytest
from godot import Node

from tests.engine.in_godot import engine_scene

#: The physics frame of ``--fixed-fps 60``.
FRAME = 1.0 / 60.0


@pytest.fixture
def root() -> Iterator[Node]:
    """The runner node; every child a test added is freed after it."""
    node: Node = engine_scene.root()
    yield node
    for index in reversed(range(int(node.get_child_count()))):
        child: Node = node.get_child(index)
        node.remove_child(child)
        child.free()


def physics_frames(navgrid: Node, count: int) -> None:
    """Run ``count`` physics frames of a NavGrid as the engine would: its ``_physics_process`` at 60 fps."""
    for _ in range(count):
        navgrid.call("_physics_process", FRAME)


def scene_paths(folder: str) -> List[str]:
    """Every ``.tscn`` under a ``res://`` folder, found on disk (the copy the engine runs)."""
    base = folder[len("res://") :]
    found = []
    for directory, _folders, files in os.walk(base):
        found += ["res://" + os.path.join(directory, name) for name in files if name.endswith(".tscn")]
    return sorted(found)

"""Islands (SPEC G3): connected regions of passable cells.

Under the no-corner-cutting rule a diagonal step needs both orthogonal cells
free, so two cells are connected by king moves exactly when they are
connected by orthogonal moves: islands are the 4-connected components.

Labelling is numpy only (Godot's embedded Python has numpy, not scipy): cells
are grouped into horizontal runs, runs that touch vertically are joined by
hooking and pointer jumping until the labels stop changing.
"""

from typing import Tuple

import numpy as np

__all__ = ["label_islands", "relabel_region"]


def label_islands(passable: np.ndarray) -> Tuple[np.ndarray, int]:
    """Label the 4-connected components of ``passable``.

    Returns ``(labels, count)``: ``labels[y, x]`` is 0 on blocked cells and
    1..count on passable ones, numbered in row-major order of each island's
    first cell, so the same map always gets the same labels.
    """
    passable = np.asarray(passable, dtype=bool)
    height, width = passable.shape
    labels = np.zeros((height, width), dtype=np.int32)
    if not passable.any():
        return labels, 0
    flat = passable.ravel()
    # A run starts at a passable cell whose left neighbour is blocked or off the row.
    starts = flat.copy()
    starts[1:] &= ~flat[:-1]
    starts[::width] = flat[::width]
    run_of_cell = np.cumsum(starts) - 1  # run index of every passable cell
    run_count = int(starts.sum())

    # Vertical contacts between runs of consecutive rows.
    below = flat[width:] & flat[:-width]
    upper_runs = run_of_cell[:-width][below]
    lower_runs = run_of_cell[width:][below]

    parent = np.arange(run_count, dtype=np.int64)
    while True:
        root_a = parent[upper_runs]
        root_b = parent[lower_runs]
        differ = root_a != root_b
        if not differ.any():
            break
        high = np.maximum(root_a[differ], root_b[differ])
        low = np.minimum(root_a[differ], root_b[differ])
        np.minimum.at(parent, high, low)
        while True:  # pointer jumping until every run points at its root
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped

    # Roots are the smallest run index of each island: number them in order.
    roots = np.unique(parent)
    island_of_run = np.searchsorted(roots, parent).astype(np.int32) + 1
    labels.ravel()[flat] = island_of_run[run_of_cell[flat]]
    return labels, len(roots)


def relabel_region(labels: np.ndarray, passable: np.ndarray, island: int, next_label: int) -> int:
    """Split ``island`` in ``labels`` after cells of it were blocked.

    Only the island's bounding box is relabelled. The largest piece keeps the
    old label; the others get ``next_label``, ``next_label + 1``, …
    Returns the next unused label.
    """
    ys, xs = np.nonzero(labels == island)
    if len(ys) == 0:
        return next_label
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    box = labels[y0:y1, x0:x1]
    member = (box == island) & passable[y0:y1, x0:x1]
    box[box == island] = 0
    pieces, count = label_islands(member)
    if count == 0:
        return next_label
    sizes = np.bincount(pieces.ravel(), minlength=count + 1)[1:]
    keeper = int(np.argmax(sizes)) + 1
    new_ids = np.zeros(count + 1, dtype=np.int32)
    others = [piece for piece in range(1, count + 1) if piece != keeper]
    new_ids[keeper] = island
    new_ids[others] = np.arange(next_label, next_label + len(others), dtype=np.int32)
    box[member] = new_ids[pieces[member]]
    return next_label + len(others)

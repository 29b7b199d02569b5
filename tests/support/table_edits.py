"""Edits applied to a copy of a map and to jump tables kept for it: what the tests of both jump tables share."""

import numpy as np


def edit_and_refresh(tables, passable, edit_batches, one_refresh_for_all):
    """Flip the cells of each batch of ``edit_batches`` in a copy of ``passable`` and refresh ``tables`` (built for
    ``passable``) once a batch, or once for all of them; the edited map."""
    passable = passable.copy()
    pending = []
    for batch in edit_batches:
        cells = np.array(batch)
        xs, ys = cells[:, 0], cells[:, 1]
        passable[ys, xs] = ~passable[ys, xs]
        pending.append((xs, ys))
        if not one_refresh_for_all:
            tables.refresh(passable, xs, ys)
    if one_refresh_for_all and pending:
        tables.refresh(passable, np.concatenate([p[0] for p in pending]), np.concatenate([p[1] for p in pending]))
    return passable

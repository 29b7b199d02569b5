"""The load checks' own ways of finding faults (pathing_py.hierarchy.file_checks), beside test_graph_file.py.

Steps are checked against a table of legal moves and the reached cells for
closure, in chunks of fields; these edits must be refused whatever the chunk
size, and an unedited file must load whole.
"""

import numpy as np
import pytest

from pathing_py import GraphFileError, KeyPointGraph
from pathing_py.hierarchy import file_checks
from pathing_py.jump_tables import DIRECTIONS
from tests.support.graph_file import FILES, GRIDS, edited, load, set_at


def cleared_reached_cell(array: np.ndarray) -> None:
    """Mark unreached the first reached cell (one with a step) of the first field: its neighbours still reach it."""
    array[int(np.flatnonzero(array != -1)[0])] = -1


@pytest.fixture(params=[1, 7, 1 << 18], ids=["one field per chunk", "chunks of 7 entries", "default chunks"])
def chunk_entries(request, monkeypatch):
    monkeypatch.setattr(file_checks, "CHUNK_ENTRIES", request.param)
    monkeypatch.setattr(file_checks, "WALK_CHUNK_ENTRIES", request.param)
    return request.param


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_unedited_files_load_whole_in_any_chunks(name, chunk_entries):
    assert load(name, FILES[name]) == KeyPointGraph.bake(GRIDS[name], cluster_size=5)


@pytest.mark.parametrize(
    "edit, message",
    [
        # entry 0 is its cluster's top-left cell: a step from the left comes from outside the cluster
        (set_at(0, DIRECTIONS.index((1, 0))), "steps outside its cluster"),
        (cleared_reached_cell, "misses cells its source reaches"),
    ],
)
@pytest.mark.parametrize("name", sorted(GRIDS))
def test_edited_steps_are_refused_in_any_chunks(name, edit, message, chunk_entries):
    with pytest.raises(GraphFileError, match=message):
        load(name, edited(name, "directions", edit))

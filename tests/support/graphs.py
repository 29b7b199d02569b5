"""What the tests of the key-point graph and of its files share."""


def assert_same_answers(graph, fresh, pairs):
    """Both graphs give the same answer, cell for cell and after as many expansions, to every (start, goal) of
    ``pairs``."""
    for start, goal in pairs:
        for link in ("exact", "fast"):
            ours, theirs = graph.find_path(start, goal, link=link), fresh.find_path(start, goal, link=link)
            assert (ours.status, ours.cells, ours.cost, ours.route, ours.expanded) == (
                theirs.status,
                theirs.cells,
                theirs.cost,
                theirs.route,
                theirs.expanded,
            )

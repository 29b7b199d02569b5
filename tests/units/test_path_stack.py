"""Routes move on only through Route.advance (one writer of the index), never back."""

import pytest

from pathing_py.units import Route, RouteKind


def test_a_route_moves_on_by_steps_and_a_loop_starts_over():
    route = Route(RouteKind.LOW_LEVEL, [(1, 0), (2, 0), (3, 0), (4, 0)])
    route.advance()
    route.advance(2)
    assert route.index == 3 and route.current == (4, 0)
    patrol = Route(RouteKind.LOW_LEVEL, [(1, 0), (2, 0)], loop=True)
    patrol.advance(2)
    assert patrol.index == 0


def test_a_route_never_moves_back():
    route = Route(RouteKind.LOW_LEVEL, [(1, 0), (2, 0)])
    route.advance()
    with pytest.raises(ValueError, match="never back"):
        route.advance(-1)
    assert route.index == 1

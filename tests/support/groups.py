"""What other tests take from tests/groups/test_group.py: its helpers, moved here."""

from tests.support.navigator import check_world


def walk(navigator, groups, delta=0.1, updates=600):
    """Update until the group says it arrived: every step checked; the group events and, per unit,
    the time it arrived."""
    navigator.step_log = []
    events, arrivals = [], {}
    for _ in range(updates):
        navigator.update(delta)
        check_world(navigator)
        for unit_id, name, _ in navigator.events():
            if name == "arrived":
                arrivals[unit_id] = navigator.time
        events += groups.events()
        if any(name == "group_arrived" for _, name, _ in events):
            break
    return events, arrivals

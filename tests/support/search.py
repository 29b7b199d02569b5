"""What other tests take from tests/test_search.py: its helpers, moved here."""

import random

MAPS = [
    "den520d", "brc202d", "AR0011SR", "BlackLotus", "gardenofwar",
    "maze512-1-0", "random512-10-0", "8room_000", "Berlin_0_256", "Paris_0_1024",
]  # fmt: skip


def sample_scenarios(grid, scenarios, count=24, seed=7):
    """One seeded scenario from each of ``count`` buckets spread evenly from the shortest to the longest."""
    usable = [s for s in scenarios if grid.is_passable(s.start) and grid.is_passable(s.goal)]
    buckets = sorted({s.bucket for s in usable})
    chosen_buckets = [buckets[round(i * (len(buckets) - 1) / (count - 1))] for i in range(count)]
    rng = random.Random(seed)
    return [rng.choice([s for s in usable if s.bucket == bucket]) for bucket in chosen_buckets]

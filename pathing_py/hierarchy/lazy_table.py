"""A mapping whose values are made on first use: a loaded graph builds only the clusters its queries reach.

Building the Python lists and objects of every cluster of a big map at load
took most of the load time (Paris_0_1024: 4,096 clusters, 8,064 borders);
a query reaches a few of them.
"""

from typing import Callable, Dict, Iterable, Iterator, List, MutableMapping, Optional, TypeVar

__all__ = ["LazyTable"]

K = TypeVar("K")
V = TypeVar("V")


class LazyTable(MutableMapping[K, V]):
    """Keys known at once; ``build(key)`` makes a key's value when it is first read (a dict after that)."""

    def __init__(self, keys: Iterable[K], build: Callable[[K], V]):
        self._values: Dict[K, Optional[V]] = dict.fromkeys(keys)  # None: not built yet
        self._build = build

    def __getitem__(self, key: K) -> V:
        value = self._values[key]
        if value is None:
            value = self._values[key] = self._build(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._values[key] = value

    def __delitem__(self, key: K) -> None:
        del self._values[key]

    def __contains__(self, key: object) -> bool:
        return key in self._values  # without building the value, as Mapping's would

    def __iter__(self) -> Iterator[K]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def built(self) -> List[K]:
        """The keys whose values have been built (bench/bench_hierarchy.py times what a first query builds)."""
        return [key for key, value in self._values.items() if value is not None]

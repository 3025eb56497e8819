"""A read-only mapping whose values live in lists, by key position, each made only when read.

The one pass (issue 29) keeps a date's relative values and forms in lists: a modeler grid has
thousands of them, and making an object for each, only for the contract to read two fields back,
and the garbage collector's walks over them, were a measurable part of its cost. A subclass sets
``_keys`` (the keys in order) and ``_index`` (key → position) and makes a value in ``__getitem__``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TypeVar

V = TypeVar("V")


class KeyedLists(Mapping[str, V]):
    __slots__ = ("_index", "_keys")

    _keys: tuple[str, ...]
    _index: Mapping[str, int]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


@lru_cache(maxsize=256)
def keys_and_index(keys: tuple[str, ...]) -> tuple[tuple[str, ...], Mapping[str, int]]:
    """The keys (the first equal tuple given: one kept for every date with these forms, a grid's
    dates share a few) and each key's position (the last, for a key given twice)."""
    return keys, MappingProxyType({k: i for i, k in enumerate(keys)})

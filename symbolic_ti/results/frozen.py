"""An immutable mapping that pickles and hashes: the mappings held by results and reports.

``types.MappingProxyType`` (what results held before) is read-only but neither picklable nor hashable, so a result
could not be sent to a worker process (multiprocessing, Dask), cached, or put in a set, although results are
immutable plain data. Importable from :mod:`symbolic_ti.results`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

__all__ = ["FrozenMapping"]

K = TypeVar("K")
V = TypeVar("V")


class FrozenMapping(Mapping[K, V], Generic[K, V]):
    """A read-only mapping over a private copy of ``data``, in its order; equal to any mapping with the same items
    (as a ``dict`` is), hashable when its values are, picklable when they are.

    Parameters
    ----------
    data : mapping or iterable of (key, value) pairs
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[K, V] | Any = ()) -> None:
        self._data: dict[K, V] = dict(data)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMapping):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._data,))

    def __repr__(self) -> str:
        return f"FrozenMapping({self._data!r})"

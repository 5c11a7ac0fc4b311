"""A small record class without dataclasses: equal to another of its type
with the same field values, hashed and shown by them.

A dataclass's methods are compiled when its module is imported, and the
engine's events and the topics' queries are imported on the way to the
reader's first paint; subclasses of SlotRecord get the same behaviour from
methods compiled once, here.
"""

from __future__ import annotations


class SlotRecord:
    """A record of the fields in its subclass's `__slots__`."""

    __slots__ = ()

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def replaced(self, **changes: object):
        """A copy with `changes` made (as dataclasses.replace does for a dataclass)."""
        unknown = changes.keys() - set(self.__slots__)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        copy = object.__new__(type(self))
        for name in self.__slots__:
            object.__setattr__(copy, name, changes[name] if name in changes else getattr(self, name))
        return copy

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"

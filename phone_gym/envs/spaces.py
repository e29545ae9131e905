"""Observation spaces that survive Gymnasium's vector environments.

Gymnasium's ``AsyncVectorEnv`` (with its default ``shared_memory=True``) reads a ``Text``
observation out of shared memory once, when it starts, and hands that same tuple back on
every step: the text observations of an async vector env never change (they read as
``'000...'``). ``SharedText`` is a ``Text`` space whose shared-memory reader returns a live
view instead: it decodes the current strings whenever it is copied or indexed, so
``AsyncVectorEnv`` returns the right instructions with its default settings.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Text
from gymnasium.vector.utils import read_from_shared_memory


class SharedText(Text):
    """A ``Text`` space that vectorizes correctly through shared memory."""


class LiveTexts(Sequence[str]):
    """The strings of ``n`` envs in a shared buffer, decoded on access; a deep copy is a
    plain tuple (what ``AsyncVectorEnv`` returns with ``copy=True``)."""

    def __init__(self, space: Text, buffer: Any, n: int) -> None:
        self._space, self._buffer, self._n = space, buffer, n

    def _decode(self) -> tuple[str, ...]:
        data = np.frombuffer(self._buffer.get_obj(), dtype=np.int32)
        data = data.reshape((self._n, self._space.max_length))
        chars, size = self._space.character_list, len(self._space.character_set)
        return tuple("".join(chars[v] for v in row if v < size) for row in data)

    def __getitem__(self, index: Any) -> Any:
        return self._decode()[index]

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[str]:
        return iter(self._decode())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._decode() == tuple(other)

    def __repr__(self) -> str:
        return repr(self._decode())

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return self._decode()

    def __copy__(self) -> tuple[str, ...]:
        return self._decode()

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self._decode(),))


@read_from_shared_memory.register(SharedText)
def _read_shared_text(space: SharedText, shared_memory: Any, n: int = 1) -> LiveTexts:
    return LiveTexts(space, shared_memory, n)


__all__ = ["LiveTexts", "SharedText"]

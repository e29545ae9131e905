"""Observation spaces that survive Gymnasium's vector environments.

Gymnasium's ``AsyncVectorEnv`` (with its default ``shared_memory=True``) reads a ``Text``
observation out of shared memory once, when it starts, and hands that same tuple back on
every step: the text observations of an async vector env never change (they read as
``'000...'``). ``SharedText`` is a ``Text`` space whose shared-memory reader returns a live
view instead: it decodes the current strings whenever it is copied or indexed, so
``AsyncVectorEnv`` returns the right instructions with its default settings. Its strings are
encoded into and decoded out of shared memory with numpy (code point tables), not a Python
loop over every character slot as Gymnasium's ``Text`` does.

The phone's charset is large (every character its fonts draw, CJK included: about 19,000),
so a ``SharedText`` with a string charset shares its lookup tables with every other space of
that charset (built once per process), and pickles as its charset string and lengths.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, cast

import numpy as np
from gymnasium.spaces import Text
from gymnasium.spaces.text import alphanumeric
from gymnasium.spaces.utils import flatten
from gymnasium.vector.utils import read_from_shared_memory, write_to_shared_memory


class SharedText(Text):
    """A ``Text`` space that vectorizes correctly through shared memory."""

    def __init__(self, max_length: int, *, min_length: int = 1,
                 charset: frozenset[str] | str = alphanumeric,
                 seed: int | np.random.Generator | None = None) -> None:
        if not isinstance(charset, str):
            super().__init__(max_length, min_length=min_length, charset=charset, seed=seed)
            return
        # Text's own checks and setup on a one-character charset, then the shared tables
        super().__init__(max_length, min_length=min_length, charset="a", seed=seed)
        self._char_set, self._char_list, self._char_index, self._char_str = _charset(charset)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.max_length, self.min_length, "".join(self._char_list),
                           self._np_random))


@lru_cache(maxsize=8)
def _charset(charset: str) -> tuple[frozenset[str], tuple[str, ...], dict[str, np.int32], str]:
    """``Text``'s lookup tables for a string charset (built as ``Text.__init__`` does)."""
    char_list = list(dict.fromkeys(charset))
    invalid = [char for char in char_list if len(char) != 1]
    if invalid:
        raise ValueError("Expects all charset elements to be a single character, actual "
                         f"invalid elements: {invalid}")
    return (frozenset(char_list), tuple(char_list),
            {val: np.int32(i) for i, val in enumerate(char_list)}, "".join(sorted(char_list)))


def _rebuild(max_length: int, min_length: int, charset: str,
             rng: np.random.Generator | None) -> SharedText:
    space = SharedText(max_length, min_length=min_length, charset=charset)
    if rng is not None:
        space._np_random = rng
    return space


Tables = tuple[np.ndarray, np.ndarray, np.ndarray]
_TABLES: dict[int, tuple[tuple[str, ...], Tables | None]] = {}  # id(character_list): ...


def _tables(chars: tuple[str, ...]) -> Tables | None:
    """``_build_tables(chars)``, cached by the identity of the charset's tuple (hashing a
    tuple of 19,000 characters on every step would cost more than the encoding)."""
    hit = _TABLES.get(id(chars))
    if hit is not None and hit[0] is chars:
        return hit[1]
    tables = _build_tables(chars)
    if len(_TABLES) >= 64:
        _TABLES.clear()
    _TABLES[id(chars)] = (chars, tables)  # the tuple is kept alive: its id stays its own
    return tables


@lru_cache(maxsize=64)
def _build_tables(chars: tuple[str, ...]) -> Tables | None:
    """For a charset (``Text.character_list``): the code point of each index, the sorted
    code points and the index of each (the last one of a repeated character, as ``Text``
    does); None if a character is not a single code point."""
    if any(len(c) != 1 for c in chars):
        return None
    index = {ord(c): i for i, c in enumerate(chars)}
    points = np.array(sorted(index), dtype=np.uint32)
    return (np.array([ord(c) for c in chars], dtype=np.uint32), points,
            np.array([index[p] for p in points.tolist()], dtype=np.int32))


def _flatten(space: Text, text: str) -> np.ndarray:
    """Gymnasium's ``flatten``: an array for a ``Text`` space (its annotation covers every
    space: an array, a dict or a tuple)."""
    return cast(np.ndarray, flatten(space, text))


def encode_text(space: Text, text: str) -> np.ndarray:
    """``flatten(space, text)`` (character indices padded with ``len(character_set)``),
    vectorized; Gymnasium's own ``flatten`` raises the errors (unknown character, too long)."""
    tables = _tables(space.character_list)
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    if tables is None or len(points) > space.max_length:
        return _flatten(space, text)
    _, sorted_points, indices = tables
    where = np.minimum(np.searchsorted(sorted_points, points), len(sorted_points) - 1)
    if not np.array_equal(sorted_points[where], points):
        return _flatten(space, text)
    out = np.full(space.max_length, len(space.character_set), dtype=np.int32)
    out[: len(points)] = indices[where]
    return out


def decode_text(space: Text, values: np.ndarray) -> str:
    """The string of one row of character indices (slots ``>= len(character_set)`` are
    padding), as Gymnasium's ``read_from_shared_memory`` decodes it."""
    tables = _tables(space.character_list)
    kept = values[values < len(space.character_set)]
    if tables is None:
        return "".join(space.character_list[v] for v in kept)
    return tables[0][kept].astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


class LiveTexts(Sequence[str]):
    """The strings of ``n`` envs in a shared buffer, decoded on access; a deep copy is a
    plain tuple (what ``AsyncVectorEnv`` returns with ``copy=True``)."""

    def __init__(self, space: Text, buffer: Any, n: int) -> None:
        self._space, self._buffer, self._n = space, buffer, n
        self._data = np.frombuffer(buffer.get_obj(), dtype=np.int32).reshape(
            (n, space.max_length))

    def _decode(self) -> tuple[str, ...]:
        return tuple(decode_text(self._space, row) for row in self._data)

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


@write_to_shared_memory.register(SharedText)
def _write_shared_text(space: SharedText, index: int, value: str, shared_memory: Any) -> None:
    size = space.max_length
    destination = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    destination[index * size: (index + 1) * size] = encode_text(space, value)


__all__ = ["LiveTexts", "SharedText", "decode_text", "encode_text"]

"""One vocabulary for every app's fixtures: people, phone numbers, e-mails, places, times,
amounts and titles. All phone numbers are in the fictional 555-01xx range, all e-mail domains
are example domains. Sampling uses only the generator it is given."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

FIRST_NAMES = ("Maria", "James", "Aisha", "Daniel", "Sofia", "Kenji", "Olivia", "Marcus",
               "Priya", "Lucas", "Emma", "Diego", "Hannah", "Omar", "Chloe", "Ethan", "Fatima",
               "Noah", "Grace", "Mateo", "Lena", "Samuel", "Yuki", "Isaac", "Nora", "Victor",
               "Zoe", "Andre", "Ruth", "Felix")
LAST_NAMES = ("Garcia", "Chen", "Okafor", "Miller", "Rossi", "Tanaka", "Johnson", "Patel",
              "Silva", "Nguyen", "Kowalski", "Brown", "Haddad", "Schmidt", "Lopez", "Kim",
              "Walker", "Moreau", "Novak", "Ibrahim", "Larsen", "Cohen", "Reyes", "Fischer",
              "Adams", "Murphy", "Santos", "Ward", "Bianchi", "Young")
AREA_CODES = ("415", "212", "312", "617", "206", "503", "646", "718", "510", "305", "720",
              "404")
DOMAINS = ("example.com", "example.org", "example.net")
PLACES = ("Central Station", "City Library", "Harbor Cafe", "Riverside Park", "Museum of Art",
          "Old Town Square", "Airport Terminal 2", "Grand Hotel", "Sunset Beach", "Tech Campus")
#: Titles of things people keep (notes, documents, lists).
TITLES = ("Groceries", "Trip ideas", "Meeting notes", "Books to read", "Gift list",
          "Workout plan", "Recipes", "Packing list", "Project ideas", "Call back",
          "Movies to watch", "Garden", "Car service", "Birthday party", "Podcasts", "Budget",
          "Book club", "Home repairs", "Quotes", "Spanish lessons", "Vet visit",
          "Weekend plans", "Dinner menu", "Gym schedule")
#: Short lines of everyday text.
LINES = ("milk, eggs, bread", "Lisbon in spring", "ask about the budget", "Dune and Emma",
         "scarf for mom", "run 5k on Monday", "lentil soup", "charger and passport",
         "a birdhouse", "the dentist at 3", "water the tomatoes", "oil change at 60000 km",
         "book the hall for Saturday", "pick up the dry cleaning", "Tuesday at 7 pm",
         "call the plumber", "rent is due on the 1st", "try the new bakery",
         "renew the library card", "door code is 4821", "sunscreen and hats",
         "bring the blue folder")
#: Labels of reminders and alarms.
LABELS = ("Wake up", "Gym", "Medication", "School run", "Team meeting", "Yoga", "Laundry",
          "Call mom", "Nap", "Bus", "Water plants", "Pick up kids")
#: Stems of file names.
FILE_STEMS = ("invoice", "notes", "report", "draft", "summary", "budget", "itinerary",
              "receipt")

Person = dict[str, Any]  # {"name", "phone", "email", "starred"}: plain, so params stay plain


def pick(rng: np.random.Generator, items: Any, k: int | None = None) -> Any:
    """One item (or ``k`` distinct items) of ``items``, drawn by ``rng``."""
    if not isinstance(items, (list, tuple, range, str)):
        items = list(items)
    if k is None:
        return items[int(rng.integers(len(items)))]
    idx = rng.choice(len(items), size=k, replace=False)
    return [items[int(i)] for i in idx]


def draws(rng: np.random.Generator, sizes: Sequence[int]) -> list[int]:
    """One number below each of ``sizes``: the same draws, and the same generator state after,
    as ``[int(rng.integers(n)) for n in sizes]`` (numpy draws them in order, in one call)."""
    return rng.integers(0, sizes).tolist()  # type: ignore[no-any-return]


_WORD = 0xFFFFFFFF
#: Bit generators whose 32-bit draws are halves of 64-bit outputs, the high half kept for
#: the next one (``has_uint32``/``uinteger`` in their state), as ``Draws`` replays them.
_HALVES = ("PCG64", "PCG64DXSM")


class Draws:
    """Draws of ``rng``, the same numbers as its own calls and the same generator state
    after ``close()``, made from its 64-bit outputs fetched in bulk: a fraction of the cost
    of one numpy call each when there are many.

    How numpy makes them (``numpy/random/src/distributions``), replayed here: a number below
    ``n`` (``integers``) from 32-bit words by Lemire's method, ``word * n >> 32``, another
    word while the low half of ``word * n`` is under ``(2**32 - n) % n`` (``n == 1``: no
    word); a word is the low half of the next output, the high half kept for the word after
    (PCG64's ``has_uint32``); ``random()`` is an output's top 53 bits over 2**53 (the kept
    half stays kept); ``choice(n, k, replace=False)`` is Floyd's algorithm (Lemire draws)
    then a shuffle of the ``k`` (Lemire draws). Outputs are fetched ahead
    (``reserve``, else ``CHUNK`` at a time); ``close()`` (or leaving a ``with`` block) puts
    the generator where the draws made leave it. Draw nothing from ``rng`` itself between
    the first draw and ``close()``. Another bit generator than PCG64's: each draw is
    ``rng``'s own call."""

    CHUNK = 64
    __slots__ = ("rng", "_raw", "_at", "_saved", "_read", "_half", "_kept", "_fast")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._raw: list[int] = []  # fetched 64-bit outputs; ``_at``: the next unread one
        self._at = 0
        self._saved: dict[str, Any] | None = None  # the generator's state before any fetch
        self._read = 0  # outputs read before the current batch
        self._half: int | None = None  # the kept high half, while it is to be read
        self._kept = 0  # the generator's ``uinteger``: the last high half kept (read or not)
        self._fast = type(rng.bit_generator).__name__ in _HALVES

    def __enter__(self) -> Draws:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reserve(self, k: int) -> None:
        """About ``k`` outputs will be read (two words an output, or one ``random()``):
        fetch what is missing of them in one numpy call."""
        missing = k - (len(self._raw) - self._at)
        if missing > 0 and self._fast:
            if self._saved is None:
                self._saved = state = dict(self.rng.bit_generator.state)
                self._kept = state["uinteger"]
                self._half = self._kept if state["has_uint32"] else None
            self._read += self._at
            self._raw = self._raw[self._at:] + self.rng.bit_generator.random_raw(
                missing).tolist()
            self._at = 0

    def _next(self) -> int:
        if self._at == len(self._raw):
            self.reserve(self.CHUNK)
        value = self._raw[self._at]
        self._at += 1
        return value

    def _word(self) -> int:
        if self._saved is None:  # (the kept half is read with the state, at the first fetch)
            self.reserve(self.CHUNK)
        half = self._half
        if half is not None:
            self._half = None
            return half
        value = self._next()
        self._half = self._kept = value >> 32
        return value & _WORD

    def below(self, n: int) -> int:
        """A number in ``range(n)``, as ``int(rng.integers(n))`` draws it."""
        if n <= 1 or n > _WORD:
            if n == 1:
                return 0
            raise ValueError(f"Draws.below needs n from 1 to 2**32 - 1, got {n}")
        if not self._fast:
            return int(self.rng.integers(n))
        half = self._half  # (``_word``, inline: the common cases)
        if half is not None:
            self._half = None
            m = half * n
        else:
            at = self._at
            if at < len(self._raw):  # (outputs fetched: the kept half was read with them)
                value = self._raw[at]
                self._at = at + 1
                self._half = self._kept = value >> 32
                m = (value & _WORD) * n
            else:
                m = self._word() * n
        low = m & _WORD
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self._word() * n
                low = m & _WORD
        return m >> 32

    def integers(self, low: int, high: int) -> int:
        """``int(rng.integers(low, high))``."""
        return low + self.below(high - low)

    def random(self) -> float:
        """``rng.random()``."""
        if not self._fast:
            return float(self.rng.random())
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def sample(self, n: int, k: int) -> list[int]:
        """``k`` distinct numbers below ``n``: ``rng.choice(n, k, replace=False)``'s."""
        if not 0 <= k <= n or n > 10000 or not self._fast:
            return [int(i) for i in self.rng.choice(n, size=k, replace=False)]
        if k == 2:  # (the loops below for two: the same draws, fewer objects)
            below = self.below
            first, second = below(n - 1), below(n)
            if second == first:
                second = n - 1
            return [second, first] if below(2) == 0 else [first, second]
        chosen: list[int] = []
        taken: set[int] = set()
        for j in range(n - k, n):  # Floyd's algorithm
            value = self.below(j + 1)
            if value in taken:
                value = j
            taken.add(value)
            chosen.append(value)
        for i in range(k - 1, 0, -1):  # then shuffled
            j = self.below(i + 1)
            chosen[i], chosen[j] = chosen[j], chosen[i]
        return chosen

    def skip(self, sizes: Sequence[int], repeat: int = 1) -> None:
        """``repeat`` rounds of ``below(n)`` for each of ``sizes``, the numbers dropped: the
        same generator state after, in a few numpy operations unless a word is redrawn."""
        count = len(sizes) * repeat
        if count <= 0:
            return
        if not self._fast or min(sizes) < 2 or max(sizes) > _WORD:
            for _ in range(repeat):
                for n in sizes:
                    self.below(n)
            return
        self.reserve(count // 2 + 1)
        half = self._half
        lead = 0 if half is None else 1
        need = (count - lead + 1) // 2  # outputs: two words each, the first the low half
        outs = np.array(self._raw[self._at:self._at + need], dtype=np.uint64)
        words = np.empty(lead + 2 * need, dtype=np.uint64)
        if half is not None:
            words[0] = half
        words[lead::2] = outs & np.uint64(_WORD)
        words[lead + 1::2] = outs >> np.uint64(32)
        ns = np.tile(np.asarray(sizes, dtype=np.uint64), repeat)
        low = (words[:count] * ns) & np.uint64(_WORD)
        if bool(np.any(low < (np.uint64(1 << 32) - ns) % ns)):  # a word redrawn: one by one
            for _ in range(repeat):
                for size in sizes:
                    self.below(size)
            return
        self._at += need
        if need:
            self._kept = int(outs[-1] >> np.uint64(32))
            self._half = self._kept if (count - lead) % 2 else None
        else:
            self._half = None

    def pick(self, items: Sequence[Any], k: int | None = None) -> Any:
        """One item of ``items`` (or ``k`` distinct ones), as ``pick(rng, items, k)``."""
        if k is None:
            return items[self.below(len(items))]
        return [items[i] for i in self.sample(len(items), k)]

    def close(self) -> None:
        """Leave the generator where the draws made leave it: back to its state before the
        first fetch, the outputs read drawn again, the kept half kept. Later draws start a
        new batch."""
        if self._saved is not None:
            generator = self.rng.bit_generator
            generator.state = self._saved
            generator.random_raw(self._read + self._at)
            state = dict(generator.state)
            state["has_uint32"] = int(self._half is not None)
            state["uinteger"] = self._kept
            generator.state = state
        self._raw, self._at, self._saved, self._read, self._half = [], 0, None, 0, None
        self._kept = 0


def distinct_ints(rng: np.random.Generator, start: int, stop: int, k: int,
                  step: int = 1) -> np.ndarray:
    """``k`` distinct integers of ``range(start, stop, step)``: the same draws, from the same
    generator state, as ``rng.choice(np.arange(start, stop, step), k, replace=False)``, without
    making the range (numpy draws indexes into it, then takes them)."""
    return start + step * rng.choice(len(range(start, stop, step)), k, replace=False)


def phone_number(rng: np.random.Generator, suffix: int | None = None) -> str:
    """A fictional number formatted like ``+1 415-555-0123``."""
    suffix = int(rng.integers(100)) if suffix is None else suffix
    return f"+1 {pick(rng, AREA_CODES)}-555-01{suffix:02d}"


def email_of(name: str, rng: np.random.Generator) -> str:
    return f"{name.replace(' ', '.')}@{pick(rng, DOMAINS)}".lower()


def people(rng: np.random.Generator, k: int, *, starred_share: float = 0.25,
           email_share: float = 0.7) -> list[Person]:
    """``k`` people with distinct first names and distinct phone numbers."""
    firsts = pick(rng, FIRST_NAMES, k)
    suffixes = pick(rng, range(100), k)
    out = []
    for first, suffix in zip(firsts, suffixes, strict=True):
        name = f"{first} {pick(rng, LAST_NAMES)}"
        email = email_of(name, rng) if rng.random() < email_share else ""
        out.append({"name": name, "phone": phone_number(rng, suffix), "email": email,
                    "starred": bool(rng.random() < starred_share)})
    return out


def times_of_day(rng: np.random.Generator, k: int,
                 avoid: Any = ()) -> list[tuple[int, int]]:
    """``k`` distinct times (hours 5-22, minutes in steps of 5) not in ``avoid``."""
    times: list[tuple[int, int]] = []
    while len(times) < k:
        time = (int(rng.integers(5, 23)), 5 * int(rng.integers(12)))
        if time not in times and time not in avoid:
            times.append(time)
    return times


def hhmm(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def file_names(rng: np.random.Generator, k: int, ext: str = "txt") -> list[str]:
    """``k`` distinct file names like ``report_42.txt``."""
    stems = pick(rng, FILE_STEMS, k)
    return [f"{stem}_{int(rng.integers(10, 100))}.{ext}" for stem in stems]


def amount(rng: np.random.Generator, low: float = 5.0, high: float = 250.0) -> str:
    """A money amount like ``"42.50"``."""
    return f"{rng.uniform(low, high):.2f}"

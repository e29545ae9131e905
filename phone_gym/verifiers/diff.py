"""State diffs: what changed between two snapshots, as dotted paths.

Snapshots are plain nested mappings (records keyed by id). A change is reported at the
deepest mapping level: ``contacts.7`` added, ``apps.Notes.notes.3.body`` modified. Two
snapshots of one table that share a base (``TableSnap``) are compared over their deltas only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal, get_args

from .snap import TableSnap, in_order

Kind = Literal["added", "removed", "modified"]
KINDS: tuple[str, ...] = get_args(Kind)


@dataclass(frozen=True)
class Change:
    """One difference between two snapshots."""

    path: str
    kind: Kind
    before: Any = None
    after: Any = None

    def __str__(self) -> str:
        if self.kind == "added":
            return f"{self.path} added: {self.after!r}"
        if self.kind == "removed":
            return f"{self.path} removed (was {self.before!r})"
        return f"{self.path} changed from {self.before!r} to {self.after!r}"


def diff(before: Any, after: Any, path: str = "") -> list[Change]:
    """All changes from ``before`` to ``after``, in a stable order."""
    if before is after:
        return []
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        keys: Iterable[Any] | None = None
        if isinstance(before, TableSnap) and isinstance(after, TableSnap):
            changed = before.changed_keys(after)
            if changed is not None:  # in the order the full diff below meets them
                keys = in_order(before, [k for k in changed if k in before])
                keys += in_order(after, [k for k in changed if k not in before])
        changes: list[Change] = []
        if keys is None:
            for key in before:
                sub = f"{path}.{key}" if path else str(key)
                if key not in after:
                    changes.append(Change(sub, "removed", before=before[key]))
                else:
                    changes.extend(diff(before[key], after[key], sub))
            for key in after:
                if key not in before:
                    sub = f"{path}.{key}" if path else str(key)
                    changes.append(Change(sub, "added", after=after[key]))
            return changes
        for key in keys:
            sub = f"{path}.{key}" if path else str(key)
            if key in before and key in after:
                changes.extend(diff(before[key], after[key], sub))
            elif key in before:
                changes.append(Change(sub, "removed", before=before[key]))
            elif key in after:
                changes.append(Change(sub, "added", after=after[key]))
        return changes
    if before != after:
        return [Change(path, "modified", before, after)]
    return []


def matches(change: Change, pattern: str) -> bool:
    """Whether ``pattern`` (fnmatch, with an optional ``kind:`` prefix) covers ``change``.

    ``contacts.*`` covers any change at or below a contact; ``added:contacts.*`` covers only
    additions. A pattern also covers changes below the path it names.
    """
    kind, sep, glob = pattern.partition(":")
    if not sep or kind not in KINDS:
        glob = pattern  # no kind prefix: a colon may be part of a path
    elif kind != change.kind:
        return False
    return fnmatchcase(change.path, glob) or fnmatchcase(change.path, glob + ".*")


def unexpected(changes: list[Change], allowed: tuple[str, ...] | list[str]) -> list[Change]:
    """The changes no pattern in ``allowed`` covers: collateral damage."""
    return [c for c in changes if not any(matches(c, p) for p in allowed)]

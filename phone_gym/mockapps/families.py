"""Task families: create, edit, toggle and delete a record, set a setting, look something up.

A family turns a few declarations into criteria and allowed changes (and so, through
``verifiers.negatives``, into near misses), so a template is its sentence, its params, its
setup and its oracle:

    class NotesPinNote(NoteTask, EditRecord):
        template = 'Pin the note titled "{title}".'
        def changes(self, p): return {"pinned": True}
        def oracle(self, ui, p): ...

Records are found by content (``target`` is a where-clause over the initial state), never by
snapshot key alone, so a family task checks a PhoneWorld phone and a real one alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..verifiers import Allow, Answer, Criterion, NoRecord, Record, Value, lookup, matching
from .task import Task


def record_keys(state: Mapping[str, Any], collection: str,
                where: Mapping[str, Any]) -> list[str]:
    """Keys of the records of ``collection`` in ``state`` that match ``where``."""
    rows = lookup(state, collection)
    if not isinstance(rows, Mapping):
        return []
    hits = {id(r) for r in matching(state, collection, where)}
    return [k for k, r in rows.items() if id(r) in hits]


class RecordTask(Task):
    """A task about the records of one table: ``collection`` is its snapshot path
    (``contacts``, ``alarms``, ``apps.Notes.notes``...)."""

    collection: ClassVar[str] = ""

    def target(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        """A where-clause that picks the task's record in the initial state."""
        raise NotImplementedError

    def target_key(self, params: Mapping[str, Any], initial: Mapping[str, Any]) -> str:
        """The snapshot key of the one record ``target`` picks in ``initial``."""
        keys = record_keys(initial, self.collection, self.target(params))
        if len(keys) != 1:
            raise ValueError(f"{self.id}: target {dict(self.target(params))!r} matches "
                             f"{len(keys)} records of {self.collection}, expected 1")
        return keys[0]


class CreateRecord(RecordTask):
    """Add exactly one record whose fields are ``fields(params)`` (literals or matchers)."""

    def fields(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        raise NotImplementedError

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        fields = self.fields(params)
        before = len(record_keys(initial, self.collection, fields))
        return [Record(self.collection, fields, count=before + 1)]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[str | Allow]:
        return [Allow(self.collection, "added", max=1)]


class EditRecord(RecordTask):
    """Change fields of the record ``target`` picks to ``changes(params)`` (literals or
    matchers); nothing else of it, and no other record, may change."""

    def changes(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        raise NotImplementedError

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        key = self.target_key(params, initial)
        return [Value(f"{self.collection}.{key}.{name}", value)
                for name, value in self.changes(params).items()]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[str | Allow]:
        return [Allow(self.collection, "modified", key=self.target_key(params, initial),
                      fields=tuple(self.changes(params)))]


class DeleteRecord(RecordTask):
    """Delete every record ``target`` picks (switching one off does not count)."""

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [NoRecord(self.collection, self.target(params))]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[str | Allow]:
        count = len(record_keys(initial, self.collection, self.target(params)))
        return [Allow(self.collection, "removed", where=self.target(params), max=count)]


class SetSetting(Task):
    """Make setting ``namespace``/``key`` hold ``value(params)``; ``side_effects`` are
    other settings the phone itself changes along with it (airplane mode turns Wi-Fi off)."""

    namespace: ClassVar[str] = "global"
    key: ClassVar[str] = ""
    side_effects: ClassVar[tuple[str, ...]] = ()

    def value(self, params: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Value(f"settings.{self.namespace}.{self.key}", self.value(params))]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[str | Allow]:
        return [f"settings.{self.namespace}.{self.key}",
                *(f"settings.{path}" for path in self.side_effects)]


class Lookup(Task):
    """Find something out and ``answer`` it; ``expected(params)`` is the answer (a literal
    compared as text, or a matcher). Nothing may change."""

    needs_answer = True

    def expected(self, params: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [Answer(self.expected(params))]

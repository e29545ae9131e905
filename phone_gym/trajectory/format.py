"""The trajectory file ``steps.jsonl``: its format versions, end lines, crash-safe appends,
and a reader that names the file and line of anything malformed.

Version 2, one JSON object a line::

    {"format": "phone-gym-trajectory", "version": 2}      the first line
    {"episode_id": "ep000003", "step": 0, ...}             a step (records.RECORD_KEYS)
    {"end": true, "episode_id": "ep000003", "steps": 7}    after an episode's last step

An episode is complete once its end line is written; steps without one are an interrupted
write (a crash, a kill, a full disk) and are left out when loading. Each line goes out whole
in one ``os.write`` to a file opened for appending, and the file is fsynced after each call,
so an interrupted write leaves at most a cut last line: reading ignores it and the next
append removes it. Appends hold an exclusive ``flock`` on the file (POSIX), so writers in
several processes keep each episode's lines together.

Version 1 (no format line, no end lines: phone-gym before issue 24): every episode counts
as complete. Appending to a version-1 file first appends a version-2 format line, which
applies to the lines after it: the old lines keep their meaning and no rewrite is needed.
A format line may appear again further down (``cat a/steps.jsonl b/steps.jsonl`` is a
trajectory file): an episode does not continue across it.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from .records import StepRecord, check_ref, json_type

if sys.platform != "win32":
    import fcntl

FORMAT = "phone-gym-trajectory"
VERSION = 2  #: the version this phone-gym writes
VERSIONS: tuple[int, ...] = (1, 2)  #: the versions it reads
ON_PARTIAL: tuple[str, ...] = ("skip", "error")


class TrajectoryError(ValueError):
    """A malformed trajectory file; the message starts with ``path:line:``."""


class TrajectoryWarning(UserWarning):
    """Partial episodes (an interrupted write) were left out of a trajectory file."""


@dataclass
class EpisodeLines:
    """The steps of one episode as read, with the line of each."""

    episode_id: str
    records: list[StepRecord] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    complete: bool = False


@dataclass
class TrajectoryFile:
    """What ``read_trajectory`` found: every episode, in the order each began."""

    path: Path
    episodes: list[EpisodeLines] = field(default_factory=list)
    cut_line: int | None = None  #: the cut last line of an interrupted write, if any

    @property
    def complete(self) -> list[EpisodeLines]:
        return [e for e in self.episodes if e.complete]

    @property
    def partial(self) -> list[EpisodeLines]:
        return [e for e in self.episodes if not e.complete]

    def check_partial(self, on_partial: str = "skip") -> None:
        """Warn (``"skip"``) or raise ``TrajectoryError`` (``"error"``) naming the partial
        episodes and a cut last line; nothing if there are none."""
        if on_partial not in ON_PARTIAL:
            raise ValueError(f"on_partial={on_partial!r}; accepted: {', '.join(ON_PARTIAL)}")
        partial = self.partial
        if not partial and self.cut_line is None:
            return
        what = []
        if partial:
            names = ", ".join(f"{e.episode_id} (line {e.lines[0]}, {len(e.records)} steps)"
                              for e in partial[:10])
            more = f" and {len(partial) - 10} more" if len(partial) > 10 else ""
            what.append(f"{len(partial)} partial episode(s) without an end line: {names}{more}")
        if self.cut_line is not None:
            what.append(f"a cut last line (line {self.cut_line})")
        text = " and ".join(what) + " (an interrupted write)"
        if on_partial == "error":
            line = partial[0].lines[0] if partial else self.cut_line
            raise TrajectoryError(f"{self.path}:{line}: {text}; load with on_partial='skip' "
                                  "to leave them out")
        warnings.warn(f"{self.path}: left out {text}; on_partial='error' makes this an error",
                      TrajectoryWarning, stacklevel=3)


def end_record(episode_id: str, steps: int) -> dict[str, Any]:
    """The end line of an episode of ``steps`` steps."""
    return {"end": True, "episode_id": episode_id, "steps": steps}


def format_record(version: int = VERSION) -> dict[str, Any]:
    return {"format": FORMAT, "version": version}


def _format_version(obj: dict[str, Any]) -> int:
    if obj["format"] != FORMAT:
        raise ValueError(f"'format' is {json_type(obj['format'])}, expected {FORMAT!r}")
    version = obj.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise ValueError(f"trajectory format version {version!r} is not one this phone-gym "
                         f"reads ({', '.join(map(str, VERSIONS))}): upgrade phone-gym")
    return int(version)


def _check_end(obj: dict[str, Any]) -> tuple[str, int]:
    episode_id, steps = obj.get("episode_id"), obj.get("steps")
    if obj["end"] is not True:
        raise ValueError(f"'end' is {json_type(obj['end'])}, expected true")
    if not isinstance(episode_id, str) or not episode_id:
        raise ValueError(f"the end line's 'episode_id' is {json_type(episode_id)}, "
                         "expected an episode id")
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        raise ValueError(f"the end line's 'steps' is {json_type(steps)}, expected a step "
                         "count >= 1")
    return episode_id, steps


def read_trajectory(path: str | Path) -> TrajectoryFile:
    """Every episode of a ``steps.jsonl``, complete or not. ``TrajectoryError`` (``path:line:
    ...``) for a line that is not JSON, not an object, a step record with a missing key, a
    value of the wrong type or a frame path outside the folder, an unknown format version,
    or an end line that does not match the steps above it."""
    path = Path(path)
    found = TrajectoryFile(path)
    version = 1
    running: dict[str, EpisodeLines] = {}

    def finish() -> None:  # a version-1 region's episodes are complete when it ends
        for episode in running.values():
            episode.complete = version == 1
        running.clear()

    with open(path, "rb") as lines:
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw.decode("utf-8"))
            except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
                if not raw.endswith(b"\n"):  # the last line, cut by an interrupted write
                    found.cut_line = number
                    break
                reason = (f"{exc.msg} at column {exc.colno}"
                          if isinstance(exc, json.JSONDecodeError) else "not UTF-8 text")
                raise TrajectoryError(f"{path}:{number}: not a JSON line ({reason})") from None
            try:
                if isinstance(obj, dict) and "format" in obj:
                    new_version = _format_version(obj)
                    finish()
                    version = new_version
                elif isinstance(obj, dict) and "end" in obj:
                    episode_id, steps = _check_end(obj)
                    if version == 1:
                        raise ValueError("an end line in a version-1 part of the file (no "
                                         "format line above it)")
                    episode = running.pop(episode_id, None)
                    if episode is None:
                        raise ValueError(f"an end line for episode {episode_id!r}, which has "
                                         "no steps above it since its last end line")
                    if len(episode.records) != steps:
                        raise ValueError(f"the end line says episode {episode_id!r} has "
                                         f"{steps} steps, but {len(episode.records)} are "
                                         f"above it (from line {episode.lines[0]})")
                    episode.complete = True
                else:
                    record = StepRecord.from_json(obj)
                    episode = running.get(record.episode_id)
                    if episode is None:
                        episode = running[record.episode_id] = EpisodeLines(record.episode_id)
                        found.episodes.append(episode)
                    episode.records.append(record)
                    episode.lines.append(number)
            except ValueError as exc:
                raise TrajectoryError(f"{path}:{number}: {exc}") from None
    finish()
    return found


class FolderPaths:
    """The frame paths of a trajectory folder, resolved inside it only: ``..``, absolute
    paths and symlinks that point out of it raise ``ValueError``."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.real = self.root.resolve()
        self._dirs: dict[Path, Path] = {}

    def resolve(self, ref: str) -> Path:
        path = self.root / check_ref(ref, "frame path")
        parent = self._dirs.get(path.parent)
        if parent is None:
            parent = self._dirs[path.parent] = path.parent.resolve()
        real = parent / path.name
        if real.is_symlink():
            real = real.resolve()
        if not real.is_relative_to(self.real):
            raise ValueError(f"frame path {ref!r} leads to {real}, outside the trajectory "
                             f"folder {self.real} (a symlink pointing out)")
        return real


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _line(obj: dict[str, Any]) -> bytes:
    return (json.dumps(obj) + "\n").encode("ascii")


class TrajectoryWriter:
    """Writes episodes to a ``steps.jsonl`` (a context manager): ``append=False`` replaces
    the file when the block ends without an error (a temporary file renamed over it);
    ``append=True`` appends under an exclusive lock, after removing a cut last line."""

    def __init__(self, path: str | Path, append: bool = False) -> None:
        self.path = Path(path)
        self.append = append
        self._tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        self._fd = -1

    def __enter__(self) -> TrajectoryWriter:
        if not self.append:
            self._fd = os.open(self._tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            _write_all(self._fd, _line(format_record()))
            return self
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            if sys.platform != "win32":
                fcntl.flock(self._fd, fcntl.LOCK_EX)
            self._prepare_append()
        except BaseException:
            os.close(self._fd)
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        ok = kind is None
        try:
            if self.append or ok:
                os.fsync(self._fd)
        except BaseException:
            ok = False
            raise
        finally:
            os.close(self._fd)  # closing releases the lock
            if not self.append:
                if ok:
                    os.replace(self._tmp, self.path)
                else:
                    self._tmp.unlink(missing_ok=True)

    def episode(self, rows: Sequence[dict[str, Any]]) -> None:
        """Write an episode's step records (``StepRecord.to_json``), then its end line.
        Every line is encoded first: a record that cannot be written writes nothing."""
        if not rows:
            return
        data = [_line(row) for row in rows]
        data.append(_line(end_record(str(rows[0]["episode_id"]), len(rows))))
        for line in data:
            _write_all(self._fd, line)

    def _prepare_append(self) -> None:
        size = os.fstat(self._fd).st_size
        if size and os.pread(self._fd, 1, size - 1) != b"\n":
            start = _last_line_start(self._fd, size)
            try:
                json.loads(os.pread(self._fd, size - start, start).decode("utf-8"))
                _write_all(self._fd, b"\n")  # a whole last line, only its newline missing
            except ValueError:
                os.ftruncate(self._fd, start)
                warnings.warn(f"{self.path}: removed a cut last line ({size - start} bytes, "
                              "an interrupted write) before appending", TrajectoryWarning,
                              stacklevel=4)
                size = start
        if not size or _last_version(self.path) != VERSION:
            _write_all(self._fd, _line(format_record()))


def _last_line_start(fd: int, size: int, chunk: int = 1 << 16) -> int:
    """Where the last line of a file begins (the byte after the last newline)."""
    end = size
    while end > 0:
        start = max(0, end - chunk)
        at = os.pread(fd, end - start, start).rfind(b"\n")
        if at >= 0:
            return start + at + 1
        end = start
    return 0


def _last_version(path: Path) -> int:
    """The format version in force at the end of a trajectory file (1 without a format
    line); the first line is enough for a file this phone-gym began."""
    version = 1
    with open(path, "rb") as lines:
        for number, raw in enumerate(lines, 1):
            if b'"format"' in raw:
                try:
                    obj = json.loads(raw)
                    if isinstance(obj, dict) and "format" in obj:
                        version = _format_version(obj)
                except ValueError as exc:
                    raise TrajectoryError(f"{path}:{number}: cannot append to it: {exc}"
                                          ) from None
            if number == 1 and version == VERSION:
                break  # begun as version 2: every append keeps it so
    return version

"""Outside benchmark suites mirrored in PhoneWorld: ``SUITES`` by name (``"androidworld"``),
each a ``TaskSuite`` (its tasks with their metadata, the phone-gym template each maps to,
its device date and step budget rule). ``get_suite(name)`` raises ``ValueError`` with
suggestions for an unknown name.

Imported by the app discovery like every ``mockapps`` subpackage: it has no ``APP`` or
``TEMPLATES``, so it adds nothing there, and it must not import ``phone_gym.mockapps``'s own
names at import time (they are being built then).
"""

from __future__ import annotations

from ..world.manifest import did_you_mean
from .androidworld import ANDROIDWORLD
from .suite import SuiteTask, TaskSuite

#: The suites by name.
SUITES: dict[str, TaskSuite] = {ANDROIDWORLD.name: ANDROIDWORLD}


def get_suite(name: str) -> TaskSuite:
    """A suite by name; ``ValueError`` naming the suites otherwise."""
    try:
        return SUITES[name]
    except (KeyError, TypeError):
        pass
    raise ValueError(f"unknown suite {name!r}{did_you_mean(str(name), SUITES)}; accepted: "
                     f"{', '.join(SUITES)}")


def suite_table(name: str) -> str:
    """``phone-gym tasks --suite NAME``: one row per task (name, app, difficulty, optimal
    steps, phone-gym template or "not yet"), then "N of M mapped"."""
    suite = get_suite(name)
    width = max(len(t.name) for t in suite.tasks)
    app_width = max(len(t.app) for t in suite.tasks)
    lines = [f"{'task':{width}} {'app':{app_width}} {'difficulty':10} {'steps':>5}  phone-gym"]
    lines += [f"{t.name:{width}} {t.app:{app_width}} {t.difficulty:10} {t.optimal_steps:>5}  "
              f"{t.counterpart or 'not yet'}" for t in suite.tasks]
    mapped, total = suite.coverage
    lines.append(f"{mapped} of {total} mapped")
    return "\n".join(lines)


__all__ = ["SUITES", "SuiteTask", "TaskSuite", "get_suite", "suite_table"]

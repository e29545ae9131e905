"""Architecture rules import-linter cannot see (``docs/architecture.md``; import-linter checks
the import walls in CI): tasks, fixtures and the catalogue touch a phone only through the
``DeviceState`` facade, never its ``device`` (navigation state, screens, other apps)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "phone_gym"


def task_modules() -> list[Path]:
    """Every module of templates, fixtures and suites: all of ``crossapp`` and ``suites``,
    the kernel's families, and every app module but the app itself (``app.py``)."""
    apps = [p for p in (PACKAGE / "mockapps").rglob("*.py")
            if p.name != "app.py" and "_template" not in p.parts]
    return sorted([*apps, *(PACKAGE / "crossapp").rglob("*.py"),
                   *(PACKAGE / "suites").rglob("*.py"), PACKAGE / "tasks" / "families.py"])


def test_tasks_reach_a_phone_only_through_device_state() -> None:
    found = []
    for path in task_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "device":
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert len(task_modules()) > 100
    assert not found, ("tasks use the DeviceState methods (or, for PhoneWorld-only seeding, "
                       f"WorldState.system), not .device: {found}")

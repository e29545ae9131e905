"""The template index (``templates.json``): every built-in template id and the module that
defines it, in listing order, so that registering the Gymnasium ids and looking a template up
import no app. ``python -m phone_gym.tasks --write-index`` writes it (from the apps
themselves), and a test fails when it is stale. Reading it needs only the standard library."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

INDEX = Path(__file__).with_name("templates.json")
#: The entry-point group of third-party apps, and the variable that leaves them out.
ENTRY_POINT_GROUP = "phone_gym.apps"
NO_PLUGINS_ENV = "PHONE_GYM_NO_PLUGINS"
FORMAT = 2
REINDEX = "run `python -m phone_gym.tasks --write-index` after changing templates"


def read_index() -> dict[str, Any]:
    """The index: ``templates`` (module: its template ids, in listing order) and ``fresh``
    (app module: the snapshot of a fresh install's data, as plain JSON); empty when there is
    no index."""
    try:
        data = json.loads(INDEX.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {FORMAT}")
        return {"templates": {str(m): [str(i) for i in ids] for m, ids, _ in data["modules"]},
                "fresh": {str(m): fresh for m, _, fresh in data["modules"]
                          if m.startswith("phone_gym.mockapps.")}}
    except FileNotFoundError:
        return {}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # then load every app
        warnings.warn(f"{INDEX} is unreadable ({exc}); {REINDEX}", RuntimeWarning,
                      stacklevel=2)
        return {}


def builtin_template_ids() -> list[str]:
    """Every built-in template id, in listing order (from the index)."""
    return [task_id for ids in read_index().get("templates", {}).values() for task_id in ids]


def plugin_entries() -> Sequence[Any]:
    """The installed third-party apps' entry points (none with ``NO_PLUGINS_ENV`` set)."""
    if os.environ.get(NO_PLUGINS_ENV, "").strip() not in ("", "0"):
        return []
    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)

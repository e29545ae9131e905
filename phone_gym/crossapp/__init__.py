"""Cross-app tasks, one module per kind of work across apps: information handed from one app
to another (``tasks``, ``handoff``), artifacts made in one app and used in another
(``artifact_*``), state that must persist across apps (``persistent_*``), multi-hop workflows
over three or more apps (``multihop_*``) and AndroidWorld's multi-app tasks (``androidworld``).
They use each app's public ``fixtures`` module (seeding records), never another app's
internals."""

from __future__ import annotations

from . import (
    androidworld,
    artifact_docs,
    artifact_media,
    handoff,
    multihop_life,
    multihop_work,
    persistent_bookings,
    persistent_money,
    tasks,
)

TEMPLATES = [*tasks.TEMPLATES, *handoff.TEMPLATES, *artifact_media.TEMPLATES,
             *artifact_docs.TEMPLATES, *persistent_bookings.TEMPLATES,
             *persistent_money.TEMPLATES, *multihop_life.TEMPLATES, *multihop_work.TEMPLATES,
             *androidworld.TEMPLATES]

__all__ = ["TEMPLATES"]

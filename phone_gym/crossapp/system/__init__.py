"""Tasks about the phone itself rather than one app's data: launching an app, the
clipboard, and radios plus a launch (AndroidWorld's system tasks, ``suites.aw_system``).
Like ``crossapp``, a package with only ``TEMPLATES``; it uses the apps' public
``fixtures`` modules."""

from __future__ import annotations

from .tasks import TEMPLATES

__all__ = ["TEMPLATES"]

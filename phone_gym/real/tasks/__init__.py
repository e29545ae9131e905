"""Real-device task templates (stock Android apps and settings), by id."""

from __future__ import annotations

from . import alarms, people, settings, storage
from .base import OracleError, RealEpisode, RealTaskTemplate, ScreenDriver

#: Every real-device template by id: ``RealPhoneEnv(task=...)`` takes these.
REAL_TEMPLATES: dict[str, RealTaskTemplate] = {
    t.id: t for m in (settings, people, alarms, storage) for t in m.TEMPLATES
}

__all__ = ["REAL_TEMPLATES", "OracleError", "RealEpisode", "RealTaskTemplate", "ScreenDriver"]

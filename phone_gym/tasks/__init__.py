"""The task kernel, below the apps: what a task template is (``task``: ``Task``, ``Episode``,
``WorldHost``), the families most templates are built from (``families``), the UI-element
``Driver`` oracles act through (``driver``), the shared vocabulary (``vocab``), AndroidWorld's
device date and day phrasing (``aw``), and the registry that finds apps and templates
(``registry``). Apps (``phone_gym.mockapps``) build on it; the cross-app catalogue
(``phone_gym.crossapp``) and the suites (``phone_gym.suites``) build on the apps."""

from __future__ import annotations

from .driver import Driver, OracleError, Unrecoverable
from .task import Episode, SetupError, Task, TaskTemplate, WorldHost

__all__ = ["Driver", "Episode", "OracleError", "SetupError", "Task", "TaskTemplate",
           "Unrecoverable", "WorldHost"]

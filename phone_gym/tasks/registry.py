"""Finding apps and task templates: the built-in app folders, the cross-app package, and
third-party apps installed with pip.

An app package (a folder here, or any importable module) exposes ``APP`` (an ``App``
subclass with its ``manifest``), optionally ``MANIFEST`` (the same manifest) and
``TEMPLATES`` (a list of ``Task`` instances). Built-in ones are every subpackage of
``phone_gym.mockapps`` that has ``APP``; a package with only ``TEMPLATES`` (``crossapp``)
adds tasks. Third-party packages declare an entry point in the group ``phone_gym.apps``
(``[project.entry-points."phone_gym.apps"] calculator = "my_pkg.calculator"``); phone-gym
reads it itself (Gymnasium 1.x reads no entry points). Set ``PHONE_GYM_NO_PLUGINS=1`` to
leave third-party apps out. A plugin that fails to load, or clashes with a name already
taken, is skipped with a warning (``REGISTRY.errors`` says why).
"""

from __future__ import annotations

import difflib
import importlib
import os
import pkgutil
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from ..verifiers.criteria import Matcher
from ..world.app import App
from ..world.manifest import AppManifest, did_you_mean
from .task import TAGS, Task

ENTRY_POINT_GROUP = "phone_gym.apps"
NO_PLUGINS_ENV = "PHONE_GYM_NO_PLUGINS"


@dataclass(frozen=True)
class AppPackage:
    """One app as discovered: its manifest, class and templates, and where it came from."""

    manifest: AppManifest
    app: type[App]
    templates: tuple[Task, ...]
    module: str
    builtin: bool = True


@dataclass
class Registry:
    """The apps (launcher order) and templates (by id) phone-gym knows."""

    packages: list[AppPackage] = field(default_factory=list)
    templates: dict[str, Task] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def apps(self) -> list[type[App]]:
        return [p.app for p in self.packages]

    @property
    def manifests(self) -> list[AppManifest]:
        return [p.manifest for p in self.packages]

    def app(self, name: str) -> AppPackage:
        """An app by name, label, package or alias (any case); ``ValueError`` with
        suggestions otherwise."""
        key = name.strip().lower()
        for p in self.packages:
            if key in (n.lower() for n in p.manifest.names()):
                return p
        names = [n for p in self.packages for n in (p.manifest.name, p.manifest.label)]
        raise ValueError(f"unknown app {name!r}{did_you_mean(name, names)}; apps: "
                         f"{', '.join(p.manifest.name for p in self.packages)} "
                         "(run `phone-gym tasks` to list apps and tasks)")

    def template(self, task_id: str) -> Task:
        """A template by id; ``ValueError`` with suggestions otherwise."""
        try:
            return self.templates[task_id]
        except (KeyError, TypeError):
            pass
        raise ValueError(f"unknown task {task_id!r}{did_you_mean(str(task_id), self.templates)}"
                         "; run `phone-gym tasks` to list them")

    def package_map(self) -> dict[str, str]:
        """App names (and labels) to Android packages, from the manifests."""
        out: dict[str, str] = {}
        for m in self.manifests:
            out.setdefault(m.name, m.package)
            out.setdefault(m.label, m.package)
        return out

    # --- adding --------------------------------------------------------------------------------
    def add_module(self, module: ModuleType, *, builtin: bool) -> None:
        """Add the app and templates a module exposes (raises ``ValueError`` on a clash)."""
        app_cls = getattr(module, "APP", None)
        templates = tuple(getattr(module, "TEMPLATES", ()) or ())
        if app_cls is not None:
            if not (isinstance(app_cls, type) and issubclass(app_cls, App)):
                raise ValueError(f"{module.__name__}.APP is not an App subclass")
            manifest = getattr(module, "MANIFEST", None) or app_cls.manifest
            if manifest is not app_cls.manifest and manifest != app_cls.manifest:
                raise ValueError(f"{module.__name__}: MANIFEST differs from APP.manifest")
            self._check_app(manifest)
        for t in templates:
            self._check_template(t, module.__name__)
        if app_cls is not None:
            self.packages.append(AppPackage(manifest, app_cls, templates, module.__name__,
                                            builtin))
        for t in templates:
            self.templates[t.id] = t

    def _check_app(self, m: AppManifest) -> None:
        for p in self.packages:
            taken = {n.lower() for n in p.manifest.names()}
            clash = [n for n in (m.name, m.package) if n.lower() in taken]
            if clash:
                raise ValueError(f"app {m.name} ({m.package}): {clash[0]!r} is taken by "
                                 f"{p.manifest.name} from {p.module}")

    def _check_template(self, t: Any, module: str) -> None:
        if not isinstance(t, Task):
            raise ValueError(f"{module}.TEMPLATES holds {t!r}, not a Task instance")
        if not t.id or not t.template:
            raise ValueError(f"{module}: template {type(t).__name__} has no id or sentence")
        unknown = set(getattr(t, "tags", ())) - TAGS
        if unknown:
            raise ValueError(f"{module}: template {t.id} has unknown tags {sorted(unknown)}; "
                             f"tags: {', '.join(sorted(TAGS))}")
        if t.id in self.templates:
            raise ValueError(f"{module}: task id {t.id!r} is taken by "
                             f"{type(self.templates[t.id]).__module__}")

    def validate(self) -> None:
        """Every template's apps are known apps."""
        names = {p.manifest.name for p in self.packages}
        for t in self.templates.values():
            unknown = [a for a in t.apps if a not in names]
            if unknown:
                raise ValueError(f"task {t.id} is about unknown apps {unknown}; apps: "
                                 f"{', '.join(sorted(names))}")

    def sort(self) -> None:
        self.packages.sort(key=lambda p: (not p.builtin, p.manifest.order, p.manifest.name))


#: The task families (``tasks.families``) a template's job is named by, most specific first.
_FAMILIES = ("CreateRecord", "EditRecord", "DeleteRecord", "SetSetting", "Lookup")


def job(task: Task) -> tuple[str, str, bool]:
    """What a template does, as far as telling two templates apart for a suggestion: its
    family (``CreateRecord``, ``EditRecord``, ``DeleteRecord``, ``SetSetting``, ``Lookup``,
    else its class's base), what it changes or reads (a collection, or a setting as
    ``namespace.key``) and whether it is an infeasible variant."""
    bases = [c.__name__ for c in type(task).__mro__]
    family = next((f for f in _FAMILIES if f in bases), bases[1] if len(bases) > 1 else "")
    target = str(getattr(task, "collection", "") or "")
    if family == "SetSetting":
        target = f"{getattr(task, 'namespace', '')}.{getattr(task, 'key', '')}"
    return family, target, bool(task.infeasible)


def setting_values(task: Task, samples: int = 8) -> frozenset[str] | None:
    """The values a ``SetSetting`` template sets, over ``samples`` seeded params (``"0"``
    for a "turn off" switch, ``"0"`` and ``"1"`` for "turn {state}"); None where any value
    may be set (a matcher, such as a brightness range) or the task sets no setting."""
    value = getattr(task, "value", None)
    if job(task)[0] != "SetSetting" or not callable(value):
        return None
    values: set[str] = set()
    for seed in range(samples):
        v = value(task.sample_params(np.random.default_rng(seed)))
        if isinstance(v, Matcher) and v.values is not None:  # a switch's values of one state
            values |= v.values
            continue
        if not isinstance(v, (str, int, float)):
            return None
        values.add(str(v))
    return frozenset(values)


def same_job(task: Task, candidates: Iterable[Task]) -> list[Task]:
    """The ``candidates`` that do the same job as ``task`` (see ``job``) on the same apps,
    closest first (by sentence, then by id): e.g. ``SettingsWifiOff`` for PhoneWorld's
    ``SettingsTurnOffWifi`` (not ``SettingsWifiOn``: a setting's job includes a value both
    may set, ``setting_values``; nor ``SystemWifiTurnOffVerify``, whose switch is off at the
    start)."""
    def sentence(t: Task) -> str:
        return re.sub(r"\{\w+\}", "{}", t.template.lower())

    def closeness(t: Task) -> tuple[float, float]:
        return (difflib.SequenceMatcher(None, sentence(task), sentence(t)).ratio(),
                difflib.SequenceMatcher(None, task.id.lower(), t.id.lower()).ratio())

    def sets_a_value_of_task(t: Task) -> bool:
        mine, theirs = setting_values(task), setting_values(t)
        return mine is None or theirs is None or bool(mine & theirs)

    wanted = (job(task), set(task.apps), task.done_at_start)
    same = [t for t in candidates if t.id != task.id
            and (job(t), set(t.apps), t.done_at_start) == wanted and sets_a_value_of_task(t)]
    return sorted(same, key=closeness, reverse=True)


#: The cross-app kinds among ``TAGS``.
CROSS_KINDS = ("handoff", "artifact", "persistent", "multihop")


def own_apps(task: Task, registry: Registry) -> set[str]:
    """The apps a task is about, less the host of a mini-program it names (a hotel booking
    in WeChat's Hotel mini-program is about one app, though the episode opens both)."""
    apps = set(task.apps)
    for name in task.apps:
        try:
            host = registry.app(name).manifest.host
        except ValueError:
            continue
        if host:
            apps.discard(registry.app(host).manifest.name)
    return apps


def is_cross_app(task: Task, registry: Registry) -> bool:
    """About two or more apps (``own_apps``), or tagged with a cross-app kind (a booking in a
    mini-program then a message in its host's chat uses the host in its own right)."""
    return len(own_apps(task, registry)) > 1 or bool(task.tags & set(CROSS_KINDS))


def template_counts(registry: Registry) -> dict[str, int]:
    """What the registry holds: ``apps``, ``templates``, ``infeasible``, ``cross_app``
    (templates about two or more apps, a mini-program's host not counted: ``own_apps``) and
    each cross-app kind (``handoff``...), ``mini_program``, ``long_horizon`` and ``safety``
    (infeasible variants count as safety only when tagged ``safety``)."""
    templates = list(registry.templates.values())
    out = {"apps": len(registry.packages), "templates": len(templates),
           "infeasible": sum(t.infeasible for t in templates),
           "cross_app": sum(is_cross_app(t, registry) for t in templates)}
    for tag in (*CROSS_KINDS, "mini_program", "long_horizon", "safety"):
        out[tag] = sum(tag in t.tags for t in templates)
    return out


#: The built-in packages of templates above the apps (the cross-app catalogue).
CATALOGUE_MODULES = ("phone_gym.crossapp", "phone_gym.crossapp.system")
APPS_PACKAGE = "phone_gym.mockapps"


def builtin_modules() -> list[str]:
    """The built-in app packages (every folder of ``phone_gym.mockapps``) and the catalogue's
    template packages, ordered by their last name (the order templates are listed in)."""
    folder = Path(__file__).resolve().parent.parent / "mockapps"
    apps = [f"{APPS_PACKAGE}.{info.name}" for info in pkgutil.iter_modules([str(folder)])
            if info.ispkg and not info.name.startswith("_")]
    return sorted([*apps, *CATALOGUE_MODULES], key=lambda m: m.rsplit(".", 1)[1])


def plugin_entries() -> Sequence[Any]:
    if os.environ.get(NO_PLUGINS_ENV, "").strip() not in ("", "0"):
        return []
    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)


def discover(modules: Iterable[str] | None = None, *, plugins: bool = True) -> Registry:
    """A registry of the built-in packages (or ``modules``) and, with ``plugins``, the
    third-party ones."""
    registry = Registry()
    for name in builtin_modules() if modules is None else modules:
        registry.add_module(importlib.import_module(name), builtin=True)
    for entry in plugin_entries() if plugins else ():
        try:
            loaded = entry.load()
            module = loaded if isinstance(loaded, ModuleType) else importlib.import_module(
                entry.value.split(":")[0])
            snapshot = (list(registry.packages), dict(registry.templates))
            try:
                registry.add_module(module, builtin=False)
                registry.validate()
            except ValueError:
                registry.packages, registry.templates = snapshot
                raise
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not break phone-gym
            message = f"third-party app {entry.name!r} ({entry.value}) skipped: {exc}"
            registry.errors.append(message)
            warnings.warn(message, RuntimeWarning, stacklevel=2)
    registry.sort()
    registry.validate()
    return registry

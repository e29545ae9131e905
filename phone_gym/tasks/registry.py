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
import json
import pkgutil
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from ..verifiers.criteria import Matcher
from ..verifiers.snap import freeze, plain
from ..world.app import UNKNOWN, App, AppHandle
from ..world.manifest import AppManifest, did_you_mean
from .index import ENTRY_POINT_GROUP as ENTRY_POINT_GROUP
from .index import FORMAT, REINDEX, plugin_entries, read_index
from .index import INDEX as INDEX
from .index import NO_PLUGINS_ENV as NO_PLUGINS_ENV
from .task import TAGS, Task


def _load_app(module: str) -> type[App]:
    """The ``APP`` of an app package (imports its code)."""
    app = getattr(importlib.import_module(module), "APP", None)
    if not (isinstance(app, type) and issubclass(app, App)):
        raise ValueError(f"{module}.APP is not an App subclass")
    return app


class AppPackage:
    """One app as discovered: its manifest and where it came from; its class (``app``, also
    through ``handle``, what a device installs) and templates load on first use."""

    def __init__(self, manifest: AppManifest, module: str, builtin: bool = True,
                 app: type[App] | None = None, fresh: Any = UNKNOWN) -> None:
        self.manifest = manifest
        self.module = module
        self.builtin = builtin
        self.handle = (AppHandle.of(app) if app is not None
                       else AppHandle(manifest, partial(_load_app, module), fresh))

    @property
    def app(self) -> type[App]:
        return self.handle.cls

    @property
    def templates(self) -> tuple[Task, ...]:
        return tuple(getattr(importlib.import_module(self.module), "TEMPLATES", ()) or ())

    def __repr__(self) -> str:
        return f"AppPackage({self.manifest.name!r}, {self.module!r})"


class Templates(Mapping[str, Task]):
    """The templates by id, in listing order. The ids (and the module that defines each)
    come from the index (``INDEX``) without importing any app; a template is built when
    first looked up, with the rest of its module's. ``values()`` builds them all."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self._where: dict[str, str] = {}  # id -> the module whose TEMPLATES holds it
        self._built: dict[str, Task] = {}

    def __getitem__(self, task_id: str) -> Task:
        task = self._built.get(task_id)
        if task is None:
            module = self._where[task_id]
            self._registry.load_templates(module)
            task = self._built.get(task_id)
            if task is None:
                raise LookupError(f"template {task_id!r} is in the template index but not in "
                                  f"{module}.TEMPLATES: the index is stale; {REINDEX}")
        return task

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, task_id: object) -> bool:
        return task_id in self._where

    def module_of(self, task_id: str) -> str:
        """The module that defines template ``task_id`` (``KeyError`` for an unknown id)."""
        return self._where[task_id]


class Registry:
    """The apps (launcher order) and templates (by id) phone-gym knows."""

    def __init__(self) -> None:
        self.packages: list[AppPackage] = []
        self.templates = Templates(self)
        self.errors: list[str] = []
        self._loaded: set[str] = set()  # modules whose templates are built

    @property
    def apps(self) -> list[AppHandle]:
        """The installed apps as handles (their code loads on first use)."""
        return [p.handle for p in self.packages]

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
        if isinstance(task_id, str) and task_id in self.templates:
            return self.templates[task_id]
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
    def add_app(self, module: ModuleType, *, builtin: bool, fresh: Any = UNKNOWN) -> bool:
        """Add the app a module declares (its ``MANIFEST``, else its ``APP``'s manifest),
        without loading its code when it has ``MANIFEST`` (``fresh``: its fresh install's
        data snapshot, from the index); False if it declares none."""
        manifest = module.__dict__.get("MANIFEST")
        app_cls = None
        if manifest is None:
            app_cls = module.__dict__.get("APP")
            if app_cls is None:
                return False
            if not (isinstance(app_cls, type) and issubclass(app_cls, App)):
                raise ValueError(f"{module.__name__}.APP is not an App subclass")
            manifest = app_cls.manifest
        if not isinstance(manifest, AppManifest):
            raise ValueError(f"{module.__name__}.MANIFEST is not an AppManifest")
        self._check_app(manifest)
        self.packages.append(AppPackage(manifest, module.__name__, builtin, app_cls, fresh))
        return True

    def add_index(self, module: str, task_ids: Sequence[str]) -> None:
        """List ``task_ids`` as defined by ``module`` (built when first looked up)."""
        for task_id in task_ids:
            self.templates._where.setdefault(task_id, module)

    def add_module(self, module: ModuleType, *, builtin: bool) -> None:
        """Add the app and the templates a module exposes, building the templates now
        (raises ``ValueError`` on a clash)."""
        app_cls = getattr(module, "APP", None)
        if app_cls is not None and "MANIFEST" in dir(module):
            manifest = module.MANIFEST
            if manifest is not app_cls.manifest and manifest != app_cls.manifest:
                raise ValueError(f"{module.__name__}: MANIFEST differs from APP.manifest")
        self.add_app(module, builtin=builtin)
        self._add_templates(module)

    def load_templates(self, module: str) -> None:
        """Build the templates of ``module`` (once), checking that their apps are known."""
        if module not in self._loaded:
            self.check_apps(self._add_templates(importlib.import_module(module)))

    def check_apps(self, templates: Iterable[Task]) -> None:
        """``ValueError`` when one of ``templates`` is about an app the registry lacks."""
        names = {p.manifest.name for p in self.packages}
        for t in templates:
            unknown = [a for a in t.apps if a not in names]
            if unknown:
                raise ValueError(f"task {t.id} is about unknown apps {unknown}; apps: "
                                 f"{', '.join(sorted(names))}")

    def _add_templates(self, module: ModuleType) -> tuple[Task, ...]:
        templates = tuple(getattr(module, "TEMPLATES", ()) or ())
        for t in templates:
            self._check_template(t, module.__name__)
        for t in templates:
            self.templates._where.setdefault(t.id, module.__name__)
            self.templates._built[t.id] = t
        self._loaded.add(module.__name__)
        return templates

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
        where = self.templates._where.get(t.id)
        if t.id in self.templates._built or (where is not None and where != module):
            raise ValueError(f"{module}: task id {t.id!r} is taken by "
                             f"{where or type(self.templates._built[t.id]).__module__}")

    def validate(self) -> None:
        """Every template's apps are known apps (builds every template)."""
        self.check_apps(self.templates.values())

    def sort(self) -> None:
        self.packages.sort(key=lambda p: (not p.builtin, p.manifest.order, p.manifest.name))

    def snapshot(self) -> tuple[Any, ...]:
        """What ``restore`` puts back (to undo a plugin that fails half-way)."""
        tpl = self.templates
        return (list(self.packages), dict(tpl._where), dict(tpl._built), set(self._loaded))

    def restore(self, saved: tuple[Any, ...]) -> None:
        self.packages, where, built, self._loaded = saved
        self.templates._where, self.templates._built = where, built


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


#: The built-in template packages above the apps (the cross-app catalogue), listed after the
#: app folders named like their key.
CATALOGUE: dict[str, str] = {"crossapp": "phone_gym.crossapp",
                             "system": "phone_gym.crossapp.system"}
APPS_PACKAGE = "phone_gym.mockapps"


def builtin_modules() -> list[str]:
    """The built-in app packages (every folder of ``phone_gym.mockapps``) and the
    catalogue's template modules (``phone_gym.crossapp.MODULES``), in listing order: by
    folder name, a catalogue package where its key sorts."""
    folder = Path(__file__).resolve().parent.parent / "mockapps"
    groups = {info.name: [f"{APPS_PACKAGE}.{info.name}"]
              for info in pkgutil.iter_modules([str(folder)])
              if info.ispkg and not info.name.startswith("_")}
    for key, package in CATALOGUE.items():
        modules = getattr(importlib.import_module(package), "MODULES", None)
        groups[key] = list(modules) if modules else [package]
    return [m for key in sorted(groups) for m in groups[key]]


def make_index() -> dict[str, Any]:
    """The template index of the built-in modules, built by importing them all."""
    registry = discover(plugins=False, lazy=False)
    by_module: dict[str, list[str]] = {}
    for task_id in registry.templates:
        by_module.setdefault(registry.templates.module_of(task_id), []).append(task_id)
    fresh = {p.module: plain(p.app.fresh_snapshot()) for p in registry.packages}
    return {"format": FORMAT, "about": "written by `python -m phone_gym.tasks --write-index`; "
            "tests/test_registry_index.py checks it",
            "modules": [[m, by_module.get(m, []), fresh.get(m)] for m in builtin_modules()]}


def index_text(index: Mapping[str, Any]) -> str:
    """``index`` as JSON, one module a line (diffs show which templates moved)."""
    modules = ",\n".join(f"  {json.dumps(entry)}" for entry in index["modules"])
    head = {k: v for k, v in index.items() if k != "modules"}
    return json.dumps(head)[:-1] + ', "modules": [\n' + modules + "\n]}\n"


_DEFAULT: list[Registry] = []


def default_registry() -> Registry:
    """The registry of everything installed (``discover()``), made on first call: what
    ``phone_gym.mockapps.REGISTRY`` is."""
    if not _DEFAULT:
        registry = discover()
        if not _DEFAULT:  # discovery may have asked for it meanwhile
            _DEFAULT.append(registry)
    return _DEFAULT[0]


def discover(modules: Iterable[str] | None = None, *, plugins: bool = True,
             lazy: bool = True) -> Registry:
    """A registry of the built-in packages (or ``modules``) and, with ``plugins``, the
    third-party ones. ``lazy`` (built-in packages only): apps from their manifests and
    template ids from the index, app code and templates loaded on first use; a built-in
    module the index does not list is loaded now."""
    registry = Registry()
    names = builtin_modules() if modules is None else list(modules)
    index = read_index() if lazy and modules is None else {}
    indexed: dict[str, list[str]] = index.get("templates", {})
    fresh: dict[str, Any] = index.get("fresh", {})
    # app folders (their manifests) and the modules the index does not list are imported
    loaded = {name: importlib.import_module(name) for name in names
              if name.startswith(f"{APPS_PACKAGE}.") or name not in indexed}
    for name, module in loaded.items():  # every app first: templates name other apps
        registry.add_app(module, builtin=True,
                         fresh=freeze(fresh[name]) if name in fresh else UNKNOWN)
    for name in names:
        if name in indexed:
            registry.add_index(name, indexed[name])
        else:
            registry.check_apps(registry._add_templates(loaded[name]))
    for entry in plugin_entries() if plugins else ():
        try:
            loaded = entry.load()
            module = loaded if isinstance(loaded, ModuleType) else importlib.import_module(
                entry.value.split(":")[0])
            saved = registry.snapshot()
            try:
                registry.add_module(module, builtin=False)
                registry.check_apps(getattr(module, "TEMPLATES", ()) or ())
            except ValueError:
                registry.restore(saved)
                raise
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not break phone-gym
            message = f"third-party app {entry.name!r} ({entry.value}) skipped: {exc}"
            registry.errors.append(message)
            warnings.warn(message, RuntimeWarning, stacklevel=2)
    registry.sort()
    if not lazy:
        registry.validate()
    return registry

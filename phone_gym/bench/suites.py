"""Named benchmark suites: which task templates a run covers, and on which env id.

Built in: ``"phoneworld"`` (every PhoneWorld template, ``PhoneWorld-v0``), ``"real"`` (the
real-device templates, ``RealPhone-v0``), ``"androidworld"`` (the templates mapped to
AndroidWorld tasks), PhoneWorld-Bench (``"pwbench-single"``, ``"pwbench-cross"``,
``"pwbench-mini"``: 50 fixed (template, seed) instances each, and ``"pwbench"``: all 150;
see ``suites.pwbench`` and docs/bench.md), PhoneWorld-Bench zh (``"pwbench-zh-single"``,
``"pwbench-zh-cross"``, ``"pwbench-zh-mini"``, ``"pwbench-zh"``: on a zh-CN phone), and any
comma list of template ids
(``"ContactsAddContact,ClockAddAlarm"``, PhoneWorld). Plugins call ``register_suite``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..mockapps import REGISTRY, TEMPLATES
from ..suites import SUITES
from ..world.manifest import did_you_mean

CATEGORIES: tuple[str, ...] = ("single", "cross-app", "mini-app", "safety")


@dataclass(frozen=True)
class Suite:
    """A resolved suite: its name, the env id its episodes run on, its template ids, the
    step budget of each (where the suite sets its own: AndroidWorld's 10 x complexity;
    else the template's ``max_steps``), arguments its env needs (``suite=``) and, for a
    suite of fixed instances (PhoneWorld-Bench), its (template id, seed) pairs: a run
    then takes those instead of every template x seed."""

    name: str
    env_id: str
    task_ids: tuple[str, ...]
    budgets: Mapping[str, int] = field(default_factory=dict)
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)
    instances: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class _Entry:
    ids_fn: Callable[[], Sequence[str]]
    env_id: str
    budgets_fn: Callable[[], Mapping[str, int]] | None
    env_kwargs: Mapping[str, Any]
    instances_fn: Callable[[], Sequence[tuple[str, int]]] | None = None


_SUITES: dict[str, _Entry] = {}


def register_suite(name: str, ids_fn: Callable[[], Sequence[str]],
                   env_id: str = "PhoneWorld-v0", *,
                   budgets_fn: Callable[[], Mapping[str, int]] | None = None,
                   env_kwargs: Mapping[str, Any] | None = None,
                   instances_fn: Callable[[], Sequence[tuple[str, int]]] | None = None) -> None:
    """Register a named suite: ``ids_fn()`` returns its template ids (called when a run
    starts, so plugins' templates count), run on ``env_id``; ``budgets_fn()`` the step
    budget per id where the suite has its own rule; ``env_kwargs`` what ``gym.make`` gets;
    ``instances_fn()`` fixed (template id, seed) pairs, for a suite of fixed instances."""
    if not name or "," in name:
        raise ValueError(f"suite name {name!r}; accepted: a non-empty name without commas")
    _SUITES[name] = _Entry(ids_fn, env_id, budgets_fn, dict(env_kwargs or {}), instances_fn)


def _real_ids() -> list[str]:
    from ..envs.real_phone import REAL_TEMPLATES

    return list(REAL_TEMPLATES)


register_suite("phoneworld", lambda: list(TEMPLATES))
register_suite("real", _real_ids, env_id="RealPhone-v0")
# the templates mapped to AndroidWorld tasks (docs/androidworld.md), with AndroidWorld's
# budgets (10 x complexity) and its device date (the env's ``suite=``)
register_suite("androidworld", lambda: SUITES["androidworld"].template_ids,
               budgets_fn=lambda: SUITES["androidworld"].budgets(),
               env_kwargs={"suite": "androidworld"})


def _pwbench(category: str, zh: bool = False) -> tuple[Callable[[], list[str]],
                                                       Callable[[], tuple[tuple[str, int], ...]]]:
    """A PhoneWorld-Bench suite's (template ids, instances) functions (``zh``: of
    PhoneWorld-Bench zh)."""
    from ..suites.pwbench import load, load_zh

    def instances() -> tuple[tuple[str, int], ...]:
        return (load_zh() if zh else load()).suite(category)

    def ids() -> list[str]:
        return list(dict.fromkeys(task for task, _ in instances()))

    return ids, instances


# PhoneWorld-Bench (docs/bench.md): the paper's three suites of 50 fixed instances each
for _name, _category in (("pwbench", "all"), ("pwbench-single", "single"),
                         ("pwbench-cross", "cross"), ("pwbench-mini", "mini")):
    _ids, _instances = _pwbench(_category)
    register_suite(_name, _ids, instances_fn=_instances)
# PhoneWorld-Bench zh (issue 31): the same suites drawn from the zh-CN templates, on a zh-CN
# phone
for _name, _category in (("pwbench-zh", "all"), ("pwbench-zh-single", "single"),
                         ("pwbench-zh-cross", "cross"), ("pwbench-zh-mini", "mini")):
    _ids, _instances = _pwbench(_category, zh=True)
    register_suite(_name, _ids, instances_fn=_instances, env_kwargs={"locale": "zh-CN"})


def suite_names() -> list[str]:
    """The registered suite names."""
    return list(_SUITES)


def resolve_suite(spec: str) -> Suite:
    """A suite by name, or a comma list of PhoneWorld template ids. Unknown names raise
    ``ValueError`` naming the suites and how to list the templates."""
    if spec in _SUITES:
        entry = _SUITES[spec]
        ids = tuple(entry.ids_fn())
        if not ids:
            raise ValueError(f"suite {spec!r} has no tasks")
        budgets = dict(entry.budgets_fn()) if entry.budgets_fn is not None else {}
        instances = tuple(entry.instances_fn()) if entry.instances_fn is not None else ()
        return Suite(spec, entry.env_id, ids, budgets, entry.env_kwargs, instances)
    ids = tuple(part.strip() for part in spec.split(",") if part.strip())
    unknown = [t for t in ids if t not in TEMPLATES]
    if not ids or unknown:
        word = unknown[0] if unknown else spec
        hint = did_you_mean(word, [*_SUITES, *TEMPLATES])
        raise ValueError(f"unknown suite or task {word!r}{hint}; accepted: "
                         f"{', '.join(_SUITES)} or a comma list of template ids "
                         "(`phone-gym tasks` lists them)")
    return Suite(spec, "PhoneWorld-v0", ids)


def template_meta(task_id: str) -> dict[str, Any]:
    """``apps``, ``category`` and ``difficulty`` of a template, as results record them.

    Category: "safety" for an infeasible variant or a template tagged ``safety``, else as
    PhoneWorld-Bench sorts templates (``pwbench.category_of``): "mini-app" for one naming a
    mini-program, "cross-app" for a cross-app one, "single"; difficulty: the template's
    ``complexity``."""
    from ..suites.pwbench import category_of

    template = REGISTRY.template(task_id)
    if template.infeasible or "safety" in template.tags:
        category = "safety"
    else:
        category = {"mini": "mini-app", "cross": "cross-app"}.get(
            category_of(template, REGISTRY), "single")
    return {"apps": list(template.apps), "category": category,
            "difficulty": template.complexity}

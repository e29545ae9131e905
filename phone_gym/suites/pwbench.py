"""PhoneWorld-Bench: fixed evaluation suites that mirror the paper's design (50 single-app, 50
cross-app and 50 mini-app task instances), and the train / test split of templates that keeps
the suites' templates out of training.

A version is frozen data (``pwbench_v<VERSION>.json`` beside this module): the held-out
(test) templates and each suite's instances, a template id and a seed. ``draw`` is the rule
that made it from the registry of its day, kept so that a later version is drawn the same
way; a frozen version never changes, whatever templates are added later (those are train
templates until a new version draws again). Cite a result with ``citation()``: the suite
version and the SHA-256 of its data file.

The rule (``draw``): a template's category is "mini" when it names a mini-program (tag
``mini_program`` or a mini-program app), else "cross" when it is cross-app
(``registry.is_cross_app``), else "single"; infeasible variants are left out of the suites
(safety has its own counts). In each category the templates are ordered by the SHA-256 of
``"phoneworld-bench:<id>"``; the first ``TEST_PERCENT`` % of them (at least enough for 50
instances at ``MAX_SEEDS`` seeds each) are held out, and the suite takes 50 instances from
them round-robin, each with a seed drawn from the same hash.

PhoneWorld-Bench zh (``pwbench_zh_v<ZH_VERSION>.json``, issue 31) is the same three suites
on a zh-CN phone: drawn by the same rule from the feasible templates that run in zh-CN
(``Task.locales``), its own held-out set, version and citation line, and run with
``locale="zh-CN"``. While a category has fewer zh-CN templates than the 13 a suite of 50
needs, all of them are held out and the suite takes ``MAX_SEEDS`` instances of each
(``draw_from(..., partial=True)``); an empty category gives an empty suite until a later
version draws again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

#: The current version and its data file.
VERSION = "1.0"
DATA = Path(__file__).with_name(f"pwbench_v{VERSION}.json")
#: The three suites, in the paper's order.
CATEGORIES = ("single", "cross", "mini")
#: The two splits of templates.
SPLITS = ("train", "test")
#: Instances per suite, share of each category's templates held out, and the most seeds one
#: template contributes to a suite.
SIZE, TEST_PERCENT, MAX_SEEDS = 50, 30, 4
#: PhoneWorld-Bench zh: its version, data file and the locale its suites run in.
ZH_VERSION = "1.0"
ZH_DATA = Path(__file__).with_name(f"pwbench_zh_v{ZH_VERSION}.json")
ZH_LOCALE = "zh-CN"


@dataclass(frozen=True)
class PhoneWorldBench:
    """A frozen version: the held-out templates and each suite's (template, seed) pairs."""

    version: str
    test_templates: frozenset[str]
    instances: Mapping[str, tuple[tuple[str, int], ...]]
    sha256: str
    #: the data file's name, the suite family's name and the locale its episodes run in
    file: str = f"pwbench_v{VERSION}.json"
    name: str = "PhoneWorld-Bench"
    locale: str = "en-US"

    def split_of(self, task_id: str) -> str:
        """"test" for a held-out template, else "train"."""
        return "test" if task_id in self.test_templates else "train"

    def suite(self, category: str) -> tuple[tuple[str, int], ...]:
        """The instances of one suite ("single", "cross" or "mini"), or of all three ("all")."""
        if category == "all":
            return tuple(i for c in CATEGORIES for i in self.instances[c])
        if category not in self.instances:
            raise ValueError(f"PhoneWorld-Bench suite {category!r}; accepted: "
                             f"{', '.join((*CATEGORIES, 'all'))}")
        return self.instances[category]

    def citation(self) -> str:
        """How a paper names the suite version it ran."""
        return f"{self.name} v{self.version} ({self.file}, sha256 {self.sha256[:16]})"


@cache
def load(path: str | Path = DATA) -> PhoneWorldBench:
    """A frozen version from its data file (the current one by default)."""
    raw = Path(path).read_bytes()
    data = json.loads(raw)
    instances = {c: tuple((str(t), int(s)) for t, s in data["instances"][c])
                 for c in CATEGORIES}
    return PhoneWorldBench(str(data["version"]), frozenset(data["test_templates"]),
                           instances, hashlib.sha256(raw).hexdigest(), Path(path).name,
                           str(data.get("name", "PhoneWorld-Bench")),
                           str(data.get("locale", "en-US")))


def load_zh() -> PhoneWorldBench:
    """PhoneWorld-Bench zh's current version (``ZH_DATA``)."""
    return load(ZH_DATA)


def split_of(task_id: str) -> str:
    """The split of a template in the current version: "test" (held out) or "train"."""
    return load().split_of(task_id)


def _rank(text: str) -> int:
    return int.from_bytes(hashlib.sha256(f"phoneworld-bench:{text}".encode()).digest()[:8],
                          "big")


def category_of(task: Any, registry: Any) -> str:
    """"mini", "cross" or "single" (see the module docstring)."""
    from ..tasks.registry import is_cross_app

    if "mini_program" in task.tags or any(registry.app(a).manifest.mini_program
                                           for a in task.apps):
        return "mini"
    return "cross" if is_cross_app(task, registry) else "single"


def draw(registry: Any, version: str = VERSION, locale: str | None = None) -> dict[str, Any]:
    """The data of a version drawn from ``registry`` by the rule of the module docstring;
    with ``locale`` (PhoneWorld-Bench zh: ``ZH_LOCALE``), from the templates that run in it,
    partial suites allowed, the data naming the locale and the suite family."""
    by_category: dict[str, list[str]] = {c: [] for c in CATEGORIES}
    for task in registry.templates.values():
        if not task.infeasible and (locale is None or locale in task.locales):
            by_category[category_of(task, registry)].append(task.id)
    data = draw_from(by_category, version, partial=locale is not None)
    if locale is not None:
        data = {"name": f"PhoneWorld-Bench {locale.split('-')[0]}", "locale": locale, **data}
    return data


def draw_from(by_category: Mapping[str, Sequence[str]], version: str = VERSION,
              partial: bool = False) -> dict[str, Any]:
    """The rule on the feasible template ids of each category (kept in the data as
    ``drawn_from``, so that a test can apply the rule again). ``partial``: a category with
    fewer templates than a suite of ``SIZE`` needs holds them all out and gives
    ``MAX_SEEDS`` instances of each (else ``ValueError``)."""
    test: list[str] = []
    instances: dict[str, list[tuple[str, int]]] = {}
    for category in CATEGORIES:
        ordered = sorted(by_category[category], key=_rank)
        held = max(-(-TEST_PERCENT * len(ordered) // 100), -(-SIZE // MAX_SEEDS))
        if held > len(ordered):
            if not partial:
                raise ValueError(f"{category}: {len(ordered)} templates; PhoneWorld-Bench "
                                 f"needs at least {held}")
            held = len(ordered)
        chosen = ordered[:held]
        test += chosen
        instances[category] = [(chosen[k % held], _rank(f"{chosen[k % held]}#{k // held}")
                                % 10_000) for k in range(min(SIZE, held * MAX_SEEDS))]
    return {"version": version, "test_templates": sorted(test), "instances": instances,
            "drawn_from": {c: sorted(by_category[c]) for c in CATEGORIES}}


def write(registry: Any, path: str | Path, version: str = VERSION,
          locale: str | None = None) -> None:
    """Freeze a version drawn from ``registry`` into ``path`` (run once per version)."""
    Path(path).write_text(json.dumps(draw(registry, version, locale), indent=1,
                                     ensure_ascii=False) + "\n", encoding="utf-8")


def bench_table(bench: PhoneWorldBench, registry: Any,
                categories: Sequence[str] = CATEGORIES) -> str:
    """The instances as Markdown rows (suite, template, seed, apps), for ``docs/bench.md``."""
    rows = ["| suite | # | template | seed | apps |", "|---|---|---|---|---|"]
    for category in categories:
        for k, (task_id, seed) in enumerate(bench.suite(category), 1):
            apps = ", ".join(registry.template(task_id).apps)
            rows.append(f"| {category} | {k} | `{task_id}` | {seed} | {apps} |")
    return "\n".join(rows)


#: The markers around the generated parts of ``docs/bench.md``: v1.0's and zh's.
MARKERS = ("<!-- instances -->", "<!-- /instances -->")
ZH_MARKERS = ("<!-- zh-instances -->", "<!-- /zh-instances -->")


def with_instances(page: str, registry: Any) -> str:
    """``page`` with the text between ``MARKERS`` (and ``ZH_MARKERS``, where the page has
    them) replaced by the citation line and the instance table of the current version."""
    for markers, bench in ((MARKERS, load()), (ZH_MARKERS, load_zh())):
        if markers[0] not in page:
            continue
        start, end = page.index(markers[0]), page.index(markers[1])
        block = f"{markers[0]}\n{bench.citation()}\n\n{bench_table(bench, registry)}\n"
        page = page[:start] + block + page[end:]
    return page

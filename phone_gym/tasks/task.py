"""The task contract: one ``Task`` class for PhoneWorld and real phones, and ``Episode``.

A task template has a sentence with ``{params}``, samples its params from a seeded
generator, writes the initial state through the ``DeviceState`` facade, verifies the final
state (plus the agent's answer) against the initial one with criteria and allowed changes,
and has an oracle that solves it through actions, reading the screen through the UI
element list. Written once, it runs in PhoneWorld, over adb and on the virtual adb device
(``real = True`` marks the templates whose setup, checks and oracle a real phone supports).

Most templates derive from a family in ``families`` and are a dozen lines: the criteria and
allowed changes are data, and near misses (negatives for tests) are derived from them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Protocol

import numpy as np

from ..actions import PhoneAction
from ..verifiers import Allowed, Criterion, Verdict, Watch, check
from ..verifiers.negatives import NearMiss, derive_negatives
from ..verifiers.snap import freeze
from ..verifiers.state import DeviceState
from ..world import Device
from ..world.a11y import UIElement, pixel_texts, ui_elements
from ..world.locale import DEFAULT_LOCALE
from ..world.state import WorldState
from ..world.system import DEFAULT_START
from .driver import Driver, OracleError, Unrecoverable, default_reason, step_instruction
from .spare import spare_steps
from .vocab import pick  # noqa: F401 - where templates used to find it

#: The tags a template may carry (``Task.tags``).
TAGS: frozenset[str] = frozenset({"handoff", "artifact", "persistent", "multihop",
                                  "mini_program", "long_horizon", "safety"})
#: How often the oracle runner starts a script over (from a clean app) before giving up.
MAX_RESTARTS = 3
#: How many params an episode samples on a phone that already holds data before it gives
#: up (every sample clashed with what is there).
MAX_SETUP_TRIES = 20


@cache
def data_catalogue(module_file: str, locale: str) -> Mapping[str, str]:
    """An app's seeded data in ``locale``: ``strings/<locale>.data.json`` beside
    ``module_file`` (its ``tasks.py`` or ``fixtures.py``), ``{English datum: datum}``
    ({} when there is none). Distinct data stay distinct (ValueError otherwise): two names
    drawn apart must not become one. A key ``"context:datum"`` translates ``datum`` where it
    means something else (``"Doneness:Medium"``: 五分熟, where "Medium" is otherwise 适中):
    ``localize_datum(datum, table, context)`` prefers it."""
    path = Path(module_file).parent / "strings" / f"{locale}.data.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in data.items()):
        raise ValueError(f"{path}: a data catalogue is a JSON object of strings to strings")
    twins = sorted({v for v in data.values() if list(data.values()).count(v) > 1})
    if twins:
        raise ValueError(f"{path}: several data become {', '.join(twins)}")
    return data


def localize_datum(text: str, table: Mapping[str, str], context: str = "") -> str:
    """The datum ``text`` in ``table``'s words: its ``"context:text"`` entry when ``context``
    is given and the table has one, else its plain entry, else ``text`` itself."""
    if context and f"{context}:{text}" in table:
        return table[f"{context}:{text}"]
    return table.get(text, text)


def localize_data(value: Any, table: Mapping[str, str]) -> Any:
    """``value`` (params: strings, numbers, lists, tuples, dicts) with every string that is
    a key of ``table`` replaced by its entry; dict keys and other strings are kept."""
    if isinstance(value, str):
        return table.get(value, value)
    if isinstance(value, Mapping):
        return {k: localize_data(v, table) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(localize_data(v, table) for v in value)
    return value


class SetupError(RuntimeError):
    """A task cannot be set up on this phone: every params sample clashes with data the
    phone already holds (a same-name contact, an alarm at the same time, a taken file name),
    which would make the task ambiguous or impossible."""


class Task:
    """Subclass and set the class attributes; override the methods you need.

    ``id`` defaults to the class name. A class with an empty ``template`` is a base class
    (not registered).
    """

    #: Unique CamelCase id, also used in the env id ``PhoneWorld-{id}-v0``.
    id: ClassVar[str] = ""
    #: The apps the task is about (their names; used to select tasks by app).
    apps: ClassVar[tuple[str, ...]] = ()
    #: The instruction, formatted with the params.
    template: ClassVar[str] = ""
    #: Rough difficulty (1 easy .. 5 hard) and the step budget.
    complexity: ClassVar[int] = 1
    max_steps: ClassVar[int] = 20
    #: True for information-retrieval tasks that end with ``answer``.
    needs_answer: ClassVar[bool] = False
    #: True for a task that cannot be done on its phone (the contact to delete does not
    #: exist...): its one right end is ``finish(status="infeasible")`` with nothing changed.
    infeasible: ClassVar[bool] = False
    #: True for a task whose start state is already its target (AndroidWorld's "...Verify"
    #: tasks): finishing at once passes, and any change of what it checks fails.
    done_at_start: ClassVar[bool] = False
    #: What kind of task this is beyond its apps (``TAGS``): the cross-app kinds
    #: (``handoff``: read in one app, use in another; ``artifact``: a file, photo or document
    #: made in one app and used in another; ``persistent``: state one app leaves that another
    #: shows or a later step relies on; ``multihop``: three or more apps in a chain),
    #: ``mini_program`` (runs in a super-app's mini-program), ``long_horizon`` (the oracle
    #: needs 25 steps or more) and ``safety`` (the right end is to stop, refuse or leave an
    #: unsafe step undone).
    tags: ClassVar[frozenset[str]] = frozenset()
    #: The frozen start time of the episode's clock (PhoneWorld).
    start: ClassVar[datetime] = DEFAULT_START
    #: Whether the task runs on real phones too (``RealPhone-v0``): its setup, checks and
    #: oracle use only what adb offers.
    real: ClassVar[bool] = False
    #: Real phones: packages force-stopped at reset (default: the apps' packages, given by
    #: the env), and packages wiped with ``pm clear`` when the env may wipe app data.
    packages: ClassVar[tuple[str, ...]] = ()
    data_packages: ClassVar[tuple[str, ...]] = ()
    #: Real phones: what the snapshots (and so the collateral-damage check) cover.
    watch: ClassVar[Watch] = Watch()
    #: Values the oracle computes from what it saw rather than copies (the grounding
    #: audit, ``phone_gym.testing.grounding``): ``{"answer": "the sum of the amounts
    #: listed"}``, ``{"type": ...}``. The audit accepts them and lists them.
    derivations: ClassVar[Mapping[str, str]] = {}
    #: The phone locales the template runs in (``world.locale.LOCALES``): in each, its
    #: instruction, its setup's data and its oracle fit the phone's language.
    locales: ClassVar[tuple[str, ...]] = ("en-US",)
    #: The instruction in the other locales it runs in (``{"zh-CN": "..."}``), formatted
    #: with ``localize(params, locale)``.
    instructions: ClassVar[Mapping[str, str]] = {}
    #: The seeded data in the other locales it runs in (``{"zh-CN": data_catalogue(...)}``):
    #: there the params are drawn as in en-US, then localized (``sample_in``).
    data: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    #: Set on an app's base of templates that run in more locales: its subclasses in
    #: other modules (cross-app templates built on the app's, with their own English steps
    #: and instructions) run in en-US unless they declare their own ``locales``.
    locales_stay_home: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "id" not in cls.__dict__:
            cls.id = cls.__name__
        home = next((c for c in cls.__mro__[1:] if c.__dict__.get("locales_stay_home")), None)
        if home is not None and cls.__module__ != home.__module__ \
                and "locales" not in cls.__dict__:
            cls.locales = (DEFAULT_LOCALE,)

    # --- what a template defines -----------------------------------------------------------
    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """The params of one task instance (plain data)."""
        return {}

    def sample_in(self, rng: np.random.Generator, locale: str) -> dict[str, Any]:
        """The params for a phone in ``locale``: ``sample_params``'s draw (the same random
        draws in every locale) with its data in ``locale``'s words (``data``), so that setup,
        the instruction, the verifier and the oracle all see the localized values."""
        params = self.sample_params(rng)
        if locale == DEFAULT_LOCALE or not self.data.get(locale):
            return params
        return self.localize_params(params, self.data[locale])

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """``params`` in the words of the data catalogue ``table`` (``localize_data``; a
        template whose data need a context, ``localize_datum``, overrides it)."""
        return localize_data(params, table)  # type: ignore[no-any-return]

    def setup(self, state: DeviceState, params: Mapping[str, Any],
              rng: np.random.Generator) -> None:
        """Write the initial state (records the task needs, plus distractors)."""

    def prefill(self, state: DeviceState) -> None:
        """Write data the phone holds before ``setup`` whatever the params and seed (a
        large roster, years of messages, an app's thousands of notes): data only (the
        system's stores, apps' data; no app opened), the same on every call.
        PhoneWorld runs it once per env and puts it back at each reset at the cost of what
        the episode changed; the default writes nothing."""

    def instruction(self, params: Mapping[str, Any]) -> str:
        return self.template.format(**params)

    def localize(self, params: Mapping[str, Any], locale: str) -> Mapping[str, Any]:
        """The params as ``locale``'s instruction writes them (dates, amounts, counts)."""
        return params

    def instruction_in(self, params: Mapping[str, Any], locale: str) -> str:
        """The instruction in ``locale`` (ValueError for a locale the template lacks)."""
        if locale not in self.locales:
            raise ValueError(f"{self.id} does not run in locale {locale!r}; accepted: "
                             f"{', '.join(self.locales)}")
        if locale == "en-US":
            return self.instruction(params)
        return self.instructions[locale].format(**self.localize(params, locale))

    def conflicts(self, params: Mapping[str, Any], existing: Mapping[str, Any]) -> str | None:
        """Why ``params`` would make an ambiguous or impossible task on a phone that already
        holds ``existing`` (its snapshot before setup: real phones keep their owner's data),
        or None when they are fine. Families check their records; the episode samples other
        params until none clash."""
        return None

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        """What must hold in the final state (may depend on the initial one)."""
        return ()

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        """The changes the task asks for (patterns, or ``Allow`` rules with counts)."""
        return ()

    def verify(self, initial: Mapping[str, Any], final: Mapping[str, Any],
               params: Mapping[str, Any], answer: str | None) -> Verdict:
        """Criteria hold and nothing else changed."""
        return check(initial, final, self.criteria(params, initial),
                     allowed=self.allowed(params, initial), answer=answer)

    def judge(self, initial: Mapping[str, Any], final: Mapping[str, Any],
              params: Mapping[str, Any], answer: str | None,
              status: str | None = None) -> Verdict:
        """``verify`` with the agent's way of ending taken in (``judge_end``): what an
        episode scores when it ends with ``answer`` or ``finish(status=status)``."""
        return judge_end(self, self.verify(initial, final, params, answer), answer, status)

    def near_misses(self, initial: Mapping[str, Any], final: Mapping[str, Any],
                    params: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        """Wrong end states close to a solved one, for tests: the ones derived from the
        criteria (each checked field changed, an extra record, the target back or gone, a
        wrong answer), the right end state declared infeasible, plus
        ``declared_near_misses``. ``judge`` must fail every one."""
        derived = derive_negatives(self.criteria(params, initial), initial, final, answer)
        ending = [NearMiss(final, None, "a feasible task declared infeasible",
                           status="infeasible")] if not self.infeasible else []
        return [*derived, *ending, *self.declared_near_misses(initial, final, params, answer)]

    def declared_near_misses(self, initial: Mapping[str, Any], final: Mapping[str, Any],
                             params: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        """Task-specific wrong end states (the wrong record changed, a preview as the
        answer...)."""
        return []

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        """Yield actions that solve the task from a fresh start of its apps; read the screen
        (and, to plan, the state) through ``ui``. Check state before toggling anything, so
        that a script started again after other actions still does the right thing."""
        raise NotImplementedError
        yield  # pragma: no cover

    def __repr__(self) -> str:
        return f"<task {self.id}>"


def judge_end(task: Task, verdict: Verdict, answer: str | None, status: str | None) -> Verdict:
    """``verdict`` (on the state and answer) with the agent's way of ending taken in:
    declaring a feasible task infeasible fails; an infeasible task passes only on
    ``finish(status="infeasible")`` with nothing changed (its ``verdict``: no changes)."""
    if task.infeasible:
        if status != "infeasible":
            how = "answered" if answer is not None else "did not declare it infeasible"
            return Verdict(False, f"the task cannot be done on this phone, and the agent {how}",
                           0.0, verdict.damage)
        if not verdict.success:
            return Verdict(False, f"declared infeasible, but {verdict.reason}", 0.5,
                           verdict.damage)
        return Verdict(True, "declared infeasible, with nothing changed", 1.0)
    if status == "infeasible":
        return Verdict(False, "the agent declared the task infeasible, but it can be done",
                       verdict.progress, verdict.damage)
    return verdict


def placeholders(template: str) -> set[str]:
    """The ``{names}`` a template sentence uses."""
    return set(re.findall(r"{(\w+)", template))


# --- phones an episode runs on ----------------------------------------------------------------
class Host(Protocol):
    """What an episode needs of a phone: its state, a reset for a task, snapshots and the
    UI element list."""

    @property
    def state(self) -> DeviceState:
        """The phone's state (read-only, so that a host may hold a subtype: ``WorldState``)."""
        ...

    def begin(self, task: Task) -> None: ...

    def snapshot(self, task: Task) -> dict[str, Any]: ...

    def elements(self) -> Sequence[UIElement]: ...

    def version(self) -> int | None:
        """A number that grows when the phone's data changes (None: unknown)."""
        ...


class WorldHost:
    """A PhoneWorld ``Device`` as an episode's phone (``fresh``: after ``begin`` it holds
    only what the task's setup writes). ``start``: the clock every episode starts at (a
    suite's fixed device date), instead of each template's own ``start``."""

    fresh = True

    def __init__(self, device: Device, start: datetime | None = None) -> None:
        self.device = device
        self.state = WorldState(device)
        self.start = start

    def begin(self, task: Task) -> None:
        start = self.start or task.start
        if type(task).prefill is Task.prefill:
            self.device.reset(start)
        else:
            self.device.reset(start, prefill=(task, lambda: task.prefill(self.state)))

    @property
    def locale(self) -> str:
        """The phone's locale (``world.locale``)."""
        return self.device.locale

    def snapshot(self, task: Task) -> dict[str, Any]:
        """The device's data, and ``foreground``: the package on screen (ignored by the
        collateral-damage check; a criterion may name it: "the SMS app is open")."""
        return {**self.device.snapshot(), "foreground": self.device.foreground_package()}

    def elements(self) -> Sequence[UIElement]:
        return ui_elements(self.device.frame())

    def picture_texts(self) -> list[str]:
        """The text drawn into the pictures on screen (what a vision model reads)."""
        return pixel_texts(self.device.frame())

    def version(self) -> int | None:
        return self.device.journal.version

    @property
    def foreground(self) -> str:
        """The package on screen (a verdict that reads it is stale when it changes)."""
        return self.device.foreground_package()


def as_host(phone: Device | Host) -> Host:
    return WorldHost(phone) if isinstance(phone, Device) else phone


class Episode:
    """One task instance on a phone: params, instruction, initial snapshot, verifier, and an
    oracle that acts from the current state.

    The oracle runner (``oracle_action``) runs the template's script; when the screen is not
    what the script expects (an ``OracleError``), or when the env carried out an action other
    than the oracle's last one (``observe``: an agent acted in between), it starts over:
    back home, the task's apps closed, then the script again. It raises ``Unrecoverable``
    when the phone holds changes the task does not allow (no script can undo a deletion).
    """

    def __init__(self, template: Task, phone: Device | Host, rng: np.random.Generator) -> None:
        self.template = template
        self.host = as_host(phone)
        #: The phone's locale: the instruction's language and the data's.
        self.locale: str = getattr(self.host, "locale", "en-US")
        if self.locale not in template.locales:
            raise ValueError(f"{template.id} does not run in locale {self.locale!r}; "
                             f"accepted: {', '.join(template.locales)}")
        self.host.begin(template)
        self.params = self._sample(template, rng)
        #: The params, read-only (``info["params"]`` is a fresh copy of them at every step).
        self.public_params = freeze(self.params)
        template.setup(self.host.state, self.params, rng)
        self.instruction = template.instruction_in(self.params, self.locale)
        self.initial = self.host.snapshot(template)
        self._script: Iterator[PhoneAction] | None = None
        self._expect: PhoneAction | None = None
        self._restarts = 0
        #: How the oracle ended (``solve``): a ``finish`` status, or None after an answer.
        self.end_status: str | None = None
        self._fresh = True  # the phone is as setup left it: scripts start directly
        self._verdict: tuple[Any, Verdict] | None = None
        self._judge: tuple[Sequence[Criterion], Sequence[Allowed]] | None = None
        self._driver: Driver | None = None
        #: The script starts on the phone as setup left it, no step spent: longer routes
        #: may use the budget's spare; after other steps, the direct route only.
        self._fresh_start = True
        self._acted = False
        #: Oracle routes picked from the seed (``Driver.choose``); False: always the first.
        self.routes = True
        #: Recoverable detours in the oracle's way (``Driver.detours``), for SFT data.
        self.detours = False
        #: Mixed into the route picks: another value, maybe another route (same task).
        self.route_seed = 0
        #: The step budget the episode runs under when not the template's own (a suite's):
        #: longer routes fit only in what it leaves.
        self.budget: int | None = None

    def _sample(self, template: Task, rng: np.random.Generator) -> dict[str, Any]:
        """Params for this phone: on one that already holds data (not a fresh PhoneWorld
        phone), samples until they do not clash with it (``Task.conflicts``)."""
        params = template.sample_in(rng, self.locale)
        if getattr(self.host, "fresh", False):
            return params
        existing = self.host.snapshot(template)
        why = template.conflicts(params, existing)
        for _ in range(MAX_SETUP_TRIES - 1):
            if why is None:
                return params
            params = template.sample_in(rng, self.locale)
            why = template.conflicts(params, existing)
        if why is None:
            return params
        raise SetupError(f"{template.id} cannot be set up on this phone: {why} (in all "
                         f"{MAX_SETUP_TRIES} params samples); remove that data or pick "
                         "another task")

    @property
    def device(self) -> Device:
        """The PhoneWorld device (PhoneWorld episodes only)."""
        host = self.host
        if not isinstance(host, WorldHost):
            raise AttributeError("this episode runs on a real phone, not a PhoneWorld device")
        return host.device

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the running oracle (a generator): it restarts when next asked."""
        return {**self.__dict__, "_script": None, "_expect": None, "_verdict": None,
                "_judge": None, "_driver": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.public_params = freeze(self.params)

    # --- verifying ---------------------------------------------------------------------------
    def verify(self, answer: str | None = None, status: str | None = None) -> Verdict:
        """The verdict on the phone's current state, for the agent's ``answer`` and its
        ``finish`` status (cached while the data is unchanged).

        ``status="infeasible"`` (the agent says the task cannot be done) passes only an
        ``infeasible`` task, and only when nothing changed; every other end fails one."""
        version = self.host.version()
        key = (version, answer, getattr(self.host, "foreground", None))
        if version is not None and self._verdict is not None and self._verdict[0] == key:
            verdict = self._verdict[1]
        else:
            final = self.host.snapshot(self.template)
            template = self.template
            if type(template).verify is Task.verify:  # the criteria, made once per episode
                if self._judge is None:
                    self._judge = (template.criteria(self.params, self.initial),
                                   template.allowed(self.params, self.initial))
                criteria, allowed = self._judge
                verdict = check(self.initial, final, criteria, allowed=allowed, answer=answer)
            else:
                verdict = template.verify(self.initial, final, self.params, answer)
            self._verdict = (key, verdict)
        return judge_end(self.template, verdict, answer, status)

    # --- the oracle --------------------------------------------------------------------------
    def driver(self) -> Driver:
        """The driver the oracle acts through: on PhoneWorld it picks routes from this
        episode (``Driver.choose``: the same seed, the same route) and reads pictures."""
        host = self.host
        if not isinstance(host, WorldHost):
            return Driver(host.elements, host.state, locale=self.locale)
        key = f"{self.template.id}\n{self.instruction}\n{self.route_seed}"
        digest = hashlib.sha256(key.encode()).digest()
        routes = np.random.default_rng(int.from_bytes(digest[:8], "little"))
        return Driver(host.elements, host.state, pictures=host.picture_texts,
                      routes=routes if self.routes else None, detours=self.detours,
                      spare=self._spare() if self._fresh_start else 0, locale=self.locale)

    def _spare(self) -> int:
        """The steps beyond the oracle's direct route that this episode's budget leaves
        (``spare.json`` is measured against the template's own budget; an env that runs
        it under a tighter one, a suite's, leaves fewer)."""
        budget = self.budget if self.budget is not None else self.template.max_steps
        return max(0, spare_steps().get(self.template.id, 0)
                   - max(0, self.template.max_steps - budget))

    def oracle_step(self) -> tuple[PhoneAction, str, str]:
        """The oracle's next action with its reason and its step instruction ("Tap Save"):
        what an SFT example carries beside the action."""
        action = self.oracle_action()
        driver = self._driver
        reason = driver.reason if driver is not None else ""
        instruction = step_instruction(action, self.host.elements())
        return action, reason or default_reason(action, self.instruction), instruction

    def observe(self, action: PhoneAction | None) -> None:
        """The env carried out ``action``: if it is not the oracle's last suggestion, the
        script starts over when next asked."""
        if action is None or action.type in ("answer", "finish"):
            return
        if self._expect is None or action != self._expect:
            self._acted = True
            self._script = None
            self._fresh = False
        self._expect = None

    def oracle_action(self) -> PhoneAction:
        """The oracle's next action for the current screen (``finish`` once it is done)."""
        for _ in range(MAX_RESTARTS + 1):
            if self._script is None:
                self._script = self._start()
            try:
                action = next(self._script)
            except StopIteration:
                action = PhoneAction("finish", status="success")
            except Unrecoverable:
                raise
            except OracleError:
                self._script, self._fresh = None, False
                self._restarts += 1
                if self._restarts > MAX_RESTARTS:
                    raise
                continue
            self._expect = action
            return action
        raise OracleError(f"the oracle of {self.template.id} is stuck")

    def restart_oracle(self) -> None:
        """Make the next ``oracle_action`` start the script over from a clean app, even on a
        damaged state (no ``Unrecoverable``): for adversarial tests (damage first, then the
        right actions, must still fail) and for labelling damaged states."""
        self._script = self._clean_start()
        self._expect = None
        self._restarts = 0

    def _start(self) -> Iterator[PhoneAction]:
        if self._fresh:
            self._fresh_start = self._restarts == 0 and not self._acted
            self._driver = self.driver()
            return self.template.oracle(self._driver, self.params)
        damage = self.verify(None).damage
        if damage:
            more = f" (+{len(damage) - 1} more)" if len(damage) > 1 else ""
            raise Unrecoverable(f"{self.template.id} cannot succeed from here: unexpected "
                                f"change {damage[0]}{more}")
        return self._clean_start()

    def _clean_start(self) -> Iterator[PhoneAction]:
        """Home, the task's apps closed (their drafts and dialogs gone), then the script."""
        yield PhoneAction("press", button="home")
        for app in self.template.apps:
            yield PhoneAction("close_app", app=app)
        self._fresh = True
        self._fresh_start = False  # steps were spent: the direct route only
        self._driver = self.driver()
        yield from self.template.oracle(self._driver, self.params)

    def solve(self, max_steps: int | None = None,
              act: Callable[[PhoneAction], str | None] | None = None) -> tuple[str | None, int]:
        """Run the oracle until it answers or finishes; ``act`` carries out an action
        (default: the PhoneWorld device's ``step``).

        Returns the answer (None for ``finish``) and the number of actions taken; the
        ``finish`` status is kept in ``end_status`` (None after an answer). Raises
        ``RuntimeError`` if an action fails or the budget runs out.
        """
        budget = self.template.max_steps if max_steps is None else max_steps
        run = act if act is not None else self.device.step
        for steps in range(budget):
            action = self.oracle_action()
            if action.type in ("answer", "finish"):
                self.end_status = action.status if action.type == "finish" else None
                return action.text, steps
            error = run(action)
            if error is not None:
                raise RuntimeError(f"oracle action {action} failed: {error}")
            self.observe(action)
        raise RuntimeError(f"oracle of {self.template.id} did not finish in {budget} steps")


# the old name of the contract's base class
TaskTemplate = Task

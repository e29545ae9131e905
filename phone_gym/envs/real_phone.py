"""RealPhoneEnv: an Android phone over adb as a Gymnasium environment."""

from __future__ import annotations

import functools
import logging
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

from ..actions import ActionError, PhoneAction, format_action, make_action_space
from ..mockapps import REGISTRY, TEMPLATES, Episode, Task
from ..real.backend import (
    BACKENDS,
    STATUS_COMMAND,
    BootIdentity,
    U2Backend,
    boot_identity,
    focus_or_first_node,
    network_refusal,
    parse_boot,
    turned_size,
)
from ..real.base import Backend, DeviceError, SetupRefused
from ..real.commands import CLEAR_FIELD, package_of, to_commands, to_pixels, type_text
from ..real.first_run import dismiss_first_run, grant_needed
from ..real.frames import black_reason, focused_component, is_black
from ..real.guard import Decision, SafetyGuard, Screen
from ..real.packages import app_packages
from ..real.profile import (
    FIRST_RUN_RULES,
    DeviceProfile,
    FirstRunRule,
    needed_permissions,
    read_profile,
    resolve_packages,
    skip_reason,
)
from ..real.state import AdbState
from ..real.upkeep import KeepAwake, PhoneLocked, make_usable
from ..real.watch import task_watch
from ..tasks.registry import same_job
from ..tasks.task import SetupError
from ..verifiers import Verdict, observe
from ..verifiers.snap import thaw
from ..world.a11y import UIElement, format_elements, parse_xml
from ..world.manifest import did_you_mean
from .contract import (
    check_args,
    choose_template,
    end_info,
    ended_error,
    observation,
    observation_space,
    read_action,
)
from .marks import draw_marks, resolve_index


def fit(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` resized to ``size`` (a whole-number reduction is a fast box filter), in
    RGB: an ``"RGBX"`` frame (``AdbBackend.frame``) is reduced first and converted after,
    the same pixels for a quarter of the conversion."""
    if image.size != size:
        fx, fy = image.size[0] / size[0], image.size[1] / size[1]
        if fx == fy and fx.is_integer():
            image = image.reduce(int(fx))
        else:
            image = image.resize(size, Image.Resampling.BILINEAR)
    return image if image.mode == "RGB" else image.convert("RGB")


log = logging.getLogger(__name__)

#: The templates that run on real phones (``real = True``), by id.
REAL_TEMPLATES: dict[str, Task] = {t.id: t for t in TEMPLATES.values() if t.real}
#: How many templates a reset tries when setups fail on this phone before it gives up.
MAX_TEMPLATE_TRIES = 5


#: The last Android version (API level) whose ``input`` command starts a VM per call.
SLOW_INPUT_MAX_SDK = 30
#: Seconds between the two taps of a double click sent through uiautomator2.
DOUBLE_TAP_GAP = 0.05


def select_real_templates(task: str | Sequence[str] | None = None) -> list[Task]:
    """Real-device templates by id (all when None). An id that is not one raises
    ``ValueError``: a PhoneWorld-only template's error names the real-device template that
    does the same job (``SettingsTurnOffWifi``: did you mean ``SettingsWifiOff``?), an
    unknown id's the closest real-device ids; both name ``phone-gym tasks --real``."""
    if task is None:
        return list(REAL_TEMPLATES.values())
    listing = "run `phone-gym tasks --real` to list the real-device tasks"
    ids = [task] if isinstance(task, str) else list(task) if isinstance(task, Sequence) else []
    if not all(isinstance(t, str) for t in ids) or not isinstance(task, (str, Sequence)):
        raise ValueError(f"task={task!r}; accepted: a task id, a list of ids or None "
                         f"(all); {listing}")
    if not ids:
        raise ValueError("task=[]: name at least one task (run `phone-gym tasks --real`)")
    for t in ids:
        if t in REAL_TEMPLATES:
            continue
        if t in TEMPLATES:
            twins = same_job(TEMPLATES[t], REAL_TEMPLATES.values())
            hint = (f"; did you mean {twins[0].id!r}? (the real-device task that does the "
                    "same job)" if twins else
                    " (its setup, checks or oracle need more than adb offers)")
            raise ValueError(f"task {t!r} runs in PhoneWorld only{hint}; {listing}")
        raise ValueError(f"unknown task {t!r}{did_you_mean(t, REAL_TEMPLATES)}; {listing} "
                         "(`phone-gym tasks` lists PhoneWorld's)")
    return [REAL_TEMPLATES[t] for t in ids]


def task_packages(task: Task, packages: Mapping[str, str]) -> tuple[str, ...]:
    """The packages of ``task``'s own apps: its ``packages``, else its apps' in
    ``packages`` (app name -> package)."""
    if task.packages:
        return task.packages
    return tuple(packages[a] for a in task.apps if a in packages)


class RealHost:
    """A phone over adb as an episode's phone: at the start the task's apps' data wiped
    (only with ``wipe_app_data=True``), then for each app the runtime permissions it needs
    granted (``real.first_run.grant_needed``), the app closed without stopping it
    (``AdbState.close_app``: restarted on its start screen, nothing of the owner's lost)
    and any first-run screen on it dismissed (``dismiss_first_run``, by the profile's
    rules), then home; snapshots of what the task watches.

    No ``am force-stop`` at reset: on Android it cancels every alarm the app has set (AOSP
    ``ActivityManagerService.forceStopPackage`` -> ``ACTION_PACKAGE_RESTARTED`` ->
    ``AlarmManagerService`` removes the package's alarms) and leaves it stopped, so the
    owner's alarms would stay silent until the clock is next opened."""

    def __init__(self, state: AdbState, env: RealPhoneEnv) -> None:
        self.state = state
        self.env = env

    def packages(self, task: Task) -> tuple[str, ...]:
        return task_packages(task, self.env.packages)

    def begin(self, task: Task) -> None:
        if self.env.wipe_app_data:  # first: `pm clear` also resets permissions
            for package in task.data_packages or self.packages(task):
                self.state.clear_app(package)
        profile = self.env.profile
        sdk = profile.sdk if profile is not None else None
        rules = profile.first_run if profile is not None else FIRST_RUN_RULES
        apps = {self.env.packages[a]: a for a in task.apps if a in self.env.packages}
        for package in self.packages(task):
            if self.env.grant_permissions:
                grant_needed(self.state, package, needed_permissions(apps.get(package, ""), sdk))
            self.state.close_app(package)
            dismiss_first_run(self.state, rules)
        self.state.home()

    def snapshot(self, task: Task) -> dict[str, Any]:
        return observe(self.state, task_watch(task, REGISTRY.manifests, self.state.stores()))

    def elements(self) -> Sequence[UIElement]:
        return self.env._elements

    def version(self) -> int | None:
        return None


class RealPhoneEnv(gym.Env[dict[str, Any], Any]):
    """
    ## Description
    A real Android phone (or emulator, or phone-gym's virtual adb device) driven over adb,
    with tasks on stock apps and settings. Each reset wakes the phone and gets past a lock
    screen without a credential (one that needs a PIN, pattern or password stops the reset
    with ``real.upkeep.PhoneLocked``), keeps the screen on while episodes run (``svc power
    stayon true``, a 30-minute ``screen_off_timeout``; the owner's values are put back at
    ``close()``), picks a task template and its params from the seed, grants the task's
    apps the runtime permissions they need, closes them (never force-stopped: see
    ``RealHost``) dismissing known first-run screens, goes home and writes the task's
    initial state over adb (``settings put``, ``content insert``, alarm intents, pushed
    files). A template this phone cannot be set up for (``SetupError``, or a setting the
    shell may not change: ``real.base.SetupRefused``) is skipped with a warning and another
    is drawn, up to 5 templates; then the reset raises.
    The verifier reads the phone's real state back over adb (``settings get``, ``content
    query``, the clock's own alarm list through ``uiautomator dump``, sync): every record
    of the stores the task's apps own or read (``docs/real-device-tasks.md`` lists what
    each template reads), and fails the task on changes it did not ask for. On a phone that
    already holds a record the task would write (a same-name contact, an alarm at the same
    time, a taken file name), reset samples other params (``SetupError`` after 20 tries).

    ## Action Space
    The same fixed phone action space as ``PhoneWorld-v0``, carried out with ``input tap``,
    ``input swipe`` (long press, scroll, drag), ``input text`` (quoted for the phone's
    shell), ``input keyevent``, ``monkey -p`` (open_app), ``am force-stop`` (close_app; the
    Clock: home and ``am kill``, which keeps its alarms) and ``sleep`` (wait). Apps are
    named as in ``packages`` (see ``real.packages``), or by a mock app's alias (its
    manifest's ``aliases``: AndroidWorld's app names among them). A bad
    or vetoed action is a no-op step with ``info["action_error"]`` set. An element-index
    action (``click(index=3)``, ``type(text="Bob", index=2)``, ``scroll(direction="down",
    index=5)``) acts at the centre of that element of the last observation's UI tree (the
    ``uiautomator dump`` that ``info["ui_elements"]`` lists); ``type`` taps it first.
    AndroidWorld's JSON actions are read as AndroidWorld reads them, x/y in pixels of the
    phone's screen (``screen_size``; see ``phone_gym.actions.formats.androidworld``):
    ``input_text`` taps, types and presses Enter, its ``clear_text`` first sends
    AndroidWorld's ``input keycombination 113 29`` (Ctrl+A; Android 13 and later) and
    ``input keyevent 67`` (Delete).

    ## Observation Space
    As ``PhoneWorld-v0``: ``"screenshot"`` (``screencap``, resized to ``obs_size``),
    ``"instruction"`` and, with ``ui_in_obs=True``, ``"ui"`` (from ``uiautomator dump``);
    ``set_of_marks=True`` draws a numbered box on each element of that list on the
    screenshot (``render()`` stays unmarked).

    ## Rewards
    1.0 when the episode ends with the task verified on the phone, else 0.0 (as in
    ``PhoneWorld-v0``: a truncated episode is scored on its final state, a ``TimeLimit``
    from ``gym.make(..., max_episode_steps=N)`` included; ``finish(status="infeasible")``
    scores only on a task that cannot be done).

    ## Starting State
    The phone's home screen, the task's apps closed on their start screens (not
    force-stopped: the owner's alarms stay scheduled), the task's records written. After
    each gap of ``idle_gap`` seconds between steps the phone is woken and checked for a lock
    screen again before the action is sent.

    ## Device profile
    At the first reset the env reads the phone's Android version and its packages
    (``real.profile``: ``getprop``, ``pm list packages``, the launcher's activities) into
    ``profile``, and maps each mock app to the package the phone has (Google's or AOSP's
    Contacts, Files by Google or DocumentsUI...: ``real.packages.PACKAGE_ALTERNATIVES``);
    ``open_app``, ``close_app`` and the reset use those. Templates the phone cannot run
    (Android older than API 29, or than the template needs; an app missing or without a
    launcher entry) are left out of the draw and listed in ``skipped`` (id -> reason); asking
    for one (``task=`` or ``options["task"]``) raises ``ValueError`` with the reason.

    ## Episode End
    Terminated on ``finish``/``answer`` (or on success with ``end_on_success=True``).
    Truncated when the step budget runs out, when the phone stops answering, or when it
    restarted since the reset (its boot id, ``/proc/sys/kernel/random/boot_id``, read at
    reset and after every action, changed: apps and screen are not what the agent left);
    ``info["device_error"]`` says why, the steps so far stay in ``env.trajectory``, and the
    next ``reset`` starts afresh on the running phone.
    Stepping an ended episode raises Gymnasium's ``ResetNeeded``.

    ## Arguments
    - ``serial``: the phone's serial (default: the only attached phone).
    - ``host``, ``port``: the adb server (default ``127.0.0.1:5037``; the virtual device's
      port to dry-run against mock apps).
    - ``backend``: ``"adb"`` (default) or ``"u2"`` (uiautomator2's server on the phone), or
      a ready ``Backend`` object.
    - ``obs_size``, ``ui_in_obs``, ``end_on_success``, ``max_steps``, ``render_mode``,
      ``max_text_length``, ``screenshot``: as in ``PhoneWorld-v0``.
    - ``task``: a real-device template id or list of ids (default: all).
    - ``timeout``: seconds every adb call may take (default 10).
    - ``packages``: extra app names to Android packages (``{"Markor": "net.gsantner.markor"}``);
      a mock app named here keeps this package instead of the one resolved on the phone.
    - ``guard``: a ``SafetyGuard`` (``real.guard``; default: deny. Only the task's own apps,
      the launcher and system UI; apps that spend money or reach other people, the
      Messages (SMS) app included, only when the task's own apps include them and the
      guard opts in with ``allow_sensitive``; taps on factory reset, developer options,
      account removal, uninstalls and payments refused; typed text up to 200 characters).
      Templates the guard refuses an app of are left out and listed in ``skipped``.
    - ``keep_awake``: keep the screen on while episodes run (default True; see above).
    - ``idle_gap``: seconds after which a step first wakes the phone and checks its lock
      screen again (default 10).
    - ``first_run_rules``: ``real.profile.FirstRunRule``s besides ``FIRST_RUN_RULES``, the
      first-run screens a reset dismisses.
    - ``grant_permissions``: grant the task's apps their runtime permissions at reset
      (``pm grant``; default True).
    - ``wipe_app_data``: ``pm clear`` where the task keeps its data, at reset (wipes real
      data: use a test phone). Off by default: tasks are verified against the state they
      start from. Clearing the contacts provider (``com.android.providers.contacts``) also
      wipes the call log: AOSP's ``CallLogProvider`` lives in that package too.
    - ``settle``: seconds to wait after an action before the screenshot (animations).
    - ``verify_every_step``: run the verifier after every step (adb queries; the verdict
      then shows in privileged info); otherwise it is checked when the episode ends.
    - ``ui_tree``: read the UI tree every step (``info["ui_elements"]``; off is faster;
      ``ui_in_obs``, ``set_of_marks`` and element-index actions need it).
    - ``set_of_marks``: draw the numbered element boxes on the observed screenshot.
    - ``privileged_info``: as in ``PhoneWorld-v0`` (the task id, params and the last
      verdict in every step's ``info``).

    ## Info
    As ``PhoneWorld-v0`` (the same policy: nothing that gives the task away before the
    end), plus ``device_error``, ``package`` (the foreground app), ``serial``, ``guard``
    (what the safety guard did this step: ``real.guard.Decision.to_info``, or None) and
    ``frame`` (None, or why the screenshot is black: the screen off, a ``FLAG_SECURE``
    window; ``real.frames``).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 1}

    def __init__(
        self,
        serial: str | None = None,
        host: str = "127.0.0.1",
        port: int = 5037,
        backend: str | Backend = "adb",
        obs_size: tuple[int, int] = (540, 1200),
        task: str | Sequence[str] | None = None,
        ui_in_obs: bool = False,
        end_on_success: bool = False,
        max_steps: int | None = None,
        render_mode: str | None = None,
        max_text_length: int = 64,
        screenshot: bool = True,
        timeout: float = 10.0,
        packages: Mapping[str, str] | None = None,
        guard: SafetyGuard | None = None,
        wipe_app_data: bool = False,
        settle: float = 0.5,
        verify_every_step: bool = False,
        ui_tree: bool = True,
        privileged_info: bool = False,
        set_of_marks: bool = False,
        keep_awake: bool = True,
        idle_gap: float = 10.0,
        first_run_rules: Sequence[FirstRunRule] = (),
        grant_permissions: bool = True,
    ) -> None:
        width, height = check_args(render_mode, obs_size, max_steps)
        if isinstance(backend, str) and backend not in BACKENDS:
            raise ValueError(f"backend={backend!r}; accepted: {', '.join(map(repr, BACKENDS))} "
                             "or a Backend object")
        if not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ValueError(f"timeout={timeout!r}; accepted: seconds > 0")
        if not isinstance(settle, (int, float)) or settle < 0:
            raise ValueError(f"settle={settle!r}; accepted: seconds >= 0")
        if not isinstance(idle_gap, (int, float)) or idle_gap <= 0:
            raise ValueError(f"idle_gap={idle_gap!r}; accepted: seconds > 0")
        if guard is not None and not isinstance(guard, SafetyGuard):
            raise ValueError(f"guard={guard!r}; accepted: a phone_gym.real.SafetyGuard")
        if not all(isinstance(r, FirstRunRule) for r in first_run_rules):
            raise ValueError("first_run_rules: accepted: a sequence of "
                             "phone_gym.real.profile.FirstRunRule")
        self.templates = select_real_templates(task)
        self._explicit = task is not None
        self._own_packages = dict(packages or {})
        self.packages = app_packages(packages, REGISTRY.package_map())
        #: The phone's Android version and packages, read at the first reset.
        self.profile: DeviceProfile | None = None
        #: The templates of ``templates`` the phone cannot run, by id, with the reason.
        self.skipped: dict[str, str] = {}
        self._reasons: dict[str, str] = {}  # every real-device template's, by id
        self.guard = guard if guard is not None else SafetyGuard()
        self.keep_awake, self.idle_gap = bool(keep_awake), float(idle_gap)
        self.first_run_rules = tuple(first_run_rules)
        self.grant_permissions = bool(grant_permissions)
        self._keep = KeepAwake()  # the owner's screen settings while kept awake
        self.serial, self.host, self.port, self.timeout = serial, host, int(port), float(timeout)
        self._backend_spec = backend
        self.backend: Backend | None = None if isinstance(backend, str) else backend
        self.render_mode = render_mode
        self.set_of_marks = bool(set_of_marks)
        self.ui_in_obs, self.ui_tree = ui_in_obs, ui_tree or ui_in_obs or self.set_of_marks
        self.end_on_success, self.verify_every_step = end_on_success, verify_every_step
        self.max_steps_override = max_steps
        self.wipe_app_data, self.settle, self.screenshot = wipe_app_data, float(settle), screenshot
        self.obs_size = (width, height)
        self.observation_space = observation_space(self.obs_size, screenshot, ui_in_obs)
        self.app_names = list(self.packages)
        self.action_space = make_action_space(self.app_names, max_text_length)
        self.privileged = bool(privileged_info)
        self.episode: Episode | None = None
        self.steps = 0
        #: Whether the current episode has ended (a further step raises ``ResetNeeded``).
        self.ended = False
        #: One record per step of the current episode (kept when the phone drops).
        self.trajectory: list[dict[str, Any]] = []
        self._shot = np.zeros((height, width, 3), np.uint8)
        self._elements: list[UIElement] = []
        self._package = ""
        self._verdict = Verdict(False, "not checked yet", 0.0)
        self._decision: Decision | None = None  # what the guard did this step
        self._frame: str | None = None  # why this step's screenshot is black
        self._xml = ""  # the last observation's UI dump
        self._task_packages: frozenset[str] = frozenset()  # the episode's own apps
        self._contact = 0.0  # time.monotonic() of the last exchange with the phone
        self._boot: BootIdentity | None = None  # the phone's boot at reset
        self._status = ""  # STATUS_COMMAND's output at the last observation
        self._size: tuple[int, int] | None = None  # the screen (as turned) then

    # --- connection ----------------------------------------------------------------------
    def _connect(self) -> Backend:
        if self.backend is None:
            spec = self._backend_spec
            assert isinstance(spec, str)
            self.backend = BACKENDS[spec](self.serial, host=self.host, port=self.port,
                                          timeout=self.timeout)
        return self.backend

    def read_profile(self) -> DeviceProfile:
        """Connect and read the phone's profile now (the first reset does it otherwise)."""
        self._with_retry(self._read_profile)
        assert self.profile is not None
        return self.profile

    def _read_profile(self, backend: Backend) -> None:
        """Read the phone's profile; resolve the apps' packages and the skipped templates."""
        profile = read_profile(backend, self.timeout, self.first_run_rules)
        resolved, missing = resolve_packages(profile, REGISTRY.manifests, self._own_packages)
        self.packages.update(resolved)
        self.profile = profile
        if hasattr(backend, "display"):  # a foldable: the display in use (real.frames)
            backend.display = profile.display
        self._reasons = {tid: why for tid, t in REAL_TEMPLATES.items()
                         if (why := skip_reason(t, profile, missing) or self.guard.task_refusal(
                             task_packages(t, self.packages))) is not None}
        self.skipped = {t.id: self._reasons[t.id] for t in self.templates
                        if t.id in self._reasons}

    def runnable(self, task: str | Sequence[str] | None = None) -> list[Task]:
        """The templates ``task`` names (None: the env's own) that the phone can run: a named
        one it cannot run raises ``ValueError`` with the reason; with none named, an empty
        list raises it too."""
        chosen = self.templates if task is None else select_real_templates(task)
        named = self._explicit if task is None else True
        serial = self.profile.serial if self.profile is not None else self.serial
        unrunnable = [t for t in chosen if t.id in self._reasons]
        if unrunnable and named:
            raise ValueError("; ".join(f"task {t.id!r} cannot run on {serial}: "
                                       f"{self._reasons[t.id]}" for t in unrunnable)
                             + " (run `phone-gym tasks --real` to list the real-device tasks)")
        left = [t for t in chosen if t.id not in self._reasons]
        if not left:
            reasons = sorted(set(self._reasons.values()))
            raise ValueError(f"no real-device task can run on {serial}: {'; '.join(reasons)}")
        return left

    def _with_retry(self, fn: Callable[[Backend], Any]) -> Any:
        """Run ``fn`` on the backend; on a ``DeviceError`` reconnect once and run it again
        (only for idempotent work: resets and observations)."""
        try:
            return fn(self._connect())
        except DeviceError as exc:
            if not isinstance(self._backend_spec, str) or isinstance(exc, (PhoneLocked,
                                                                           SetupRefused)):
                raise
            self.backend = None
            return fn(self._connect())

    # --- gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if self.profile is None:
            self.read_profile()
        if options and "task" in options:  # a task the phone cannot run says so at once
            self.runnable(options["task"])
        self.runnable()
        self._restore_settings()
        self._with_retry(self._prepare)
        self._boot = self._with_retry(boot_identity)
        self.episode = self._start_episode(options)
        self.steps = 0
        self.ended = False
        self.trajectory = []
        self._verdict = Verdict(False, "not checked yet", 0.0)
        self._decision = None
        self._with_retry(self._observe)
        return self._obs(), self._info(None, None, None, None)

    def _prepare(self, backend: Backend) -> None:
        """Wake the phone, get past a lock screen without a credential (``PhoneLocked``
        with one) and keep the screen on (``real.upkeep``)."""
        for note in make_usable(backend):
            log.info("%s: %s", backend.serial, note)
        if self.keep_awake:
            self._keep.apply(AdbState(backend, timeout=self.timeout))
        self._contact = time.monotonic()

    def _start_episode(self, options: dict[str, Any] | None) -> Episode:
        """A new episode: a template drawn (or named by ``options["task"]``) and set up; one
        this phone cannot be set up for is skipped with a warning and another drawn, up to
        ``MAX_TEMPLATE_TRIES`` templates (a named one is not replaced)."""
        failed: dict[str, Exception] = {}
        named = bool(options and "task" in options)
        while len(failed) < MAX_TEMPLATE_TRIES:
            pool = [t for t in self.runnable() if t.id not in failed]
            if not pool:
                break
            template = choose_template(pool, options, self.runnable, self.np_random)
            try:
                return self._with_retry(functools.partial(self._start, template=template))
            except (SetupError, SetupRefused) as exc:
                failed[template.id] = exc
                if named or len(pool) == 1:
                    break
                message = (f"skipped task {template.id!r}, which cannot be set up on this "
                           f"phone: {exc}")
                log.warning(message)
                warnings.warn(message + "; drawing another", RuntimeWarning, stacklevel=3)
        if len(failed) == 1:
            raise next(iter(failed.values()))
        raise SetupError(f"no task could be set up on this phone ({len(failed)} tried): "
                         + "; ".join(f"{tid}: {exc}" for tid, exc in failed.items()))

    def _start(self, backend: Backend, template: Task) -> Episode:
        owner = next((self.packages.get(m.name, m.package) for m in REGISTRY.manifests
                      if "alarms" in m.owns), None)
        state = AdbState(backend, clock_package=owner) if owner else AdbState(backend)
        refusal = network_refusal(template, backend.serial)
        if refusal is not None:
            raise SetupError(refusal)
        host = RealHost(state, self)
        self._task_packages = frozenset(host.packages(template))
        return Episode(template, host, self.np_random)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        episode = self._need_episode()
        if self.ended:
            raise ended_error()
        # read first: an action that raises while being read (an error of the caller's own
        # mapping, an interrupt) propagates without using up a step of the budget
        parsed, error, terminated, answer = read_action(action, self.app_names, self._size)
        parsed = self._known_app(parsed)
        self.steps += 1
        device_error: str | None = None
        self._decision = None
        if parsed is not None and not terminated:
            if time.monotonic() - self._contact >= self.idle_gap:
                device_error = self._after_idle_gap()
            parts, error = self._resolve(parsed) if device_error is None else ([], None)
            if error is None and device_error is None:
                error = next((e for part in parts if (e := self._vet(part)) is not None), None)
            if error is None and device_error is None:
                try:
                    for part in parts:
                        error = self._send(part)
                        if error is not None:
                            break
                    self._observe(self._connect())
                    self._check_boot(self._connect())
                except DeviceError as exc:
                    device_error = str(exc)
                if error is None and device_error is None:
                    for part in parts:
                        episode.observe(part)
        truncated = device_error is not None or (
            not terminated and self.steps >= self._budget(episode))
        ended = terminated or truncated
        status = parsed.status if parsed is not None and parsed.type == "finish" else None
        if device_error is None and (ended or self.end_on_success or self.verify_every_step):
            try:
                self._verdict = episode.verify(answer, status)
            except DeviceError as exc:
                device_error, truncated = str(exc), not terminated
        if device_error is not None:
            self._verdict = Verdict(False, f"the phone stopped answering: {device_error}", 0.0)
        if self.end_on_success and self._verdict.success and not truncated:
            terminated = True
        self.ended = terminated or truncated
        reward = self._verdict.score if self.ended else 0.0
        info = self._info(parsed, error, answer, device_error)
        self.trajectory.append({"step": self.steps, "action": info["action"],
                                "action_error": info["action_error"],
                                "device_error": device_error,
                                "success": self._verdict.success if self.ended else None,
                                "verdict": self._verdict.reason if self.ended else None})
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> np.ndarray | None:
        return self._shot.copy() if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        """Put back the settings the last setup changed on the side (see
        ``_restore_settings``) and the owner's screen-off settings (``keep_awake``; a phone
        that no longer answers is warned about), then let the phone go."""
        try:
            self._restore_settings()
            if self._keep.saved is not None:
                self._keep.restore(AdbState(self._connect(), timeout=self.timeout))
        except DeviceError as exc:
            warnings.warn(f"could not restore the phone's settings at close: {exc}",
                          RuntimeWarning, stacklevel=2)
        self.backend = None if isinstance(self._backend_spec, str) else self.backend
        self.profile = None  # read again on the next connection

    # --- helpers ---------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        """What the last episode's setup changed besides its task, put back (the brightness
        mode a brightness task switched to manual: ``AdbState.restore_settings``), once."""
        host = self.episode.host if self.episode is not None else None
        if isinstance(host, RealHost):
            host.state.restore_settings()

    @property
    def screen_size(self) -> tuple[int, int] | None:
        """The phone's screen as last observed, ``(width, height)`` in pixels (None before
        the first reset): what an AndroidWorld action's x/y are in."""
        return self._size

    def oracle_action(self) -> PhoneAction:
        """The scripted policy's next action, read off the current UI tree."""
        return self._need_episode().oracle_action()

    def _known_app(self, action: PhoneAction | None) -> PhoneAction | None:
        """``open_app``/``close_app`` of another name of a mock app (an alias in its manifest,
        such as AndroidWorld's "Simple Draw Pro") under the app's own name, which
        ``packages`` knows."""
        if action is None or action.app is None or any(
                name.lower() == action.app.strip().lower() for name in self.packages):
            return action
        try:
            name = REGISTRY.app(action.app).manifest.name
        except ValueError:
            return action  # unknown: carrying it out says so
        return replace(action, app=name) if name in self.packages else action

    def _resolve(self, action: PhoneAction) -> tuple[list[PhoneAction], str | None]:
        """The point actions that carry out ``action`` (``marks.resolve_index`` against the
        last observation's UI tree), or the error."""
        if action.index is not None and not self.ui_tree:
            return [], ("element-index actions need the UI tree: make the env with "
                        "ui_tree=True (or ui_in_obs=True)")
        try:
            return resolve_index(action, self._elements), None
        except ActionError as exc:
            return [], str(exc)

    def _after_idle_gap(self) -> str | None:
        """After ``idle_gap`` seconds without the phone: wake it, check its lock screen and
        read the screen again (the guard checks taps against what is there now); the
        device error, or None."""
        try:
            backend = self._connect()
            self._prepare(backend)
            self._observe(backend)
        except DeviceError as exc:
            return str(exc)
        return None

    def _vet(self, action: PhoneAction) -> str | None:
        """Why the guard refuses ``action`` (its decision kept for ``info["guard"]``)."""
        package = None
        if action.type in ("open_app", "close_app"):
            try:
                package = package_of(action.app or "", self.packages)
            except ActionError as exc:
                return str(exc)
        context = {"task_id": self._need_episode().template.id, "step": self.steps,
                   "package": self._package, "serial": getattr(self.backend, "serial", None)}
        screen = None
        if self._xml and self._size is not None:
            screen = Screen(self._xml, self._size, focused_component(self._status))
        decision = self.guard.check(action, package, context,
                                    task_packages=self._task_packages, screen=screen)
        if decision is None:
            return None
        self._decision = decision
        return decision.reason

    def _send(self, action: PhoneAction) -> str | None:
        """Carry out ``action``; return what went wrong on the phone's side, or None."""
        backend = self._connect()
        timeout = self.timeout + float(action.seconds or 0.0)
        try:
            if action.type == "type" and action.clear:  # before uiautomator2 may type
                error = self._shell_all(backend, CLEAR_FIELD, timeout)
                if error is not None:
                    return error
            if action.type == "type":  # asks the phone how it types what `input text` cannot
                commands = type_text(backend, action.text or "")
            elif action.type == "double_click" and self._slow_input():
                commands = self._double_click_slow_input(backend, action)
            else:
                # the screen as the agent saw it (its coordinates are on that screen)
                size = self._size or backend.window_size()
                commands = to_commands(action, size, self.packages)
        except ActionError as exc:
            return str(exc)
        error = self._shell_all(backend, commands, timeout)
        if error is None and self.settle:
            time.sleep(self.settle)
        return error

    @staticmethod
    def _shell_all(backend: Backend, commands: Sequence[str], timeout: float) -> str | None:
        """Run ``commands`` in order; the first failure, or None."""
        for command in commands:
            result = backend.shell(command, timeout=timeout)
            if not result.ok or "No activities found" in result.output:
                return f"`{command}` failed on the phone: {result.output.strip()[:200]}"
        return None

    def _slow_input(self) -> bool:
        """Whether each ``input`` command starts a Java VM of its own (Android 11 and
        earlier: ``cmds/input``'s ``input`` script runs ``app_process``; from Android 12 it
        is ``cmd input``, a binder call to the running system server)."""
        sdk = self.profile.sdk if self.profile is not None else None
        return sdk is not None and sdk <= SLOW_INPUT_MAX_SDK

    def _double_click_slow_input(self, backend: Backend, action: PhoneAction) -> list[str]:
        """A double click on a phone whose ``input`` starts a VM per call: two ``input
        tap``s land hundreds of ms apart, past ``ViewConfiguration``'s 300 ms double-tap
        timeout, so apps see two taps. uiautomator2's server taps twice within it; over
        plain adb it is an ``ActionError``."""
        if isinstance(backend, U2Backend):
            x, y = to_pixels(*action.point, self._size or backend.window_size())
            backend.double_click(x, y, DOUBLE_TAP_GAP)
            return []
        raise ActionError(
            f"double_click on {self.profile.describe() if self.profile else 'this phone'}: "
            "each `input tap` starts its own process there, too slow for a double tap (apps "
            "see two taps); use RealPhoneEnv(backend='u2'), or a phone with Android 12 or later")

    def _check_boot(self, backend: Backend) -> None:
        """Raise ``DeviceError`` if the phone restarted since the reset."""
        now = parse_boot(self._status) if self._status else boot_identity(backend)
        if self._boot is not None and now.restarted_since(self._boot):
            raise DeviceError(f"the phone restarted during the episode (boot {self._boot} is "
                              f"now {now}): its apps and screen are not where the actions "
                              "left them; reset() starts a new episode")

    def _observe(self, backend: Backend) -> None:
        """Read the screen (and UI tree: for the agent, and for the guard's screen rules);
        leave an app the guard refuses that the agent ended up in; tell a black frame."""
        # one call for the rotation, the window in front and the boot (``STATUS_COMMAND``)
        self._status = backend.shell(STATUS_COMMAND).output
        natural = getattr(backend, "natural_size", None)
        size = turned_size(natural(), self._status) if callable(natural) else backend.window_size()
        self._size = size
        dump = self.ui_tree or bool(self.guard.screen_rules)
        self._xml = backend.dump_ui() if dump else ""
        self._elements = parse_xml(self._xml, *size) if dump else []
        self._package = focus_or_first_node(self._status, self._xml)  # the window manager's
        if not self.guard.foreground_allowed(self._package, self._task_packages):
            backend.shell("input keyevent KEYCODE_HOME")
            self._decision = self.guard.left_app(self._package)
            self._status = backend.shell(STATUS_COMMAND).output
            self._xml = backend.dump_ui() if dump else ""
            self._elements = parse_xml(self._xml, *size) if dump else []
            self._package = focus_or_first_node(self._status, self._xml)
        self._frame = None
        if self.screenshot or self.render_mode == "rgb_array":
            self._shot = np.asarray(fit(self._capture(backend), self.obs_size), dtype=np.uint8)
        self._contact = time.monotonic()

    def _capture(self, backend: Backend) -> Image.Image:
        """The screenshot; a black one is told in ``info["frame"]`` (``real.frames``), and
        when the screen went off the phone is woken and the screen taken again. A backend
        with ``frame`` (raw frames unconverted) is asked for that: ``fit`` converts."""
        grab = getattr(backend, "frame", None)
        image = grab() if callable(grab) else backend.screenshot()
        if not is_black(image):
            return image
        cause, message = black_reason(backend, self._package)
        if cause == "screen off":
            self._prepare(backend)
            image = grab() if callable(grab) else backend.screenshot()
            if not is_black(image):
                return image
            cause, message = black_reason(backend, self._package)
        self._frame = message
        log.info("%s: %s", backend.serial, message)
        return image

    def _need_episode(self) -> Episode:
        if self.episode is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        return self.episode

    def _budget(self, episode: Episode) -> int:
        return self.max_steps_override or episode.template.max_steps

    def _obs(self) -> dict[str, Any]:
        ui = format_elements(self._elements) if self.ui_in_obs else None
        shot = None
        if self.screenshot:
            shot = draw_marks(self._shot, self._elements) if self.set_of_marks else self._shot
        return observation(self._need_episode().instruction, shot, ui)

    def end_episode(self) -> tuple[float, dict[str, Any]]:
        """End the episode now (an outer step limit ran out: ``wrappers.ScoreOnTruncation``):
        the score of the final state read from the phone, and the keys ``info`` gains at
        the end."""
        episode = self._need_episode()
        self.ended = True
        try:
            self._verdict = episode.verify(None, None)
        except DeviceError as exc:
            self._verdict = Verdict(False, f"the phone stopped answering: {exc}", 0.0)
        return self._verdict.score, end_info(episode.template.id, self._verdict)

    def privileged_info(self) -> dict[str, Any]:
        """What the agent must not see: the task id, its params and the last verdict (live
        with ``verify_every_step``; reading the phone's state costs adb queries)."""
        episode = self._need_episode()
        return {**end_info(episode.template.id, self._verdict),
                "params": thaw(episode.public_params)}

    def _info(self, action: PhoneAction | None, error: str | None, answer: str | None,
              device_error: str | None) -> dict[str, Any]:
        episode = self._need_episode()
        info: dict[str, Any] = {
            "instruction": episode.instruction,
            "locale": "en-US",  # the real-device templates' instructions are en-US
            "step": self.steps,
            "max_steps": self._budget(episode),
            "action": format_action(action) if action is not None else None,
            "action_error": error if device_error is None else device_error,
            "device_error": device_error,
            "answer": answer,
            "ui_elements": [e.to_dict() for e in self._elements],
            "package": self._package,
            "serial": getattr(self.backend, "serial", None),
            "guard": self._decision.to_info() if self._decision is not None else None,
            "frame": self._frame,
        }
        if self.privileged:
            info.update(self.privileged_info())
        if self.ended:
            info.update(end_info(episode.template.id, self._verdict))
        return info

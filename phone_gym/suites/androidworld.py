"""AndroidWorld (google-research/android_world, 116 tasks: 91 in ``registry.py`` plus 25
information-retrieval tasks from ``task_evals/information_retrieval/proto/tasks.textproto``)
as data: each task's app group, difficulty (``task_metadata.json``), complexity and optimal
steps, the apps it uses, and the phone-gym template that checks the same thing, if any.

Protocol, as AndroidWorld runs it: the device clock is fixed at Oct 15 2023 15:34 UTC
(``device_constants.DT``), and an episode gets ten times the task's complexity in steps
(for an information-retrieval task, the complexity its textproto entry gives the instance).
Facts come from ``task_catalog.md`` Part 1 (android_world at d9c569f7); no text is copied.
"""

from __future__ import annotations

from datetime import datetime, timezone

from .suite import SuiteTask, TaskSuite

#: name | app group | IR or - | difficulty | complexity | optimal steps | apps (blank: the
#: group's app; "+ X, Y": the group's app and X, Y).
TABLE = """
AudioRecorderRecordAudio | Audio Recorder | - | easy | 1.2 | 6
AudioRecorderRecordAudioWithFileName | Audio Recorder | - | easy | 2 | 10
BrowserDraw | Chrome | - | easy | 2 | 5 | + Files
BrowserMaze | Chrome | - | easy | 2 | 9 | + Files
BrowserMultiply | Chrome | - | hard | 2.2 | 11 | + Files
CameraTakePhoto | Camera | - | easy | 1 | 2
CameraTakeVideo | Camera | - | medium | 1 | 3
ClockStopWatchPausedVerify | Clock | - | easy | 1 | 1
ClockStopWatchRunning | Clock | - | easy | 1 | 3
ClockTimerEntry | Clock | - | easy | 1 | 3
ContactsAddContact | Contacts | - | easy | 1.2 | 5
ContactsNewContactDraft | Contacts | - | easy | 1.2 | 6
ExpenseAddSingle | Pro Expense | - | easy | 1.2 | 6
ExpenseAddMultiple | Pro Expense | - | medium | 6 | 20
ExpenseAddMultipleFromGallery | Pro Expense | - | hard | 6 | 10 | + Simple Gallery Pro
ExpenseAddMultipleFromMarkor | Pro Expense | - | hard | 6 | 15 | + Markor
ExpenseDeleteSingle | Pro Expense | - | easy | 1 | 3
ExpenseDeleteMultiple | Pro Expense | - | easy | 2 | 10
ExpenseDeleteMultiple2 | Pro Expense | - | hard | 3.4 | 17
ExpenseDeleteDuplicates | Pro Expense | - | medium | 1.2 | 6
ExpenseDeleteDuplicates2 | Pro Expense | - | medium | 1.8 | 9
FilesDeleteFile | Files | - | medium | 2.2 | 4
FilesMoveFile | Files | - | medium | 2 | 10
MarkorAddNoteHeader | Markor | - | medium | 1.2 | 6
MarkorChangeNoteContent | Markor | - | medium | 1.2 | 5
MarkorCreateFolder | Markor | - | easy | 1 | 4
MarkorCreateNote | Markor | - | medium | 1.6 | 8
MarkorCreateNoteFromClipboard | Markor | - | medium | 1.4 | 7 | + Clipper
MarkorDeleteAllNotes | Markor | - | easy | 1.4 | 7
MarkorDeleteNewestNote | Markor | - | easy | 1 | 4
MarkorDeleteNote | Markor | - | easy | 1 | 5
MarkorEditNote | Markor | - | easy | 1.2 | 4
MarkorMergeNotes | Markor | - | hard | 7.8 | 39
MarkorMoveNote | Markor | - | medium | 1.4 | 7
MarkorTranscribeReceipt | Markor | - | medium | 1.8 | 9 | Simple Gallery Pro, Markor
MarkorTranscribeVideo | Markor | - | hard | 2 | 10 | VLC, Markor
MarkorCreateNoteAndSms | Markor | - | hard | 1.8 | 9 | + Simple SMS Messenger
OsmAndFavorite | OsmAnd | - | medium | 1.3 | 6
OsmAndMarker | OsmAnd | - | hard | 2.0 | 10
OsmAndTrack | OsmAnd | - | hard | 12 | 60
RecipeAddSingleRecipe | Broccoli | - | easy | 2.4 | 12
RecipeAddMultipleRecipes | Broccoli | - | medium | 6 | 34
RecipeAddMultipleRecipesFromImage | Broccoli | - | hard | 6 | 13 | + Simple Gallery Pro
RecipeAddMultipleRecipesFromMarkor | Broccoli | - | hard | 6 | 24 | + Markor
RecipeAddMultipleRecipesFromMarkor2 | Broccoli | - | hard | 6 | 26 | + Markor
RecipeDeleteSingleRecipe | Broccoli | - | easy | 1 | 5
RecipeDeleteSingleWithRecipeWithNoise | Broccoli | - | easy | 2 | 10
RecipeDeleteMultipleRecipes | Broccoli | - | easy | 2.4 | 12
RecipeDeleteMultipleRecipesWithNoise | Broccoli | - | medium | 3.4 | 17
RecipeDeleteMultipleRecipesWithConstraint | Broccoli | - | hard | 4 | 20
RecipeDeleteDuplicateRecipes | Broccoli | - | easy | 1 | 4
RecipeDeleteDuplicateRecipes2 | Broccoli | - | medium | 2.4 | 11
RecipeDeleteDuplicateRecipes3 | Broccoli | - | medium | 3.4 | 16
RetroCreatePlaylist | Retro Music | - | medium | 2.4 | 12
RetroPlayingQueue | Retro Music | - | easy | 3.2 | 16
RetroPlaylistDuration | Retro Music | - | medium | 3 | 15
RetroSavePlaylist | Retro Music | - | hard | 5 | 25
SimpleDrawProCreateDrawing | Simple Draw Pro | - | easy | 1.8 | 9
SaveCopyOfReceiptTaskEval | Simple Gallery Pro | - | hard | 1.6 | 8
SimpleSmsSend | Simple SMS Messenger | - | medium | 1.2 | 6
SimpleSmsReply | Simple SMS Messenger | - | easy | 1.2 | 4
SimpleSmsReplyMostRecent | Simple SMS Messenger | - | medium | 1.2 | 5
SimpleSmsResend | Simple SMS Messenger | - | medium | 1.2 | 6
SimpleSmsSendClipboardContent | Simple SMS Messenger | - | easy | 1.2 | 6 | + Clipper
SimpleSmsSendReceivedAddress | Simple SMS Messenger | - | medium | 1.8 | 9
OpenAppTaskEval | System | - | easy | 1 | 2 | Camera/Clock/Contacts/Settings/Dialer
SystemBluetoothTurnOff | System | - | easy | 1 | 2 | Settings
SystemBluetoothTurnOffVerify | System | - | easy | 1 | 2 | Settings
SystemBluetoothTurnOn | System | - | easy | 1 | 2 | Settings
SystemBluetoothTurnOnVerify | System | - | easy | 1 | 2 | Settings
SystemBrightnessMax | System | - | easy | 1 | 3 | Settings
SystemBrightnessMaxVerify | System | - | easy | 1 | 2 | Settings
SystemBrightnessMin | System | - | easy | 1 | 3 | Settings
SystemBrightnessMinVerify | System | - | easy | 1 | 3 | Settings
SystemCopyToClipboard | System | - | easy | 1 | 2 | Clipper
SystemWifiTurnOff | System | - | easy | 1 | 3 | Settings
SystemWifiTurnOffVerify | System | - | easy | 1 | 3 | Settings
SystemWifiTurnOn | System | - | easy | 1 | 3 | Settings
SystemWifiTurnOnVerify | System | - | easy | 1 | 3 | Settings
TurnOffWifiAndTurnOnBluetooth | System | - | medium | 2 | 5 | Settings
TurnOnWifiAndOpenApp | System | - | easy | 2 | 4 | Settings, Camera/Clock/Contacts/Settings/Dialer
VlcCreatePlaylist | VLC | - | medium | 2.8 | 14
VlcCreateTwoPlaylists | VLC | - | medium | 4.8 | 24
SimpleCalendarAddOneEvent | Simple Calendar Pro | - | hard | 3.4 | 17
SimpleCalendarAddOneEventInTwoWeeks | Simple Calendar Pro | - | medium | 3.4 | 10
SimpleCalendarAddOneEventRelativeDay | Simple Calendar Pro | - | easy | 3.4 | 17
SimpleCalendarAddOneEventTomorrow | Simple Calendar Pro | - | easy | 3.4 | 13
SimpleCalendarAddRepeatingEvent | Simple Calendar Pro | - | easy | 3.4 | 14
SimpleCalendarDeleteEvents | Simple Calendar Pro | - | easy | 1.4 | 7
SimpleCalendarDeleteEventsOnRelativeDay | Simple Calendar Pro | - | medium | 1.2 | 6
SimpleCalendarDeleteOneEvent | Simple Calendar Pro | - | easy | 1.2 | 6
SimpleCalendarEventsOnDate | Simple Calendar Pro | IR | medium | 1 | 4
SimpleCalendarNextEvent | Simple Calendar Pro | IR | easy | 1 | 4
SimpleCalendarEventOnDateAtTime | Simple Calendar Pro | IR | medium | 1 | 3
SimpleCalendarAnyEventsOnDate | Simple Calendar Pro | IR | easy | 1 | 4
SimpleCalendarNextMeetingWithPerson | Simple Calendar Pro | IR | medium | 1 | 5
SimpleCalendarLocationOfEvent | Simple Calendar Pro | IR | easy | 1 | 4
SimpleCalendarEventsInNextWeek | Simple Calendar Pro | IR | easy | 1 | 3
SimpleCalendarFirstEventAfterStartTime | Simple Calendar Pro | IR | easy | 1 | 2
SimpleCalendarEventsInTimeRange | Simple Calendar Pro | IR | easy | 1 | 2
TasksCompletedTasksForDate | Tasks | IR | medium | 1 | 5
TasksDueNextWeek | Tasks | IR | medium | 1 | 6
TasksDueOnDate | Tasks | IR | easy | 1 | 2
TasksHighPriorityTasks | Tasks | IR | medium | 1 | 2
TasksHighPriorityTasksDueOnDate | Tasks | IR | medium | 1 | 5
TasksIncompleteTasksOnDate | Tasks | IR | easy | 1 | 2
SportsTrackerActivitiesCountForWeek | OpenTracks | IR | easy | 1 | 3
SportsTrackerActivitiesOnDate | OpenTracks | IR | hard | 2 | 10
SportsTrackerActivityDuration | OpenTracks | IR | easy | 1 | 6
SportsTrackerLongestDistanceActivity | OpenTracks | IR | easy | 1 | 2
SportsTrackerTotalDistanceForCategoryOverInterval | OpenTracks | IR | hard | 2 | 11
SportsTrackerTotalDurationForCategoryThisWeek | OpenTracks | IR | hard | 1 | 8
NotesIsTodo | Joplin | IR | easy | 1 | 2
NotesMeetingAttendeeCount | Joplin | IR | easy | 1 | 3
NotesRecipeIngredientCount | Joplin | IR | easy | 1 | 2
NotesTodoItemCount | Joplin | IR | medium | 1 | 5
"""

#: AndroidWorld task -> (phone-gym template, what differs). Only templates whose verifier
#: checks the same state change; "not yet" is better than a near miss.
MAPPED: dict[str, tuple[str, str]] = {
    "ContactsAddContact": (
        "ContactsCreate",
        "same check (a new contact with that name and number); phone-gym keeps the other "
        "contacts instead of clearing them and fails on changes to them"),
    "FilesDeleteFile": (
        "FilesDeleteFile",
        "same check (the file is gone); phone-gym's files are text files in Download and "
        "Documents (not 12 storage folders), and deleting others fails; 2 to 8 other files "
        "share the target's folder (AndroidWorld: 1 to 20 noise files): the template's "
        "instances are frozen in PhoneWorld-Bench v1.0, so its params stay"),
    "SystemWifiTurnOff": (
        "SettingsWifiOff",
        "same check (wifi_on off, starting on); phone-gym scrambles the other settings and "
        "fails on changes to them"),
    "SystemWifiTurnOn": (
        "SettingsWifiOn",
        "same check (wifi_on 1 or 2, starting off); other settings scrambled and guarded"),
    "SystemBluetoothTurnOff": (
        "SettingsBluetoothOff",
        "same check (bluetooth_on 0, starting on); other settings scrambled and guarded"),
    "SystemBluetoothTurnOn": (
        "SettingsBluetoothOn",
        "same check (bluetooth_on 1, starting off); other settings scrambled and guarded"),
}

#: Why a task has no counterpart yet, by task (first) or by app group.
def _parts() -> dict[str, tuple[str, str]]:
    """The mapping entries of the ``aw_*`` modules beside this one (one per group of apps,
    each kept by the apps' authors: ``MAPPED = {"AndroidWorldName": (template id, what
    differs)}``). A name mapped twice, or one AndroidWorld does not have, raises."""
    import importlib
    import pkgutil

    from . import __path__ as here

    names = {line.split("|")[0].strip() for line in TABLE.strip().splitlines()}
    out: dict[str, tuple[str, str]] = {}
    for info in sorted(pkgutil.iter_modules(here), key=lambda i: i.name):
        if not info.name.startswith("aw_"):
            continue
        part: dict[str, tuple[str, str]] = importlib.import_module(
            f"{__package__}.{info.name}").MAPPED
        for name, entry in part.items():
            if name not in names:
                raise ValueError(f"{info.name}: {name!r} is not an AndroidWorld task")
            if name in out or name in MAPPED:
                raise ValueError(f"{info.name}: {name!r} is mapped twice")
            out[name] = entry
    return out


MAPPED.update(_parts())


def _not_yet(name: str, group: str) -> str:
    return f"no counterpart of {name} ({group}) yet"


def _task(line: str) -> SuiteTask:
    """A ``TABLE`` row as a ``SuiteTask``."""
    name, group, ir, difficulty, cx, steps, *rest = (c.strip() for c in line.split("|"))
    apps_text = rest[0] if rest else ""
    if not apps_text:
        apps: tuple[str, ...] = (group,)
    elif apps_text.startswith("+"):
        apps = (group, *(a.strip() for a in apps_text[1:].split(",")))
    else:
        apps = tuple(a.strip() for a in apps_text.split(","))
    counterpart, differs = MAPPED.get(name, (None, _not_yet(name, group)))
    return SuiteTask(name=name, app=group, information_retrieval=ir == "IR",
                     difficulty=difficulty, complexity=float(cx), optimal_steps=int(steps),
                     apps=apps, counterpart=counterpart, differs=differs)


def step_budget(task: SuiteTask) -> int:
    """AndroidWorld's step budget: ten times the task's complexity."""
    return int(round(10 * task.complexity))


#: AndroidWorld's fixed device clock (``device_constants.DT``).
DEVICE_DATE = datetime(2023, 10, 15, 15, 34, tzinfo=timezone.utc)

TASKS: tuple[SuiteTask, ...] = tuple(_task(line) for line in TABLE.strip().splitlines())

ANDROIDWORLD = TaskSuite(name="androidworld", tasks=TASKS, device_date=DEVICE_DATE,
                         budget_rule=step_budget, budget_doc="10 x complexity")


DOC_TITLE = "# AndroidWorld in PhoneWorld"
DOC_INTRO = """\
Generated by `python -m phone_gym.suites docs/androidworld.md` from
`phone_gym/suites/androidworld.py`; a test keeps it up to date.

[AndroidWorld](https://github.com/google-research/android_world) has 116 tasks on an Android
emulator. PhoneWorld runs the same kind of tasks in-process on mock apps. This page maps each
AndroidWorld task to the phone-gym template that checks the same thing, or says what is
missing ("not yet"). A task is mapped only where the template's verifier checks the same
state change; phone-gym's checks are stricter (they also fail on collateral changes).

## Running the suite

```python
import gymnasium as gym
import phone_gym  # registers the env ids

env = gym.make("PhoneWorld-v0", suite="androidworld")
print(env.unwrapped.suite_coverage)  # (tasks mapped, 116)
```

The env samples only the mapped templates. Each episode gets AndroidWorld's step budget,
ten times the complexity of its AndroidWorld task (`max_steps=` overrides it). `suite=` and
`task=` cannot be combined. `phone-gym tasks --suite androidworld` lists the table below, and
`phone-gym bench run --suite androidworld` runs the mapped templates (with the bench's own
budget rule: each template's `max_steps` times `--budget-multiplier`).

To compare with AndroidWorld, run the same agent on its emulator setup
(`google-research/android_world`, `run.py`) and compare success per task name.

## Where the counterparts live

Each group of apps keeps its mapping entries beside this page's source, in
`phone_gym/suites/aw_<group>.py` (`MAPPED = {AndroidWorld name: (template id, what
differs)}`). The apps are PhoneWorld apps with the Android package of AndroidWorld's app
(Simple Calendar Pro, Markor, Broccoli, Pro Expense, Simple SMS Messenger, Tasks, Joplin,
OpenTracks, Retro Music, VLC, Audio Recorder, Camera, Simple Gallery Pro, Simple Draw Pro,
Chrome, OsmAnd, Clipper) or the system's own (Contacts, Clock, Files, Settings, Phone). Every
counterpart sets AndroidWorld's device date itself and fits its oracle into AndroidWorld's
budget; checks read the phone's state with counted changes, so a counterpart fails where
AndroidWorld's check would pass a policy that deleted everything, did nothing, or only left
the screen looking right. Composite tasks have one criterion per part: `info["progress"]`
is AndroidWorld's fraction, the reward stays 0/1.

AndroidWorld's `n_task_combinations` (parameter instances per task) is the bench's seed
count: `phone-gym bench run --suite androidworld --seeds N` runs seeds 0..N-1 of every
counterpart, each an instance drawn from the task's parameter ranges.

Templates marked real in `phone-gym tasks --real` (calendar, SMS, contacts, files, settings,
camera) also run on a phone or emulator over adb.

## Data sizes

Each counterpart seeds at least the data its AndroidWorld task seeds, and often more
(bystanders where AndroidWorld clears the app first): the calendar questions add
AndroidWorld's 75 random events, the Tasks and OpenTracks questions its 20 random decoys,
the Joplin questions its 100 noise notes, `ExpenseAddMultipleFromMarkor` its 100 other rows,
`RecipeAddMultipleRecipesFromMarkor2` its 40, the Markor note tasks and `FilesMoveFile` its
1 to 20 noise files, the deletion tasks its 20 to 50 other rows. Three seed less, and the
table says why: `MarkorAddNoteHeader` and `MarkorChangeNoteContent` (the step budget) and
`FilesDeleteFile` (frozen in PhoneWorld-Bench v1.0). The "What differs" column lists every
other difference from AndroidWorld's task.
"""


def oracle_steps(task: SuiteTask, seeds: tuple[int, ...] = (0, 1, 2)) -> float:
    """The median number of actions the counterpart's oracle takes, over ``seeds``, on a
    phone at the suite's device date and within the suite's budget (``RuntimeError`` when
    it does not finish within it)."""
    import statistics

    import numpy as np

    from ..mockapps import APPS, REGISTRY
    from ..tasks.task import Episode, WorldHost
    from ..world import Device

    if task.counterpart is None:
        raise ValueError(f"{task.name} has no counterpart")
    start = DEVICE_DATE.astimezone(timezone.utc).replace(tzinfo=None)
    device = Device(APPS)
    counts = []
    for seed in seeds:
        episode = Episode(REGISTRY.template(task.counterpart), WorldHost(device, start),
                          np.random.default_rng(seed))
        episode.routes = False  # the direct route (``open_app``): the shortest the oracle has
        _, steps = episode.solve(max_steps=step_budget(task))
        counts.append(steps)
    return float(statistics.median(counts))


def step_ratios() -> dict[str, tuple[float, float]]:
    """Each mapped task's median oracle steps and their ratio to AndroidWorld's optimal
    steps (``oracle_steps`` / ``optimal_steps``)."""
    out = {}
    for t in ANDROIDWORLD.mapped:
        steps = oracle_steps(t)
        out[t.name] = (steps, steps / t.optimal_steps)
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def androidworld_doc() -> str:
    """The whole page ``docs/androidworld.md``."""
    import statistics

    mapped, total = ANDROIDWORLD.coverage
    ratios = step_ratios()

    def oracle(t: SuiteTask) -> str:
        return f"{ratios[t.name][0]:g}" if t.name in ratios else "-"

    rows = [f"| `{t.name}` | {t.app} | {'yes' if t.information_retrieval else 'no'} | "
            f"{t.difficulty} | {t.complexity:g} | {step_budget(t)} | {t.optimal_steps} | "
            f"{oracle(t)} | "
            f"{f'`{t.counterpart}`' if t.counterpart else 'not yet'} | {_cell(t.differs)} |"
            for t in ANDROIDWORLD.tasks]
    median = statistics.median(r for _, r in ratios.values()) if ratios else float("nan")
    steps = (f"Oracle steps: the median number of actions the counterpart's oracle takes over "
             f"seeds 0-2, at the suite's device date and within its budget. The median ratio "
             f"of oracle steps to AndroidWorld's optimal steps over the {len(ratios)} mapped "
             f"tasks is **{median:.2f}**.")
    return "\n".join([
        DOC_TITLE, "", DOC_INTRO, f"## The {total} tasks ({mapped} mapped)", "", steps, "",
        "| AndroidWorld task | App | Answer | Difficulty | Complexity | Step budget "
        "| Optimal steps | Oracle steps | phone-gym | What differs |",
        "|---|---|---|---|---|---|---|---|---|---|", *rows, ""])


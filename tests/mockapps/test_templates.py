"""The template registry as a whole. Every template's own checks (the oracle on 20 seeds, a
do-nothing finish, every near miss and damage to a bystander failing, determinism, random
starts) run through ``phone_gym.testing.check_task`` in ``tests/test_testing.py``."""

from __future__ import annotations

from phone_gym.envs.real_phone import REAL_TEMPLATES
from phone_gym.mockapps import TEMPLATES


def test_registry_is_large_enough() -> None:
    assert len(TEMPLATES) >= 43
    assert sum(t.needs_answer for t in TEMPLATES.values()) >= 5
    assert any(len(t.apps) > 1 for t in TEMPLATES.values())
    ids = [t.id for t in TEMPLATES.values()]
    assert len(ids) == len(set(ids))
    assert all(t.id == type(t).__name__ for t in TEMPLATES.values())  # id: the class name


def test_the_real_templates_keep_their_ids() -> None:
    assert {t for t in REAL_TEMPLATES if not REAL_TEMPLATES[t].infeasible} >= set([
        "SettingsWifiOff", "SettingsWifiOn", "SettingsBluetoothOn", "SettingsBluetoothOff",
        "SettingsAirplaneModeOn", "SettingsDarkThemeOn", "SettingsDoNotDisturbOn",
        "SettingsSetBrightness", "ContactsCreate", "ContactsDelete", "ContactsLookupPhone",
        "ClockCreateAlarm", "ClockDeleteAlarm", "FilesDeleteFile", "FilesRenameFile"])


#: The PhoneWorld template ids before the one-contract redesign: all still work.
PHONEWORLD_IDS = (
    "ContactsAddContact", "ContactsEditPhone", "ContactsDeleteContact", "ContactsStarContact",
    "ContactsRemoveFavorite", "ContactsLookupPhone", "CrossContactPhoneToNote",
    "ClockAddAlarm", "ClockAddRepeatingAlarm", "ClockDisableAlarm", "ClockDeleteAlarm",
    "ClockChangeAlarmTime", "ClockAlarmTimeLookup", "ClockDeleteDisabledAlarms",
    "NotesCreateNote", "NotesEditNote", "NotesReplaceNoteText", "NotesRenameNote",
    "NotesDeleteNote", "NotesPinNote", "NotesUnpinNote", "NotesReadNote",
    "SettingsTurnOffWifi", "SettingsSetDarkTheme", "SettingsSetBrightness",
    "FilesDeleteFile", "FilesRenameFile", "FilesReadBookingCode")


def test_the_phoneworld_templates_keep_their_ids() -> None:
    import gymnasium as gym

    import phone_gym  # noqa: F401 - registers the ids

    assert len(PHONEWORLD_IDS) == 28 and set(PHONEWORLD_IDS) <= set(TEMPLATES)
    for task_id in PHONEWORLD_IDS + tuple(REAL_TEMPLATES):
        env = gym.make(f"PhoneWorld-{task_id}-v0", screenshot=False, privileged_info=True)
        _, info = env.reset(seed=0)
        assert info["task_id"] == task_id

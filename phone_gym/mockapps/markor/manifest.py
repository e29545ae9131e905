"""The Markor app's manifest: markdown and text notes kept as files in shared storage."""

from __future__ import annotations

from ...world.manifest import AppManifest

#: Where Markor keeps its notes (AndroidWorld's Markor folder) and the subfolders tasks use.
MARKOR_FOLDER = "/sdcard/Documents/Markor"
SUBFOLDERS = ("BookNotes", "CodeSnippets", "DailyNotes", "FitnessPlans", "MeetingMinutes",
              "PersonalJournal", "RecipeCollections", "StudyGuides", "TravelItineraries",
              "WorkProjects")

MANIFEST = AppManifest(
    name="Markor",
    package="net.gsantner.markor",
    icon="edit_note",
    color=(26, 42, 92),
    reads=("files",),
    folders=(MARKOR_FOLDER, *(f"{MARKOR_FOLDER}/{f}" for f in SUBFOLDERS)),
    description="Markdown and plain-text notes as files in Documents/Markor: a file browser "
                "with folders, a note editor, and select, rename, move and delete.",
    order=32,
)

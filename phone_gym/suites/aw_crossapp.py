"""AndroidWorld's multi-app tasks (a source read in one app, entered in another) mapped to
their phone-gym templates (``crossapp/androidworld.py``): ``{AndroidWorld name: (template
id, what differs)}``, read by ``androidworld.py``."""

from __future__ import annotations

_HASH = ("The note's text is checked by its SHA-1 (a phone over adb reads it too), so the "
         "accepted spellings are listed (', ' or ',' between fields, trailing whitespace and "
         "line-break style aside) instead of AndroidWorld's fuzzy ratio; exactly one file "
         "may be added.")
_COUNTED = ("Counted: exactly the target records added and nothing else changed (noise "
            "records are in the database, so entering every candidate fails).")

MAPPED: dict[str, tuple[str, str]] = {
    "MarkorTranscribeReceipt": (
        "MarkorTranscribeReceipt",
        "The receipt is drawn into the screenshot only; a second receipt photo is a decoy; the "
        "note's name is one of six (AndroidWorld: always receipt.md). "
        + _HASH),
    "MarkorTranscribeVideo": (
        "MarkorTranscribeVideo",
        "The video's frames show each name for 8 seconds (drawn into the screenshot only); "
        "5 to 20 decoy videos. " + _HASH),
    "MarkorCreateNoteAndSms": (
        "MarkorCreateNoteAndSms",
        "Two criteria (the note; the sent SMS with SMS Messenger on screen at the end), so "
        "info['progress'] is AndroidWorld's fraction while the reward stays 0/1; the note "
        "is matched by SHA-1 of its exact text and the SMS body as text. Runs on real phones "
        "too (there the foreground part is not observable)."),
    "ExpenseAddMultipleFromGallery": (
        "ExpenseAddMultipleFromGallery",
        "Three expenses in a picture (CSV lines, drawn only); the ten noise expenses are in "
        "the tracker and each drawn in a decoy picture of the same album (AndroidWorld's ten "
        "decoy pictures each list all ten). " + _COUNTED),
    "ExpenseAddMultipleFromMarkor": (
        "ExpenseAddMultipleFromMarkor",
        "Two rows tagged 'Reimbursable.' among 100 others (AndroidWorld's number; their "
        "names may repeat, never a target's), which are in the tracker already; the tag may "
        "be kept in the note or left out. " + _COUNTED),
    "RecipeAddMultipleRecipesFromImage": (
        "RecipeAddMultipleRecipesFromImage",
        "Three recipes drawn as labelled blocks into one picture (a long picture scrolls); "
        "10 noise recipes in Broccoli, decoy photos in the gallery. " + _COUNTED),
    "RecipeAddMultipleRecipesFromMarkor": (
        "RecipeAddMultipleRecipesFromMarkor",
        "Three recipes in recipes.txt, as CSV or labelled blocks; 10 noise recipes in "
        "Broccoli. " + _COUNTED),
    "RecipeAddMultipleRecipesFromMarkor2": (
        "RecipeAddMultipleRecipesFromMarkor2",
        "Three recipes with the given preparation time among 40 with other times "
        "(AndroidWorld's number; titles may repeat, never a target's), all 40 also in "
        "Broccoli. " + _COUNTED),
}

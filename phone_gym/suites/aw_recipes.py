"""AndroidWorld's Broccoli (recipes) and Pro Expense tasks mapped to their phone-gym
templates (apps ``Broccoli`` and ``Expense``): ``{AndroidWorld name: (template id, what
differs)}``, read by ``androidworld.py``."""

from __future__ import annotations

_PLAIN_DELETE = ("Seeds {n} other {what} that must stay (AndroidWorld seeds only the "
                 "targets, so deleting everything passed there).")
_DUPLICATE = ("The duplicated {what} is found in the initial state, not named in the params; "
              "deleting both copies or a near duplicate fails.")
_ADD = ("Text fields are compared as text (case, punctuation and spacing aside), not by a "
        "similarity ratio; vocabulary is phone-gym's own.")

MAPPED: dict[str, tuple[str, str]] = {
    "RecipeAddSingleRecipe": ("RecipeAddSingleRecipe", _ADD),
    "RecipeAddMultipleRecipes": (
        "RecipeAddMultipleRecipes",
        _ADD + " One criterion per recipe, so progress is the share entered."),
    "RecipeDeleteSingleRecipe": (
        "RecipeDeleteSingleRecipe", _PLAIN_DELETE.format(n=3, what="recipes")),
    "RecipeDeleteSingleWithRecipeWithNoise": (
        "RecipeDeleteSingleWithRecipeWithNoise", "Same setup: the target among 29 others."),
    "RecipeDeleteMultipleRecipes": (
        "RecipeDeleteMultipleRecipes", _PLAIN_DELETE.format(n=3, what="recipes")),
    "RecipeDeleteMultipleRecipesWithNoise": (
        "RecipeDeleteMultipleRecipesWithNoise", "Same setup: 3 targets among 29 others."),
    "RecipeDeleteMultipleRecipesWithConstraint": (
        "RecipeDeleteMultipleRecipesWithConstraint",
        "1-3 recipes whose directions name the ingredient (as a whole word, from 40 "
        "ingredients rather than 120) among 29 that do not."),
    "RecipeDeleteDuplicateRecipes": (
        "RecipeDeleteDuplicateRecipes", _DUPLICATE.format(what="recipe")),
    "RecipeDeleteDuplicateRecipes2": (
        "RecipeDeleteDuplicateRecipes2",
        _DUPLICATE.format(what="recipe") + " 4 of the 10 others share its title, as "
        "AndroidWorld's."),
    "RecipeDeleteDuplicateRecipes3": (
        "RecipeDeleteDuplicateRecipes3",
        _DUPLICATE.format(what="recipe") + " 6 of the 30 others share its title and "
        "description, as AndroidWorld's; AndroidWorld also lists three recipes of another "
        "one title first, to make the list scroll: not seeded here."),
    "ExpenseAddSingle": (
        "ExpenseAddSingle",
        _ADD + " Amount and category exact; the day is neither given nor checked, as in "
        "AndroidWorld."),
    "ExpenseAddMultiple": (
        "ExpenseAddMultiple",
        _ADD + " One criterion per expense, so progress is the share entered."),
    "ExpenseDeleteSingle": (
        "ExpenseDeleteSingle", _PLAIN_DELETE.format(n=3, what="expenses")),
    "ExpenseDeleteMultiple": (
        "ExpenseDeleteMultiple", _PLAIN_DELETE.format(n=3, what="expenses")),
    "ExpenseDeleteMultiple2": ("ExpenseDeleteMultiple2", "Same setup: 3 targets among 50 others."),
    "ExpenseDeleteDuplicates": (
        "ExpenseDeleteDuplicates", _DUPLICATE.format(what="expense")),
    "ExpenseDeleteDuplicates2": (
        "ExpenseDeleteDuplicates2",
        _DUPLICATE.format(what="expense") + " 3 near duplicates share its name with another "
        "amount."),
}

"""An AndroidWorld-style agent runs unchanged against ``PhoneWorld-v0`` and solves tasks.

The loop has the shape of AndroidWorld's T3A and M3A agents (google-research/android_world
``android_world/agents/t3a.py``, ``m3a.py``, ``m3a_utils.py``): each step it describes the
UI elements (index, text, content description, pixel bounds), sends the goal, the history
and that list (and, as M3A does, the screenshot with numbered element boxes) to the model,
reads ``Reason: ...`` / ``Action: {...}`` from the reply, takes the JSON object out of the
action and hands it to ``env.step`` as it is: no conversion of coordinates, names or
semantics on the way. The "model" is scripted: it reads only the prompt and answers in
AndroidWorld's JSON, with pixel points taken from the bounds it was shown, AndroidWorld's
app names, and ``input_text`` that relies on AndroidWorld's tap-type-Enter.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import phone_gym  # noqa: F401  (registers PhoneWorld-v0)


# --- the agent: AndroidWorld's loop, written against a Gymnasium env ------------------------
def describe_elements(elements: list[dict[str, Any]]) -> str:
    """One line per visible element, as T3A lists them: ``UI element N: {...}``."""
    lines = []
    for e in elements:
        x0, y0, x1, y1 = e["bounds"]
        if x1 <= x0 or y1 <= y0:  # m3a_utils.validate_ui_element drops elements not shown
            continue
        fields = {"text": e["text"], "content_description": e["content_desc"],
                  "resource_name": e["resource_id"], "class_name": e["class_name"],
                  "bbox_pixels": [x0, y0, x1, y1], "is_editable": e["editable"],
                  "is_clickable": e["clickable"], "is_focused": e["focused"]}
        lines.append(f"UI element {e['index']}: {json.dumps(fields)}")
    return "\n".join(lines)


def action_prompt(goal: str, history: list[str], elements: str) -> str:
    done = "\n".join(history) or "You just started, no action has been performed yet."
    return (f"The current user goal/request is: {goal}\n\nHere is a history of what you have "
            f"done so far:\n{done}\n\nHere is a list of descriptions for some UI elements on "
            f"the current screen:\n{elements}\n\nYour answer should look like:\n"
            'Reason: ...\nAction: {"action_type": ...}\n\nYour Answer:\n')


def reason_and_action(output: str) -> tuple[str | None, str | None]:
    """``Reason:`` and ``Action:`` of a reply (None for a part it lacks)."""
    reason = re.search(r"Reason:(.*)Action:", output, flags=re.DOTALL)
    action = re.search(r"Action:(.*)", output, flags=re.DOTALL)
    return (reason.group(1).strip() if reason else None,
            action.group(1).strip() if action else None)


def extract_json(text: str) -> dict[str, Any] | None:
    """The first ``{...}`` of ``text``, as a Python literal or else as JSON."""
    match = re.search(r"\{.*?\}", text)
    if match is None:
        return None
    try:
        return ast.literal_eval(match.group())  # type: ignore[no-any-return]
    except (SyntaxError, ValueError):
        try:
            return json.loads(match.group())  # type: ignore[no-any-return]
        except ValueError:
            return None


def run_agent(env: gym.Env[Any, Any], model: Any, seed: int, max_steps: int = 20
              ) -> tuple[float, dict[str, Any], list[str]]:
    """One episode of the T3A/M3A loop; the final reward and info, and the step summaries."""
    obs, info = env.reset(seed=seed)
    history: list[str] = []
    reward = 0.0
    for step in range(max_steps):
        prompt = action_prompt(obs["instruction"], history, describe_elements(
            list(info["ui_elements"])))
        output = model.predict(prompt, obs["screenshot"])  # M3A also sends the marked image
        reason, action = reason_and_action(output)
        converted = extract_json(action) if action else None
        if not reason or converted is None:
            history.append(f"Step {step + 1}: output not in the right format, nothing done")
            continue
        obs, reward, terminated, truncated, info = env.step(converted)
        error = info["action_error"]
        history.append(f"Step {step + 1}: {reason} -> {json.dumps(converted)}"
                       + (f" (failed: {error})" if error else ""))
        if terminated or truncated:
            break
    return float(reward), info, history


# --- the scripted model: reads the prompt, answers in AndroidWorld's JSON -------------------
class ScriptedModel:
    """Answers like an AndroidWorld model for two tasks, from the prompt alone."""

    def __init__(self) -> None:
        self.images: list[tuple[int, ...]] = []

    def predict(self, prompt: str, screenshot: np.ndarray) -> str:
        self.images.append(screenshot.shape)
        goal = re.search(r"The current user goal/request is: (.*)", prompt)
        assert goal is not None
        elements = {int(m.group(1)): json.loads(m.group(2)) for m in re.finditer(
            r"^UI element (\d+): (\{.*\})$", prompt, flags=re.MULTILINE)}
        if "clipboard" in goal.group(1):
            reason, action = self._clipboard(goal.group(1), elements)
        else:
            reason, action = self._contact(goal.group(1), elements)
        return f"Reason: {reason}\nAction: {json.dumps(action)}"

    @staticmethod
    def _find(elements: dict[int, dict[str, Any]], **want: Any) -> int | None:
        return next((i for i, e in elements.items()
                     if all(e.get(k) == v for k, v in want.items())), None)

    @staticmethod
    def _centre(element: dict[str, Any]) -> dict[str, int]:
        x0, y0, x1, y1 = element["bbox_pixels"]
        return {"x": (x0 + x1) // 2, "y": (y0 + y1) // 2}

    def _clipboard(self, goal: str, elements: dict[int, dict[str, Any]]
                   ) -> tuple[str, dict[str, Any]]:
        text = re.search(r'Copy "(.*)" to the clipboard', goal)
        assert text is not None
        box = self._find(elements, content_description="Text to copy")
        if box is None:
            return "Clipper sets the clipboard.", {"action_type": "open_app",
                                                   "app_name": "clipper"}
        if self._find(elements, text=text.group(1), is_editable=False) is not None:
            return "The clipboard holds the text.", {"action_type": "status",
                                                     "goal_status": "complete"}
        # input_text submits with Enter, which sets Clipper's clipboard: no button needed
        return "Type the text into Clipper's field.", {
            "action_type": "input_text", "text": text.group(1), "index": box}

    def _contact(self, goal: str, elements: dict[int, dict[str, Any]]
                 ) -> tuple[str, dict[str, Any]]:
        found = re.search(r'named "(.*)" with the phone number "(.*)" and the email "(.*)"', goal)
        assert found is not None
        name, phone, email = found.groups()
        if self._find(elements, text=name, is_editable=False) is not None and self._find(
                elements, text=phone) is not None:
            return "The contact is saved.", {"action_type": "status", "goal_status": "complete"}
        fields = {label: self._find(elements, content_description=label, is_editable=True)
                  for label in ("Name", "Phone", "Email")}
        if fields["Name"] is None:
            create = self._find(elements, content_description="Create contact")
            if create is None:
                return "Open the contacts app.", {"action_type": "open_app",
                                                  "app_name": "contacts"}
            return "Tap the create button.", {"action_type": "click",
                                              **self._centre(elements[create])}
        for label, value in (("Name", name), ("Phone", phone), ("Email", email)):
            index = fields[label]
            assert index is not None
            if elements[index]["text"] != value:
                where = ({"index": index} if label != "Phone"
                         else self._centre(elements[index]))  # a point, in pixels
                return f"Fill in the {label.lower()}.", {"action_type": "input_text",
                                                         "text": value, **where}
        save = self._find(elements, content_description="Save")
        assert save is not None
        return "Everything is filled in; save.", {"action_type": "click",
                                                  **self._centre(elements[save])}


@pytest.mark.parametrize(("task", "seed"), [("ContactsAddContact", 0), ("ContactsAddContact", 5),
                                            ("SystemCopyToClipboard", 0)])
def test_an_androidworld_agent_solves_tasks_unchanged(task: str, seed: int) -> None:
    env = gym.make("PhoneWorld-v0", task=task, set_of_marks=True)
    model = ScriptedModel()
    reward, info, history = run_agent(env, model, seed)
    assert reward == 1.0 and info["success"], (info["verdict"], history)
    assert not any("failed" in line for line in history), history
    assert model.images and all(shape == (1200, 540, 3) for shape in model.images)
    env.close()


def test_the_agent_needs_androidworld_semantics() -> None:
    """The same loop fails where an AndroidWorld action is read phone-gym's way: pixel
    points on the [0, 1000] grid miss or are out of range."""
    from phone_gym.actions import to_action

    env = gym.make("PhoneWorld-v0", task="ContactsAddContact", screenshot=False)
    env.reset(seed=0)
    tap = {"action_type": "click", "x": 948, "y": 1956}  # the create button, in pixels
    with pytest.raises(ValueError, match="out of range"):
        to_action(tap)  # phone-gym's reading
    env.step({"action_type": "open_app", "app_name": "contacts"})
    _, _, _, _, info = env.step(tap)  # the env's: pixels of the screen
    assert info["action_error"] is None
    assert any(e["content_desc"] == "Save" for e in info["ui_elements"])

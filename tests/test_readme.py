"""Every command and code block of README.md, run as a new user would run it.

- ```` ```python ```` blocks run in a fresh interpreter (``RUNNER``), cwd = the repository,
  after the substitutions ``PYTHON_BLOCKS`` lists for them (each must apply). A comment that
  starts with a Python literal states a value, and the runner checks it: after an
  expression, its value (``obs["screenshot"].shape  # (1200, 540, 3): ...``, words after the
  literal are prose); after ``print(...)``, what it prints (``print(s)  # 'Delete the ...'``).
- ```` ```bash ```` blocks run command by command (split at ``&&``), in README order, in a
  scratch folder (``workspace``) that holds a copy of ``phone_gym`` first on ``PYTHONPATH``
  (``phone-gym new-app`` writes into the package) and the repository's ``examples``. A
  command ending in ``&`` runs in the background until its block ends, once its ``--port``
  answers. Each command is run as written or as substituted (``BASH_COMMANDS``: shortened
  with ``--set`` and fewer episodes where it trains, a free port where it serves) and then
  checked for what the README says it does (``EXPECT``: the files it leaves, what it
  prints), skipped with a reason (``SKIP``), or is an install (``pip install ...``):
  checked against what CI runs (``.ci/run``) rather than run.
- Commands that need a phone run against ``phone-gym virtual-device``: the README's own
  (on a free port, ``{port}``) or one this test starts (``{device_port}``). No adb binary
  runs (``ADBUTILS_ADB_PATH=/bin/false``), nothing is downloaded.
- Figures the prose states (template counts, defaults of the envs and of the benchmark and
  example scripts, the authoring checks' seeds and steps) are compared with the code
  (``STATED``), and so is the claim that ``action_space.sample()`` is always valid.

A block or command the tables do not name fails ``test_every_block_is_run_or_listed``, and
so does a table entry the README no longer has, or a command run with no ``EXPECT``.
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"


# --- what runs, and how ------------------------------------------------------------------------
@dataclass(frozen=True)
class PyBlock:
    """How a python block runs: ``subs`` (old, new) applied to its text, and at least
    ``checks`` stated values checked."""

    subs: tuple[tuple[str, str], ...] = ()
    checks: int = 0
    why: str = ""


#: Every python block, named by a line only it holds.
PYTHON_BLOCKS: dict[str, PyBlock] = {
    # Using the environment: the instruction printed, the screenshot's shape, a bad action's error
    'env = gym.make("PhoneWorld-v0", task="NotesDeleteNote",': PyBlock(checks=3),
    # vector envs and batch_actions: where app_names comes from
    'vec = phone_gym.make_vec(2, task="ClockDisableAlarm")': PyBlock(checks=2),
    # Real phones over adb: the virtual device stands in for the phone
    'env = gym.make("RealPhone-v0", serial="R58M123ABC",': PyBlock(
        subs=(('serial="R58M123ABC",', 'serial="emulator-5554", port={device_port},'),),
        why="no phone here: the virtual adb device's phone"),
    # Writing a mock app: the template snippet, with the imports it leaves out
    "class NotesPinNote(NoteTask, EditRecord):": PyBlock(
        subs=(("class NotesPinNote(", "from phone_gym.tasks.families import EditRecord\n"
                                      "from phone_gym.mockapps.notes.tasks import NoteTask\n"
                                      "class NotesPinNote("),),
        why="a snippet: its bases are imported first"),
}

#: Python blocks that do not run, with the reason (none yet).
PYTHON_SKIP: dict[str, str] = {}

#: Every bash command that runs: None as written, else the command run instead. ``{port}``:
#: a free port for the README's own virtual device; ``{device_port}``: the test's virtual
#: device. Training runs the README's command with ``--set`` items that shorten it.
BASH_COMMANDS: dict[str, str | None] = {
    # Quick start
    "phone-gym demo": None,
    # Real phones over adb: try it without a phone
    "phone-gym virtual-device --port 5555 &": "phone-gym virtual-device --port {port} &",
    "phone-gym demo --real --port 5555 --task ContactsCreate":
        "phone-gym demo --real --port {port} --task ContactsCreate",
    # Training a phone agent: each shortened to a few steps of the tiny model
    "phone-gym collect --task ClockDisableAlarm --episodes 16 --out out/traj":
        "phone-gym collect --task ClockDisableAlarm --episodes 2 --out out/traj --no-progress",
    "phone-gym train sft --config examples/configs/sft.toml":
        "phone-gym train sft --config examples/configs/sft.toml --set steps=3 "
        "--set eval_episodes=0 --set progress=false",
    "phone-gym train grpo --config examples/configs/grpo_real_mock.toml":
        "phone-gym train grpo --config examples/configs/grpo_real_mock.toml --set progress=false "
        "--set max_new_tokens=8 --set grpo.iterations=1 --set grpo.groups_per_iter=1 "
        "--set grpo.group_size=2 --set sources.mock.kwargs.max_steps=2 "
        "--set sources.real.kwargs.max_steps=2 --set sources.real.kwargs.port={device_port} "
        "--set sources.real.kwargs.settle=0.0",
    "python examples/train_vlm.py":
        "python examples/train_vlm.py --sft-steps 3 --grpo-iterations 1 --seeds 2",
    # Writing a mock app (into the workspace's copy of phone_gym)
    "phone-gym new-app Recipes": None,
    "python -m pytest phone_gym/mockapps/recipes": None,
    "phone-gym check --app Recipes": None,
    "phone-gym new-app Recipes --out my-recipes/": None,
}

_IN_CI = "part of CI's own command (.ci/run), whose test run includes this test"
#: Bash commands that do not run here, with the reason.
SKIP: dict[str, str] = {
    "ruff check .": _IN_CI,
    "mypy": _IN_CI,
    "lint-imports": _IN_CI,
    "python -m pytest --full -n auto": "the whole test suite, this file included: " + _IN_CI,
}



@dataclass(frozen=True)
class Expect:
    """What a command does besides exiting 0, as the README says: ``files`` (globs in the
    workspace, each matching a file) and ``output`` (a regex its stdout, or a background
    command's log, matches)."""

    files: tuple[str, ...] = ()
    output: str = ""


#: What the README says its commands do, checked after they run.
EXPECT: dict[str, Expect] = {
    # "the oracle solves the cross-app task and saves the episode as a GIF in `out/`"
    "phone-gym demo": Expect(("out/demo_Cross*.gif",),
                             r"task Cross\w+ \(seed 0\).*\nSUCCESS: reward 1\.0"),
    # "serves a PhoneWorld phone as an adb device `emulator-5554`"
    "phone-gym virtual-device --port 5555 &": Expect(
        output=r"virtual adb device: emulator-5554 on 127\.0\.0\.1:\d+"),
    "phone-gym demo --real --port 5555 --task ContactsCreate": Expect(
        ("out/demo_ContactsCreate_0.gif",), r"task ContactsCreate .*\nSUCCESS: reward 1\.0"),
    # "oracle trajectories" in the folder `train sft` reads
    "phone-gym collect --task ClockDisableAlarm --episodes 16 --out out/traj": Expect(
        ("out/traj/steps.jsonl",), r'"episodes": 2, "solved": 2'),
    # "Runs write `metrics.csv`, `checkpoint-N/` and `final/`"
    "phone-gym train sft --config examples/configs/sft.toml": Expect(
        ("runs/sft/metrics.csv", "runs/sft/final/*")),
    "phone-gym train grpo --config examples/configs/grpo_real_mock.toml": Expect(
        ("runs/grpo-real-mock/metrics.csv", "runs/grpo-real-mock/final/*")),
    "python examples/train_vlm.py": Expect(("out/train_vlm/final/*",)),
    # "a working app, five tasks, fixtures and tests"
    "phone-gym new-app Recipes": Expect(tuple(
        f"phone_gym/mockapps/recipes/{name}" for name in (
            "manifest.py", "app.py", "fixtures.py", "tasks.py", "test_app.py"))),
    "python -m pytest phone_gym/mockapps/recipes": Expect(output=r"\d+ passed"),
    "phone-gym check --app Recipes": Expect(output=r"1 apps and 5 tasks checked, 0 with problems"),
    # "or a pip-installable package of its own"
    "phone-gym new-app Recipes --out my-recipes/": Expect(
        ("my-recipes/pyproject.toml", "my-recipes/recipes/tasks.py")),
}

#: Languages of fenced blocks that are shown, not run (data, output).
SHOWN_ONLY = {"text", "toml", "json", ""}

#: Runs one python block (argv: the file, the README line of its first line); prints how
#: many stated values it checked.
RUNNER = r'''
import ast, contextlib, io, sys, tokenize

path, offset = sys.argv[1], int(sys.argv[2])
source = open(path, encoding="utf-8").read()
comments = {}
for tok in tokenize.generate_tokens(io.StringIO(source).readline):
    if tok.type == tokenize.COMMENT:
        comments.setdefault(tok.start[0], tok.string)


def stated(comment):
    """(True, value) when the comment starts with a Python literal (its longest one)."""
    text = comment.lstrip("#").strip()
    for end in range(len(text), 0, -1):
        try:
            return True, ast.literal_eval(text[:end])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    return False, None


namespace = {"__name__": "__main__"}
checked = 0
for node in ast.parse(source).body:
    code = compile(ast.Module([node], []), path, "exec")
    comment = next((comments[n] for n in range(node.lineno, node.end_lineno + 1)
                    if n in comments), None)
    has, expected = stated(comment) if comment and isinstance(node, ast.Expr) else (False, None)
    if not has:
        exec(code, namespace)
        continue
    value = node.value
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "print"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, namespace)
        got, ok = out.getvalue().rstrip("\n"), out.getvalue().rstrip("\n") == str(expected)
    else:
        got = eval(compile(ast.Expression(value), path, "eval"), namespace)
        ok = bool(got == expected) if type(got) is type(expected) else False
    if not ok:
        sys.exit(f"README.md line {offset + node.lineno - 1}: {ast.unparse(value)} gives "
                 f"{got!r}; its comment says {expected!r}")
    checked += 1
print(f"checked {checked}")
'''


# --- reading the README ------------------------------------------------------------------------
@dataclass
class Block:
    lang: str
    line: int  # the README line of the block's first code line
    text: str
    section: str
    commands: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.section.lower()).strip("-")
        return f"{self.lang}-line{self.line}-{slug}"


def strip_comment(line: str) -> str:
    """``line`` without its shell comment (a ``#`` outside quotes, after a blank)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def split_commands(text: str) -> list[str]:
    """A bash block's commands: one a line (comments dropped), split at ``&&``."""
    out: list[str] = []
    for line in text.replace("\\\n", " ").splitlines():
        line = strip_comment(line)
        out += [" ".join(c.split()) for c in line.split("&&") if c.strip()]
    return out


def read_blocks(path: Path = README) -> list[Block]:
    blocks: list[Block] = []
    body: list[str] = []
    lang: str | None = None
    section, start = "", 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if lang is None and line.startswith("#"):
            section = line.lstrip("#").strip()
        if line.startswith("```"):
            if lang is None:
                lang, start, body = line[3:].strip(), n + 1, []
            else:
                block = Block(lang, start, "\n".join(body) + "\n", section)
                if lang == "bash":
                    block.commands = split_commands(block.text)
                blocks.append(block)
                lang = None
        elif lang is not None:
            body.append(line)
    assert lang is None, f"{path.name}: the block opened at line {start - 1} is not closed"
    return blocks


BLOCKS = read_blocks()


def python_key(block: Block) -> str | None:
    keys = [k for k in (*PYTHON_BLOCKS, *PYTHON_SKIP) if k in block.text]
    return keys[0] if len(keys) == 1 else None


def is_install(command: str) -> bool:
    return command.startswith("pip install ")


# --- installs: what CI runs --------------------------------------------------------------------
def ci_command() -> str:
    """The README test command as .ci/run runs it (``-q`` dropped; each part of it timed
    by ``step NAME``, dropped too)."""
    lines = CI.read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
    lines = [re.sub(r'step "[^"]*" ', "", line) for line in lines]
    command = next(line for line in lines if line.lstrip().startswith("pip install -q torch"))
    return " ".join(w for w in command.split() if w != "-q")


def extras_of_test() -> set[str]:
    """The extras ``[test]`` installs (itself and those it names), from pyproject.toml."""
    try:
        import tomllib
    except ImportError:  # Python 3.10: the train extra's tomli
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    named = [re.fullmatch(r"phone-gym\[([a-z,]+)\]", req.replace(" ", ""))
             for req in project["optional-dependencies"]["test"]]
    return {"test", *(e for m in named if m for e in m.group(1).split(","))}


def check_install(chain: list[str], index: int) -> None:
    """``chain[index]`` (a ``pip install``) installs what CI installs: the torch pin CI uses,
    or this project (editable) with extras the ``[test]`` extra covers; extras that need
    torch come after the pinned torch in the same chain."""
    pin = re.search(r"torch==\S+", ci_command())
    assert pin, ".ci/run no longer pins torch"
    args = [w for w in shlex.split(chain[index])[2:] if w != "-q"]
    if args and args[0].startswith("torch"):
        assert args == [pin.group(0)], f"{chain[index]!r}: CI installs {pin.group(0)}"
        return
    assert len(args) == 2 and args[0] == "-e", f"{chain[index]!r}: not an install CI runs"
    extras = re.fullmatch(r"\.(?:\[([a-z,]+)\])?", args[1])
    assert extras, f"{chain[index]!r}: installs something other than this project"
    wanted = set(extras.group(1).split(",")) if extras.group(1) else set()
    assert wanted <= extras_of_test(), f"{chain[index]!r}: extras CI does not install"
    if wanted & {"train", "test", "examples"}:
        assert pin.group(0) in " ".join(chain[:index]), (
            f"{chain[index]!r} pulls torch: install {pin.group(0)} first, as CI does")


def test_the_readme_test_command_is_what_ci_runs() -> None:
    commands = [" && ".join(b.commands) for b in BLOCKS if b.lang == "bash"]
    assert ci_command() in commands, f"no README block runs CI's command: {ci_command()}"


@pytest.mark.parametrize("block", [b for b in BLOCKS if any(map(is_install, b.commands))],
                         ids=lambda b: b.name)
def test_install_commands_are_what_ci_installs(block: Block) -> None:
    for i, command in enumerate(block.commands):
        if is_install(command):
            check_install(block.commands, i)


# --- every block is run or listed --------------------------------------------------------------
def test_every_block_is_run_or_listed() -> None:
    problems: list[str] = []
    seen: set[str] = set()
    for block in BLOCKS:
        where = f"README.md line {block.line} ({block.section})"
        if block.lang == "python":
            keys = [k for k in (*PYTHON_BLOCKS, *PYTHON_SKIP) if k in block.text]
            if len(keys) != 1:
                problems.append(f"{where}: a python block named by {len(keys)} entries of "
                                "PYTHON_BLOCKS/PYTHON_SKIP (add one line only it holds)")
            seen.update(keys)
        elif block.lang == "bash":
            for command in block.commands:
                if not (is_install(command) or command in BASH_COMMANDS or command in SKIP):
                    problems.append(f"{where}: {command!r} is neither run (BASH_COMMANDS) nor "
                                    "skipped with a reason (SKIP)")
                seen.add(command)
        elif block.lang not in SHOWN_ONLY:
            problems.append(f"{where}: a ```{block.lang} block: write commands as ```bash")
    stale = [k for k in (*PYTHON_BLOCKS, *PYTHON_SKIP, *BASH_COMMANDS, *SKIP, *EXPECT)
             if k not in seen]
    problems += [f"{k!r} runs with nothing checked but its exit status: add to EXPECT what "
                 "the README says it does" for k in BASH_COMMANDS if k not in EXPECT]
    problems += [f"{k!r} is listed here but no longer in README.md" for k in stale]
    assert not problems, "\n".join(problems)


def test_the_output_check_catches_a_wrong_comment(tmp_path: Path) -> None:
    code = tmp_path / "block.py"
    code.write_text('x = (1, 2)\nx  # (1, 2): fine\nprint("a")  # \'b\'\n')
    done = subprocess.run([sys.executable, "-c", RUNNER, str(code), "10"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "README.md line 12: print('a') gives 'a'; its comment says 'b'" in done.stderr
    code.write_text('x = (1, 2)\nx  # (1, 2): fine\nprint("b")  # \'b\'\nx  # not stated\n')
    done = subprocess.run([sys.executable, "-c", RUNNER, str(code), "10"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "checked 2"


# --- figures the README states -----------------------------------------------------------------
def script_default(script: str, option: str) -> Any:
    """The ``default=`` of ``option`` in a script's ``parser.add_argument`` calls."""
    for node in ast.walk(ast.parse((ROOT / script).read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument" and node.args
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == option):
            default = next((k.value for k in node.keywords if k.arg == "default"), None)
            assert default is not None, f"{script} {option} has no default="
            return ast.literal_eval(default)
    raise AssertionError(f"{script} has no option {option}")


def default_of(function: Callable[..., Any], name: str) -> Any:
    return inspect.signature(function).parameters[name].default


def templates() -> dict[str, Any]:
    from phone_gym.envs.real_phone import REAL_TEMPLATES
    from phone_gym.mockapps import TEMPLATES

    return {"all": len(TEMPLATES), "infeasible": sum(t.infeasible for t in TEMPLATES.values()),
            "real": len(REAL_TEMPLATES),
            "real_infeasible": sum(t.infeasible for t in REAL_TEMPLATES.values())}


def env_default(env: str, name: str) -> Any:
    from phone_gym.envs import PhoneWorldEnv, RealPhoneEnv

    return default_of(PhoneWorldEnv if env == "PhoneWorld" else RealPhoneEnv, name)


def guard_default(name: str) -> Any:
    from phone_gym.real.guard import SafetyGuard

    return getattr(SafetyGuard(), name)


def authoring_default(name: str) -> Any:
    from phone_gym import testing

    return testing.STARTS if name == "starts" else default_of(
        testing.check_task if name == "seeds" else testing.check_app, name)


def setup_tries() -> int:
    from phone_gym.tasks.task import MAX_SETUP_TRIES

    return MAX_SETUP_TRIES


def make_vec_mode() -> str:
    import phone_gym

    return str(default_of(phone_gym.make_vec, "vectorization_mode"))


DOCS_APP = ROOT / "docs" / "writing-an-app.md"
#: Figures the README (or a doc page repeating it) states, with where each comes from: a
#: regex over the text (whitespace made single spaces) whose groups are the figures, and
#: the value they must equal (a tuple for several groups).
STATED: list[tuple[str, Callable[[], Any], Path]] = [
    (r"\*\*Tasks\*\*: (\d+) parameterized templates", lambda: templates()["all"], README),
    (r"; (\d+) of them infeasible variants", lambda: templates()["infeasible"], README),
    (r"and `info`, (\d+) real-device tasks", lambda: templates()["real"], README),
    (r"default: all (\d+) templates", lambda: templates()["real"], README),
    (r"`phone-gym tasks` lists all (\d+) templates", lambda: templates()["all"], README),
    (r"`phone-gym tasks --real` the (\d+) that also run", lambda: templates()["real"], README),
    (r"and (\w+) infeasible variants\. They have ids", lambda: templates()["real_infeasible"],
     README),
    (r"raises `SetupError` when (\d+) samples all clash", setup_tries, README),
    (r"default `\((\d+), (\d+)\)`, the 1080 x 2400 screen",
     lambda: env_default("PhoneWorld", "obs_size"), README),
    (r"default `\((\d+), (\d+)\)`, the 1080 x 2400 screen",
     lambda: env_default("RealPhone", "obs_size"), README),
    (r"`host`/`port` \(the adb server, default `([\d.]+):(\d+)`\)",
     lambda: (env_default("RealPhone", "host"), env_default("RealPhone", "port")), README),
    (r"`settle` \(seconds to wait for animations, default ([\d.]+)\)",
     lambda: env_default("RealPhone", "settle"), README),
    (r"`allowed_keys` \(default ([a-z, ]+)\)",
     lambda: ", ".join(guard_default("allowed_keys")), README),
    (r"`max_text_length` \(default (\d+)\)", lambda: guard_default("max_text_length"), README),
    (r"`phone_gym\.make_vec\(8\)` \((\w+)\)", make_vec_mode, README),
    (r"check_task` runs any template on (\d+) seeds", lambda: authoring_default("seeds"), README),
    (r"starts the oracle after (\d+), (\d+) and (\d+) random actions",
     lambda: authoring_default("starts"), README),
    (r"`check_app` walks an app with ([\d,]+) random", lambda: authoring_default("steps"), README),
    (r"`check_task\(task, seeds=(\d+)\)`", lambda: authoring_default("seeds"), DOCS_APP),
    (r"after (\d+), (\d+) and (\d+) random actions", lambda: authoring_default("starts"), DOCS_APP),
    (r"`check_app\(app, steps=([\d_]+)\)`", lambda: authoring_default("steps"), DOCS_APP),
    # the scripts' defaults
    (r"throughput\.py` prints one JSON line \((\d+) steps per policy by default",
     lambda: script_default("benchmarks/throughput.py", "--steps"), README),
    (r"\(`--repeats`, default (\d+); medians\)",
     lambda: script_default("benchmarks/throughput.py", "--repeats"), README),
    (r"the defaults: (\d+) steps per size, median of (\d+) interleaved runs",
     lambda: (script_default("benchmarks/growth.py", "--steps"),
              script_default("benchmarks/growth.py", "--repeats")), README),
    (r"\| contacts \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|",
     lambda: script_default("benchmarks/growth.py", "--sizes"), README),
    (r"\| envs \| (\d+) \| (\d+) \| (\d+) \|",
     lambda: script_default("benchmarks/vector_transfer.py", "--envs"), README),
    (r"in one run \((\d+) steps each, the default `--steps`",
     lambda: script_default("benchmarks/real_phone.py", "--steps"), README),
    (r"oracle policy \(first (\d+) steps, cold caches\)",
     lambda: script_default("benchmarks/real_phone.py", "--steps"), README),
    (r"(\d+) x (\d+) screenshots, (\d+) new tokens, (\w+) thread, (\d+) steps\)",
     lambda: (*script_default("benchmarks/rollout_throughput.py", "--size"),
              *(script_default("benchmarks/rollout_throughput.py", o)
                for o in ("--max-new-tokens", "--threads", "--steps"))), README),
    (r"`python examples/sb3_ppo\.py` \(defaults: (\w+) timesteps, (\d+) envs",
     lambda: (script_default("examples/sb3_ppo.py", "--timesteps"),
              script_default("examples/sb3_ppo.py", "--n-envs")), README),
    (r"of (\d+) episodes on unseen seeds",
     lambda: script_default("examples/sb3_ppo.py", "--eval-episodes"), README),
]

WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten "
                                    "eleven twelve".split())}


def figure(text: str) -> Any:
    """A figure as written: ``five``, ``250k``, ``10,000``, ``10_000``, ``0.5``, else text."""
    if text in WORDS:
        return WORDS[text]
    number = re.fullmatch(r"(\d[\d,_]*(?:\.\d+)?)(k?)", text)
    if not number:
        return text
    value = float(number.group(1).replace(",", "").replace("_", ""))
    value *= 1000 if number.group(2) else 1
    return int(value) if value.is_integer() and "." not in number.group(1) else value


def normal(value: Any) -> Any:
    return tuple(normal(v) for v in value) if isinstance(value, (list, tuple)) else value


@pytest.mark.parametrize("pattern, actual, path", STATED, ids=[p for p, _, _ in STATED])
def test_stated_figures_match_the_code(pattern: str, actual: Callable[[], Any],
                                       path: Path) -> None:
    text = " ".join(path.read_text(encoding="utf-8").split())
    found = re.search(pattern, text)
    assert found, f"{path.name} no longer says {pattern!r}: update STATED"
    figures = tuple(figure(g) for g in found.groups())
    stated = figures[0] if len(figures) == 1 else figures
    assert stated == normal(actual()), f"{path.name}: {found.group(0)!r}, the code: {actual()!r}"


def test_action_space_samples_are_always_valid_actions() -> None:
    """The README's "a `Dict` whose `sample()` is always valid": every sample converts to
    an action (``action_from_sample`` validates it) that the parser reads back the same."""
    import gymnasium as gym

    from phone_gym.actions import format_action, parse_action
    from phone_gym.actions.space import action_from_sample

    env = gym.make("PhoneWorld-v0")
    names = env.unwrapped.app_names  # type: ignore[attr-defined]
    env.action_space.seed(0)
    for _ in range(3000):
        action = action_from_sample(env.action_space.sample(), names)
        assert parse_action(format_action(action)) == action


def test_new_app_commands_name_an_app_that_does_not_exist_yet() -> None:
    """``phone-gym new-app NAME`` refuses a name taken (docs/writing-an-app.md once told
    users to make ``Todo``, a built-in app)."""
    from phone_gym.mockapps import REGISTRY

    taken = {n.lower() for p in REGISTRY.packages for n in p.manifest.names()}
    commands = [(path.name, c) for path in (README, *sorted((ROOT / "docs").glob("*.md")))
                for b in read_blocks(path) if b.lang == "bash" for c in b.commands
                if c.startswith("phone-gym new-app ")]
    assert any(where == "README.md" for where, _ in commands)
    for where, command in commands:
        name = shlex.split(command)[2]
        assert name.lower() not in taken, f"{where}: {command!r}: {name} is an app already"


# --- running -----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[Any], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the background command exited ({proc.returncode})"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answers on port {port} after {timeout} s")


def stop(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def environment(**extra: str) -> dict[str, str]:
    env = {**os.environ, "ADBUTILS_ADB_PATH": "/bin/false", "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1", **extra}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


@pytest.fixture(scope="module")
def device_port() -> Iterator[int]:
    """A virtual adb device of the test's own, for blocks that do not start one."""
    proc = subprocess.Popen([sys.executable, "-m", "phone_gym", "virtual-device", "--port", "0"],
                            stdout=subprocess.PIPE, text=True, env=environment())
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("virtual adb device:"), first
        yield int(first.rsplit(":", 1)[1])
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch folder to run commands in: a copy of ``phone_gym`` (first on PYTHONPATH),
    ``pyproject.toml`` (pytest's settings) and a link to ``examples``."""
    ws = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "phone_gym", ws / "phone_gym",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", ws / "pyproject.toml")
    (ws / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return ws


def run_command(command: str, ws: Path) -> str:
    """Run ``command`` in the workspace; its stdout."""
    done = subprocess.run(["bash", "-c", command], cwd=ws, capture_output=True, text=True,
                          timeout=300, env=environment(PYTHONPATH=str(ws)))
    assert done.returncode == 0, (f"{command!r} exited {done.returncode}:\n"
                                  f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout


def check_expected(command: str, ws: Path, output: str | Callable[[], str]) -> None:
    """What ``EXPECT`` says ``command`` (the README's) leaves and prints: ``output`` is what
    it printed, or reads it (a background command's log grows: read until it matches, 10 s
    at most)."""
    expect = EXPECT.get(command, Expect())
    for pattern in expect.files:
        assert list(ws.glob(pattern)), f"{command!r} left no {pattern}"
    if expect.output:
        deadline = time.monotonic() + 10
        while not re.search(expect.output,
                            text := output if isinstance(output, str) else output(), re.S):
            assert time.monotonic() < deadline, (
                f"{command!r} printed no match of {expect.output!r}:\n{text[-3000:]}")
            time.sleep(0.1)


@pytest.mark.parametrize("key", [k for k in PYTHON_BLOCKS
                                 if any(k in b.text for b in BLOCKS if b.lang == "python")])
def test_python_block(key: str, device_port: int, tmp_path: Path) -> None:
    spec = PYTHON_BLOCKS[key]
    block = next(b for b in BLOCKS if b.lang == "python" and key in b.text)
    text = block.text
    for old, new in spec.subs:
        assert old in text, f"substitution {old!r} no longer applies to README line {block.line}"
        text = text.replace(old, new.format(device_port=device_port))
    code = tmp_path / "block.py"
    code.write_text(text)
    done = subprocess.run([sys.executable, "-c", RUNNER, str(code), str(block.line)],
                          cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env=environment())
    assert done.returncode == 0, f"{block.name}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    checked = int(done.stdout.strip().splitlines()[-1].split()[-1])
    assert checked >= spec.checks, f"{block.name}: {checked} stated values checked"


#: README sections whose commands take long (training, a new app's checks, a phone): the full
#: tier runs them.
SLOW_SECTIONS = ("training", "writing-a-mock-app", "real-phones")


@pytest.mark.parametrize("block", [
    pytest.param(b, marks=pytest.mark.slow) if any(s in b.name for s in SLOW_SECTIONS) else b
    for b in BLOCKS if b.lang == "bash"], ids=lambda b: b.name)
def test_bash_block(block: Block, workspace: Path, device_port: int) -> None:
    runs = [BASH_COMMANDS[c] or c for c in block.commands if c in BASH_COMMANDS]
    if any(r.startswith(("phone-gym train", "python examples/train_vlm.py")) for r in runs):
        pytest.importorskip("torch")
        pytest.importorskip("transformers")
    values = {"port": str(free_port()), "device_port": str(device_port)}
    background: list[subprocess.Popen[Any]] = []
    try:
        for command in block.commands:
            if is_install(command) or command in SKIP:
                continue  # installs: test_install_commands_are_what_ci_installs
            actual = (BASH_COMMANDS[command] or command).format(**values)
            if not actual.endswith("&"):
                out = run_command(actual, workspace)
                check_expected(command, workspace, out)
                continue
            log = workspace / f"background-{len(background)}.log"
            with log.open("w") as sink:
                proc = subprocess.Popen(["bash", "-c", "exec " + actual[:-1].strip()],
                                        cwd=workspace, stdout=sink, stderr=subprocess.STDOUT,
                                        env=environment(PYTHONPATH=str(workspace)))
            background.append(proc)
            port = re.search(r"--port (\d+)", actual)
            assert port, f"{command!r}: a background command must name its --port"
            wait_for_port(int(port.group(1)), proc)
            check_expected(command, workspace, log.read_text)
    finally:
        for proc in background:
            stop(proc)

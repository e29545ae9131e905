"""Running a Markdown page's code blocks as a new user would: the machinery that
``test_readme.py`` (README.md) and ``test_docs.py`` (the pages under ``docs/``) share.

- ```` ```python ```` blocks run in a fresh interpreter (``RUNNER``), cwd = the repository,
  after the substitutions a ``PyBlock`` lists for them (each must apply). A comment that
  starts with a Python literal states a value, and the runner checks it: after an
  expression, its value (``obs["screenshot"].shape  # (1200, 540, 3): ...``, words after the
  literal are prose); after ``print(...)``, what it prints (``print(s)  # 'Delete the ...'``).
- ```` ```bash ```` blocks run command by command (split at ``&&``), in page order, in a
  scratch folder (``make_workspace``) that holds a copy of ``phone_gym`` first on
  ``PYTHONPATH`` (``phone-gym new-app`` writes into the package), of ``docs``, ``scripts`` and
  ``mkdocs.yml``, and the repository's ``examples``. A command ending in ``&`` runs in the
  background until its block ends, once its ``--port`` answers. Each command is run as
  written or as substituted (``Tables.bash``: shortened where it trains, a free port where
  it serves) and then checked for what the page says it does (``Tables.expect``: the files it
  leaves, what it prints), skipped with a reason (``Tables.skip``; ``AS_IN_CI``: checked to
  be a command of ``.ci/run`` instead), or is an install (``pip install ...``): checked
  against what CI installs rather than run.
- Commands that need a phone run against ``phone-gym virtual-device``: the page's own (on a
  free port, ``{port}``) or one the test starts (``{device_port}``). No adb binary runs
  (``ADBUTILS_ADB_PATH=/bin/false``), nothing is downloaded.
"""

from __future__ import annotations

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
CI = ROOT / ".ci" / "run"
#: A skip reason: the command is one of CI's own (``.ci/run``), checked to be there.
AS_IN_CI = "one of CI's own commands (.ci/run), checked to be there instead"
#: Languages of fenced blocks that are shown, not run (data, output).
SHOWN_ONLY = {"text", "toml", "json", "yaml", ""}


# --- what runs, and how ------------------------------------------------------------------------
@dataclass(frozen=True)
class PyBlock:
    """How a python block runs: ``subs`` (old, new) applied to its text, and at least
    ``checks`` stated values checked; ``slow``: the full tier runs it."""

    subs: tuple[tuple[str, str], ...] = ()
    checks: int = 0
    why: str = ""
    slow: bool = False


@dataclass(frozen=True)
class Expect:
    """What a command does besides exiting 0, as the page says: ``files`` (globs in the
    workspace, each matching a file) and ``output`` (a regex its stdout, or a background
    command's log, matches)."""

    files: tuple[str, ...] = ()
    output: str = ""


@dataclass
class Tables:
    """What a set of pages' blocks do. ``python``: every python block, named by a line only
    it holds; ``python_skip``: python blocks that do not run, with the reason; ``bash``: every
    bash command that runs (None: as written, else the command run instead; ``{port}``: a
    free port for the page's own virtual device, ``{device_port}``: the test's); ``skip``:
    bash commands that do not run, with the reason; ``expect``: what the commands run do;
    ``slow_sections``: slugs of sections whose bash blocks the full tier runs (``"*"``:
    all)."""

    python: dict[str, PyBlock]
    python_skip: dict[str, str]
    bash: dict[str, str | None]
    skip: dict[str, str]
    expect: dict[str, Expect]
    slow_sections: tuple[str, ...] = ()


#: Runs one python block (argv: the file, the page's name, the page line of its first
#: line); prints how many stated values it checked.
RUNNER = r'''
import ast, contextlib, io, sys, tokenize

path, page, offset = sys.argv[1], sys.argv[2], int(sys.argv[3])
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
        sys.exit(f"{page} line {offset + node.lineno - 1}: {ast.unparse(value)} gives "
                 f"{got!r}; its comment says {expected!r}")
    checked += 1
print(f"checked {checked}")
'''


# --- reading a page ----------------------------------------------------------------------------
@dataclass
class Block:
    page: str  # the page's path, relative to the repository
    lang: str
    line: int  # the page line of the block's first code line
    text: str
    section: str
    ordinal: int = 1  # the how-manieth block of its language in its section
    commands: list[str] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.section.lower()).strip("-")

    @property
    def name(self) -> str:
        """A name that does not move when lines are added above the block."""
        return f"{self.lang}-{self.slug}-{self.ordinal}"

    @property
    def where(self) -> str:
        return f"{self.page} line {self.line} ({self.section})"


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


def read_blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, indented ones (in a list item) too."""
    page = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    blocks: list[Block] = []
    body: list[str] = []
    lang: str | None = None
    indent, section, start = "", "", 0
    seen: dict[tuple[str, str], int] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if lang is None and line.startswith("#"):
            section = line.lstrip("#").strip()
        fence = re.match(r"(\s*)```", line)
        if fence and lang is None:
            indent, lang, start, body = fence.group(1), line.strip()[3:].strip(), n + 1, []
        elif fence and lang is not None:
            key = (section, lang)
            seen[key] = seen.get(key, 0) + 1
            block = Block(page, lang, start, "\n".join(body) + "\n", section, seen[key])
            if lang == "bash":
                block.commands = split_commands(block.text)
            blocks.append(block)
            lang = None
        elif lang is not None:
            body.append(line[len(indent):] if line.startswith(indent) else line)
    assert lang is None, f"{page}: the block opened at line {start - 1} is not closed"
    return blocks


def is_install(command: str) -> bool:
    return command.startswith("pip install ")


def python_key(block: Block, tables: Tables) -> str | None:
    keys = [k for k in (*tables.python, *tables.python_skip) if k in block.text]
    return keys[0] if len(keys) == 1 else None


def listing_problems(blocks: list[Block], tables: Tables) -> list[str]:
    """Blocks or commands the tables do not name, table entries no block holds, commands run
    with nothing checked, and ``AS_IN_CI`` commands CI does not run."""
    problems: list[str] = []
    seen: set[str] = set()
    for block in blocks:
        if block.lang == "python":
            keys = [k for k in (*tables.python, *tables.python_skip) if k in block.text]
            if len(keys) != 1:
                problems.append(f"{block.where}: a python block named by {len(keys)} entries "
                                "of the python tables (add one line only it holds)")
            seen.update(keys)
        elif block.lang == "bash":
            for command in block.commands:
                if not (is_install(command) or command in tables.bash
                        or command in tables.skip):
                    problems.append(f"{block.where}: {command!r} is neither run nor skipped "
                                    "with a reason")
                seen.add(command)
        elif block.lang not in SHOWN_ONLY:
            problems.append(f"{block.where}: a ```{block.lang} block: write commands as ```bash")
    tables_keys = (*tables.python, *tables.python_skip, *tables.bash, *tables.skip,
                   *tables.expect)
    problems += [f"{k!r} is listed but no page holds it any more" for k in tables_keys
                 if k not in seen]
    problems += [f"{k!r} runs with nothing checked but its exit status: add to the expect "
                 "table what the page says it does" for k in tables.bash if k not in tables.expect]
    ci = " ".join(CI.read_text(encoding="utf-8").replace("\\\n", " ").split())
    problems += [f"{k!r} is skipped as one of CI's commands, but .ci/run does not run it"
                 for k, why in tables.skip.items() if why == AS_IN_CI and k not in ci]
    return problems


# --- installs: what CI runs --------------------------------------------------------------------
def ci_lines() -> list[str]:
    """The lines of ``.ci/run``, continuations joined, ``step NAME`` prefixes dropped."""
    lines = CI.read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
    return [re.sub(r'step "[^"]*" ', "", line) for line in lines]


def ci_command() -> str:
    """The README test command as .ci/run runs it (``-q`` dropped; each part of it timed
    by ``step NAME``, dropped too)."""
    command = next(line for line in ci_lines() if line.lstrip().startswith("pip install -q torch"))
    return " ".join(w for w in command.split() if w != "-q")


def ci_venv_extras() -> list[set[str]]:
    """The extras of each editable install of ``.ci/run`` (its own venvs' included)."""
    found = re.findall(r'pip install -q -e "\.\[([a-z,]+)\]"', "\n".join(ci_lines()))
    return [set(extras.split(",")) for extras in found]


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
    or this project (editable) with extras the ``[test]`` extra covers or that one of CI's
    own venvs installs; extras that need torch come after the pinned torch in the same
    chain."""
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
    assert wanted <= extras_of_test() or wanted in ci_venv_extras(), (
        f"{chain[index]!r}: extras CI does not install")
    if wanted & {"train", "test", "examples", "openenv", "verl"}:
        assert pin.group(0) in " ".join(chain[:index]), (
            f"{chain[index]!r} pulls torch: install {pin.group(0)} first, as CI does")


# --- figures the prose states ------------------------------------------------------------------
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


def check_stated(pattern: str, actual: Callable[[], Any], path: Path) -> None:
    """The figures ``pattern``'s groups find in ``path`` (whitespace made single spaces)
    equal ``actual()`` (a tuple for several groups)."""
    text = " ".join(path.read_text(encoding="utf-8").split())
    found = re.search(pattern, text)
    assert found, f"{path.name} no longer says {pattern!r}: update the stated figures"
    figures = tuple(figure(g) for g in found.groups())
    stated = figures[0] if len(figures) == 1 else figures
    assert stated == normal(actual()), f"{path.name}: {found.group(0)!r}, the code: {actual()!r}"


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
           "TRANSFORMERS_OFFLINE": "1", "NO_MKDOCS_2_WARNING": "1", **extra}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def virtual_device() -> Iterator[int]:
    """A virtual adb device of the test's own (its port), for blocks that do not start one."""
    proc = subprocess.Popen([sys.executable, "-m", "phone_gym", "virtual-device", "--port", "0"],
                            stdout=subprocess.PIPE, text=True, env=environment())
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("virtual adb device:"), first
        yield int(first.rsplit(":", 1)[1])
    finally:
        stop(proc)


def make_workspace(ws: Path) -> Path:
    """A scratch folder to run a block's commands in: copies of ``phone_gym``, ``docs``,
    ``scripts``, ``mkdocs.yml`` and ``pyproject.toml`` (pytest's settings), and a link to
    ``examples``."""
    for name in ("phone_gym", "docs", "scripts"):
        shutil.copytree(ROOT / name, ws / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "mkdocs.yml"):
        shutil.copy(ROOT / name, ws / name)
    (ws / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return ws


def run_command(command: str, ws: Path) -> str:
    """Run ``command`` in the workspace; its stdout."""
    done = subprocess.run(["bash", "-c", command], cwd=ws, capture_output=True, text=True,
                          timeout=300, env=environment(PYTHONPATH=str(ws)))
    assert done.returncode == 0, (f"{command!r} exited {done.returncode}:\n"
                                  f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout


def check_expected(expect: Expect, command: str, ws: Path,
                   output: str | Callable[[], str]) -> None:
    """What ``expect`` says ``command`` (the page's) leaves and prints: ``output`` is what
    it printed, or reads it (a background command's log grows: read until it matches, 10 s
    at most)."""
    for pattern in expect.files:
        assert list(ws.glob(pattern)), f"{command!r} left no {pattern}"
    if expect.output:
        deadline = time.monotonic() + 10
        while not re.search(expect.output,
                            text := output if isinstance(output, str) else output(), re.S):
            assert time.monotonic() < deadline, (
                f"{command!r} printed no match of {expect.output!r}:\n{text[-3000:]}")
            time.sleep(0.1)


def device_port_for(request: pytest.FixtureRequest, texts: list[str]) -> int:
    """The ``device_port`` fixture's port when ``texts`` (what will run) name
    ``{device_port}``, else 0: the virtual device starts only for the blocks that need it."""
    if any("{device_port}" in text for text in texts):
        return int(request.getfixturevalue("device_port"))
    return 0


def python_params(blocks: list[Block], tables: Tables) -> list[Any]:
    """pytest params of the python blocks that run: (block, its table key), slow ones marked."""
    out = []
    for block in blocks:
        key = python_key(block, tables) if block.lang == "python" else None
        if key is None or key not in tables.python:
            continue
        marks = [pytest.mark.slow] if tables.python[key].slow else []
        out.append(pytest.param(block, key, marks=marks, id=f"{block.page}:{block.name}"))
    return out


def bash_params(blocks: list[Block], tables: Tables) -> list[Any]:
    """pytest params of the bash blocks that run a command, those of
    ``tables.slow_sections`` marked slow."""
    out = []
    for block in blocks:
        if block.lang != "bash" or all(is_install(c) or c in tables.skip
                                       for c in block.commands):
            continue  # nothing runs: installs and skips are checked without running
        slow = "*" in tables.slow_sections or block.slug in tables.slow_sections
        out.append(pytest.param(block, marks=[pytest.mark.slow] if slow else [],
                                id=f"{block.page}:{block.name}"))
    return out


def run_python_block(block: Block, spec: PyBlock, device_port: int, tmp_path: Path) -> None:
    text = block.text
    for old, new in spec.subs:
        assert old in text, f"substitution {old!r} no longer applies to {block.where}"
        text = text.replace(old, new.replace("{device_port}", str(device_port)))
    code = tmp_path / "block.py"
    code.write_text(text)
    done = subprocess.run([sys.executable, "-c", RUNNER, str(code), block.page, str(block.line)],
                          cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env=environment())
    assert done.returncode == 0, f"{block.where}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    checked = int(done.stdout.strip().splitlines()[-1].split()[-1])
    assert checked >= spec.checks, f"{block.where}: {checked} stated values checked"


def run_bash_block(block: Block, tables: Tables, ws: Path, device_port: int) -> None:
    runs = [tables.bash[c] or c for c in block.commands if c in tables.bash]
    if any(r.startswith(("phone-gym train", "python examples/train_vlm.py")) for r in runs):
        pytest.importorskip("torch")
        pytest.importorskip("transformers")
    values = {"port": str(free_port()), "device_port": str(device_port)}
    background: list[subprocess.Popen[Any]] = []
    try:
        for command in block.commands:
            if is_install(command) or command in tables.skip:
                continue  # installs: checked against CI's, not run
            actual = tables.bash[command] or command
            for name, value in values.items():
                actual = actual.replace(f"{{{name}}}", value)
            expect = tables.expect.get(command, Expect())
            if not actual.endswith("&"):
                check_expected(expect, command, ws, run_command(actual, ws))
                continue
            log = ws / f"background-{len(background)}.log"
            with log.open("w") as sink:
                proc = subprocess.Popen(["bash", "-c", "exec " + actual[:-1].strip()],
                                        cwd=ws, stdout=sink, stderr=subprocess.STDOUT,
                                        env=environment(PYTHONPATH=str(ws)))
            background.append(proc)
            port = re.search(r"--port (\d+)", actual)
            assert port, f"{command!r}: a background command must name its --port"
            wait_for_port(int(port.group(1)), proc)
            check_expected(expect, command, ws, log.read_text)
    finally:
        for proc in background:
            stop(proc)

"""Every command and code block of README.md, run as a new user would run it
(``docblocks``: how blocks run, and what the tables below mean), its install and test
commands checked against CI's, and the figures it states compared with the code.

A block or command the tables do not name fails ``test_every_block_is_run_or_listed``, and
so does a table entry the README no longer has, or a command run with nothing checked. The
pages of the documentation site have their own tables: ``test_docs.py``.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from docblocks import (
    AS_IN_CI,
    ROOT,
    RUNNER,
    Block,
    Expect,
    PyBlock,
    Tables,
    bash_params,
    check_install,
    check_stated,
    ci_command,
    device_port_for,
    is_install,
    listing_problems,
    make_workspace,
    python_params,
    read_blocks,
    run_bash_block,
    run_python_block,
    virtual_device,
)

README = ROOT / "README.md"
BLOCKS = read_blocks(README)

_IN_CI = "part of CI's own command (.ci/run), whose test run includes this test"
TABLES = Tables(
    python={
        # A first episode: the instruction printed, the oracle's verdict
        'env = gym.make("PhoneWorld-v0", task="NotesDeleteNote")': PyBlock(checks=2),
    },
    python_skip={},
    bash={
        # the demo (what "Two commands for a new machine" says it runs)
        "phone-gym demo": None,
    },
    skip={
        "ruff check .": _IN_CI,
        "mypy": _IN_CI,
        "lint-imports": _IN_CI,
        "python -m pytest --full -n auto": "the whole test suite, this file included: " + _IN_CI,
    },
    expect={
        # "the oracle solves `CrossContactPhoneToNote` (seed 0 ...) and saves the episode as
        # a GIF in `out/`"
        "phone-gym demo": Expect(("out/demo_CrossContactPhoneToNote_0.gif",),
                                 r"task CrossContactPhoneToNote \(seed 0\): Create a note "
                                 r"titled \"Vet\" containing the phone number of \"Yuki "
                                 r"Brown\"\..*\nSUCCESS: reward 1\.0"),
    },
    # the demo takes a few seconds: the full tier
    slow_sections=("two-commands-for-a-new-machine",),
)


def templates() -> dict[str, Any]:
    from phone_gym.envs.real_phone import REAL_TEMPLATES
    from phone_gym.mockapps import REGISTRY, TEMPLATES
    from phone_gym.suites import SUITES

    return {"all": len(TEMPLATES), "apps": len(REGISTRY.packages),
            "real": len(REAL_TEMPLATES), "androidworld": len(SUITES["androidworld"].tasks)}


#: Figures the README states, with where each comes from: a regex over the text (whitespace
#: made single spaces) whose groups are the figures, and the value they must equal (a tuple
#: for several groups).
STATED: list[tuple[str, Callable[[], Any], Path]] = [
    (r"a launcher, (\d+) mock apps with real state", lambda: templates()["apps"], README),
    (r"\*\*Tasks\*\*: (\d+) parameterized templates", lambda: templates()["all"], README),
    (r"AndroidWorld's (\d+) tasks", lambda: templates()["androidworld"], README),
    (r"The launcher and the (\d+) apps' main screens", lambda: templates()["apps"], README),
]


def test_every_block_is_run_or_listed() -> None:
    problems = listing_problems(BLOCKS, TABLES)
    assert not problems, "\n".join(problems)


def test_the_readme_test_command_is_what_ci_runs() -> None:
    commands = [" && ".join(b.commands) for b in BLOCKS if b.lang == "bash"]
    assert ci_command() in commands, f"no README block runs CI's command: {ci_command()}"


def test_the_readme_is_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) < 250


@pytest.mark.parametrize("block", [b for b in BLOCKS if any(map(is_install, b.commands))],
                         ids=lambda b: b.name)
def test_install_commands_are_what_ci_installs(block: Block) -> None:
    for i, command in enumerate(block.commands):
        if is_install(command):
            check_install(block.commands, i)


def test_the_output_check_catches_a_wrong_comment(tmp_path: Path) -> None:
    code = tmp_path / "block.py"
    code.write_text('x = (1, 2)\nx  # (1, 2): fine\nprint("a")  # \'b\'\n')
    done = subprocess.run([sys.executable, "-c", RUNNER, str(code), "README.md", "10"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "README.md line 12: print('a') gives 'a'; its comment says 'b'" in done.stderr
    code.write_text('x = (1, 2)\nx  # (1, 2): fine\nprint("b")  # \'b\'\nx  # not stated\n')
    done = subprocess.run([sys.executable, "-c", RUNNER, str(code), "README.md", "10"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "checked 2"


def test_the_listing_check_catches_what_no_table_names(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# S\n\n```bash\nphone-gym tasks\n```\n\n```python\nx = 1\n```\n\n"
                    "- a list item:\n\n  ```sh\n  ls\n  ```\n")
    blocks = read_blocks(page)
    assert [(b.lang, b.text) for b in blocks][-1] == ("sh", "ls\n")
    tables = Tables(python={"y = 2": PyBlock()}, python_skip={}, bash={"phone-gym demo": None},
                    skip={"ruff-format": AS_IN_CI}, expect={})
    problems = "\n".join(listing_problems(blocks, tables))
    assert "'phone-gym tasks' is neither run nor skipped" in problems
    assert "a python block named by 0 entries" in problems
    assert "a ```sh block" in problems
    assert "'y = 2' is listed but no page holds it" in problems
    assert "'phone-gym demo' runs with nothing checked" in problems
    assert "'ruff-format' is skipped as one of CI's commands, but .ci/run" in problems


@pytest.mark.parametrize("pattern, actual, path", STATED, ids=[p for p, _, _ in STATED])
def test_stated_figures_match_the_code(pattern: str, actual: Callable[[], Any],
                                       path: Path) -> None:
    check_stated(pattern, actual, path)


def test_new_app_commands_name_an_app_that_does_not_exist_yet() -> None:
    """``phone-gym new-app NAME`` refuses a name taken (docs/writing-an-app.md once told
    users to make ``Todo``, a built-in app)."""
    from phone_gym.mockapps import REGISTRY

    taken = {n.lower() for p in REGISTRY.packages for n in p.manifest.names()}
    commands = [(path.name, c) for path in (README, *sorted((ROOT / "docs").glob("*.md")))
                for b in read_blocks(path) if b.lang == "bash" for c in b.commands
                if c.startswith("phone-gym new-app ")]
    assert commands
    for where, command in commands:
        name = shlex.split(command)[2]
        assert name.lower() not in taken, f"{where}: {command!r}: {name} is an app already"


@pytest.fixture(scope="module")
def device_port() -> Iterator[int]:
    yield from virtual_device()


@pytest.mark.parametrize("block, key", python_params(BLOCKS, TABLES))
def test_python_block(block: Block, key: str, request: pytest.FixtureRequest,
                      tmp_path: Path) -> None:
    spec = TABLES.python[key]
    port = device_port_for(request, [new for _, new in spec.subs])
    run_python_block(block, spec, port, tmp_path)


@pytest.mark.parametrize("block", bash_params(BLOCKS, TABLES))
def test_bash_block(block: Block, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    port = device_port_for(request, [TABLES.bash.get(c) or "" for c in block.commands])
    run_bash_block(block, TABLES, make_workspace(tmp_path), port)

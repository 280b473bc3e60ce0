"""The README's curl session, run as written against a live server: every answer has the shape
the README prints (issue 38: it showed a `replaces` id where the service answers null).

The session is read from README.md's "A curl session" block: each `$ ` line (with its `\\`
continuations) is run by bash with real curl, `KEY` and `B` set as the block says. The printed
answer is compared by shape: every `"name": value` the README shows must be in the answer with
that value (strings, null and booleans exactly; numbers by kind, since scores and counts
depend on the engine and on what the server held before); an id shown as `2d359b60-…` is bound
to the real id the first time and must be that id afterwards, also in later commands.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.integration.stack import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]

README = ROOT / "README.md"
SCALAR = r'"(?P<name>\w+)":\s*(?P<value>"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:e-?\d+)?|null|true|false)'
KEYS_WITH_CONTAINERS = r'"(?P<name>\w+)":\s*[\[{]'
ID_SHOWN = re.compile(r"^(?P<prefix>[0-9a-f]{6,})(?P<dash>-?)…$")
SHORT_ID = re.compile(r"\b([0-9a-f]{8})-…")


def session_steps(readme: Path) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The block's variables (`KEY`, `B`) and its (command, printed answer) pairs."""
    text = readme.read_text()
    block = text[text.index("### A curl session") :].split("```")[1]
    variables: dict[str, str] = {}
    steps: list[list[str]] = []
    lines = iter(block.strip("\n").splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.rstrip().endswith("\\"):
                command = command.rstrip()[:-1] + " " + next(lines).strip()
            if match := re.match(r"(\w+)=(\S+)", command):
                variables[match.group(1)] = match.group(2)
                continue
            steps.append([command, ""])
        elif steps and line.strip():
            steps[-1][1] += line + "\n"
    return variables, [(c, a) for c, a in steps]


def values_of(node, name: str) -> list:
    """Every value of a key `name` anywhere in a JSON answer."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == name:
                found.append(value)
            found += values_of(value, name)
    elif isinstance(node, list):
        for item in node:
            found += values_of(item, name)
    return found


def shape_problems(printed: str, answer, ids: dict[str, str]) -> list[str]:
    """What the README prints that the answer does not hold."""
    problems = []
    if printed.lstrip().startswith("[") != isinstance(answer, list):
        problems.append("the README prints a list where the service answers an object, or the reverse")
    for match in re.finditer(KEYS_WITH_CONTAINERS, printed):
        if not values_of(answer, match["name"]):
            problems.append(f"no {match['name']!r} in the answer")
    for match in re.finditer(SCALAR, printed):
        name, shown = match["name"], json.loads(match["value"])
        real = values_of(answer, name)
        if not real:
            problems.append(f"no {name!r} in the answer")
        elif isinstance(shown, str) and (short := ID_SHOWN.match(shown)):
            bound = ids.setdefault(short["prefix"], next((v for v in real if isinstance(v, str)), ""))
            if bound not in real:
                problems.append(f"{name}: the README's {shown} is {bound!r}, the answer has {real}")
        elif isinstance(shown, str) and "…" in shown:
            head = shown.split("…")[0]
            if not any(isinstance(v, str) and v.startswith(head) for v in real):
                problems.append(f"{name}: no value starts with {head!r} in {real}")
        elif isinstance(shown, bool) or shown is None or isinstance(shown, str):
            if shown not in real:
                problems.append(f"{name}: the README shows {shown!r}, the answer has {real}")
        elif not any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in real):
            problems.append(f"{name}: the README shows a number, the answer has {real}")
    return problems


def run_step(command: str, env: dict, ids: dict[str, str]):
    command = SHORT_ID.sub(lambda m: ids.get(m.group(1), m.group(0)), command)
    out = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, f"{command}\n{out.stderr}"
    return json.loads(out.stdout)


def test_the_readme_curl_session_answers_as_printed(live, tmp_path):
    variables, steps = session_steps(README)
    assert set(variables) == {"KEY", "B"} and len(steps) >= 8
    env = {"PATH": "/usr/bin:/bin", "KEY": live.alice, "B": variables["B"].replace("http://127.0.0.1:8000", live.base)}
    ids: dict[str, str] = {}
    for command, printed in steps:
        deadline = time.monotonic() + (60 if "a moment later" in command else 0)
        while True:
            answer = run_step(command, env, ids)
            trial = dict(ids)
            problems = shape_problems(printed, answer, trial)
            if not problems or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert not problems, f"$ {command}\nREADME:\n{printed}\nanswer:\n{json.dumps(answer, indent=1)}\n{problems}"
        ids.update(trial)


def test_the_readme_mem0_quick_start_waits_for_the_add_and_finds_the_memory(live):
    text = README.read_text()
    start = text.index("**Python, with mem0's client**")
    code = text[start:].split("```python\n", 1)[1].split("```", 1)[0]
    assert 'os.environ["MEM0_TELEMETRY"] = "False"' in code
    code = code.replace('"mem_…"', repr(live.alice)).replace('"http://127.0.0.1:8000"', repr(live.base))
    out = io.StringIO()
    saved = os.environ.get("MEM0_TELEMETRY")
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        if saved is not None:
            os.environ["MEM0_TELEMETRY"] = saved
    assert "Porto" in out.getvalue()  # as written before, the search ran before extraction: {'results': []}

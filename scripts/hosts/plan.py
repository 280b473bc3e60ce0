"""What the drill's clients post: LoCoMo turns, the conversations interleaved (one memory user
each), with a marker turn after the first and then every tenth.

The data: LoCoMo dev (`../shared/data/locomo-dev` beside the checkout) where it is, else the
two small LoCoMo-format conversations the repository carries (tests/bench/data), gone through
again in rounds, each round under new turn ids: a fresh clone has no `../shared`, and a plan
without turns posted nothing for 240 s (the fresh-clone CI run of 2026-11-27).
"""

from __future__ import annotations

import json
from pathlib import Path

from load import TurnPost
from services import ROOT

SHARED_DATA = ROOT.parent / "shared/data/locomo-dev"
REPO_DATA = ROOT / "tests/bench/data"


def default_data() -> Path:
    return SHARED_DATA if any(SHARED_DATA.glob("*.json")) else REPO_DATA


def conversations(data: Path) -> list[tuple[str, dict]]:
    """(name, conversation) of every LoCoMo JSON file in `data` (a folder or one file)."""
    files = sorted(data.glob("*.json")) if data.is_dir() else [data]
    found = []
    for file in files:
        data = json.loads(file.read_text())
        items = data if isinstance(data, list) else [data]  # the published file is a list
        for i, item in enumerate(items):
            # The published files wrap each conversation; the dev ones do not.
            conv = item.get("conversation", item) if isinstance(item, dict) else {}
            if "session_1" in conv:
                found.append((f"{file.stem}-{i}" if isinstance(data, list) else file.stem, conv))
    if not found:
        raise SystemExit(f"no LoCoMo conversation (session_1, session_2, ...) in {data}")
    return found


def _posts(name: str, conv: dict, round_no: int) -> list[TurnPost]:
    user, posts, n = f"locomo-{name}", [], 1
    tag = f"r{round_no}-" if round_no else ""
    while f"session_{n}" in conv:
        session = conv[f"session_{n}"]
        for j, turn in enumerate(session):
            reply = session[j + 1]["text"] if j + 1 < len(session) else ""
            sid = f"{tag}session-{n}-{turn['speaker']}"
            posts.append(TurnPost(user, sid, f"{tag}{turn['dia_id']}", f"{turn['speaker']}: {turn['text']}", reply))
        n += 1
    return posts


def build_plan(data: Path, run_id: str, turns: int, marker_every: int = 10) -> list[TurnPost]:
    """`turns` turns (plus the markers), the conversations interleaved, with a marker turn
    ("I use <word>.", a word no conversation has) after the first and then every `marker_every`."""
    convs = conversations(data)
    queues = [_posts(name, conv, 0) for name, conv in convs]
    if not any(queues):
        raise SystemExit(f"the conversations in {data} hold no turn")
    plan: list[TurnPost] = []
    i, round_no, told = 0, 0, 0
    while len(plan) < turns:
        if not any(queues):  # every conversation told: again, under new turn ids
            round_no += 1
            queues = [_posts(name, conv, round_no) for name, conv in convs]
        queue = queues[i % len(queues)]
        i += 1
        if queue:
            plan.append(queue.pop(0))
            told += 1
            # After the first turn, then every `marker_every`: a short drill whose fault comes
            # a few turns in still has a marker acknowledged before it (the fresh-clone CI run
            # of 44992e8 had none: markers 0/0).
            if told % marker_every == 1:
                marker = f"zqmk{run_id}x{len(plan)}"
                plan.append(
                    TurnPost(plan[-1].user, "drill-markers", f"mk{len(plan)}", f"I use {marker}.", marker=marker)
                )
    return plan

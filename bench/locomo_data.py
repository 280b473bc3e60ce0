"""Reading LoCoMo's JSON (the format of ../shared/data/locomo-dev): conversations, their
turns with each session's date, the items of each corpus (observations, turns) and the
questions with their evidence dialogue ids and categories. bench/locomo.py loads these into
the product and scores recall.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

CORPORA = ("observations", "turns", "both")
_DIA = re.compile(r"D:?(\d+)\s*:\s*(\d+)")
_SESSION = re.compile(r"^session_(\d+)$")


def normalise_evidence(values) -> set[str]:
    """'D8:6; D9:17' -> {'D8:6', 'D9:17'}; 'D:11:26' -> {'D11:26'}."""
    if isinstance(values, str):
        values = [values]
    found: set[str] = set()
    for value in values or []:
        for a, b in _DIA.findall(str(value)):
            found.add(f"D{int(a)}:{int(b)}")
    return found


def load_conversations(path: Path) -> list[tuple[str, dict]]:
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    if not files:
        raise FileNotFoundError(f"No LoCoMo JSON files in {path}.")
    conversations = []
    for file in files:
        data = json.loads(file.read_text())
        for i, conv in enumerate(data if isinstance(data, list) else [data]):
            conv = conv.get("conversation", conv) | {"qa": conv.get("qa", [])}
            conversations.append((f"{file.stem}" + (f"-{i}" if isinstance(data, list) else ""), conv))
    return conversations


def session_time(conv: dict, n: int) -> datetime:
    raw = str(conv.get(f"session_{n}_date_time", "")).strip()
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return datetime.strptime(raw, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return datetime(2023, 1, 1, tzinfo=UTC) + timedelta(days=n)


def _sessions(conv: dict) -> list[int]:
    return sorted(int(m.group(1)) for key in conv if (m := _SESSION.match(key)) and isinstance(conv[key], list))


def _turn_text(turn: dict) -> str:
    text = f"{turn.get('speaker', '')}: {turn.get('text', '')}".strip()
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


@dataclass
class Item:
    text: str
    context: str  # the fact's source excerpt
    when: datetime
    dia_ids: set[str]
    turn: str = ""  # dia_id of the turn it was stated in (its source turn)


@dataclass
class TurnSpec:
    """One dialogue turn as the service stores a turn: from its speaker's side, the other
    speaker's next message is the reply, so each speaker's turns form one session."""

    session_id: str
    dia_id: str
    user_input: str
    reply: str
    when: datetime


def conversation_turns(conv: dict) -> list[TurnSpec]:
    specs, seen = [], set()
    for n in _sessions(conv):
        when = session_time(conv, n)
        session = conv[f"session_{n}"]
        texts = [_turn_text(turn) for turn in session]
        for j, turn in enumerate(session):
            dia = next(iter(normalise_evidence(turn.get("dia_id", ""))), "")
            if not dia or dia in seen:
                continue  # a turn without a usable id cannot be evidence
            seen.add(dia)
            reply = texts[j + 1] if j + 1 < len(texts) else ""
            speaker = turn.get("speaker", "")
            specs.append(TurnSpec(f"session-{n}-{speaker}", dia, texts[j], reply, when + timedelta(seconds=j)))
    return specs


def corpus_items(conv: dict, corpus: str, *, with_context: bool = True) -> list[Item]:
    """The facts of a corpus. With context, each names its source turn (the service indexes the
    exchange around it) and observations keep the text of their evidence turns as source excerpt."""
    turns = {spec.dia_id: spec for spec in conversation_turns(conv)}
    items: list[Item] = []
    if corpus == "turns":
        for spec in turns.values():
            items.append(Item(spec.user_input, "", spec.when, {spec.dia_id}, spec.dia_id if with_context else ""))
        return items
    # Observations may exist for sessions whose turns were left out of the file.
    orphans = sorted(
        int(key.split("_")[1])
        for key in conv
        if key.endswith("_observation") and f"session_{key.split('_')[1]}" not in conv
    )
    for n in _sessions(conv) + orphans:
        when = session_time(conv, n)
        observed = conv.get(f"session_{n}_observation") or {}
        j = 0
        for _speaker, entries in observed.items():
            for entry in entries:
                text, evidence = (
                    (entry[0], entry[1] if len(entry) > 1 else []) if isinstance(entry, list) else (str(entry), [])
                )
                dias = normalise_evidence(evidence)
                cited = [d for d in sorted(dias, key=_dia_order) if d in turns]
                context = " ".join(turns[d].user_input for d in cited) if with_context else ""
                source = cited[0] if cited and with_context else ""
                items.append(Item(str(text), context, when + timedelta(seconds=j), dias, source))
                j += 1
    return items


def _dia_order(dia: str) -> tuple[int, int]:
    session, _, turn = dia[1:].partition(":")
    return int(session), int(turn)


# LoCoMo's categories as its data numbers them (the paper's order differs): 5, adversarial, has no
# evidence to find and is not asked.
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def _asked(conv: dict) -> list[dict]:
    """The QA items scored: categories 1-4, with a question and evidence."""
    return [
        qa
        for qa in conv.get("qa", [])
        if qa.get("category") in CATEGORIES and normalise_evidence(qa.get("evidence")) and qa.get("question")
    ]


def questions(conv: dict) -> list[tuple[str, set[str]]]:
    return [(str(qa["question"]), normalise_evidence(qa.get("evidence"))) for qa in _asked(conv)]


def question_categories(conv: dict) -> list[str]:
    """The category name of each of `questions(conv)`, in the same order."""
    return [CATEGORIES[qa["category"]] for qa in _asked(conv)]


_SESSION_KEY = re.compile(r"^session_(\d+)(_date_time|_observation|_summary)?$")


def first_sessions(conv: dict, n: int) -> dict:
    """The conversation as it stood after its first n sessions: later sessions dropped, and
    only the questions whose evidence all lies in the kept ones (a user with few facts)."""
    kept = {}
    for key, value in conv.items():
        match = _SESSION_KEY.match(key)
        if match is None or int(match.group(1)) <= n:
            kept[key] = value
    kept["qa"] = [
        qa
        for qa in conv.get("qa", [])
        if (evidence := normalise_evidence(qa.get("evidence")))
        and all(int(d[1:].partition(":")[0]) <= n for d in evidence)
    ]
    return kept

"""LongMemEval-format data and its retrieval scores (docs/api.md `eval_recall --format longmemeval`).

A question is one user's history (dated sessions of user and assistant messages), a question
asked on a later date, the evidence messages (`has_answer`) and the evidence sessions. Every
message gets an id `<session id>#<index>`; a ranked item of any system is scored by the set of
message ids it covers, so ours and mem0 go through the same scoring code.

Scores follow the benchmark's own protocol: `recall_all@k` (every evidence item in the top k)
and `recall_any@k`, at turn level (the evidence messages) and session level (the answer
sessions, those the top k items come from), k = 5 and 10, abstention questions (`_abs`) left out;
and turn-level nDCG@10 with the benchmark's own gain and discount (`ndcg`).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

KS = (5, 10)
DEPTH = 50  # items asked for: 10 are scored, the knowledge-update order looks deeper
LEVELS = ("turn", "session")
KNOWLEDGE_UPDATE = "knowledge-update"


@dataclass(frozen=True)
class Message:
    id: str
    role: str
    text: str


@dataclass
class Session:
    id: str
    when: datetime
    messages: list[Message]


@dataclass
class Question:
    id: str
    kind: str
    text: str
    asked_at: datetime  # the end of the question's day (docs/measurements.md §15)
    sessions: list[Session]
    evidence_turns: set[str]
    evidence_sessions: set[str]

    @property
    def abstention(self) -> bool:
        return self.id.endswith("_abs")


@dataclass(frozen=True)
class Round:
    """One turn as the service stores it: the user's message and the assistant's reply."""

    session_id: str
    turn_id: str
    user_text: str
    reply: str
    when: datetime
    covers: frozenset[str]  # the message ids of both


def parse_date(raw: str) -> datetime:
    """'2023/07/21 (Fri) 21:48' -> that minute in UTC (the data names no zone)."""
    day, _, rest = raw.strip().partition(" ")
    clock = rest.rpartition(" ")[2] if rest else "00:00"
    return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


def session_of(message_id: str) -> str:
    return message_id.rpartition("#")[0]


def _question(row: dict) -> Question:
    sessions: list[Session] = []
    evidence: set[str] = set()
    seen: dict[str, int] = {}
    given_ids = row["haystack_session_ids"]
    for given, date, raw in zip(given_ids, row["haystack_dates"], row["haystack_sessions"], strict=True):
        # Two dev histories hold one (non-evidence) session twice, on two dates: each copy is its own.
        seen[given] = seen.get(given, 0) + 1
        sid = given if seen[given] == 1 else f"{given}~{seen[given]}"
        messages = [Message(f"{sid}#{i}", m.get("role", "user"), m.get("content") or "") for i, m in enumerate(raw)]
        evidence |= {f"{sid}#{i}" for i, m in enumerate(raw) if m.get("has_answer")}
        sessions.append(Session(sid, parse_date(date), messages))
    asked = parse_date(row["question_date"])
    # Three dev questions have their evidence hours after the question on the same day:
    # the data's dates are days with made-up times, so the question sees its whole day.
    end_of_day = asked.replace(hour=0, minute=0) + timedelta(days=1) - timedelta(microseconds=1)
    return Question(
        id=str(row["question_id"]),
        kind=str(row["question_type"]),
        text=str(row["question"]),
        asked_at=end_of_day,
        sessions=sessions,
        evidence_turns=evidence,
        evidence_sessions=set(row.get("answer_session_ids") or []),
    )


def _rows(file: Path) -> list[dict]:
    opener = gzip.open if file.suffix == ".gz" else open
    with opener(file, "rt") as handle:
        if file.name.endswith((".jsonl", ".jsonl.gz")):
            return [json.loads(line) for line in handle if line.strip()]
        data = json.load(handle)
    return data if isinstance(data, list) else [data]


def load_questions(path: Path) -> list[Question]:
    """Every question of a LongMemEval file (.json, .jsonl, either gzipped) or folder of them."""
    patterns = ("*.jsonl.gz", "*.jsonl", "*.json.gz", "*.json")
    files = sorted({f for p in patterns for f in path.glob(p)}) if path.is_dir() else [path]
    if not files:
        raise FileNotFoundError(f"No LongMemEval files in {path}.")
    return [_question(row) for file in files for row in _rows(file)]


def rounds(question: Question) -> list[Round]:
    """The history as turns, oldest first: each user message with the assistant messages after
    it as its reply. Assistant messages that open a session form a turn with no user words."""
    out: list[Round] = []
    for session in sorted(question.sessions, key=lambda s: s.when):
        groups: list[list[tuple[int, Message]]] = []
        for i, message in enumerate(session.messages):
            if message.role == "user" or not groups:
                groups.append([])
            groups[-1].append((i, message))
        for group in groups:
            first, head = group[0]
            user_text = head.text if head.role == "user" else ""
            reply = "\n\n".join(m.text for _, m in group if m.role != "user")
            # A second apart in session order, so the time list and as_of see the session's day.
            when = session.when + timedelta(seconds=first)
            out.append(Round(session.id, head.id, user_text, reply, when, frozenset(m.id for _, m in group)))
    return out


NDCG_K = 10


def dcg(gains: list[float]) -> float:
    """Discounted cumulative gain as LongMemEval's `eval_utils.dcg` counts it: the first item
    undiscounted, the item at rank r >= 2 divided by log2(r) (so ranks 1 and 2 weigh the same)."""
    return sum(g if rank == 1 else g / float(np.log2(rank)) for rank, g in enumerate(gains, start=1))


def _round_of(question: Question) -> dict[str, str]:
    """message id -> the id of the turn (round) that holds it."""
    return {message: spec.turn_id for spec in rounds(question) for message in spec.covers}


def ndcg(ranked: list[set[str]], question: Question, k: int = NDCG_K) -> float:
    """Turn-level nDCG@k with binary gains: the unit is a turn (a user message with its reply, what an
    episode returns) that holds evidence. An item gains 1 when it returns an evidence turn no item
    above it returned (a turn counts once, as a document does in the benchmark's ranking); the ideal
    ranks every evidence turn first. 0 when the question has no evidence turn."""
    round_of = _round_of(question)
    wanted = {round_of.get(m, m) for m in question.evidence_turns}
    if not wanted:
        return 0.0
    seen: set[str] = set()
    gains = []
    for covered in ranked[:k]:
        new = {round_of.get(m, m) for m in covered} & (wanted - seen)
        gains.append(1.0 if new else 0.0)
        seen |= new
    return min(1.0, dcg(gains) / dcg([1.0] * min(len(wanted), k)))


def question_scores(ranked: list[set[str]], question: Question) -> dict[str, dict[str, float]]:
    """recall_all@k and recall_any@k of one ranked list, per level (a level with no evidence is left out)."""
    scores: dict[str, dict[str, float]] = {}
    gold = {"turn": question.evidence_turns, "session": question.evidence_sessions}
    for level in LEVELS:
        if not gold[level]:
            continue
        scores[level] = {}
        for k in KS:
            turns = set().union(*ranked[:k])
            got = turns if level == "turn" else {session_of(m) for m in turns}
            scores[level][f"recall_all@{k}"] = float(gold[level] <= got)
            scores[level][f"recall_any@{k}"] = float(bool(gold[level] & got))
    if "turn" in scores:
        scores["turn"][f"ndcg@{NDCG_K}"] = ndcg(ranked, question)
    return scores


def newest_first(ranked: list[set[str]], question: Question) -> bool | None:
    """Knowledge update: does the newest statement (the evidence in the latest evidence session)
    rank above every older one (the evidence in earlier sessions)? None when the question does
    not have evidence from two sessions of different dates. An item not ranked at all is last."""
    if question.kind != KNOWLEDGE_UPDATE:
        return None
    dates = {s.id: s.when for s in question.sessions}
    by_date: dict[datetime, set[str]] = {}
    for message in question.evidence_turns:
        by_date.setdefault(dates[session_of(message)], set()).add(message)
    if len(by_date) < 2:
        return None
    latest = max(by_date)
    newest = by_date.pop(latest)
    older = set().union(*by_date.values())

    def best_rank(messages: set[str]) -> float:
        return next((i for i, covered in enumerate(ranked) if covered & messages), float("inf"))

    rank_new = best_rank(newest)
    return rank_new < float("inf") and rank_new < best_rank(older)


@dataclass
class Tally:
    """The per-question results of one system (one corpus and mode), summed up by `summary`."""

    rows: list[tuple[str, dict]]
    updates: list[bool]

    def add(self, question: Question, ranked: list[set[str]]) -> None:
        self.rows.append((question.kind, question_scores(ranked, question)))
        if (flag := newest_first(ranked, question)) is not None:
            self.updates.append(flag)

    def summary(self) -> dict:
        kinds = sorted({kind for kind, _ in self.rows})
        out = {**_means(self.rows), "questions": len(self.rows)}
        out["by_type"] = {kind: _means([r for r in self.rows if r[0] == kind]) for kind in kinds}
        for kind in kinds:
            out["by_type"][kind]["questions"] = sum(1 for r in self.rows if r[0] == kind)
        out[KNOWLEDGE_UPDATE] = {
            "questions": len(self.updates),
            "newest_first": round(float(np.mean(self.updates)), 4) if self.updates else None,
        }
        return out


def new_tally() -> Tally:
    return Tally([], [])


def _means(rows: list[tuple[str, dict]]) -> dict:
    out: dict[str, dict] = {}
    for level in LEVELS:
        scored = [scores[level] for _, scores in rows if level in scores]
        keys = [f"recall_{kind}@{k}" for kind in ("all", "any") for k in KS]
        keys += [f"ndcg@{NDCG_K}"] if level == "turn" else []
        out[level] = {key: round(float(np.mean([s[key] for s in scored])), 4) if scored else None for key in keys}
    return out

"""What the pipeline did with the replayed conversations: turns the gate skipped, observations
that did not become live facts (by cause), timings, and the provenance recall is scored by.

The cause of a lost observation is read from the product's own records: the state and
outcome of the turn it is anchored on (skipped with the gate's reason, failed, or done
with the candidate listed under `rejected` with the floor's or the budget's rule, or
under `duplicates`) and the status of the fact stored under its key (a pending or
superseded fact: arbitration).
"""

from __future__ import annotations

from collections import Counter

from bench.pipeline.replay_llm import Conversation, Observation, ReplayExtractor
from core.stats import rounded
from facts.models import Fact, MemoryUser, Status, Turn, TurnState
from facts.services import text_hash

BUDGET_RULES = {"user_budget", "profile_budget"}
EXAMPLES_PER_CAUSE = 5


def _skip_reason(outcome: dict) -> str:
    return (outcome.get("reason") or "").removeprefix("skipped: ") or "(no reason)"


class UserLedger:
    """One conversation's turns and facts as the pipeline left them."""

    def __init__(self, user: MemoryUser):
        self.turns = {t.turn_id: t for t in Turn.objects.filter(user=user)}
        facts = list(Fact.objects.filter(user=user))
        self.by_key = {f.key: f for f in facts if f.key}
        self.live_by_hash = {f.text_hash: f for f in facts if f.is_live}
        self.rejected: dict[str, str] = {}  # text excerpt -> rule
        for turn in self.turns.values():
            for item in (turn.outcome or {}).get("rejected", []):
                self.rejected[item.get("text_excerpt", "")] = item.get("rule", "")

    def cause(self, obs: Observation, extractor: ReplayExtractor) -> tuple[str, Fact | None]:
        """("kept", fact) or (cause of the loss, the live fact holding the same text if any)."""
        fact = self.by_key.get(obs.key)
        if fact is not None and fact.is_live:
            return "kept", fact
        if fact is not None:
            return (
                "arbitration" if fact.status in (Status.PENDING, Status.SUPERSEDED) else f"fact {fact.status}"
            ), None
        turn = self.turns.get(obs.anchor)
        if not obs.anchor or turn is None:
            return "no anchor turn", None
        if turn.state == TurnState.SKIPPED:
            return f"gate: {_skip_reason(turn.outcome or {})}", None
        if turn.state == TurnState.FAILED:
            return "failure", None
        if turn.state != TurnState.DONE:
            return f"turn still {turn.state}", None
        if obs.key not in extractor.sent:
            return "not shown to the extractor", None
        rule = self.rejected.get(obs.text[:120])
        if rule:
            return ("budget" if rule in BUDGET_RULES else f"floor: {rule}"), None
        same = self.live_by_hash.get(text_hash(obs.text))
        if same is not None:
            return "de-dup", same
        return "other", None


def _percentiles(values: list[float]) -> dict:
    return {"p50": rounded(values, 0.50, 1), "p95": rounded(values, 0.95, 1)}


def analyse(
    conversations: list[Conversation], users: dict[str, MemoryUser], extractor: ReplayExtractor
) -> tuple[dict, dict[str, dict[int, set[str]]]]:
    """The loss report, and fact pk -> evidence dia_ids per conversation (the scoring provenance)."""
    skipped: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    skipped_with_obs = total_obs = total_turns = 0
    processing, waits = [], []
    provenance: dict[str, dict[int, set[str]]] = {}
    for conv in conversations:
        ledger = UserLedger(users[conv.name])
        anchored = Counter(obs.anchor for obs in conv.observations)
        for turn in ledger.turns.values():
            total_turns += 1
            if turn.processing_ms is not None:
                processing.append(turn.processing_ms)
            if turn.queue_wait_ms is not None:
                waits.append(turn.queue_wait_ms)
            if turn.state == TurnState.SKIPPED:
                skipped[_skip_reason(turn.outcome or {})] += 1
                skipped_with_obs += 1 if anchored[turn.turn_id] else 0
        held = provenance.setdefault(conv.name, {})
        for obs in conv.observations:
            total_obs += 1
            cause, fact = ledger.cause(obs, extractor)
            if fact is not None:  # kept, or folded into a live fact with the same text
                held.setdefault(fact.pk, set()).update(obs.dia_ids)
            if cause != "kept":
                causes[cause] += 1
                anchor = ledger.turns.get(obs.anchor)
                sample = f"{obs.anchor} {anchor.user_input[:90] if anchor else ''!r} -> {obs.text[:80]!r}"
                examples.setdefault(cause, []).append(sample)
    gate_lost = sum(n for cause, n in causes.items() if cause.startswith("gate"))
    n_skipped = sum(skipped.values())
    return {
        "conversations": len(conversations),
        "turns": total_turns,
        "observations": total_obs,
        "llm_calls": extractor.calls,
        "gate": {
            "skipped": n_skipped,
            "by_reason": dict(skipped.most_common()),
            "skipped_with_observation": skipped_with_obs,
            "share_of_skipped_with_observation": round(skipped_with_obs / n_skipped, 4) if n_skipped else 0.0,
        },
        "lost": {
            "total": sum(causes.values()),
            "share": round(sum(causes.values()) / total_obs, 4) if total_obs else 0.0,
            "to_gate": gate_lost,
            "to_gate_share": round(gate_lost / total_obs, 4) if total_obs else 0.0,
            "by_cause": dict(causes.most_common()),
            "examples": {cause: rows[:EXAMPLES_PER_CAUSE] for cause, rows in examples.items()},
        },
        "turn_ms": {"processing": _percentiles(processing), "queue_wait": _percentiles(waits)},
    }, provenance

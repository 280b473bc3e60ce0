"""The salience gate on its own, offline, in a second (`eval_pipeline --gate-only`): for every
turn, does the gate skip it, and does an observation name it as the turn it was stated in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from bench.pipeline.replay_llm import Conversation

EXAMPLES = 20


def gate_analysis(conversations: list[Conversation], skip_reason: Callable[[str], str | None]) -> dict:
    skipped: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    turns = observations = skipped_with_obs = 0
    examples: list[str] = []
    for conv in conversations:
        anchored: dict[str, list[str]] = {}
        for obs in conv.observations:
            anchored.setdefault(obs.anchor, []).append(obs.text)
        observations += len(conv.observations)
        for spec in conv.turns:
            turns += 1
            reason = skip_reason(spec.user_input)
            if reason is None:
                continue
            skipped[reason] += 1
            cited = anchored.get(spec.dia_id, [])
            if cited:
                skipped_with_obs += 1
                lost[reason] += len(cited)
                examples.append(f"{spec.dia_id} [{reason}] {spec.user_input[:100]!r} -> {cited[0][:80]!r}")
    n_skipped = sum(skipped.values())
    return {
        "turns": turns,
        "observations": observations,
        "skipped": n_skipped,
        "by_reason": dict(skipped.most_common()),
        "skipped_with_observation": skipped_with_obs,
        "share_of_skipped_with_observation": round(skipped_with_obs / n_skipped, 4) if n_skipped else 0.0,
        "observations_lost": sum(lost.values()),
        "observations_lost_share": round(sum(lost.values()) / observations, 4) if observations else 0.0,
        "examples": examples[:EXAMPLES],
    }

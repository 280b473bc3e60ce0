"""Reading the conversations for `eval_pipeline`, optionally cut to their first turns."""

from __future__ import annotations

import re

from bench.locomo_data import normalise_evidence

_SESSION = re.compile(r"^session_(\d+)$")


def _entry_evidence(entry) -> set[str]:
    return normalise_evidence(entry[1] if isinstance(entry, list) and len(entry) > 1 else [])


def first_turns(conv: dict, limit: int) -> dict:
    """The conversation cut after its first `limit` turns: later turns and sessions dropped, and
    only the observations and questions whose evidence lies entirely in what is kept."""
    sessions = sorted(int(m.group(1)) for key in conv if (m := _SESSION.match(key)) and isinstance(conv[key], list))
    cut = {key: value for key, value in conv.items() if not key.startswith("session_") and key != "qa"}
    kept: set[str] = set()
    for n in sessions:
        room = limit - len(kept)
        if room <= 0:
            break
        turns = conv[f"session_{n}"][:room]
        cut[f"session_{n}"] = turns
        cut[f"session_{n}_date_time"] = conv.get(f"session_{n}_date_time", "")
        kept |= {d for turn in turns for d in normalise_evidence(turn.get("dia_id", ""))}
        observed = conv.get(f"session_{n}_observation") or {}
        cut[f"session_{n}_observation"] = {
            speaker: [e for e in entries if (ev := _entry_evidence(e)) and ev <= kept]
            for speaker, entries in observed.items()
        }
    cut["qa"] = [qa for qa in conv.get("qa", []) if (ev := normalise_evidence(qa.get("evidence"))) and ev <= kept]
    return cut

"""The profile projection (docs/design.md §6): a pure function from live facts to sections.

`build_profile` takes plain item dicts (see `fact_item`) so it can be tested
and reused by the context block without touching the database.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from facts.models import Category, Fact

# Sections in the order the profile lists them. `current_tasks` holds what the
# user is working on now (task context and projects); environment and other
# facts keep their own sections so nothing live is lost from the profile.
SECTION_OF_CATEGORY = {
    Category.IDENTITY: "identity",
    Category.HARD_PREFERENCE: "hard_preferences",
    Category.SOFT_PREFERENCE: "soft_preferences",
    Category.TASK_CONTEXT: "current_tasks",
    Category.PROJECT: "current_tasks",
    Category.HEALTH: "sensitive_topics",
    Category.FINANCE: "sensitive_topics",
    Category.ENVIRONMENT: "environment",
    Category.OTHER: "other",
}
SECTIONS = (
    "identity",
    "hard_preferences",
    "soft_preferences",
    "current_tasks",
    "recent_changes",
    "sensitive_topics",
    "environment",
    "other",
)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def fact_item(fact: Fact, *, replaced_earlier: bool = False) -> dict[str, Any]:
    """The profile's view of one fact: text, confidence and its timestamps."""
    return {
        "id": str(fact.uuid),
        "key": fact.key,
        "text": fact.text,
        "category": fact.category,
        "confidence": round(fact.confidence, 3),
        "mention_count": fact.mention_count,
        "valid_from": _iso(fact.valid_from),
        "created_at": _iso(fact.created_at),
        "updated_at": _iso(fact.updated_at),
        "last_mentioned_at": _iso(fact.last_mentioned_at),
        "replaced_earlier": replaced_earlier,
    }


def _strongest_first(item: dict[str, Any]) -> tuple[float, float, str]:
    return (-item["confidence"], -datetime.fromisoformat(item["last_mentioned_at"]).timestamp(), item["id"])


def build_profile(items: list[dict[str, Any]], *, now: datetime, recent_days: int) -> dict[str, list[dict[str, Any]]]:
    """Group live-fact items into the profile sections.

    `recent_changes` repeats the items that became true in the last
    `recent_days` (new, or replacing an earlier value); it never shows the
    retired value, because the profile is built from live facts only.
    """
    sections: dict[str, list[dict[str, Any]]] = {name: [] for name in SECTIONS}
    since = now - timedelta(days=recent_days)
    for item in items:
        sections[SECTION_OF_CATEGORY.get(item["category"], "other")].append(item)
        changed_at = datetime.fromisoformat(item["valid_from"] or item["created_at"])
        if changed_at >= since:
            change = "updated" if item["replaced_earlier"] else "new"
            sections["recent_changes"].append({**item, "change": change, "changed_at": changed_at.isoformat()})
    for name, section in sections.items():
        if name == "recent_changes":
            section.sort(key=lambda it: (it["changed_at"], it["id"]), reverse=True)
        else:
            section.sort(key=_strongest_first)
    return sections

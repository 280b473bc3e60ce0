"""Profile versions (build, store, prune, read) and the context block service."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.errors import Rejected
from facts.logbuffer import save_later
from facts.models import Fact, MemoryUser, Turn, TurnState
from profiles.context import ContextBlock, Policy, build_block
from profiles.models import ContextLog, Profile, ProfileTrigger
from profiles.projection import build_profile, fact_item
from profiles.sensitivity import query_topics
from recall.hits import QUOTE_CHARS, Quote


def done_turn_count(user_pk: int) -> int:
    return Turn.objects.filter(user_id=user_pk, state=TurnState.DONE).count()


def project_live_facts(user: MemoryUser, *, now: datetime | None = None) -> dict[str, list[dict[str, Any]]]:
    """The projection of the user's live facts as they are now (nothing stored)."""
    now = now or timezone.now()
    live = list(Fact.objects.live().filter(user=user).order_by("id"))
    # Live facts that retired an earlier value of the same chain are "updated".
    replacing = set(
        Fact.objects.filter(user=user, superseded_by__in=[f.pk for f in live]).values_list(
            "superseded_by_id", flat=True
        )
    )
    items = [fact_item(f, replaced_earlier=f.pk in replacing) for f in live]
    return build_profile(items, now=now, recent_days=settings.MEMORY_PROFILE_RECENT_DAYS)


def profile_latest(user: MemoryUser) -> Profile | None:
    return Profile.objects.filter(user=user).order_by("-version").first()


def profile_is_current(profile: Profile, user: MemoryUser) -> bool:
    """Built from the facts as they are now? A repeated mention refreshes a fact's
    confidence and last_mentioned_at without bumping facts_version, so the fact
    rows' updated_at is checked too."""
    return (
        profile.facts_version == user.facts_version
        and not Fact.objects.filter(user=user, updated_at__gt=profile.created_at).exists()
    )


@transaction.atomic
def profile_refresh(*, user_pk: int, trigger: str = ProfileTrigger.MANUAL) -> Profile | None:
    """Store a new profile version if the user's facts changed since the last one.

    Idempotent: with unchanged facts it only advances the turn counter of the
    latest version, so duplicate or retried tasks add nothing. Returns None
    when the user no longer exists (erased before the task ran).
    """
    # BEGIN IMMEDIATE (settings) holds the write lock from here: concurrent
    # refreshes of one user queue up instead of racing for the same version.
    user = MemoryUser.objects.filter(pk=user_pk).first()
    if user is None:
        return None
    now = timezone.now()
    turns = done_turn_count(user.pk)
    latest = profile_latest(user)
    if latest is not None and profile_is_current(latest, user):
        if turns > latest.turn_count:
            latest.turn_count = turns
            latest.updated_at = now
            latest.save(update_fields=["turn_count", "updated_at"])
        return latest
    profile = Profile.objects.create(
        tenant_id=user.tenant_id,
        user=user,
        version=(latest.version + 1) if latest else 1,
        facts_version=user.facts_version,
        turn_count=turns,
        trigger=trigger,
        data=project_live_facts(user, now=now),
        created_at=now,
        updated_at=now,
    )
    keep = max(settings.MEMORY_PROFILE_KEEP_VERSIONS, 1)
    Profile.objects.filter(user=user, version__lte=profile.version - keep).delete()
    return profile


def profiles_scrub_facts(*, user: MemoryUser, fact_uuids: list[str]) -> int:
    """Remove forgotten facts from every stored profile version of `user`; returns the versions changed.

    A forgotten fact's words must not outlive it in a projection or an export.
    The versions stay (their numbers and counters), minus the forgotten items;
    they no longer match facts_version, so the next trigger projects anew.
    """
    gone = set(fact_uuids)
    changed = 0
    for profile in Profile.objects.filter(user=user):
        data = {
            name: [item for item in items if item.get("id") not in gone] if isinstance(items, list) else items
            for name, items in profile.data.items()
        }
        if data != profile.data:
            profile.data = data
            profile.save(update_fields=["data"])
            changed += 1
    return changed


def profile_for_context(user: MemoryUser) -> dict[str, list[dict[str, Any]]]:
    """The profile sections a context block starts from: the stored version if
    it is current, else a fresh in-memory projection (never a stale one)."""
    latest = profile_latest(user)
    if latest is not None and profile_is_current(latest, user):
        stored: dict[str, list[dict[str, Any]]] = latest.data
        return stored
    return project_live_facts(user)


def profile_should_project(user_pk: int, done: int | None = None) -> bool:
    """True when MEMORY_PROFILE_EVERY_TURNS extracted turns arrived since the last projection;
    `done`: the user's extracted-turn count, when the caller has just counted them."""
    return turns_before_projection(user_pk, done_turn_count(user_pk) if done is None else done) <= 0


def turns_before_projection(user_pk: int, done: int) -> int:
    """How many more extracted turns the user needs before the next projection (0 or less: due
    now); `done`: their extracted-turn count."""
    every: int = max(settings.MEMORY_PROFILE_EVERY_TURNS, 1)
    latest = Profile.objects.filter(user_id=user_pk).order_by("-version").values_list("turn_count", flat=True).first()
    return every - (done - (latest or 0))


# --- Context block -------------------------------------------------------------------


def _quote_item(quote: Quote) -> dict[str, Any] | None:
    """A quoted turn (recall.hits.Quote) as a context item; None when its words fail the injection
    floor (facts/guard.py): a quoted message still must not be able to steer the prompt."""
    if not quote.quotable:
        return None
    return {
        "id": f"turn:{quote.turn_id}",
        "kind": "episode",
        "text": quote.text[:QUOTE_CHARS],
        "category": "episode",
        "confidence": 1.0,
        "last_mentioned_at": quote.occurred_at.isoformat(),
        # The facts the turn produced: a turn that told a health fact is about health (sensitivity).
        "produced": list(quote.facts),
    }


def _recall_for_context(
    user: MemoryUser, query: str
) -> tuple[list[tuple[dict[str, Any], float]], set[str], dict[str, Any]]:
    """Recall hits as profile items with their scores, the ids the query matched
    word for word (lexical signal), and the recall mode/degraded flags."""
    # recall is its own app; imported when needed. Episodes join the context once the user has
    # any (docs/design.md §10), as for the other doors.
    from recall.client_search import default_sources
    from recall.services import recall

    result = recall(
        user=user,
        query=query,
        k=settings.MEMORY_RECALL_DEFAULT_K,
        mode="hybrid",
        log=True,
        sources=default_sources(user),
    )
    hits, matched = [], set()
    for hit in result.items:
        score = round(float(hit.score), 6)
        if hit.kind == "episode" and hit.folded_facts:
            # Facts recall folded into their turn (ranked through it, or below it): each a fact line,
            # the first with the turn quoted under it, as a fact hit with its folded turn is shown.
            folded = _facts_with_quote(hit.folded_facts, hit.quote)
            hits += [(item, score) for item in folded]
            if (hit.signals or {}).get("lexical_rank") is not None:
                # The turn matched the query's words; a fact counts as matched when its own words did.
                matched |= {item["id"] for item in folded if _shares_a_word(query, item["text"])}
            continue
        if hit.kind == "episode":
            episode = _quote_item(hit.quote)
            if episode is not None:
                hits.append((episode, score))
            continue
        if not hit.fact.is_live:
            continue
        [item] = _facts_with_quote([hit.fact], hit.quote)
        hits.append((item, score))
        if (hit.signals or {}).get("lexical_rank") is not None:
            matched.add(item["id"])
    return hits, matched, {"mode": result.mode, "degraded": result.degraded, "hits": len(hits)}


def _shares_a_word(query: str, text: str) -> bool:
    """Does the text hold one of the query's content words (stemmed as the index stems them)?"""
    from recall.query import content_words, stem

    return bool({stem(w) for w in content_words(query)} & {stem(w) for w in content_words(text, limit=200)})


def _facts_with_quote(facts: list[Fact], quote: Quote | None) -> list[dict[str, Any]]:
    """The live facts as profile items, the first carrying the turn's quote (when it may be quoted)."""
    items = [fact_item(fact) for fact in facts if fact.is_live]
    if items and quote is not None and (quoted := _quote_item(quote)) is not None:
        items[0]["quote"] = quoted
    return items


def _cite_turns(user: MemoryUser, citations: list[dict[str, Any]]) -> None:
    """Fill in the turn each line was said in, its id, session and time, so a caller can show
    "said on ..." without another request: a fact's source turn (nulls for one no turn stated),
    a quoted turn's own. Two reads at most."""
    fact_ids = [c["fact_id"] for c in citations if c["fact_id"]]
    rows = Fact.objects.filter(user=user, uuid__in=fact_ids).values_list(
        "uuid", "source_turn__turn_id", "source_turn__session_id", "source_turn__occurred_at"
    )
    said: dict[str, tuple[str | None, str | None, datetime | None]] = {
        str(uuid): (turn_id, session_id, at) for uuid, turn_id, session_id, at in rows
    }
    if quoted := [c["turn_id"] for c in citations if not c["fact_id"]]:
        turns = Turn.objects.filter(user=user, turn_id__in=quoted).values_list("turn_id", "session_id", "occurred_at")
        said |= {f"turn:{turn_id}": (turn_id, session_id, at) for turn_id, session_id, at in turns}
    for citation in citations:
        key = citation["fact_id"] or f"turn:{citation['turn_id']}"
        fallback = (citation["turn_id"], None, None)  # a fact no turn stated has turn_id None
        citation["turn_id"], citation["session_id"], citation["occurred_at"] = said.get(key, fallback)


def context_block(*, user: MemoryUser, query: str | None, max_tokens: int, cite: bool = False) -> ContextBlock:
    """Build, log and return the context block for the user's next prompt."""
    started = time.perf_counter()
    if not 1 <= max_tokens <= settings.MEMORY_CONTEXT_MAX_TOKENS:
        raise Rejected("max_tokens", f"max_tokens must be between 1 and {settings.MEMORY_CONTEXT_MAX_TOKENS}.")
    query = (query or "").strip()
    profile = profile_for_context(user)
    recalled, matched, recall_info = _recall_for_context(user, query) if query else ([], set(), {})
    policy = Policy(
        now=timezone.now(),
        min_confidence=settings.MEMORY_CONTEXT_MIN_CONFIDENCE,
        stale_days=settings.MEMORY_CONTEXT_STALE_DAYS,
        task_stale_days=settings.MEMORY_CONTEXT_TASK_STALE_DAYS,
        allow_sensitive=user.tenant.allow_sensitive_context,
    )
    block = build_block(
        profile,
        recalled,
        max_tokens=max_tokens,
        topics=query_topics(query),
        matched_ids=matched,
        policy=policy,
        cite=cite,
    )
    block.recall = recall_info
    if block.citations:
        _cite_turns(user, block.citations)
    save_later(
        ContextLog(
            tenant_id=user.tenant_id,
            max_tokens=max_tokens,
            tokens=block.tokens,
            items=block.items,
            dropped=len(block.dropped) - block.withheld_sensitive,
            withheld_sensitive=block.withheld_sensitive,
            had_query=bool(query),
            latency_ms=(time.perf_counter() - started) * 1000,
        )
    )
    return block

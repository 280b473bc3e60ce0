"""Reads of the fact store, always scoped to one tenant's user."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID

from django.db.models import Count, FilteredRelation, Q, QuerySet

from core.errors import Rejected
from core.timestamps import in_utc
from facts.models import Fact, FactEntity, FactHistory, MemoryUser, Tenant

FACT_RELATED = ("user", "source_turn", "superseded_by", "replaces")

_Rows = TypeVar("_Rows", bound=QuerySet[Any])


def of_users(rows: _Rows, users: Iterable[int] | None) -> _Rows:
    """`rows` narrowed to these people's, when the caller knows whose items it reads (None: it
    does not). The user-data tables are hash-partitioned by user on PostgreSQL: a read by id alone
    is planned and probed on every partition (64 by default), one that names the users on theirs
    only (docs/measurements.md §20). Each item belongs to one person, so the answer is the same."""
    return rows if users is None else rows.filter(user_id__in=sorted({int(u) for u in users}))


def attach_output_links(facts: list[Fact]) -> None:
    """Read, in two queries for all these facts, what FactOut shows besides their own row
    (the linked facts' and turn's ids, the entity names) and attach it to each fact: the
    prefetch it replaces took five queries per recall (docs/measurements.md §12)."""
    ids = [f.pk for f in facts]
    # The user-data tables are hash-partitioned by user on PostgreSQL: without the user in the
    # WHERE clause each read is planned and run over every partition (the entity names alone
    # cost about 2.3 ms of planning at 64 partitions, docs/measurements.md §13); with it, over
    # one. A fact's entities and linked facts are its own user's.
    users = {f.user_id for f in facts}
    # Only facts that link to something need the join; a fact stored through the API, not
    # extracted from a turn, usually links to nothing, and then there is no query at all.
    linked = [f.pk for f in facts if f.superseded_by_id or f.replaces_id or f.source_turn_id]
    links: dict[int, tuple[UUID | None, UUID | None, str | None]] = {}
    turns: dict[int, TurnLink] = {}
    if linked:
        # The joined rows are the same people's: said in the join, so only their partitions
        # of the linked facts and turns are planned too.
        rows = (
            Fact.objects.filter(user_id__in=users, pk__in=linked)
            .annotate(
                newer=FilteredRelation("superseded_by", condition=Q(superseded_by__user_id__in=users)),
                older=FilteredRelation("replaces", condition=Q(replaces__user_id__in=users)),
                said=FilteredRelation("source_turn", condition=Q(source_turn__user_id__in=users)),
            )
            .values_list(
                "pk",
                "newer__uuid",
                "older__uuid",
                "said__turn_id",
                "said__session_id",
                "said__occurred_at",
                "said__extractor",
            )
        )
        for pk, superseded_by, replaces, source_turn, session_id, occurred_at, extractor in rows:
            links[pk] = (superseded_by, replaces, source_turn)
            if source_turn is not None:
                turns[pk] = TurnLink(source_turn, session_id, occurred_at, extractor)
    names: dict[int, list[str]] = {pk: [] for pk in ids}
    tags = FactEntity.objects.filter(fact_id__in=ids, entity__user_id__in=users).order_by("pk")
    for fact_id, name in tags.values_list("fact_id", "entity__name"):
        names[fact_id].append(name)
    for fact in facts:
        fact.output_links = OutputLinks(*links.get(fact.pk, (None, None, None)), names[fact.pk])  # type: ignore[attr-defined]
        # Where it was said, for a recall hit's provenance (recall.answer), from the same read.
        fact.source_link = turns.get(fact.pk)  # type: ignore[attr-defined]


def with_output_links(fact: Fact) -> Fact:
    """One fact about to be answered (GET, PATCH), its links read naming its person: loaded one
    by one, each was read by id alone, which PostgreSQL plans on every partition."""
    attach_output_links([fact])
    return fact


@dataclass(frozen=True)
class TurnLink:
    """The turn a fact was said in: its ids, when it was said, and what extracted it."""

    turn_id: str
    session_id: str
    occurred_at: datetime
    extractor: str


@dataclass(frozen=True)
class OutputLinks:
    superseded_by: UUID | None
    replaces: UUID | None
    source_turn_id: str | None
    entities: list[str]


# A cursor is "<created_at in microseconds since 1970>_<row id>" of the page's last fact: a form
# the schema states exactly (facts.schemas.CURSOR_PATTERN), so every value of that form is a
# position to page on from, never a 422. Beyond the largest time or row id it means "from the top".
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_LAST_MICROSECOND = (datetime.max.replace(tzinfo=UTC) - _EPOCH) // timedelta(microseconds=1)
_LARGEST_ID = 2**63 - 1


def _encode_cursor(fact: Fact) -> str:
    return f"{(in_utc(fact.created_at) - _EPOCH) // timedelta(microseconds=1)}_{fact.pk}"


def _decode_cursor(cursor: str) -> tuple[datetime, int]:
    micros, _, pk = cursor.partition("_")
    if not (micros.isascii() and micros.isdigit() and pk.isascii() and pk.isdigit()):
        raise Rejected("cursor", "The cursor is not one this API returned.")
    return _EPOCH + timedelta(microseconds=min(int(micros), _LAST_MICROSECOND)), min(int(pk), _LARGEST_ID)


def fact_list(
    *,
    user: MemoryUser,
    category: str | None = None,
    status: str | None = None,
    include_retired: bool = False,
    limit: int = 50,
    cursor: str | None = None,
    size_of: Callable[[Fact], int] | None = None,
    max_bytes: int = 0,
) -> tuple[list[Fact], str | None]:
    """One page of the user's facts, newest first; live only unless asked otherwise.

    With `size_of` (the bytes one fact takes in the answer), the page also ends before the
    fact that would take it past `max_bytes` (always at least one fact), and `next_cursor`
    continues from there: a page is bounded in bytes as in count, and paging loses nothing."""
    qs = Fact.objects.filter(user=user)
    if status:
        qs = qs.filter(status=status)
    elif not include_retired:
        qs = qs.live()
    if category:
        qs = qs.filter(category=category)
    if cursor:
        created, pk = _decode_cursor(cursor)
        qs = qs.filter(Q(created_at__lt=created) | Q(created_at=created, pk__lt=pk))
    page = list(
        qs.select_related(*FACT_RELATED)
        .prefetch_related("entity_tags__entity")
        .order_by("-created_at", "-pk")[: limit + 1]
    )
    kept = _within(page[:limit], size_of, max_bytes) if size_of else limit
    next_cursor = _encode_cursor(page[kept - 1]) if len(page) > kept else None
    return page[:kept], next_cursor


def _within(facts: list[Fact], size_of: Callable[[Fact], int], max_bytes: int) -> int:
    """How many of `facts`, from the first, fit in `max_bytes` (at least one)."""
    used = 0
    for n, fact in enumerate(facts):
        used += size_of(fact)
        if used > max_bytes and n > 0:
            return n
    return len(facts)


def fact_history(*, fact: Fact) -> QuerySet[FactHistory]:
    """Audit entries of the fact's whole supersession chain, oldest first (a chain is one
    person's: named, PostgreSQL reads that person's partition only)."""
    chain = FactHistory.objects.filter(tenant_id=fact.tenant_id, user_id=fact.user_id, chain_id=fact.chain_id)
    return chain.order_by("created_at", "id")


def pending_count(*, tenant: Tenant) -> int:
    """How many changes wait in the tenant's confirmation queue (the dashboard badge)."""
    return Fact.objects.pending().filter(tenant=tenant).count()


def pending_counts(*, tenants: Iterable[Tenant]) -> dict[UUID, int]:
    """pending_count for several tenants in one query, by tenant pk (absent: none waiting)."""
    rows = Fact.objects.pending().filter(tenant__in=tenants).values_list("tenant").annotate(n=Count("id"))
    return dict(rows.values_list("tenant", "n"))

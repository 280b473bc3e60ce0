"""The user browser: search, live facts, the full timeline, history, "as of", and what each turn changed."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.db.models import Count, Max, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from dashboard.forms import AsOfForm, UserSearchForm
from dashboard.views.common import StaffRequest, memory_user_or_404, staff_tenant, tenant_context
from dashboard.views.memory_mode import mode_context
from facts import selectors
from facts.models import Fact, MemoryUser, Status, Tenant, Turn, TurnState

USERS_PAGE = 50
TURNS_PAGE = 25
TIMELINE_MAX = 300

# Outcome lists of a turn (filled by extraction) and how the browser names them.
OUTCOME_LISTS = (
    ("added", "Added"),
    ("superseded", "Superseded"),
    ("expired", "Expired"),
    ("pending", "Sent to the queue"),
    ("duplicates", "Repeated (refreshed)"),
)


def search_users(request: StaffRequest, tenant: Tenant) -> tuple[UserSearchForm, Page[MemoryUser]]:
    """One page of the tenant's users matching ?q=, with their live fact and turn counts."""
    form = UserSearchForm(request.GET)
    users = MemoryUser.objects.filter(tenant=tenant)
    if form.is_valid() and form.cleaned_data["q"]:
        users = users.filter(external_id__icontains=form.cleaned_data["q"])
    users = users.annotate(
        live_facts=Count("facts", filter=Q(facts__status=Status.ACTIVE, facts__valid_to=None), distinct=True),
        n_turns=Count("turns", distinct=True),
        last_turn=Max("turns__occurred_at"),
    ).order_by("external_id")
    paginator: Paginator[MemoryUser] = Paginator(users, USERS_PAGE)
    return form, paginator.get_page(request.GET.get("page"))


@login_required
@require_GET
def user_list(request: StaffRequest, tenant_id: UUID) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    form, page = search_users(request, tenant)
    template = "dashboard/users.html#user-results" if request.htmx else "dashboard/users.html"
    return render(request, template, tenant_context(tenant, form=form, page=page, row_link="browse"))


def _uuid_or_none(raw: object) -> UUID | None:
    try:
        return UUID(str(raw))
    except ValueError:
        return None


def _known_fact(raw: object, facts_by_uuid: dict[UUID, Fact]) -> Fact | None:
    uuid = _uuid_or_none(raw)
    return None if uuid is None else facts_by_uuid.get(uuid)


def _fact_rows(outcome: dict[str, Any], facts_by_uuid: dict[UUID, Fact]) -> list[dict[str, Any]]:
    rows = []
    for name, label in OUTCOME_LISTS:
        # "facts", not "items": a template lookup of `items` on a row without it calls dict.items().
        facts = [{"id": str(raw), "fact": _known_fact(raw, facts_by_uuid)} for raw in outcome.get(name) or []]
        if facts:
            rows.append({"label": label, "kind": name, "facts": facts})
    return rows


def _other_rows(outcome: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    if outcome.get("rejected"):
        rejected = [r if isinstance(r, dict) else {"text_excerpt": str(r)} for r in outcome["rejected"]]
        rows.append({"label": "Refused by the injection floor", "kind": "rejected", "rejected": rejected})
    if outcome.get("ignored_ids"):
        rows.append({"label": "Unknown ids ignored", "kind": "ignored", "ids": outcome["ignored_ids"]})
    # The outcome keeps only how many edges the turn added or confirmed, not which.
    if outcome.get("edges"):
        rows.append({"label": "Edges added", "kind": "edges", "count": outcome["edges"]})
    return rows


def _outcome_lines(turns: list[Turn], user: MemoryUser) -> dict[int, list[dict[str, Any]]]:
    """Per turn: what it changed, with the facts' texts, or why it changed nothing."""
    wanted = {
        uuid
        for turn in turns
        for name, _ in OUTCOME_LISTS
        for raw in (turn.outcome or {}).get(name) or []
        if (uuid := _uuid_or_none(raw)) is not None
    }
    facts_by_uuid = {f.uuid: f for f in Fact.objects.filter(user=user, uuid__in=wanted)}
    return {turn.pk: _fact_rows(turn.outcome or {}, facts_by_uuid) + _other_rows(turn.outcome or {}) for turn in turns}


def _why_nothing(turn: Turn) -> str:
    reason = (turn.outcome or {}).get("reason") or ""
    if turn.state == TurnState.SKIPPED:
        # The API's reason names the state too ("skipped: greeting"); the page says it once.
        reason = reason.removeprefix("skipped: ")
        return f"Skipped: {reason}" if reason else "Skipped by the salience gate."
    if turn.state == TurnState.WITHHELD:
        return f"Not remembered ({reason.removeprefix('withheld: ')}): nothing extracted, its words not kept."
    if turn.state == TurnState.FAILED:
        return f"Failed after {turn.attempts} attempt(s): {turn.last_error or reason or 'no error recorded'}"
    if turn.state == TurnState.QUEUED:
        return "Waiting for extraction."
    if turn.state == TurnState.EXTRACTING:
        return "Extraction in progress."
    return f"Changed nothing: {reason}" if reason else "Changed nothing."


@login_required
@require_GET
def user_detail(request: StaffRequest, tenant_id: UUID, user_id: str) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    user = memory_user_or_404(tenant, user_id)
    facts = Fact.objects.filter(user=user).select_related("superseded_by", "replaces", "source_turn")
    as_of_form = AsOfForm(request.GET or None)
    as_of = as_of_form.cleaned_data["as_of"] if as_of_form.is_valid() else None
    shown = facts.valid_at(as_of) if as_of else facts.live()
    shown = shown.prefetch_related("entity_tags__entity").order_by("category", "-valid_from")
    timeline = list(facts.order_by("-valid_from", "-id")[: TIMELINE_MAX + 1])
    turns_page = Paginator(Turn.objects.filter(user=user).order_by("-occurred_at", "-id"), TURNS_PAGE).get_page(
        request.GET.get("turns_page")
    )
    turns = list(turns_page.object_list)
    lines = _outcome_lines(turns, user)
    turn_rows = [{"turn": t, "lines": lines.get(t.pk, []), "why": _why_nothing(t)} for t in turns]
    context = tenant_context(
        tenant,
        memory_user=user,
        as_of_form=as_of_form,
        as_of=as_of,
        shown=list(shown),
        timeline=timeline[:TIMELINE_MAX],
        timeline_truncated=len(timeline) > TIMELINE_MAX,
        counts={
            "all": facts.count(),
            "live": facts.live().count(),
            "pending": facts.filter(status=Status.PENDING).count(),
            "turns": turns_page.paginator.count,
        },
        turns_page=turns_page,
        turn_rows=turn_rows,
        **mode_context(user),
    )
    return render(request, "dashboard/user_detail.html", context)


@login_required
@require_GET
def fact_history(request: StaffRequest, tenant_id: UUID, fact_id: UUID) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    fact = get_object_or_404(Fact.objects.select_related("user"), tenant=tenant, uuid=fact_id)
    entries = list(selectors.fact_history(fact=fact))
    template = "dashboard/fact_history.html#history" if request.htmx else "dashboard/fact_history.html"
    return render(request, template, tenant_context(tenant, fact=fact, entries=entries))

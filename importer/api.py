"""Import routes (docs/api.md, "Import"): send an export, read how its import goes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, NoReturn

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from core.errors import NotFound, Rejected
from core.queues import about_users
from core.schemas import UserId, errors
from facts import services
from facts.auth import KeyRequest, require_scope
from importer.formats import SCHEMAS
from importer.models import ImportBatch
from importer.services import import_start
from importer.tasks import post_turns

router = Router(tags=["import"])


class Refusal(Schema):
    turn_id: str
    rule: str
    detail: str


class ImportOut(Schema):
    import_id: int | None = Field(..., description="null when the export held nothing to import")
    format: str
    state: Literal["running", "done"]
    total: int
    added: int
    withheld: int
    already_there: int
    refused: list[Refusal]
    created_at: datetime | None
    finished_at: datetime | None


def _out(batch: ImportBatch) -> dict[str, Any]:
    return {
        "import_id": batch.pk,
        "format": batch.format,
        "state": batch.state,
        "total": batch.total,
        "added": batch.added,
        "withheld": batch.withheld,
        "already_there": batch.existing,
        "refused": batch.refused,
        "created_at": batch.created_at,
        "finished_at": batch.finished_at,
    }


def _nothing(kind: str) -> dict[str, Any]:
    counts = dict.fromkeys(("total", "added", "withheld", "already_there"), 0)
    return {
        "import_id": None,
        "format": kind,
        "state": "done",
        "refused": [],
        **counts,
        "created_at": None,
        "finished_at": None,
    }


def _body_of(kind: str, what: str) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "description": what,
            "content": {"application/json": {"schema": SCHEMAS[kind]}},
        }
    }


def _body(request: HttpRequest) -> str:
    # Read here, under this route's own cap, rather than through request.body and the
    # site-wide DATA_UPLOAD_MAX_MEMORY_SIZE: an export is larger than any other request.
    cap = settings.MEMORY_IMPORT_MAX_BYTES
    try:
        size = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        size = 0
    if size > cap:
        raise Rejected(
            "export_too_large",
            f"The export is {size} bytes; at most {cap} here "
            "(MEMORY_IMPORT_MAX_BYTES). Larger files: manage.py import_conversations.",
        )
    data: bytes = request.read(cap + 1)
    if len(data) > cap:
        raise Rejected("export_too_large", f"The export is over {cap} bytes (MEMORY_IMPORT_MAX_BYTES).")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Rejected("bad_export", f"The export is not UTF-8 text ({exc.reason} at byte {exc.start}).") from exc


def _import(request: KeyRequest, user_id: str, kind: str) -> Status[dict[str, Any]]:
    tenant = require_scope(request, "write")
    batch, created = import_start(tenant=tenant, user_id=user_id, kind=kind, text=_body(request))
    if batch is None:
        return Status(200, _nothing(kind))
    if created:
        pk, user_pk = batch.pk, batch.user_id
        transaction.on_commit(lambda: post_turns.apply_async((pk,), **about_users(user_pk)))
    return Status(202 if created else 200, _out(batch))


_ANSWERS = {202: ImportOut, 200: ImportOut, **errors(400, 401, 403, 422)}
_HOW = (
    " Checked whole first (422 and nothing written when it is not such a file), then posted turn by turn "
    "in the background through the same pipeline as live turns, each with its original time, at "
    "MEMORY_IMPORT_TURNS_PER_SECOND. The same file again adds nothing (200 while its import runs)."
)


@router.post(
    "/users/{user_id}/imports/chatgpt",
    response=_ANSWERS,
    openapi_extra=_body_of("chatgpt", "conversations.json of a ChatGPT data export, as it is."),
)
def import_chatgpt(request: KeyRequest, user_id: UserId) -> Status[dict[str, Any]]:
    """Import a person's history from a ChatGPT data export (conversations.json)."""
    return _import(request, user_id, "chatgpt")


@router.post(
    "/users/{user_id}/imports/claude",
    response=_ANSWERS,
    openapi_extra=_body_of("claude", "conversations.json of a Claude export, as it is."),
)
def import_claude(request: KeyRequest, user_id: UserId) -> Status[dict[str, Any]]:
    """Import a person's history from a Claude export (conversations.json)."""
    return _import(request, user_id, "claude")


@router.post(
    "/users/{user_id}/imports/turns",
    response=_ANSWERS,
    openapi_extra=_body_of("turns", "Turns in the fields of POST /turns, oldest first."),
)
def import_turns(request: KeyRequest, user_id: UserId) -> Status[dict[str, Any]]:
    """Import a person's history as a list of turns (what manage.py import_conversations reads as JSONL)."""
    return _import(request, user_id, "turns")


@router.get("/users/{user_id}/imports/{int:import_id}", response={200: ImportOut, **errors(401, 403, 404, 422)})
def get_import(request: KeyRequest, user_id: UserId, import_id: int) -> dict[str, Any]:
    """How an import goes: turns posted so far (added, withheld, already there, refused)."""
    tenant = require_scope(request, "read")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    batch = ImportBatch.objects.filter(user=user, pk=import_id).first()
    if batch is None:
        raise NotFound(f"User {user_id!r} has no import {import_id}.")
    return _out(batch)


FORMATS = ("chatgpt", "claude", "turns")


# After the progress route, whose ids are numbers: a POST to any other word answers here (a
# JSON 404 naming the formats) rather than with a 405. A path of its own, out of the schema,
# so the progress route's Allow stays GET.
@router.post("/users/{user_id}/imports/{name}", include_in_schema=False)
def import_unknown_format(request: KeyRequest, user_id: UserId, name: str) -> NoReturn:
    require_scope(request, "write")
    routes = ", ".join(f"/users/{{user_id}}/imports/{kind}" for kind in FORMATS)
    raise NotFound(f"There is no import format {name!r}; POST the export to one of {routes}.", formats=list(FORMATS))


@router.get("/users/{user_id}/imports/{name}", include_in_schema=False)
def get_import_not_numbered(request: KeyRequest, user_id: UserId, name: str) -> NoReturn:
    """A progress read by something other than an import's number (they are numbers): a 404."""
    require_scope(request, "read")
    raise NotFound(f"User {user_id!r} has no import {name!r}; imports are numbered.")

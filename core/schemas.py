"""Schemas every app's API shares: the one error body and the error statuses a route documents."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse
from ninja import Field, Path, Schema
from ninja.renderers import JSONRenderer
from ninja.schema import DjangoGetter
from pydantic import AfterValidator, BeforeValidator, WithJsonSchema, model_validator

from core.ids import ID_MAX, INVISIBLE_CHARS
from core.timestamps import in_utc


class ValidationIssue(Schema):
    type: str = Field(..., description="pydantic's error type, e.g. missing, string_too_long, uuid_parsing")
    loc: list[str | int] = Field(..., description="Where: 'body', 'query' or 'path', then the field path")
    msg: str


class Message(Schema):
    """The one error body of every route (docs/api.md, Errors)."""

    detail: str = Field(..., description="What went wrong, in one sentence")
    rule: str | None = Field(None, description="422 only: the named rule that refused the input, e.g. too_long")
    field: str | None = Field(
        None, description="422 only: the key or id the injection floor refused (key, user_id, session_id, turn_id)"
    )
    errors: list[ValidationIssue] | None = Field(
        None, description="422 only: each place where the request does not fit this schema"
    )
    retry_after: int | None = Field(None, description="429 only: seconds until the key may send again")


# Every status an error can carry, each with the same body (memory_service.api
# maps ServiceError, ninja's validation and parse errors to it). 400 is only for
# a body that is not JSON, so only routes that read a body list it. Every route
# that takes a key (401) can also answer 429 (core.ratelimit).
ERRORS = {400: Message, 401: Message, 403: Message, 404: Message, 409: Message, 422: Message, 429: Message}


_RENDERER = JSONRenderer()


def rendered(request: HttpRequest, body: Schema, status: int = 200) -> HttpResponse:
    """`body`, already validated, rendered as ninja renders a route's result (its JSON renderer,
    the same bytes and content type), for a handler to return as is.

    For a route whose `response=` is a union: ninja validates what the handler returns against
    the union, and pydantic's smart mode validates it against every member to pick the best
    fit, so each fact of a recall was read through FactOut twice (docs/measurements.md §12).
    A handler that knows its shape validates once and returns this.
    """
    renderer = _RENDERER
    content = renderer.render(request, body.model_dump(), response_status=status)
    return HttpResponse(content, status=status, content_type=f"{renderer.media_type}; charset={renderer.charset}")


def errors(*statuses: int) -> dict[int, type[Message]]:
    """The subset of ERRORS a route can return, for its `response=` (429 with 401)."""
    wanted = set(statuses) | ({429} if 401 in statuses else set())
    return {status: ERRORS[status] for status in sorted(wanted)}


# What the id rule of facts.services.users.validate_id accepts, stated for the
# schema only: the service stays the one place that enforces it (with rule="user_id").
# An id also passes the injection floor (facts.guard.check_identifier): the characters it
# refuses anywhere, C1 controls and invisible code points, are left out here too, so a
# schema-valid id is never refused for a character (the floor's phrases cannot be stated).
ID_PATTERN = rf"^[^\u0000-\u001f\u007f-\u009f/\\{INVISIBLE_CHARS}]{{1,{ID_MAX}}}$"


def client_id(description: str) -> dict[str, Any]:
    """`json_schema_extra` documenting a client-chosen id (user_id, session_id, turn_id)."""
    return {"pattern": ID_PATTERN, "minLength": 1, "maxLength": ID_MAX, "description": description}


def _id_schema(description: str) -> WithJsonSchema:
    # ninja's Path() takes no json_schema_extra: the schema comes with the type instead.
    return WithJsonSchema({"type": "string", **client_id(description)})


# Path parameters for the ids clients choose; `user_id: UserId` in a handler.
_USER = "The tenant's own id for its end user"
_SESSION = "The client's id for a conversation"
_TURN = "The turn's id, given or assigned at POST"
UserId = Annotated[str, _id_schema(_USER), Path(description=_USER)]
SessionId = Annotated[str, _id_schema(_SESSION), Path(description=_SESSION)]
TurnId = Annotated[str, _id_schema(_TURN), Path(description=_TURN)]


class ObjectIn(Schema):
    """A request body: a JSON object. ninja reads fields as attributes of any
    value, so without this a list or a number would pass as a body of defaults."""

    @model_validator(mode="before")
    @classmethod
    def _object_only(cls, data: Any) -> Any:
        if isinstance(data, DjangoGetter):
            data = data._obj
        if not isinstance(data, dict | Schema):
            raise ValueError("the body must be a JSON object")
        return data


def _iso_only(value: Any) -> Any:
    # pydantic would read a number (or a string of digits) as Unix seconds; the API takes ISO 8601 only.
    if isinstance(value, str) and not value.strip().lstrip("+-").replace(".", "", 1).isdigit():
        return value
    if isinstance(value, datetime):
        return value
    raise ValueError("expected an ISO 8601 date-time string")


def _json_number(value: Any) -> Any:
    # pydantic would read true as 1 and "5" as 5; in JSON neither is a number.
    if isinstance(value, bool | str):
        raise ValueError("expected a JSON number")
    return value


# Numbers in a request body: a JSON number only (184.0 is an integer, as JSON Schema says).
# Bounds go before it, `Annotated[int, Field(ge=1), JSON_NUMBER]`: after it,
# pydantic would not write them into the schema as minimum and maximum.
JSON_NUMBER = BeforeValidator(_json_number)
JsonInt = Annotated[int, JSON_NUMBER]

# An input date-time: ISO 8601 only, as the schema's format says; aware and in UTC
# once read (core.timestamps: no offset means UTC; past year 9999 is a 422).
IsoDateTime = Annotated[datetime, BeforeValidator(_iso_only), AfterValidator(in_utc)]

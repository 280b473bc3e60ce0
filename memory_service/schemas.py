"""Schemas every app's API shares: the error body and the error statuses a route documents."""

from __future__ import annotations

from ninja import Schema


class Message(Schema):
    detail: str


# Every error body is a Message (memory_service.api maps each ServiceError to one).
ERRORS = {401: Message, 403: Message, 404: Message, 409: Message, 422: Message}


def errors(*statuses: int) -> dict[int, type[Message]]:
    """The subset of ERRORS a route can return, for its `response=`."""
    return {status: ERRORS[status] for status in statuses}

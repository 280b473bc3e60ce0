"""core.schemas.rendered: a validated body, as the one NinjaAPI would render it."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from django.test import RequestFactory
from ninja import Schema

from core.schemas import rendered
from memory_service.api import api


class _Item(Schema):
    id: UUID
    at: datetime
    score: float
    text: str
    tags: list[str]
    value: dict | None = None


class _Body(Schema):
    items: list[_Item]
    degraded: bool


def test_it_gives_the_bytes_and_content_type_ninja_gives():
    body = _Body(
        items=[
            _Item(
                id=UUID("12345678-1234-5678-1234-567812345678"),
                at=datetime(2026, 11, 25, 14, 3, 7, 123456, tzinfo=UTC),
                score=0.1 + 0.2,
                text='Usér said "hi" \u2028 <b>',
                tags=["Ana", "Lisbon"],
                value={"n": 1},
            )
        ],
        degraded=False,
    )
    request = RequestFactory().post("/api/v1/users/u1/recall")
    expected = api.create_response(request, body.model_dump(), status=200)
    response = rendered(request, body)
    assert response.status_code == 200
    assert response.content == expected.content
    assert response["Content-Type"] == expected["Content-Type"]

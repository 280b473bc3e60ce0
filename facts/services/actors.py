"""Who made a change: recorded on every FactHistory row."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser

from facts.models import ActorKind, ApiKey


@dataclass(frozen=True)
class Actor:
    kind: str
    id: str = ""

    @classmethod
    def api_key(cls, key: ApiKey) -> Actor:
        return cls(ActorKind.API_KEY, f"{key.name}:{key.prefix}")

    @classmethod
    def staff(cls, user: AbstractBaseUser) -> Actor:
        return cls(ActorKind.STAFF, user.get_username())

    @classmethod
    def extractor(cls, name: str = "llm") -> Actor:
        return cls(ActorKind.EXTRACTOR, name)


SYSTEM = Actor(ActorKind.SYSTEM, "system")

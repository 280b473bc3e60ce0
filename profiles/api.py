"""Profile, context and metrics routes (issue 6)."""

from ninja import Router

router = Router()

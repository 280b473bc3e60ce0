"""Turn routes (issue 4)."""

from ninja import Router

router = Router()

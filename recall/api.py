"""Recall route (issue 3)."""

from ninja import Router

router = Router()

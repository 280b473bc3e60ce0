"""Erase and export routes (issue 5)."""

from ninja import Router

router = Router()

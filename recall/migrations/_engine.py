"""The recall index's migrations wrap their engine-specific operations in `OnlyOn(vendor, ...)`
(core/db/only_on.py, where the facts and profiles migrations find it too)."""

from core.db.only_on import OnlyOn

__all__ = ["OnlyOn"]

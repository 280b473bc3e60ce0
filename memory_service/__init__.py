from core.sqlite_driver import install as _install_sqlite_driver

# Must run before anything imports Django's SQLite backend.
_install_sqlite_driver()

from memory_service.celery import app as celery_app  # noqa: E402

__all__ = ["celery_app"]

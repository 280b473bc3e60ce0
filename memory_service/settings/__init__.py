"""The settings, configured from the environment (see .env.example), read in five parts.

Defaults give the embedded mode: SQLite under var/, a Celery broker on its own SQLite file,
the local embedding model and the offline rule-based extractor. Each part imports what it
uses from the parts before it; every setting is a name of this module, as Django expects.
"""

from memory_service.settings.base import *  # noqa: F403
from memory_service.settings.base import env
from memory_service.settings.database import *  # noqa: F403
from memory_service.settings.memory import *  # noqa: F403
from memory_service.settings.tasks import *  # noqa: F403
from memory_service.settings.web import *  # noqa: F403

# Every environment variable the parts could not read (memory_service/settings_checks.py).
MALFORMED_ENVIRONMENT = env.malformed

"""Run as a separate OS process by test_concurrency: writes N facts to one user."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import django


def main(worker: int, count: int, tenant_id: str, barrier: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
    django.setup()
    from facts import services
    from facts.models import Tenant

    tenant = Tenant.objects.get(pk=tenant_id)
    # Start together: each writer says it is ready, then waits for the go file.
    (barrier / f"ready-{worker}").touch()
    deadline = time.monotonic() + 120
    while not (barrier / "go").exists():
        if time.monotonic() > deadline:
            sys.exit("no go signal")
        time.sleep(0.01)
    user = services.memory_user_get_or_create(tenant=tenant, user_id="shared-user")
    for i in range(count):
        services.fact_store(user=user, text=f"User noted item {i} from writer {worker}.", actor=services.SYSTEM)
    print(f"writer {worker} done")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))

"""An import posted from the worker: a second's worth of turns per task, then the task queues
itself again a second later, so an import never holds a worker while it waits."""

from __future__ import annotations

from celery import shared_task

from core.queues import about_users
from importer.services import import_step

# How long a held-back import waits before it looks at the extraction queue again.
HELD_BACK_SECONDS = 2.0


@shared_task(name="importer.post_turns", acks_late=True)
def post_turns(batch_pk: int) -> None:
    step = import_step(batch_pk)
    if step.batch is None or step.batch.state == "done":
        return
    delay = HELD_BACK_SECONDS if step.held_back else 1.0
    post_turns.apply_async((batch_pk,), countdown=delay, **about_users(step.batch.user_id))

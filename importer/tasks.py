"""An import posted from the worker: a step's turns per task (importer.services.import_step),
then the task queues itself again when the step says, so an import never holds a worker while
it waits."""

from __future__ import annotations

from celery import shared_task

from core.queues import about_users
from importer.services import import_step


@shared_task(name="importer.post_turns", acks_late=True)
def post_turns(batch_pk: int) -> None:
    step = import_step(batch_pk)
    if step.batch is None or step.batch.state == "done":
        return
    post_turns.apply_async((batch_pk,), countdown=step.wait, **about_users(step.batch.user_id))

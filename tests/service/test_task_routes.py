"""Every task reaches its queue through CELERY_TASK_ROUTES (no `queue=` on a decorator or a send):
only the model call and the embedding leave the database host."""

from __future__ import annotations

import pytest
from django.conf import settings

from memory_service.celery import app

STATELESS = {"facts.call_extractor": settings.MEMORY_QUEUE_LLM, "recall.embed_facts": settings.MEMORY_QUEUE_EMBED}


@pytest.fixture(scope="module")
def tasks():
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}


def test_each_task_goes_to_the_queue_of_the_host_that_can_run_it(tasks):
    queues = {name: app.amqp.router.route({}, name)["queue"].name for name in tasks}
    assert len(queues) >= 12 and set(STATELESS) <= set(queues)
    assert queues == {name: STATELESS.get(name, settings.MEMORY_QUEUE_DB) for name in tasks}


def test_no_task_names_its_queue_itself(tasks):
    assert {name: task.queue for name, task in tasks.items() if getattr(task, "queue", None)} == {}

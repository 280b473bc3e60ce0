"""Settings of the throwaway service that eval_pipeline starts: the project's, plus an atomic
put for the embedded filesystem broker (facts/pipeline_eval/fs_broker.py says why)."""

from __future__ import annotations

from memory_service.settings import *  # noqa: F403
from memory_service.settings import CELERY_BROKER_URL

if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT = "facts.pipeline_eval.fs_broker:Transport"

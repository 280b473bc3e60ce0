"""Recall bookkeeping: one log row per API recall, one row per evaluation run.

The index itself (FTS5 table and vector rows) is created by raw SQL in the
migrations and only touched through recall/fts.py and recall/vec.py.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from facts.models import Tenant


class RecallLog(models.Model):
    """What one recall did, for the metrics page. Deliberately holds no user text and no user."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="recall_logs")
    mode = models.CharField(max_length=16)
    degraded = models.BooleanField(default=False)
    k = models.PositiveIntegerField()
    returned = models.PositiveIntegerField()
    lexical_hits = models.PositiveIntegerField(default=0)
    vector_hits = models.PositiveIntegerField(default=0)
    supplement_hits = models.PositiveIntegerField(default=0)
    latency_ms = models.FloatField()
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "created_at"], name="recalllog_tenant_time")]


class EvalRun(models.Model):
    """One `eval_recall` run; `results` has the docs/api.md shape ({"hybrid": {"recall@10": ...}, ...})."""

    corpus = models.CharField(max_length=32)
    questions = models.PositiveIntegerField()
    results = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at"]


class EmbedderReport(models.Model):
    """What embedding workers last reported (one row), so /api/v1/health on any host shows it.

    Embed workers may have no database: they send their reports through the db
    queue (recall.tasks.note_embedder). Times are Unix seconds, like embedder_state().
    """

    last_error = models.CharField(max_length=500, blank=True, default="")
    last_error_at = models.FloatField(null=True, blank=True)
    last_ok_at = models.FloatField(null=True, blank=True)
    worker = models.CharField(max_length=200, blank=True, default="")


class PendingIndex(models.Model):
    """The index's outbox: a fact or an episode whose index rows are to be brought in line.

    Written in the transaction of the change (facts.signals.index_dirty), so a change the
    index has not seen yet is never lost to a crash or a lost message; removed in the
    transaction that writes the item's rows and vector (recall/indexer.py). `sent_at` is
    set while the vector is computed on an `embed` worker of another host."""

    class Kind(models.TextChoices):
        FACT = "fact"
        EPISODE = "episode"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    item_id = models.BigIntegerField()  # a Fact pk or a Turn pk
    user_id = models.BigIntegerField()  # the MemoryUser pk, for the erase
    queued_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "item_id"], name="pendingindex_item")]
        indexes = [
            models.Index(fields=["queued_at"], name="pendingindex_queued"),
            models.Index(fields=["user_id"], name="pendingindex_user"),
        ]


class EmbedderSwitch(models.Model):
    """Which embedding model recall serves on this store, and the model being built beside it
    (one row; recall/switch.py, `manage.py embedder_switch`, docs/deployment.md).

    Each side of the index has two vector tables, slot "a" (recall_vector,
    recall_episode_vector) and slot "b" (the same names with _b). Recall reads the live slot
    with the live model; a new model's vectors are built in the other slot, and the switch is
    this row's update. The previous model's vectors stay in the other slot (`kept_model`)
    until the operator drops them, for the way back. No row: slot "a" with the model the
    settings name."""

    live_slot = models.CharField(max_length=1, default="a")
    live_model = models.CharField(max_length=200)
    building_model = models.CharField(max_length=200, blank=True, default="")
    kept_model = models.CharField(max_length=200, blank=True, default="")
    switched_at = models.DateTimeField(null=True, blank=True)

"""Tenancy and the bi-temporal fact store (docs/design.md §1-2)."""

from __future__ import annotations

import hashlib
import secrets
import uuid as uuid_lib
from collections.abc import Iterable
from datetime import datetime
from typing import Self

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

# Re-exported (explicitly, for mypy): a turn and its transitions live in facts/turn_state.py.
from facts.turn_state import Turn as Turn
from facts.turn_state import TurnQuerySet as TurnQuerySet
from facts.turn_state import TurnState as TurnState

# --- Tenancy ----------------------------------------------------------------------


class Tenant(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid_lib.uuid4, editable=False)
    name = models.CharField(max_length=200)
    # Health/finance facts enter prompt context blocks only when the query is
    # about them, unless the tenant opts in here (docs/design.md §6).
    allow_sensitive_context = models.BooleanField(default=False)
    staff = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="tenants", blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


SCOPES = ("read", "write", "admin")
KEY_PREFIX = "mem"


def hash_api_key(raw_key: str) -> str:
    # Keys are 256-bit random tokens, so a fast hash is enough: there is
    # nothing to brute-force that a slow KDF would protect.
    return hashlib.sha256(raw_key.encode()).hexdigest()


class ApiKeyManager(models.Manager["ApiKey"]):
    def for_key(self, raw_key: str) -> ApiKey | None:
        """The usable key for a presented secret, or None (unknown or revoked)."""
        if not raw_key or len(raw_key) > 200:
            return None
        return self.select_related("tenant").filter(key_hash=hash_api_key(raw_key), revoked_at__isnull=True).first()

    def issue(self, *, tenant: Tenant, name: str = "default", scopes: Iterable[str] = SCOPES) -> tuple[ApiKey, str]:
        """Create a key and return it with its secret, which is never stored."""
        prefix = secrets.token_hex(4)
        raw = f"{KEY_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
        key = self.create(tenant=tenant, name=name, prefix=prefix, key_hash=hash_api_key(raw), scopes=list(scopes))
        return key, raw


class ApiKey(models.Model):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16)
    key_hash = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Written by a Celery task at most once a minute per key (facts.bookkeeping).
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects = ApiKeyManager()

    def __str__(self) -> str:
        return f"{self.name} ({KEY_PREFIX}_{self.prefix}_…)"

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes or "admin" in self.scopes

    def revoke(self) -> None:
        """Revoke the key. Saved even when it was already revoked (by a queryset update, which
        sends no signal): the save is what drops it from the API-key cache at once
        (facts.key_cache's post_save receiver; the cache imports this module, not the reverse)."""
        self.revoked_at = self.revoked_at or timezone.now()
        self.save(update_fields=["revoked_at"])


class MemoryMode(models.TextChoices):
    """What the service may do with a person's memory (docs/design.md §13)."""

    AUTO = "auto"  # learn from turns, recall
    CONFIRM = "confirm"  # every change waits in the confirmation queue
    READ_ONLY = "read_only"  # recall what is known; store nothing new
    OFF = "off"  # store nothing, recall nothing


class MemoryUser(models.Model):
    """An end user of a tenant, named by the tenant's own opaque id."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memory_users")
    external_id = models.CharField(max_length=128)
    created_at = models.DateTimeField(default=timezone.now)
    # Bumped on every fact change; profile projection and caches key on it.
    facts_version = models.PositiveBigIntegerField(default=0)
    # Set by the person (or staff for them) through facts.services.memory_mode; audited there.
    memory_mode = models.CharField(max_length=12, choices=MemoryMode.choices, default=MemoryMode.AUTO)
    # PostgreSQL with replicas: the primary's WAL position (bytes) after this user's last write;
    # a replica serves their reads once it has replayed this far (facts/replicas.py).
    written_lsn = models.BigIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "external_id"], name="memoryuser_unique_per_tenant")]

    def __str__(self) -> str:
        return self.external_id


# --- Facts --------------------------------------------------------------------------


class Category(models.TextChoices):
    IDENTITY = "identity"
    HARD_PREFERENCE = "hard_preference"
    SOFT_PREFERENCE = "soft_preference"
    TASK_CONTEXT = "task_context"
    HEALTH = "health"
    FINANCE = "finance"
    PROJECT = "project"
    ENVIRONMENT = "environment"
    OTHER = "other"


# Metered against the profile budget; everything else against the other one.
PROFILE_CATEGORIES = frozenset({Category.IDENTITY, Category.HARD_PREFERENCE, Category.SOFT_PREFERENCE})


class Status(models.TextChoices):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    PENDING = "pending_confirmation"
    REJECTED = "rejected"


LIVE = Q(status=Status.ACTIVE, valid_to__isnull=True)


class FactQuerySet(models.QuerySet["Fact"]):
    def live(self) -> Self:
        return self.filter(LIVE)

    def pending(self) -> Self:
        return self.filter(status=Status.PENDING)

    def valid_at(self, when: datetime) -> Self:
        """Rows that were true at `when` (valid_from <= t < valid_to), whatever their status now."""
        return (
            self.filter(valid_from__lte=when)
            .filter(Q(valid_to__isnull=True) | Q(valid_to__gt=when))
            .exclude(status__in=[Status.PENDING, Status.REJECTED])
        )


class Fact(models.Model):
    # Integer id for the recall index rowids; `uuid` is the public id.
    id = models.BigAutoField(primary_key=True)
    uuid = models.UUIDField(default=uuid_lib.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="facts")
    key = models.CharField(max_length=64, blank=True, default="")
    text = models.TextField()
    # sha1 of the case/whitespace-normalised text, for verbatim de-duplication.
    text_hash = models.CharField(max_length=40)
    value_json = models.JSONField(null=True, blank=True)
    category = models.CharField(max_length=20, choices=Category.choices, default=Category.OTHER)
    confidence = models.FloatField(default=0.4)
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.ACTIVE)
    valid_from = models.DateTimeField(default=timezone.now)
    valid_to = models.DateTimeField(null=True, blank=True)
    event_time = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    last_mentioned_at = models.DateTimeField(default=timezone.now)
    mention_count = models.PositiveIntegerField(default=1)
    source_turn = models.ForeignKey("Turn", null=True, blank=True, on_delete=models.SET_NULL, related_name="facts")
    source_excerpt = models.TextField(blank=True, default="")
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="supersedes"
    )
    # For a pending_confirmation row: the live fact it would replace if approved.
    replaces = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The uuid of the first fact of a supersession chain, shared by the whole chain.
    chain_id = models.UUIDField(default=uuid_lib.uuid4, db_index=True)
    embedding_model = models.CharField(max_length=100, blank=True, default="")

    objects = FactQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["user", "status", "valid_to"], name="fact_user_live"),
            models.Index(fields=["user", "key"], name="fact_user_key"),
            models.Index(fields=["user", "text_hash"], name="fact_user_text"),
            models.Index(fields=["tenant", "status"], name="fact_tenant_status"),
            models.Index(fields=["user", "-created_at"], name="fact_user_created"),
            models.Index(fields=["updated_at"], name="fact_updated"),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def is_live(self) -> bool:
        return self.status == Status.ACTIVE and self.valid_to is None

    @property
    def is_high_risk(self) -> bool:
        return self.category in settings.MEMORY_HIGH_RISK_CATEGORIES


class HistoryAction(models.TextChoices):
    INSERT = "insert"
    REFRESH = "refresh"
    SUPERSEDE = "supersede"
    EXPIRE = "expire"
    PENDING = "pending"
    CONFIRM = "confirm"
    REJECT = "reject"
    DELETE = "delete"


class ActorKind(models.TextChoices):
    EXTRACTOR = "extractor"
    API_KEY = "api_key"
    STAFF = "staff"
    SYSTEM = "system"


class FactHistory(models.Model):
    """Append-only audit of every change to a fact (no update, no delete but erase)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="history")
    # Plain ids, not foreign keys: history outlives a forgotten fact.
    fact_uuid = models.UUIDField(db_index=True)
    chain_id = models.UUIDField(db_index=True)
    action = models.CharField(max_length=16, choices=HistoryAction.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices)
    actor_id = models.CharField(max_length=150, blank=True, default="")
    source_turn_id = models.CharField(max_length=128, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "fact history"


class Entity(models.Model):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="entities")
    name = models.CharField(max_length=100)  # normalised: lower case, single spaces, singular
    display_name = models.CharField(max_length=100)
    aliases = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="entity_unique_per_user")]
        verbose_name_plural = "entities"

    def __str__(self) -> str:
        return self.name


class FactEntity(models.Model):
    fact = models.ForeignKey(Fact, on_delete=models.CASCADE, related_name="entity_tags")
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="fact_tags")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["fact", "entity"], name="factentity_unique")]


class Edge(models.Model):
    """A light graph relation, valid while its provenance fact is."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="edges")
    src = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="edges_out")
    relation = models.CharField(max_length=64)
    dst = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="edges_in")
    fact = models.ForeignKey(Fact, null=True, blank=True, on_delete=models.CASCADE, related_name="edges")
    valid_from = models.DateTimeField(default=timezone.now)
    valid_to = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "valid_to"], name="edge_user_live")]


# --- Turns and extraction bookkeeping ----------------------------------------------------


# TurnState, TurnQuerySet and Turn live in facts/turn_state.py with every transition of a
# turn's state; imported above, so `from facts.models import Turn` works as before.


class MemoryModeChange(models.Model):
    """Append-only audit of a person's memory mode: who set what, when, from what."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="mode_changes")
    before = models.CharField(max_length=12, choices=MemoryMode.choices)
    after = models.CharField(max_length=12, choices=MemoryMode.choices)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices)
    actor_id = models.CharField(max_length=150, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]


class SessionCursor(models.Model):
    """Per-session extraction cursor: advances only after a turn's result is applied."""

    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="cursors")
    session_id = models.CharField(max_length=128)
    last_applied_turn = models.ForeignKey(Turn, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "session_id"], name="cursor_unique_per_session")]


class AppliedChange(models.Model):
    """Idempotency ledger: one row per (turn, fact key, action hash) applied."""

    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="+")
    idempotency_key = models.CharField(max_length=64, unique=True)
    fact_uuid = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)


class RetentionRun(models.Model):
    """One pass of the episode retention task: counts only, no personal data."""

    ran_at = models.DateTimeField(default=timezone.now, db_index=True)
    retention_days = models.PositiveIntegerField()
    cutoff = models.DateTimeField()
    turns = models.PositiveIntegerField(default=0)
    episodes = models.PositiveIntegerField(default=0)
    facts_reindexed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-ran_at"]


class DeletionReceipt(models.Model):
    """Proof of an erasure with no personal data: hashed user id, counts, time, actor."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="deletion_receipts")
    user_hash = models.CharField(max_length=64)
    scope = models.CharField(max_length=16, default="user")  # "user" or "key"
    counts = models.JSONField(default=dict)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices)
    actor_id = models.CharField(max_length=150, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    # When the deleted rows' bytes left the table and index files: at the request on SQLite
    # (secure_delete, WAL checkpoint), at the next compaction pass on PostgreSQL
    # (recall/engines/postgresql/compactor.py). None until then.
    bytes_gone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]


class PendingCompaction(models.Model):
    """A forget or erase on PostgreSQL whose deleted rows may still be in the table files, written
    in the deleting transaction; the compaction pass that removes them deletes it
    (recall/engines/postgresql/compactor.py, docs/deployment.md "What erased means on PostgreSQL")."""

    created_at = models.DateTimeField(default=timezone.now)
    # Whose rows went (MemoryUser pk, kept after the user is erased): the pass rewrites only
    # that user's partitions of the recall index. None: every partition.
    user_pk = models.BigIntegerField(null=True, blank=True)

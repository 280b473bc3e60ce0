"""Materialised profiles (docs/design.md §6) and the per-request log of context blocks (docs/design.md §9)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from facts.models import MemoryUser, Tenant


class ProfileTrigger(models.TextChoices):
    TURNS = "turns"  # every MEMORY_PROFILE_EVERY_TURNS extracted turns
    SESSION_END = "session_end"
    ON_READ = "on_read"  # first GET of a user that had no projection yet
    MANUAL = "manual"


class Profile(models.Model):
    """One version of a user's projection; a new version only when the facts changed."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="profiles")
    version = models.PositiveIntegerField()
    # MemoryUser.facts_version the projection was built from: equal = still current.
    facts_version = models.PositiveBigIntegerField()
    # The user's extracted (done) turns when last projected: the every-N-turns counter.
    turn_count = models.PositiveIntegerField(default=0)
    trigger = models.CharField(max_length=16, choices=ProfileTrigger.choices)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "version"], name="profile_unique_version")]
        indexes = [models.Index(fields=["user", "-version"], name="profile_user_latest")]

    def __str__(self) -> str:
        return f"profile v{self.version} of {self.user_id}"


class ContextLog(models.Model):
    """What one context block cost. Counts only, no text: it survives a user's erasure."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    max_tokens = models.PositiveIntegerField()
    tokens = models.PositiveIntegerField()
    items = models.PositiveIntegerField()
    dropped = models.PositiveIntegerField()
    withheld_sensitive = models.PositiveIntegerField(default=0)
    had_query = models.BooleanField(default=False)
    latency_ms = models.FloatField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["tenant", "created_at"], name="contextlog_tenant_time")]

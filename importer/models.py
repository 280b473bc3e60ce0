"""An import in progress: the turns still to post, and what became of the ones posted.

The turns wait here as rows rather than in a broker message: a batch belongs to its user,
so erasing that user deletes it with them (CASCADE) and the import stops; each turn's row
is deleted once it is posted, so the words leave the batch as it goes.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from facts.models import MemoryUser, Tenant


class ImportState(models.TextChoices):
    RUNNING = "running", "Running"
    DONE = "done", "Done"


class ImportBatch(models.Model):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(MemoryUser, on_delete=models.CASCADE, related_name="imports")
    format = models.CharField(max_length=16)
    # sha256 of the file: the same file sent again while its import runs is that import.
    digest = models.CharField(max_length=64)
    state = models.CharField(max_length=12, choices=ImportState.choices, default=ImportState.RUNNING)
    total = models.PositiveIntegerField(default=0)
    # The turns posted so far: new, already there (a second run of the same file), and
    # refused, each refusal's turn id and rule in `refused` (e.g. a message over
    # MEMORY_MAX_TURN_CHARS), so one bad message does not stop the rest.
    added = models.PositiveIntegerField(default=0)
    # Posted but not remembered: the person asked in its words, or their memory mode says so.
    withheld = models.PositiveIntegerField(default=0)
    existing = models.PositiveIntegerField(default=0)
    refused = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "digest"])]

    @property
    def posted(self) -> int:
        return self.added + self.withheld + self.existing + len(self.refused)


class ImportTurn(models.Model):
    """One turn still to post, in the order it was said."""

    batch = models.ForeignKey(ImportBatch, on_delete=models.CASCADE, related_name="turns")
    position = models.PositiveIntegerField()
    turn = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["batch", "position"], name="import_turn_position")]

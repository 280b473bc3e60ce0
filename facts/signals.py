"""Hooks for apps that keep data derived from facts (the recall index, profiles).

Sent inside the transaction of the change, so that what a receiver writes commits (or
rolls back) with it:
- `index_dirty`: these facts' text or liveness changed, or these turns became episodes;
  the recall index records them in its outbox and indexes them after commit.
- `episodes_withdrawn`: these turns' episodes were withdrawn (a fact of theirs was
  forgotten) or their turns deleted (retention); their index rows must go now.
- `facts_forgetting`: before the fact rows go, with their uuids; receivers remove the words
  they copied from them (stored profile versions, index rows).
- `user_erasing`: before the user's rows go; receivers delete what they derived and return
  a dict of counts for the deletion receipt.
- `turn_failed`: a turn's extraction failed (webhooks' outbox).

Sent after commit:
- `facts_changed`: the integer ids of the facts whose text or liveness changed (including
  deleted ones).
- `turn_processed`: extraction of a turn finished (done or skipped), for the profile
  projection's turn counter.
"""

from django.dispatch import Signal

index_dirty = Signal()  # kwargs: user_id (MemoryUser pk), fact_ids (list[int]), turn_ids (list[int])
episodes_withdrawn = Signal()  # kwargs: user_id, turn_ids (Turn pks)
facts_changed = Signal()  # kwargs: tenant_id, user_id (MemoryUser pk), fact_ids (list[int])
facts_forgetting = Signal()  # kwargs: user (MemoryUser), fact_uuids (list[str])
# kwargs: user (MemoryUser), count_only (bool); receivers return {kind: count}, deleting
# nothing when count_only is true (the erase preview).
user_erasing = Signal()
turn_processed = Signal()  # kwargs: tenant_id, user_id (MemoryUser pk), turn_id (Turn pk), state
turn_failed = Signal()  # kwargs: turn_pk (Turn pk); inside the transaction that marks it failed

"""Hooks for apps that keep data derived from facts (the recall index, profiles).

`facts_changed` is sent after the transaction commits, with the integer ids of
the facts whose text or liveness changed (including deleted ones), so a
receiver can re-index them. `turn_processed` is sent after commit when extraction of a turn
finished (done or skipped), for the profile projection's turn counter and the episode index.
`episodes_changed` is sent after commit with Turn pks whose episode was withdrawn or deleted.
`user_erasing` is sent inside the erase transaction
before the user's rows go; receivers delete what they derived and return a
dict of counts for the deletion receipt. `facts_forgetting` is sent inside
the forget transaction, before the fact rows go, with their uuids: receivers
remove the words they copied from them (stored profile versions).
"""

from django.dispatch import Signal

facts_changed = Signal()  # kwargs: tenant_id, user_id (MemoryUser pk), fact_ids (list[int])
facts_forgetting = Signal()  # kwargs: user (MemoryUser), fact_uuids (list[str])
# kwargs: user (MemoryUser), count_only (bool); receivers return {kind: count}, deleting
# nothing when count_only is true (the erase preview).
user_erasing = Signal()
episodes_changed = Signal()  # kwargs: user_id, turn_ids (Turn pks whose episode may have changed)
turn_processed = Signal()  # kwargs: tenant_id, user_id (MemoryUser pk), turn_id (Turn pk), state

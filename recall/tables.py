"""The two sibling index table sets: facts and episodes (docs/design.md §10).

Episodes have their own FTS5 table, bookkeeping table and vector table with the
facts' layout, so a facts-only recall reads exactly the tables and BM25
statistics it read before episodes existed. Table and column names are these
constants only, never input.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tables:
    fts: str
    doc: str
    id: str  # the id column of doc and vector: a Fact pk or a Turn pk
    vector: str
    # "" for a side (FACTS, EPISODES): the vector table of whichever slot is live, resolved at
    # each use (recall/vec.py); "a" or "b" for one slot's own tables, used as given.
    slot: str = ""


FACTS = Tables("recall_fts", "recall_doc", "fact_id", "recall_vector")
EPISODES = Tables("recall_episode_fts", "recall_episode_doc", "turn_id", "recall_episode_vector")

# The second vector table of each side, for changing the embedding model on a live store
# (recall/switch.py): one of the pair serves recall, the other is built with the new model
# beside it or keeps the previous model's vectors for the way back.
# A slot's own set differs from its side's (the `slot` field), so a recall that read the switch
# once keeps the slot it read even if a switch commits before its vector scan.
FACTS_A = Tables("recall_fts", "recall_doc", "fact_id", "recall_vector", "a")
EPISODES_A = Tables("recall_episode_fts", "recall_episode_doc", "turn_id", "recall_episode_vector", "a")
FACTS_B = Tables("recall_fts", "recall_doc", "fact_id", "recall_vector_b", "b")
EPISODES_B = Tables("recall_episode_fts", "recall_episode_doc", "turn_id", "recall_episode_vector_b", "b")

"""Facts ranked through the turns they came from (MEMORY_RECALL_FACTS_THROUGH_TURNS; docs/recall.md
"Facts through their turns").

With turn keys `words+facts` a turn's index entry already holds the words of the live facts
extracted from it (recall.turn_keys). A recall over facts and episodes can then rank such a fact
through its turn instead of in a list of its own: the fact leaves the facts' ranked lists and comes
back folded into its turn's episode item, whenever that turn ranks. This is the LongMemEval paper's
"key expansion" (key = turn + its facts), which beat rank fusion of separate fact results there;
here it also keeps a user's few facts from taking the first places by being first of a short list
(rank fusion sees a rank, not how many a list held; docs/measurements.md §24).

Only facts a turn's key holds go this way: live facts whose source turn is an episode recall may
return (said by `as_of`) and is in the episode index. A fact with no such turn (imported, added
through the API, its turn withdrawn, past retention or not indexed yet) and, as of a past time,
one no longer live keep their own lists.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import QuerySet

from facts.models import Fact, MemoryUser
from recall import episodes, fts, fusion, turn_keys
from recall.hits import EpisodeHit, FactHit
from recall.tables import EPISODES


def active(sources: tuple[str, ...]) -> bool:
    """Both kinds asked for, the setting on, turn keys that hold the facts' words, and the merge on
    (a fact comes back folded into its turn; with MEMORY_RECALL_EPISODE_MERGE off the caller asked
    for facts and turns as items of their own)."""
    return (
        settings.MEMORY_RECALL_FACTS_THROUGH_TURNS
        and settings.MEMORY_RECALL_EPISODE_MERGE
        and turn_keys.with_facts()
        and "facts" in sources
        and "episodes" in sources
    )


def drop_keyed_facts(
    user: MemoryUser, as_of: datetime | None, cands: dict[int, fusion.Candidate], with_turn: list[int]
) -> None:
    """Take out of the fact candidates those their source turn's key holds: live, from an episode
    said by `as_of` that is in the episode index. A turn the index has not written yet (a lagging
    outbox) cannot rank for its facts, so they keep their own lists meanwhile (two queries).
    `with_turn`: the candidates recall may return that have a source turn (recall.services read
    them with the candidates' categories); only they can be keyed, and none costs no query (a
    candidate recall may not return is dropped from the hits whether or not it is taken here)."""
    if not with_turn:
        return
    keyed = dict(
        Fact.objects.live()
        .filter(user=user, pk__in=with_turn, source_turn__in=episodes.said_by(user, as_of).values("pk"))
        .values_list("pk", "source_turn_id")
    )
    indexed = fts.indexed_hashes(set(keyed.values()), EPISODES)
    for fact_id, turn_id in keyed.items():
        if turn_id in indexed:
            del cands[fact_id]


def fold_turn_facts(user: MemoryUser, base: QuerySet[Fact] | None, episode_hits: list[EpisodeHit]) -> None:
    """Fold into each episode hit the live facts its turn produced that recall may return (`base`:
    the facts valid at `as_of`), so the caller who asked for facts receives them with the turn that
    ranked for them. Without `as_of` (base None) recall may return the user's live facts, which is
    what `hit.facts` holds already (recall.episodes._produced): no query; as of a past time, one."""
    produced = {fact.pk: fact for hit in episode_hits for fact in hit.facts}
    if not produced:
        return
    allowed = set(produced) if base is None else set(base.filter(pk__in=list(produced)).values_list("pk", flat=True))
    for hit in episode_hits:
        for fact in hit.facts:
            if fact.pk in allowed:
                fact.user = user  # FactOut reads the owner's external id: no query per fact
                hit.folded.append(FactHit(fact, hit.score, {"through_turn": True}))

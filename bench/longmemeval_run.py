"""LongMemEval through the product (docs/api.md `eval_recall --format longmemeval`).

Each question gets a memory user of a throwaway tenant. Its history is stored as Turn rows
(one per user message, with the assistant's reply, at its session's date) and every turn goes
through the extraction pipeline a worker runs: `prepare`, the extractor (the offline rules,
as `make run` has them without an OpenAI key) and `apply`, which makes the facts and marks the
turn an episode. What they marked for the index is indexed by `indexer.index_items` in one
embedding batch for the user's whole history. Recall is asked as of the question's date, from the
episodes alone (corpus `turns`) and from facts and episodes (corpus `both`); the user is
erased before the next question, so the store never holds more than one history. What is
scored is REST's answer (recall.answer), item for item, by the turn ids its items return.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import transaction
from django.test.utils import override_settings

from bench.longmemeval import DEPTH, Question, Round, Tally, new_tally, rounds
from core.queues import inline
from facts.extraction.apply import apply
from facts.extraction.chain import extract
from facts.extraction.pipeline import prepare
from facts.models import MemoryUser, Tenant, Turn, TurnState
from recall import answer, episode_index, index, indexer
from recall.models import PendingIndex
from recall.schemas import RecallItemOut
from recall.services import recall

CORPUS_SOURCES = {"turns": ("episodes",), "both": ("facts", "episodes")}


@dataclass
class LoadedUser:
    user: MemoryUser
    covers: dict[str, frozenset[str]]  # turn id -> the message ids it holds


@contextmanager
def indexing_here() -> Iterator[None]:
    """Index after each commit in this process, as `make run`'s worker does (it consumes the
    `embed` queue), instead of sending a drain message to a broker this command does not use."""
    with inline():
        yield


def _turn(tenant: Tenant, user: MemoryUser, spec: Round) -> Turn:
    return Turn(
        tenant=tenant,
        user=user,
        session_id=spec.session_id,
        turn_id=spec.turn_id,
        user_input=spec.user_text,
        assistant_response=spec.reply,
        occurred_at=spec.when,
        created_at=spec.when,
        state=TurnState.QUEUED,
    )


def _extract(turn_pk: int, user_pk: int) -> None:
    """One turn through the worker's three steps, in this process."""
    job = prepare(turn_pk, None, user_pk=user_pk)
    if job is not None:
        apply(job, extract(job))


# No OpenAI key: the offline extractor, whatever the operator's environment holds. Profiles are
# not recalled, so the projection every few turns is left out of the measurement.
OFFLINE = {"OPENAI_API_KEY": "", "MEMORY_PROFILE_EVERY_TURNS": 10**9}


def _index_marked(user: MemoryUser, embedder) -> None:
    """What the extraction marked for the index (its outbox rows), in one embedding batch."""
    marked = list(PendingIndex.objects.filter(user_id=user.pk).values_list("kind", "item_id"))
    facts = [item for kind, item in marked if kind == PendingIndex.Kind.FACT]
    indexer.index_items(
        facts, [item for kind, item in marked if kind == PendingIndex.Kind.EPISODE], vectors="here", embedder=embedder
    )


def load_user(tenant: Tenant, question: Question, embedder=None) -> LoadedUser:
    user = MemoryUser.objects.create(tenant=tenant, external_id=f"longmemeval-{question.id}")
    specs = rounds(question)
    # One transaction for the history, indexed in one batch before it commits (with the
    # command's embedding memo); the product's own indexing after the commit then finds
    # every vector in place and only rewrites the text rows.
    with override_settings(**OFFLINE), indexing_here(), transaction.atomic():
        turns = Turn.objects.bulk_create([_turn(tenant, user, spec) for spec in specs], batch_size=500)
        for turn in turns:
            _extract(turn.pk, user.pk)
        _index_marked(user, embedder)
    return LoadedUser(user, {spec.turn_id: spec.covers for spec in specs})


def unload_user(loaded: LoadedUser) -> None:
    with transaction.atomic():
        index.erase_user(loaded.user.pk)
        episode_index.erase_user(loaded.user.pk)
        loaded.user.delete()


def covered(item: RecallItemOut, covers: dict[str, frozenset[str]]) -> set[str]:
    """The messages one item of REST's answer holds, by the words it returns: an episode its turn's
    (the facts folded into it came from that turn), a fact the turn it quotes.

    A fact without a quote holds only its own sentence, not the turn it came from: crediting it
    with its `source_turn_id` counted words the caller never received ("User uses Emacs." for
    the turn that also named the dog; issue 34), so it covers no message."""
    if item.kind == "episode" and item.episode is not None:
        return set(covers.get(item.episode.turn_id, ()))
    if item.quote is not None:
        return set(covers.get(item.quote.turn_id, ()))
    return set()


def answer_items(loaded: LoadedUser, question: Question, mode: str, sources: tuple[str, ...]) -> list[RecallItemOut]:
    """What REST's `/recall` answers for the question as of its date (recall.answer), item for item."""
    result = recall(
        user=loaded.user, query=question.text, k=DEPTH, mode=mode, as_of=question.asked_at, log=False, sources=sources
    )
    return list(answer.with_sources(result).items)


def ranked_items(loaded: LoadedUser, question: Question, mode: str, sources: tuple[str, ...]) -> list[set[str]]:
    """REST's answer as the messages each item holds."""
    return [covered(item, loaded.covers) for item in answer_items(loaded, question, mode, sources)]


def evaluate(
    questions: list[Question], modes: list[str], progress: Callable[[int], object] | None = None, embedder=None
) -> dict[str, dict[str, Tally]]:
    """{corpus: {mode: Tally}} over the non-abstention questions, one user loaded at a time."""
    tallies = {corpus: {mode: new_tally() for mode in modes} for corpus in CORPUS_SOURCES}
    tenant = Tenant.objects.create(name=f"eval-longmemeval-{uuid.uuid4().hex[:8]}")
    try:
        for question in questions:
            loaded = load_user(tenant, question, embedder)
            try:
                for corpus, sources in CORPUS_SOURCES.items():
                    for mode in modes:
                        tallies[corpus][mode].add(question, ranked_items(loaded, question, mode, sources))
            finally:
                unload_user(loaded)
            if progress:
                progress(sum(len(s.messages) for s in question.sessions))
    finally:
        tenant.delete()
    return tallies

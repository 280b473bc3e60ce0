"""The evaluations score exactly what REST's `/recall` answers (recall.answer): on a real store,
each question's scored list equals REST's answer item for item, for LoCoMo and LongMemEval, and
an item is credited only with the dialogue ids of the words it returns (docs/recall.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import locomo, locomo_data, longmemeval, longmemeval_run
from facts.models import Tenant
from tests.base import ApiClient, issue_key

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent.parent / "bench" / "data"
BOTH = ("facts", "episodes")


def rest_items(tenant: Tenant, user_id: str, **body) -> list[dict]:
    response = ApiClient(issue_key(tenant, ["read"])).post(f"/users/{user_id}/recall", body)
    assert response.status_code == 200, response.content
    return response.json()["items"]


def as_json(items) -> list[dict]:
    return [json.loads(item.model_dump_json()) for item in items]


@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
def test_locomo_scores_what_rest_answers_item_for_item(model, mode):
    loaded = locomo.load(locomo_data.load_conversations(DATA / "tiny_locomo.json"), "both")
    [(user, provenance, qas)] = loaded.users
    ids = locomo.Ids.of(user)
    folded = 0
    for question, _ in qas:
        scored = locomo.answer_items(locomo.ask(user, question, mode, 10, BOTH))
        rest = rest_items(loaded.tenant, user.external_id, query=question, k=10, mode=mode, sources=list(BOTH))
        assert as_json(scored) == rest
        folded += sum(1 for i in scored if i.quote is not None or i.folded_facts)
        for item in scored:
            returned = {item.quote.turn_id} if item.quote else set()
            returned |= {item.episode.turn_id} if item.episode else set()
            evidence = set().union(*(provenance[ids.fact_pk[f.id]] for f in [item.fact, *item.folded_facts] if f))
            # An item covers its facts' evidence and the turns whose words it returns, nothing else.
            assert locomo.covered_by(item, provenance, loaded.episodes, ids) == evidence | returned
    assert folded, "no question folded a fact and its turn: the check would prove nothing"


def test_longmemeval_scores_what_rest_answers_item_for_item(model):
    tenant = Tenant.objects.create(name="lme-check")
    questions = [q for q in longmemeval.load_questions(DATA / "tiny_longmemeval.json") if not q.abstention]
    for question in questions:
        loaded = longmemeval_run.load_user(tenant, question)
        for sources in longmemeval_run.CORPUS_SOURCES.values():
            scored = longmemeval_run.answer_items(loaded, question, "hybrid", sources)
            rest = rest_items(
                tenant,
                loaded.user.external_id,
                query=question.text,
                k=longmemeval.DEPTH,
                as_of=question.asked_at.isoformat(),
                sources=list(sources),
            )
            assert as_json(scored) == rest and scored
            ranked = longmemeval_run.ranked_items(loaded, question, "hybrid", sources)
            assert ranked == [longmemeval_run.covered(item, loaded.covers) for item in scored]

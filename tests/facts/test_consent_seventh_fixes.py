"""The consent rules' fixes after the seventh blind set (tests/facts/consent_seventh_phrases.py,
issue 37): the look-alikes they flagged and the clear requests they missed, each with variants of
the same reason, so a rule is fixed for its reason and not for one sentence (facts/consent.py).
"""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD, detect
from tests.facts.consent_seventh_phrases import SEVENTH_NEGATIVE, SEVENTH_POSITIVE

# Words and dates only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

LOOK_ALIKES = [
    # Reported speech: a third party and a speech verb; the words are theirs.
    "My manager told me it was off the record, but should I report what she said about layoffs?",
    "Our CFO said this stays off the record, but the numbers look bad to me.",
    "She told me it was off the record and now everybody knows.",
    # Off the record with a journalist, as a source, with someone else.
    "I'd prefer to stay off the record as a source. How do I ask the journalist for that?",
    "I spoke off the record with my lawyer yesterday; is that privileged?",
    "This is off the record for the reporter, right? I don't want my name printed.",
    # A question about a memory, the person's or the assistant's.
    "Don't remember the title? Here's a hint: it's the film with the spinning top. What's it called?",
    "You don't remember my name? I told you it's Priya, please use it.",
    "Can't remember the password to my router? How do I reset it?",
    "You do not remember our trip to Lisbon? We talked about it yesterday.",
    # Forms near the new ones that ask nothing of the assistant.
    "Is there a way to close the editor without it being saved?",
    "No memory card slot on this phone, sadly.",
    "Keep the onions unsaved for the soup.",
    "I keep nothing in my fridge but beer.",
]

REQUESTS = [
    # msg / msgs for message; "unremember".
    ("Can you unremember my previous message? I overshared.", FORGET_PREVIOUS),
    ("hey can you forget my last msg? the one about my credit card. thx", FORGET_PREVIOUS),
    ("pls delete my last msg, wrong chat", FORGET_PREVIOUS),
    ("Please unremember my last message.", FORGET_PREVIOUS),
    ("no memory for this msg pls, my rent is late again", WITHHOLD),
    # "No memory" / "no-memory" as a label.
    ("NO MEMORY. NONE. my kid got caught shoplifting and the store wants to press charges", WITHHOLD),
    ("no memory for this msg thx. best way to hide a bald spot before my wedding", WITHHOLD),
    ("This is a no-memory question. Is it normal to bleed a bit after a wisdom tooth extraction?", WITHHOLD),
    ("Zero memory on this one please. What's the penalty for filing taxes three months late?", WITHHOLD),
    ("No memory please! I owe my brother 2k.", WITHHOLD),
    # Nothing here goes in your memory.
    ("Nothing here goes in your memory, understood? I'm looking into getting a vasectomy.", WITHHOLD),
    ("nothing from this chat gets into your memory ok? my landlord is suing me", WITHHOLD),
    # Not something I want you to keep on file.
    (
        "not something i want you to keep on file, but can you explain what a DUI arrest means for my nursing license",
        WITHHOLD,
    ),
    ("This is not something I'd like you to remember: I failed my driving test twice.", WITHHOLD),
    # Keep ... unsaved / consider this ... unrecorded.
    ("let's keep this one unsaved 😅 i lost 800 on a sports bet", WITHHOLD),
    (
        "Consider this exchange unrecorded: what are the early signs of Alzheimer's? My dad keeps forgetting names.",
        WITHHOLD,
    ),
    ("Please treat this message as unrecorded. I'm behind on child support.", WITHHOLD),
    # Without it being kept / without you remembering it.
    (
        "Can I ask you something without it being kept? My passport expired and I might have overstayed in Thailand.",
        WITHHOLD,
    ),
    ("Can I tell you this without it being saved to your memory? I cheated on my exam.", WITHHOLD),
    ("Can we do this one without you remembering it? I want to practise asking my boss for leave.", WITHHOLD),
    # Temporary chat, keep nothing.
    ("treat this like a temporary chat and keep nothing. how long do std test results take", WITHHOLD),
    ("Temporary chat please: how do I tell my partner I'm in debt?", WITHHOLD),
    ("Remember nothing from this, ok? I'm seeing a psychiatrist.", WITHHOLD),
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_look_alike_about_someone_else_or_a_question_about_memory_is_not_a_request(text):
    assert detect(text) is None


@pytest.mark.parametrize(("text", "kind"), REQUESTS)
def test_a_clear_request_in_chat_spelling_or_as_a_label_is_read_with_its_kind(text, kind):
    found = detect(text)
    assert found is not None and found.kind == kind


def test_a_request_beside_reported_speech_is_still_read():
    # The third party's clause is left out up to "but"; the person's own request after it stays.
    assert detect("My sister said it's fine, but don't remember this: I'm pregnant.").kind == WITHHOLD
    # A journalist in another sentence leaves this one's "off the record" to the assistant.
    assert detect("Off the record: I'm quitting. Also, a journalist called me.").kind == WITHHOLD
    assert detect("Off the record: my boss is quitting.").kind == WITHHOLD


def test_the_rules_flag_no_look_alike_of_the_seventh_set_and_keep_the_recall_they_reached_on_it():
    # In-sample now (the rules were fixed on it): 0 of 147 look-alikes, 90 of 129 requests
    # (it was 4 look-alikes and 76 requests when scored blind).
    flagged = [text for text in SEVENTH_NEGATIVE if detect(text) is not None]
    found = [(text, kind) for text, kind in SEVENTH_POSITIVE if detect(text) is not None]
    assert flagged == []
    assert len(found) >= 90, len(found)

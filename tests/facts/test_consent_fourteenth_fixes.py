"""The consent rules' fixes after the fourteenth blind set (tests/facts/consent_fourteenth_phrases.py,
scored once before them; issue 37): each form it showed the rules missing, with variants written
for the form (none is a sentence of the set), requests and the look-alikes of the same form that
must stay unflagged (facts/consent.py, consent_rules.py, consent_wishes.py, consent_languages.py).
"""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD
from tests.facts.consent_forms import form_tests

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # More labels opening the message.
    ("[private] my husband and I are sleeping in separate rooms", WITHHOLD),
    ("(ephemeral) how long does a DUI stay on your record?", WITHHOLD),
    ("[no-mem] what's a normal resting heart rate", WITHHOLD),
    ("nomem: how do I tell my kids about the divorce", WITHHOLD),
    ("No-memory: is a 30% raise realistic to ask for?", WITHHOLD),
    ("tag: dont-save. my credit card got declined twice today", WITHHOLD),
    # An emoji where a comma would be.
    ("🔒 do not store this: I'm on probation until May", WITHHOLD),
    ("ugh 😩 don't remember any of this, I just need to vent about my mom", WITHHOLD),
    ("I said way too much there 🙃 please forget my last message", FORGET_PREVIOUS),
    # The keeping verb misspelt.
    ("plz dont remeber this convo", WITHHOLD),
    ("do not rmember this, my sister is in rehab", WITHHOLD),
    ("dont stor this pls, it's about my debt", WITHHOLD),
    # A word that only calls or opens, and no comma after it.
    ("hey assistant forget what I told you about my landlord", FORGET_PREVIOUS),
    ("ok so don't save this one, it's about my ex", WITHHOLD),
    ("alright please don't remember my blood test numbers", WITHHOLD),
    # Everything before this, with another verb than forget; a number of earlier messages.
    ("Delete everything before this, I overshared.", FORGET_PREVIOUS),
    ("Please erase all prior to this.", FORGET_PREVIOUS),
    ("forget my last 4 messages", FORGET_PREVIOUS),
    ("Can you forget my previous two replies?", FORGET_PREVIOUS),
    # Other languages.
    ("Merci de ne pas mémoriser ce message.", WITHHOLD),
    ("Veuillez ne pas garder cette conversation.", WITHHOLD),
    ("Por favor não grave esta mensagem.", WITHHOLD),
    ("Non ricordarti di questo, ti prego.", WITHHOLD),
    ("Vergiss, was ich dir über meine Schulden geschrieben habe.", FORGET_PREVIOUS),
]

LOOK_ALIKES = [
    # Brackets that name something else; a label that is a word of the message.
    "[Private] or public university, which is cheaper for a nurse?",
    "(private lessons) how much should I charge per hour?",
    "Private: is that the right rank for a new recruit?",
    "tag: summer 2019 photos, can you help me sort them?",
    # Emoji beside a memory verb about the person's own memory or a file.
    "I can never remember my PIN 😅 any tricks?",
    "📁 don't save the file as PDF, use docx",
    "don't forget 🎂 my mum's birthday is on Friday",
    # Misspellings about something else.
    "I dont rember where I put my keys lol",
    "the stor closes at 9, should I go now?",
    # Openers before things that are not requests.
    "ok so forget it, let's plan the trip instead",
    "hey there please remember I'm vegetarian",
    "oh don't worry about the deadline",
    # Deleting before this in a document; earlier messages named for another reason.
    "In my essay, delete everything before this paragraph and rewrite the intro.",
    "Delete everything before this line in the CSV so the header is first.",
    "My last 4 messages to my boss went unanswered, what should I do?",
    # Other languages, look-alikes.
    "Je ne me souviens pas de ce message.",
    "Não grave o vídeo em 4K, o cartão está cheio.",
    "Non ricordarti di comprare il latte? Scherzo, ricordamelo.",
    "Vergiss nicht, was ich dir über meine Schulden gesagt habe.",
    "Vergiss nicht, was ich gerade gesagt habe: Montag um neun.",
]


test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request = form_tests(
    REQUESTS, LOOK_ALIKES
)

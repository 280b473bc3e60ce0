"""The consent rules' fixes after the eighth blind set (tests/facts/consent_eighth_phrases.py, issue
37): each reason it showed the rules missing or misreading, with variants written for the reason
(none is a sentence of the set), requests and their look-alikes (facts/consent.py,
facts/consent_wishes.py).
"""

from __future__ import annotations

import time

import pytest

from facts import consent_model
from facts.consent import FORGET_PREVIOUS, WITHHOLD, allows_memory, detect
from tests.facts.consent_eighth_phrases import EIGHTH_NEGATIVE, EIGHTH_POSITIVE

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # An imperative before a colon, in any case, though a question follows ("Do ..." opens it).
    ("DO NOT SAVE THIS: is it normal to feel dizzy after giving blood?", WITHHOLD),
    ("Do me a favour and don't keep this: can my employer read my personal email?", WITHHOLD),
    ("no need to record: what's a fair price for a used road bike?", WITHHOLD),
    ("qq, dont save: how long does a police background check take?", WITHHOLD),
    # "Off the record" opening a sentence, as an adverbial, with no third party.
    ("OFF THE RECORD how much should I tip a wedding DJ?", WITHHOLD),
    ("Talking off the record now, I think my cofounder is burning out.", WITHHOLD),
    ("ok so off the record i have a crush on my manager", WITHHOLD),
    ("Strictly speaking off the record: is it rude to leave a party without saying goodbye?", WITHHOLD),
    # Chat spellings: convo, a verb without its g, a vocative before the imperative.
    ("pls no storin this, how do I ask for a raise", WITHHOLD),
    ("no rememberin this one k? my cat died and i cant stop crying", WITHHOLD),
    ("bro dont keep this, i got fired", WITHHOLD),
    ("keep it quiet, meaning do not remember it: I'm leaving my band", WITHHOLD),
    ("I'm only asking for today, not to keep: my blood sugar was 14 this morning.", WITHHOLD),
    ("would u mind forgetting this convo? my rent is 3 months late", WITHHOLD),
    # A polite question that this, or the previous message, not be saved.
    ("Could my last message not be stored? It had my bank details in it.", FORGET_PREVIOUS),
    ("Can what I just said not be remembered, please?", FORGET_PREVIOUS),
    ("Can this not end up in your memory? I'm quietly job hunting.", WITHHOLD),
    ("could this chat not be logged anywhere, I need advice on a restraining order", WITHHOLD),
    # Soft wishes: not for keeps, ephemeral, consent withheld, not carried into later chats.
    ("This one's not for keeps: how do I leave a group chat without anyone noticing?", WITHHOLD),
    ("Let's keep this one ephemeral: my sister is pregnant and nobody knows.", WITHHOLD),
    ("This chat should stay ephemeral, okay? I'm asking about a lump on my neck.", WITHHOLD),
    ("I do not consent to this being stored. Is my landlord allowed in without notice?", WITHHOLD),
    ("Don't carry any of this into future chats: I'm being treated for anxiety.", WITHHOLD),
    ("please don't bring it with you to next time, it's about my divorce", WITHHOLD),
    ("Don't let this change what you know about me. I dropped out of college.", WITHHOLD),
    ("Would you be kind enough not to remember this? I owe the tax office money.", WITHHOLD),
    # "Nothing I say ... goes into memory", not something I want on file, kept out of it.
    ("Nothing I tell you here goes into your memory. My husband has a gambling problem.", WITHHOLD),
    ("nothing from this chat in your memory pls, I'm seeing a fertility doctor", WITHHOLD),
    ("Not something I need on record: I was fired for being late.", WITHHOLD),
    ("I want this kept out of your memory. I'm on antidepressants.", WITHHOLD),
    ("I'd rather this didn't go into your memory: I'm in therapy for my temper.", WITHHOLD),
    ("Leave it out of everything you remember about me: I'm bankrupt.", WITHHOLD),
    # Without it being saved, without you keeping it, once answered.
    ("I just want to talk without it being recorded. My dad is in hospital.", WITHHOLD),
    ("Asking this without wanting it remembered: can I break my lease early?", WITHHOLD),
    ("Without making any notes of it, what helps with panic attacks at night?", WITHHOLD),
    ("Delete this message after answering: how do I report my boss to HR?", WITHHOLD),
    ("You could forget this once you've replied: what's the fine for a late passport renewal?", WITHHOLD),
    ("I'd like it forgotten when we're done: my son has been self-harming.", WITHHOLD),
    # "Memory: off" as a label, "and not for your memory", a shushed "between us", memory switched off.
    ("Memory - off. question: how long do I have to contest a will?", WITHHOLD),
    ("Between you and me, and not for your memory, I'm planning to propose.", WITHHOLD),
    ("between us \U0001f92b my brother is in rehab", WITHHOLD),
    ("I know you keep a memory of me; turn it off for this question: is a DUI a felony?", WITHHOLD),
    ("no memory updates from this one, I'm asking for a friend about divorce lawyers", WITHHOLD),
    # "Forget it and don't store it": forget what was said, not this message.
    ("ugh that was my pin, forget it and don't save it", FORGET_PREVIOUS),
    ("Forget that, and do not keep it anywhere.", FORGET_PREVIOUS),
    # A pointer back: "that last thing I typed", "my last one".
    ("That last thing I typed about my landlord - don't keep it.", FORGET_PREVIOUS),
    ("Let's pretend I never sent my last one. Do not store it.", FORGET_PREVIOUS),
    ("I'd prefer that what I told you about my visa not be remembered.", FORGET_PREVIOUS),
]

LOOK_ALIKES = [
    # A question or statement about the person's own memory, or a thing of the world, without "?".
    "dont remember the name of the actor in that shark film",
    "Don't remember the Alamo, just the song about it",
    "dont remember if i locked the car this morning",
    "Don't memorise the formulas, understand where they come from.",
    "I don't remember this: was it Paris or Rome where we met?",
    # "Off the record" as a phrase or with someone else.
    "Off the record remarks by politicians often leak.",
    "Off the record means what exactly in a deposition?",
    "Talking off the record to my landlord got me nowhere.",
    "Speaking off the record with a reporter is risky for a civil servant.",
    # The words mentioned in a condition, not said.
    "Apparently a promise is void if you say it's off the record, so why do people say it",
    "Whatever I tell the bank is usable even if I call it off the record, isn't it.",
    # A device told to stop, not the assistant.
    "How do I get Safari to stop remembering every site I visit",
    "my car's screen keeps my old phone, how do i make it stop remembering devices",
    # Forms near the new ones that ask nothing of the assistant.
    "Could the previous owner not have saved the receipts?",
    "Can this not be stored in the freezer for a week?",
    "We played marbles as kids, but not for keeps.",
    "Fame is ephemeral, my grandmother used to say.",
    "I don't consent to this being recorded on video by the clinic.",
    "Don't carry this over to the next page of the form.",
    "im savin this recipe, dont lose it lol",
    "Memory is a funny thing: no two people remember a day alike.",
    "Between us and the river there's a wall.",
    "This one is ephemeral art, made of ice.",
    "Memory: none of the above",
    "Nothing I say in my notes makes sense to anyone",
    "I can't return it without keeping a copy of it",
    "no memory updates for this phone, it's too old",
    "Don't keep: old receipts, broken chargers, the spare cables.",
    "lol you never remember anything",
    # Leave given (the classifier is not asked either, test below).
    "I'm totally fine with you remembering all of it.",
    "Feel free to save my address, it makes deliveries easier.",
]


@pytest.mark.parametrize(("text", "kind"), REQUESTS)
def test_a_request_of_each_reason_the_eighth_set_showed_is_read_with_its_kind(text, kind):
    found = detect(text)
    assert found is not None and found.kind == kind, found


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_look_alike_of_each_reason_is_not_a_request(text):
    assert detect(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "I'm totally fine with you remembering all of it.",
        "Feel free to save my address, it makes deliveries easier.",
        "I don't mind if you remember my birthday.",
    ],
)
def test_leave_to_remember_is_not_sent_to_the_classifier(text, monkeypatch):
    def not_asked(model):
        raise AssertionError("the classifier was asked")

    monkeypatch.setattr(consent_model, "_embedder", not_asked)
    assert allows_memory(text)
    assert consent_model.score(text) == 0.0


@pytest.mark.parametrize(
    "text",
    [
        "I'm fine with you remembering my name, but not my address.",
        "Feel free to save everything else; my diagnosis stays out.",
        "You can remember that I like tea. Forget the rest.",
    ],
)
def test_leave_with_an_exception_beside_it_is_not_leave(text):
    assert not allows_memory(text)


def test_a_request_of_a_new_form_is_still_a_withhold_when_it_points_at_this_message():
    assert detect("Forget it and don't save this one either: I'm broke.").kind == WITHHOLD
    assert detect("Could this message not be saved? My earlier one is fine.").kind == WITHHOLD


@pytest.mark.parametrize(
    "unit",
    [
        "off the record ",
        "speaking off the record here ",
        "don't remember the ",
        "could the previous message not be ",
        "nothing i say in this message ",
        "without wanting it ",
        "between us ",
        "this chat to stay ",
        "i'm fine with you remembering ",
        "if i say it's ",
        "mate meaning as in ",
    ],
)
def test_the_new_forms_read_20000_characters_in_linear_time(unit):
    text = (unit * (20_000 // len(unit) + 1))[:20_000]
    started = time.process_time()
    detect(text)
    allows_memory(text)
    assert time.process_time() - started < 0.5


def test_the_rules_flag_no_look_alike_of_the_eighth_set_and_keep_the_recall_they_reached_on_it():
    # In-sample now (the rules were fixed on it): 0 of 184 look-alikes, 137 of 145 requests
    # (it was 3 look-alikes and 96 requests when scored blind).
    flagged = [text for text in EIGHTH_NEGATIVE if detect(text) is not None]
    found = [(text, kind) for text, kind in EIGHTH_POSITIVE if detect(text) is not None]
    wrong = [text for text, kind in found if detect(text).kind != kind]  # type: ignore[union-attr]
    assert flagged == []
    assert wrong == []
    assert len(found) >= 137, len(found)

"""The consent rules' fixes after the ninth and tenth blind sets (tests/facts/consent_ninth_phrases.py,
consent_tenth_phrases.py; issue 37): each form they showed the rules missing or misreading, with
variants written for the form (none is a sentence of a set), requests and the look-alikes of the same
form that must stay unflagged (facts/consent.py, consent_rules.py, consent_words.py, consent_signs.py,
consent_languages.py).
"""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD, allows_memory
from tests.facts.consent_forms import form_tests

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # Memory paused or switched off for this message, as a label.
    ("Disable memory for this message, I'm asking about my biopsy results.", WITHHOLD),
    ("pause your memory for this one pls, my brother is in rehab", WITHHOLD),
    ("ok, no memory. what are the signs of a gambling problem?", WITHHOLD),
    # A keeping place of the assistant's named: its log, notebook, database, personalisation data,
    # saved memories, memory bank.
    ("Leave this out of your logs: I got a DUI last year.", WITHHOLD),
    ("Don't put this into my personalisation data, it's about my debt.", WITHHOLD),
    ("Make sure none of this gets put in my saved memories. I'm pregnant.", WITHHOLD),
    ("please don't let this end up in your database, I'm undocumented", WITHHOLD),
    ("That's not for your notebook: I failed my bar exam twice.", WITHHOLD),
    ("this bit is not for the memory bank, my dad has dementia", WITHHOLD),
    # This message treated as if it never happened, or as ephemeral.
    ("Consider this conversation as if it never happened: I'm leaving my husband.", WITHHOLD),
    ("treat this one as ephemeral, I'm asking about STD testing", WITHHOLD),
    # Pretending not to have heard this message, forgetting one said this.
    ("Pretend you never read this - my startup is about to fold.", WITHHOLD),
    ("Forget I even mentioned this once you've helped me: I owe my landlord two months.", WITHHOLD),
    # Polite: whether it is possible not to, what I'd appreciate, "can you like not".
    ("Is it possible not to save this? I'm asking about a friend's overdose.", WITHHOLD),
    ("I'd be grateful if this wasn't stored anywhere.", WITHHOLD),
    ("could you like, not remember this? i failed my driving test again", WITHHOLD),
    # Answering without keeping anything.
    ("Reply without storing any of this: what's the penalty for late tax filing?", WITHHOLD),
    ("Without keeping any of it: how do I tell my parents I'm gay?", WITHHOLD),
    # Chat spellings and an aside between "not" and its verb.
    ("dnt store ths pls, i have a warrant out", WITHHOLD),
    ("Please do not, for any reason, keep this: my PIN is 4471.", WITHHOLD),
    ("Under no circumstances should you remember this. I'm the whistleblower.", WITHHOLD),
    # Places listed and refused; off the books for memory; this as incognito; no saving.
    ("not in your profile, not in your notes: I was arrested in 2019.", WITHHOLD),
    ("Keep it off the books, memory-wise: I'm interviewing at a rival.", WITHHOLD),
    ("This chat is incognito. How do I get a restraining order?", WITHHOLD),
    ("hey, no storing please: is my boss allowed to read my DMs?", WITHHOLD),
    ("Nothing here should be added to your memory. I have HIV.", WITHHOLD),
    ("Not something I'd like you to store: my therapist's name is Dr Lamb.", WITHHOLD),
    # The details just given, these details.
    ("I'm a nurse asking about a patient. Don't store these details.", WITHHOLD),
    # What was said before: un-saved, its pointers ("preceding", "b4", "before this one", "the message I sent").
    ("Un-store what I told you about my ex, please.", FORGET_PREVIOUS),
    ("Please do not remember anything in my preceding message.", FORGET_PREVIOUS),
    ("forget what i said b4 and dont add it to my profile", FORGET_PREVIOUS),
    ("I don't want you remembering what I typed before this one.", FORGET_PREVIOUS),
    ("Don't retain the text I sent before this message.", FORGET_PREVIOUS),
    ("Don't let my last message go into your memory.", FORGET_PREVIOUS),
    # Another language's "forget what I just said" with an English keeping verb after it: the pointer back.
    ("Esquece o que eu acabei de dizer. Don't save it.", FORGET_PREVIOUS),
    ("Dimentica quello che ti ho appena scritto, don't keep it please.", FORGET_PREVIOUS),
    # ...and its correction called private: still a request.
    ("Oublie ce que je viens de dire, c'était privé, je voulais dire autre chose.", FORGET_PREVIOUS),
]

LOOK_ALIKES = [
    # Memory as a thing, or paused elsewhere.
    "Pause the music for this one, I can't hear you.",
    "How do I disable memory for this app on my phone?",
    "I have no memory of that night at all.",
    # Logs, notebooks, databases of the world.
    "Don't put this log on the fire, it's still wet.",
    "Don't save this to the database yet, the migration isn't finished.",
    "This sticker is for the fridge, not for your notebook?",
    "Keep the receipts out of the shoebox.",
    # Treating, pretending, forgetting: about the world.
    "Should I treat it as if it never happened? He apologised.",
    "Treat this rash with hydrocortisone twice a day.",
    "Pretend you didn't hear this song before and guess the year.",
    "I forget I said that to her sometimes.",
    # Questions about people, not this message.
    "Is it possible not to remember your dreams at all?",
    "I'd be grateful if this was stored in a cool, dry place.",
    "Can you like not be so formal with me?",
    # Doing something without saving, said of an app or a person.
    "The editor crashed without saving anything.",
    "How do I reply without saving anything to drafts?",
    "I closed it without saving any of it, so the draft is gone.",
    # Asides and "under no circumstances" about things.
    "Under no circumstances should you store bread in the fridge.",
    "Do not, for any reason, keep the receipt from the pharmacy in your wallet.",
    # Places named without refusing them; incognito said of a browser.
    "Not in my profile picture, in the cover photo.",
    "The money was off the books, as far as I know.",
    "This browser window is incognito, is that why I'm logged out?",
    "No storing wine upright, the cork dries out.",
    "Nothing here should be added to the soup yet.",
    "Not something I'd like you to store in the garage, it's fragile.",
    "Don't store these details in the shared drive, use the vault.",
    # A person's own memory or how someone is remembered.
    "Don't remember me as the one who gave up, okay?",
    "dont remember the code for my locker, is there a reset?",
    "Can this not be recorded? The meeting has clients on it.",
    # Corrections in other languages: the new words are kept, as in English.
    "oublie ce que je viens de dire, je voulais dire jeudi",
    "Olvida lo que te acabo de decir, quería decir el martes.",
    "Vergiss, was ich gerade gesagt habe, ich meinte Freitag.",
    "Esquece o que eu acabei de falar, na verdade é sábado.",
    "Dimentica quello che ti ho appena detto, volevo dire domenica.",
]

LEAVE = [
    # Leave to remember with a reason that says "not": it is not a secret.
    "I'm honestly fine with you keeping all of this, it's not a secret.",
    "You can remember that I'm vegan, it isn't private.",
]


test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request = form_tests(
    REQUESTS, LOOK_ALIKES
)


@pytest.mark.parametrize("text", LEAVE)
def test_leave_given_with_its_reason_is_leave(text):
    assert allows_memory(text)

"""The consent rules' fixes after the fifteenth blind set (tests/facts/consent_fifteenth_phrases.py,
scored once before them; issue 37): each form it showed the rules missing, with variants written
for the form (none is a sentence of the set), requests and the look-alikes of the same form that
must stay unflagged (facts/consent_statements.py, consent_words.py, consent_signs.py,
consent_languages.py, consent.py).
"""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD
from tests.facts.consent_forms import form_tests

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # A statement about how this chat is kept.
    ("This chat doesn't get saved, ok? I need to talk about my debt.", WITHHOLD),
    ("this kind of thing won't be remembered, right.", WITHHOLD),
    ("None of this goes to your memory: my son was suspended today.", WITHHOLD),
    ("Nothing from this conversation is to be stored or added to my profile.", WITHHOLD),
    ("Think of this chat as a confessional, nothing gets saved.", WITHHOLD),
    ("Is there a way to keep this from getting saved? My visa was refused.", WITHHOLD),
    ("I'd rather this not be kept anywhere on your end.", WITHHOLD),
    ("This message should not be kept beyond this session.", WITHHOLD),
    ("Everything below this point is not to be saved.", WITHHOLD),
    # A check that expects it; the whole message said to the assistant.
    ("You are not gonna remember any of this, right?", WITHHOLD),
    ("you cant save this one ok", WITHHOLD),
    ("I wish you would never store this.", WITHHOLD),
    ("Would you answer this and then not keep it afterwards?", WITHHOLD),
    ("Could we have this chat without you remembering anything?", WITHHOLD),
    # A mode asked for, or a figure of speech for it.
    ("Treat this conversation as throwaway.", WITHHOLD),
    ("treat it like incognito, I'm asking about my ex", WITHHOLD),
    ("Imagine you have no memory for this one.", WITHHOLD),
    ("Let it go in one ear and out the other.", WITHHOLD),
    ("Cone of silence over what follows.", WITHHOLD),
    ("The following is confidential and should not be retained.", WITHHOLD),
    ("memory paused until I say so", WITHHOLD),
    ("Please turn off your memory for a bit, this is about my diagnosis.", WITHHOLD),
    ("Remember nothing about this.", WITHHOLD),
    ("Save nothing from here on, I'm going to talk about my finances.", WITHHOLD),
    ("--no-memory what are the signs of burnout", WITHHOLD),
    ("Mark this as dont-save: I failed my driving test again.", WITHHOLD),
    # The forms the words now take: a memory with an adjective, what comes next, things about me,
    # a dictated pause, "pleeease", "omg" and "whoa" opening an imperative.
    ("Don't add any of this to your mental notes about me.", WITHHOLD),
    ("Please don't record what comes after this.", WITHHOLD),
    ("Stop storing stuff about me for now.", WITHHOLD),
    ("okay new line do not remember any of this period", WITHHOLD),
    ("pleease don't keep this", WITHHOLD),
    # Undoing what was kept before.
    ("Please erase the bit about my surgery from whatever you know about me.", FORGET_PREVIOUS),
    ("Don't keep my phone number from earlier.", FORGET_PREVIOUS),
    ("Forget the salary I told you a moment ago.", FORGET_PREVIOUS),
    ("Delete the last two messages please.", FORGET_PREVIOUS),
    ("Remove everything you've learned from this chat.", FORGET_PREVIOUS),
    ("Could you roll your memory back to before I mentioned my brother?", FORGET_PREVIOUS),
    ("my last few msgs, don't save em", FORGET_PREVIOUS),
    ("That was too personal, forget the last sentence.", FORGET_PREVIOUS),
    ("I don't want what I said about my boss staying in your memory.", FORGET_PREVIOUS),
    ("omg remove that last bit from your memory", FORGET_PREVIOUS),
    ("whoa, delete my previous message", FORGET_PREVIOUS),
    ("Let's pretend I never said that, and don't save it.", FORGET_PREVIOUS),
    ("Unsee that please, and don't store it.", FORGET_PREVIOUS),
    ("The thing about my debts I brought up earlier, don't keep it.", FORGET_PREVIOUS),
    ("scratch tht, dont remember it", FORGET_PREVIOUS),
    # Other languages: French, Dutch, Polish, Swedish, Turkish, Spanish.
    ("J'aimerais que tu ne retiennes rien en mémoire.", WITHHOLD),
    ("Tu n'enregistres rien de cela, d'accord ?", WITHHOLD),
    ("Je hoeft dit niet te onthouden.", WITHHOLD),
    ("Nie zapisuj tej rozmowy.", WITHHOLD),
    ("Kom ihåg inte det här.", WITHHOLD),
    ("Bu konuşmayı kaydetme.", WITHHOLD),
    ("Zapomnij o tym, co właśnie napisałam.", FORGET_PREVIOUS),
    ("Glöm vad jag sa nyss.", FORGET_PREVIOUS),
    ("Az önce yazdığımı unut lütfen.", FORGET_PREVIOUS),
    ("Olvida lo último que te conté.", FORGET_PREVIOUS),
]

LOOK_ALIKES = [
    # Keeping verbs about a file, a form, money or a device.
    "The draft doesn't get saved when I close the laptop, why?",
    "My game progress doesn't get saved after the update.",
    "When the app crashes nothing gets saved, is there a fix?",
    "How do I keep this from being stored in the browser cache?",
    "Your answer won't be saved unless I copy it, right?",
    "This shouldn't be kept in the fridge for more than a day.",
    "The following items must not be stored above 25 degrees.",
    "The following must not be stored near food.",
    "Treat this as disposable income for the trip.",
    "Treat it as a throwaway line in the speech.",
    "Pause the recording for a minute, the baby is crying.",
    "Stop saving money for a while and enjoy yourself, my dad says.",
    "How do I turn off memory on my Samsung phone?",
    "Save nothing for later, we're spending it all in Vegas.",
    "We had a new line installed at the office.",
    "Don't keep stuff about me in the shared folder.",
    "The data from before the upgrade is gone.",
    # Someone else, a question, a task, a figure of speech about others.
    "You're not going to believe this, right?",
    "You can't keep this pace up forever.",
    "I wish you would remember my birthday for once.",
    "Could you summarise the article and not skip the figures?",
    "My boss wants a cone of silence over the merger.",
    "It went in one ear and out the other with my son.",
    "Pretend you have no idea what a computer is.",
    "Please remember everything about this trip.",
    "Mark this as done in my to-do list.",
    "--verbose flag prints everything, how do I quiet it?",
    # Undoing that is an edit of a text, a correction kept, or something else entirely.
    "Forget the last paragraph of my essay and rewrite the intro.",
    "Delete the last two messages in the group chat, how do I do that on WhatsApp?",
    "Forget the restaurant I mentioned earlier, let's book the Thai place.",
    "I don't want what I wrote in the report sitting on my manager's desk.",
    "Roll back the update to before the crash.",
    "I brought up the budget earlier at the meeting.",
    "I can't unsee that video.",
    "Scratch that itch, buy the guitar!",
    # Other languages, look-alikes.
    "Je préfère que tu ne gardes pas le chien ce week-end.",
    "Tu ne retiens rien de ce que je dis !",
    "Dit hoef je niet te doen voor morgen.",
    "Nie zapamiętuję imion, to mój problem.",
    "Spara inte pengar på fel saker.",
    "Glöm inte det jag sa om mötet.",
    "Bunu unutma, yarın toplantı var.",
    "Olvida lo último, vamos al cine.",
]


test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request = form_tests(
    REQUESTS, LOOK_ALIKES
)

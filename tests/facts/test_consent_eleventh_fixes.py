"""The consent rules' fixes after the eleventh blind set (tests/facts/consent_eleventh_phrases.py;
issue 37): each form it showed the rules missing or misreading, with variants written for the form
(none is a sentence of a set), requests and the look-alikes of the same form that must stay
unflagged (facts/consent.py, consent_rules.py, consent_words.py, consent_wishes.py, consent_signs.py,
consent_languages.py: Dutch added).
"""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD, detect
from tests.facts.consent_forms import form_tests

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # A label before what follows: not for storage, an incognito question.
    ("Health stuff, not for saving: my liver enzymes came back high.", WITHHOLD),
    ("Incognito request - what's a good divorce lawyer in Bristol?", WITHHOLD),
    # The label as the whole message.
    ("no storing thanks", WITHHOLD),
    ("No logging, thanks.", WITHHOLD),
    # "Not to be remembered" after a conjunction.
    ("Between you and me, and not to be saved: my brother is in prison.", WITHHOLD),
    # "Can't"/"won't be saved" before a colon, or "by you".
    ("I'm asking for a friend, this can't be stored: she's been self-harming.", WITHHOLD),
    ("this won't be remembered by you, right, I hope, because it's about my affair.", WITHHOLD),
    # "n't" typed without its apostrophe.
    ("pls it doesnt go into ur memory ok, i got fired", WITHHOLD),
    ("this shouldnt be saved anywhere, its about my meds", WITHHOLD),
    # Dictated without punctuation: "quick q", "first" before the request.
    ("quick q no need to store it whats the dose of ibuprofen for a kid", WITHHOLD),
    ("ok so first dont save this then tell me about tax brackets", WITHHOLD),
    # A memory named by what it holds, personalisation settings.
    ("please keep this out of your chat memory, I'm job hunting", WITHHOLD),
    ("Keep this out of your personalisation settings, it's about my debt.", WITHHOLD),
    # Used for the answer, then let go.
    ("Use this only for now and then bin it: my account number is 4471.", WITHHOLD),
    # Memory switched off, the label first.
    ("For this one, please pause memory. Is my mole cancerous?", WITHHOLD),
    ("Just for this message, turn your memory off.", WITHHOLD),
    # Profiled from this message.
    ("please don't profile me from this chat, I'm asking about bankruptcy", WITHHOLD),
    # A privacy word, then the verb closing the message unpunctuated.
    ("super sensitive pls dont keep it", WITHHOLD),
    ("its private dont save", WITHHOLD),
    # The request made a hyphenated label.
    ("Treat it as a do-not-save-this message, I'm seeing a therapist.", WITHHOLD),
    # Let it vanish from memory; mentally shred it.
    ("Help me draft the letter, then let it fade from your memory.", WITHHOLD),
    ("Mentally delete this once you're done: my visa expired.", WITHHOLD),
    # What was said before: "this chat" is not this message, the perfect tense, "I" dropped, a memory
    # named as one, the bit about me.
    ("What I told you near the beginning of this conversation, please don't store it.", FORGET_PREVIOUS),
    ("All I've told you about my divorce - don't keep it.", FORGET_PREVIOUS),
    ("ugh shouldnt have typed that, pls forget it", FORGET_PREVIOUS),
    ("erase that memory, the one about my surgery", FORGET_PREVIOUS),
    ("delete that note about my landlord", FORGET_PREVIOUS),
    ("Can you forget the part about my ex?", FORGET_PREVIOUS),
    # ...and "this chat" alone is still this message.
    ("Please don't store anything from this chat.", WITHHOLD),
    # Dutch.
    ("Onthoud dat niet, het is persoonlijk.", WITHHOLD),
    ("Sla dit bericht niet op.", WITHHOLD),
    ("Alsjeblieft niet opslaan: ik heb een schuld bij de bank.", WITHHOLD),
    ("Zet het niet in mijn profiel, ik ben zwanger.", WITHHOLD),
    ("Vergeet wat ik zojuist schreef, alsjeblieft.", FORGET_PREVIOUS),
    ("Mijn vorige bericht: niet opslaan.", FORGET_PREVIOUS),
    # French with the memory named, Italian with the pronoun joined or "questa cosa", Portuguese and
    # Italian "forget what I said before".
    ("Ne l'enregistre pas dans ma mémoire, c'est au sujet de ma santé.", WITHHOLD),
    ("Non memorizzarlo, per favore.", WITHHOLD),
    ("Non ricordare questa cosa del mio lavoro.", WITHHOLD),
    ("Dimentica quello che ti ho detto poco fa.", FORGET_PREVIOUS),
    ("Esquece o que eu te falei antes, por favor.", FORGET_PREVIOUS),
]

LOOK_ALIKES = [
    # Labels of another kind.
    "These shelves are not for storage: they're for display.",
    "Temporary message: the office is closed on Monday.",
    "No saving grace, that film.",
    # Remembered as / for; saved by.
    "A great player, but not to be remembered for his coaching.",
    "A quiet season, and not to be saved by one signing: the club needs a rebuild.",
    # "Can't be saved" of a file or a list.
    "This can't be saved, the file is corrupted.",
    "I think this can't be remembered without notes, the list is long.",
    # Chat spelling about an app.
    "the doc doesnt get saved anywhere when i hit ctrl s",
    # Dictated, with the world's things.
    "quick one no need to save money on flights right",
    "first don't panic, second check the oil",
    "second don't keep the receipts in the car",
    # Memory of a device, personalisation of a desktop.
    "Keep this out of the phone memory, use the SD card.",
    "Don't add this widget to the personalization settings page.",
    # Used for now, then thrown away: a thing.
    "Use this filter for now and then discard it when it turns brown.",
    # Memory of a machine or a mattress.
    "For this laptop, turn off memory compression?",
    "For this one, switch off the memory foam setting.",
    # Profiled for something else.
    "Don't profile me based on my postcode.",
    # Privacy words in a sentence with a subject.
    "I keep my diary private, I don't save it.",
    "It's a secret recipe so don't store it near the stove.",
    # A hyphenated label of another kind.
    "She has a don't-remember-names kind of brain.",
    # Fading from memory, shredding paper.
    "Time will let it fade from memory.",
    "Shred this after you read it, it has my account number.",
    # Someone else shouldn't have; a memory leak, a note on the fridge, a painful memory; a correction.
    "He shouldn't have said that, forget it, he's just rude.",
    "Undo that memory leak fix, it broke the build.",
    "Delete that note from the fridge door.",
    "I want to forget that memory of the crash.",
    "Forget the part about my budget, let's plan for 2k.",
    "Forget the bit about the venue.",
    # No need to keep what the person will give again, or what a sum needs only now.
    "No need to save it, I'll send it to you again tomorrow.",
    "You don't need to remember my list, just count the items.",
    # Dutch: the person's own memory, a correction, saving work, "never mind".
    "Ik onthoud dit niet, ik ben slecht met namen.",
    "Vergeet wat ik net zei, ik bedoelde donderdag.",
    "Ik kan het wachtwoord niet onthouden.",
    "Sla je werk op voordat je afsluit.",
    "Vergeet het maar, laten we het over voetbal hebben.",
    # French, Italian and Portuguese of the same forms about things, or corrected.
    "Je ne le garde pas dans mon sac.",
    "Ne l'enregistre pas dans ce dossier, prends l'autre.",
    "Non salvarlo sul desktop, usa la chiavetta.",
    "Non ricordo questa cosa.",
    "Dimentica quello che ti ho detto prima, intendevo giovedì.",
    "Esquece o que eu disse antes, na verdade é terça.",
]

STILL_ASKED = [
    # Beside the convenience forms: a reason of privacy, or a task that is not the thing to keep.
    "No need to remember this, it's private.",
    "you don't need to keep track of this, just help me draft it",
]


test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request = form_tests(
    REQUESTS, LOOK_ALIKES
)


@pytest.mark.parametrize("text", STILL_ASKED)
def test_no_need_to_keep_it_is_still_a_request_without_the_convenience(text):
    assert detect(text) is not None, text

"""The consent rules' fixes after the twelfth and thirteenth blind sets
(tests/facts/consent_twelfth_phrases.py, consent_thirteenth_phrases.py; issue 37): each form they
showed the rules missing or misreading, with variants written for the form (none is a sentence of a
set), requests and the look-alikes of the same form that must stay unflagged (facts/consent.py,
consent_rules.py, consent_wishes.py, consent_languages.py).
"""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD
from tests.facts.consent_forms import form_tests

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # A label opening the message: in brackets, a hashtag, a slash command, a prefix.
    ("[off the record] is it normal to cry at work every week", WITHHOLD),
    ("(do not save) recipes for a low-sodium diet", WITHHOLD),
    ("<no memory> what are the side effects of lithium", WITHHOLD),
    ("[personal, don't store] my sister owes me 3k, how do I ask", WITHHOLD),
    ("#nosave how do I dispute a parking fine", WITHHOLD),
    ("/nomemory best way to learn Polish fast", WITHHOLD),
    ("No saving: tips for a first date after a divorce", WITHHOLD),
    # A condition on the answer.
    ("As long as you won't remember it, here goes: I failed my driving test twice.", WITHHOLD),
    ("Only reply if it won't be saved. Is a 620 credit score bad?", WITHHOLD),
    # Incognito asked for.
    ("Incognito mode, please: how do I block a number on Android?", WITHHOLD),
    ("Let's keep this incognito, I'm asking about a rash.", WITHHOLD),
    # Metaphors for not keeping.
    ("Write your answer in disappearing ink: I owe my landlord two months.", WITHHOLD),
    ("This can go in one ear and out the other: my boss yelled at me today.", WITHHOLD),
    ("Consider it unsaid after this. I'm behind on my taxes.", WITHHOLD),
    ("Think of this as a whisper you won't write down: I'm scared of flying.", WITHHOLD),
    # Terse chat, the whole message.
    ("no memory please", WITHHOLD),
    ("do not store this pls, thanks", WITHHOLD),
    ("dnt save dis pls", WITHHOLD),
    # Not to personalise or shape a profile; not to persist.
    ("Please don't personalize this, it's for my uncle.", WITHHOLD),
    ("Don't let it influence your suggestions, I was buying for a friend.", WITHHOLD),
    ("Just for now, don't persist it: my hotel room is 412.", WITHHOLD),
    # Undoing what was said: unlearn, un-remember, everything above, a hashtag, a label, "from memory".
    ("Could you unlearn what I said about my job?", FORGET_PREVIOUS),
    ("Please unremember my old email address.", FORGET_PREVIOUS),
    ("Forget all above this message, please.", FORGET_PREVIOUS),
    ("#forget that one", FORGET_PREVIOUS),
    ("[erase from memory] what I said about my brother", FORGET_PREVIOUS),
    ("Hey, remove my previous message from memory.", FORGET_PREVIOUS),
    ("If my ex's name made it into your notes, take that out.", FORGET_PREVIOUS),
    ("Forget the address that I just gave you.", FORGET_PREVIOUS),
    ("nvm dont keep what i said", FORGET_PREVIOUS),
    # Spanish, Portuguese and German of "forget what I told you about ...", "delete from your memory".
    ("Olvide lo que le conté sobre mi jefe.", FORGET_PREVIOUS),
    ("Esquece o que te contei sobre a minha irmã.", FORGET_PREVIOUS),
    ("Borra de tu memoria mi dirección, por favor.", FORGET_PREVIOUS),
    ("Lösche bitte meine Adresse aus deinem Speicher.", FORGET_PREVIOUS),
    # The languages' withholding forms.
    ("Que eso no quede en tu memoria, es sobre mi divorcio.", WITHHOLD),
    ("Répondez sans les garder dans votre profil, c'est personnel.", WITHHOLD),
    ("Não salva nada, por favor, é sobre meu emprego.", WITHHOLD),
    ("Non ricordarlo da nessuna parte, è una cosa privata.", WITHHOLD),
    ("Ik wil niet dat je het opslaat, het gaat over mijn schulden.", WITHHOLD),
]

LOOK_ALIKES = [
    # Brackets, hashtags and slashes that name no withholding.
    "[draft] a cover letter for a nursing job",
    "#travel what's the best month for Iceland",
    "/help how do I export my chats",
    # A condition about someone else; incognito as a browser's mode.
    "As long as the kids don't remember the password, the router is safe.",
    "Does incognito mode hide my history from my ISP?",
    # Metaphors said of someone else.
    "Everything I tell my son goes in one ear and out the other.",
    "The letter was written in invisible ink, a fun science project.",
    # Persisting to a disk, personalising a thing.
    "In Redis, don't persist to disk for this cache.",
    "Don't personalise the mugs, they're for the office.",
    # Convenience: the person will send it again.
    "No need to remember this, I'll paste it again later.",
    "You don't have to keep it, I'll send the whole file again on Monday.",
    # The languages' words about something else.
    "Borra la pizarra antes de la clase.",
    "Ik wil niet dat je te laat komt.",
]


test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request = form_tests(
    REQUESTS, LOOK_ALIKES
)

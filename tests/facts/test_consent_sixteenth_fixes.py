"""The consent rules' fixes after the sixteenth blind set (tests/facts/consent_sixteenth_phrases.py,
scored once before them; issue 37): each form it showed the rules missing, with variants written
for the form (none is a sentence of the set), requests and the look-alikes of the same form that
must stay unflagged (facts/consent_statements.py, consent_words.py, consent_forget.py,
consent_signs.py, consent_spelling.py, consent_languages.py).
"""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD
from tests.facts.consent_forms import form_tests

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # Wanted unkept, whatever follows.
    ("tbh i don't want this saved but my landlord is evicting me", WITHHOLD),
    ("I do not want any of it recorded in case my boss sees it.", WITHHOLD),
    ("so yeah this doesn't get saved lol", WITHHOLD),
    ("This part stays unsaved, ok? I owe the bank money.", WITHHOLD),
    ("I'd like none of this remembered: I failed the bar exam.", WITHHOLD),
    ("My brother (not something I want you keeping) is in rehab.", WITHHOLD),
    # Asked politely, or as a condition or an expectation.
    ("Would it be possible for you to not remember this?", WITHHOLD),
    ("I'd like you to kindly not store anything.", WITHHOLD),
    ("Is it okay if this wasn't stored?", WITHHOLD),
    ("Please leave it out of your memory, I'm embarrassed.", WITHHOLD),
    ("I'm not comfortable with it being remembered.", WITHHOLD),
    ("I trust you to not save any of this.", WITHHOLD),
    ("I'm saying this on the understanding that it will not be kept.", WITHHOLD),
    ("I'm assuming you don't save this, right?", WITHHOLD),
    ("It's not something I want saved.", WITHHOLD),
    ("You are not storing any of this.", WITHHOLD),
    ("you're not gonna remember this: I lost my job", WITHHOLD),
    ("you'd better not keep this", WITHHOLD),
    # Labels and figures of speech.
    ("Nothing stored, please.", WITHHOLD),
    ("Quick question about debt, no memory please", WITHHOLD),
    ("Pretend you have amnesia for this one.", WITHHOLD),
    ("goldfish mode for this, ok?", WITHHOLD),
    ("Stop storing everything until I say so.", WITHHOLD),
    ("Switch off the memory feature, I need to vent.", WITHHOLD),
    ("incognito mode for the next few messages", WITHHOLD),
    ("Memory : off. My test results came back.", WITHHOLD),
    ("This gets deleted once you answer, right?", WITHHOLD),
    ("Don't write it down anywhere.", WITHHOLD),
    ("PLEASE DON'T REMEMBER ANY OF WHAT I'M GOING TO SAY", WITHHOLD),
    ("srsly don't remember this", WITHHOLD),
    ("hey assistant comma do not save this period", WITHHOLD),
    # Undoing what was said, named with when or by what was kept.
    ("I told you my address yesterday. Please delete that.", FORGET_PREVIOUS),
    ("Earlier in this chat I shared my salary. Can you forget that?", FORGET_PREVIOUS),
    ("I retract that, don't save anything from my previous message.", FORGET_PREVIOUS),
    ("I regret it. Pretend I never typed that and don't store it.", FORGET_PREVIOUS),
    ("That was my son typing, forget his last message please.", FORGET_PREVIOUS),
    ("That was a bit too much info, please forget it.", FORGET_PREVIOUS),
    ("I want to take back what I said about my sister. Please discard it.", FORGET_PREVIOUS),
    ("Please erase whatever you learned about my health.", FORGET_PREVIOUS),
    ("Whatever you noted about my debts before, delete it.", FORGET_PREVIOUS),
    ("Unlearn the bit where I mentioned my ex.", FORGET_PREVIOUS),
    ("Could you clear the last few things I said?", FORGET_PREVIOUS),
    ("Forget my last two or three messages.", FORGET_PREVIOUS),
    ("what I typed in the past hour, get rid of it from your memory", FORGET_PREVIOUS),
    # Other languages.
    ("N'enregistrez rien, s'il vous plaît.", WITHHOLD),
    ("Jangan disimpan ya, ini rahasia.", WITHHOLD),
    ("Nu salva nimic, te rog.", WITHHOLD),
    ("Neukládej to, prosím.", WITHHOLD),
    ("Gem ikke dette, tak.", WITHHOLD),
    ("Ikke husk dette, takk.", WITHHOLD),
    ("ye baat yaad mat rakhna", WITHHOLD),
    ("Bitte nichts davon abspeichern.", WITHHOLD),
    ("Oubliez le dernier message.", FORGET_PREVIOUS),
    ("Lupakan yang aku bilang tadi.", FORGET_PREVIOUS),
    ("maine jo abhi kaha wo bhool jao", FORGET_PREVIOUS),
]

LOOK_ALIKES = [
    # Keeping, a file's or a thing's.
    "I don't want this saved in the shared drive, where else can I put it?",
    "I don't want it kept in the fridge, the cheese smells.",
    "Why does this doesn't get saved error keep appearing in Word?",
    "The form resets and nothing gets saved, any fix?",
    "My progress stays unsaved until I reach a checkpoint.",
    "Is it okay if this file wasn't stored on the server?",
    "Leave it out of the report, the numbers are wrong.",
    "I'm not comfortable with my data being sold.",
    "I trust you to remember my birthday.",
    "You're not storing passwords in plain text, are you? Asking about my app.",
    "You'd better not forget the milk!",
    "Nothing saved me more money than cooking at home.",
    "The old laptop has no memory left.",
    "My grandma has amnesia after her stroke.",
    "My goldfish died this morning.",
    "Stop saving everything for later and enjoy it now.",
    "How do I switch off the memory feature on ChatGPT?",
    "Incognito mode for this browser is on.",
    "My memory: off the charts lately, I remember everything.",
    "The paper gets shredded after the audit.",
    "Don't put your keys anywhere near the stove.",
    "He told me not to remember any of what I'm about to hear.",
    "We need a comma after this word, right?",
    # Times and takings back that are not undoing.
    "I told you yesterday that I'd call, and I did.",
    "Earlier in this chat I said I like jazz, so recommend some albums.",
    "I regret it now, I should have taken the job.",
    "That was my son typing his homework question, can you answer it?",
    "I want to take back what I said to my mother, how do I apologise?",
    "Whatever you learned about Python, teach me decorators.",
    "Unlearn bad habits: how do I stop biting my nails?",
    # Other languages, look-alikes.
    "Je n'enregistre rien sur ce disque.",
    "Jangan lupa simpan file ini di laptop.",
    "Nu uita să salvezi documentul.",
    "Nepamatuju si jeho jméno.",
    "Gem dette dokument i mappen.",
    "Husk å lagre dette dokumentet.",
    "Yaad rakhna, kal meeting hai.",
    "Ich möchte die Datei als PDF abspeichern.",
    "Oublie le dernier métro, prends un taxi.",
]


test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request = form_tests(
    REQUESTS, LOOK_ALIKES
)

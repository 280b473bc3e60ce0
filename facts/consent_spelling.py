"""Chat and spoken spellings of the words the consent rules read, spelt out before the rules read a
sentence (facts/consent.py `_requests_only`; issue 37): "msg", "convo", a keeping verb without its
g, misspellings, a dictated pause, "n't" without its apostrophe. The classifier beside the rules
(facts/consent_model.py) reads the pieces as they were when its weights were frozen, without these.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# "msg", "convo", and a keeping verb without its g ("plz no rememberin this").
_MSG = re.compile(r"\bmsg(s?)\b")
_CONVO = re.compile(r"\bconvo(s?)\b")
_DROPPED_G = re.compile(r"\b(rememberin|memori[sz]in|savin|storin|keepin|recordin)'?(?!\w)")
# Vowels dropped ("dnt save ths"), "b4"; the keeping verbs misspelt (the fourteenth set: "pls dont
# rember this", "dont stor this"); "rmbr", "tht", "pleeease" (the fifteenth's).
_CHAT_SHORT = {"dnt": "don't", "ths": "this", "b4": "before", "smth": "something", "dis": "this"}
_CHAT_SHORT |= dict.fromkeys(("rember", "remeber", "remembr", "remmber", "rmember", "rememeber"), "remember")
_CHAT_SHORT |= {"stor": "store", "anythng": "anything", "abt": "about", "tht": "that", "rmbr": "remember"}
_CHAT_SHORT |= dict.fromkeys(("pleease", "pleeease", "pleeeease", "pleasee", "pleaseee"), "please")
_CHAT_SHORT |= {"srsly": "seriously"}
_CHAT_SHORT_RE = re.compile(r"\b(?:" + "|".join(_CHAT_SHORT) + r")\b")
# "doesnt", "shouldnt", "cant": "n't" without its apostrophe ("dont" is read before).
_NT = re.compile(r"\b(does|did|should|would|could|is|was|are|were|has|have|had|must|need|ca|wo)nt\b")
# Dictated without punctuation: "quick one no need to save it ...", "so first dont remember this": a
# comma where the pause was, so the request opens a clause (cheaper than more openings in every rule).
# Also a word that only calls or opens, at a sentence's start ("okay assistant forget what I said").
_RUN_ON = re.compile(
    r"\b(quick (?:one|thing|q|question)|first|firstly|second|secondly|nvm|um) (?=don't |do not |no need )"
    r"|^((?:ok|okay|hey|hi|oh|oops|alright|so)(?: (?:assistant|there|bot))?|assistant)"
    r" (?=forget |don't |do not |please )"
)
# A dictated "new paragraph" is a pause; "keep 'em" is "keep them" (the fifteenth set's).
_DICTATED = re.compile(r"\bnew (?:paragraph|line)\b|\bcomma\b")
_THEM = re.compile(r"\b(keep|save|store|remember|record|log) '?em\b")

# Each change with the pattern whose words it needs (facts/consent_prefilter.py), in order.
SPELT_OUT: list[tuple[re.Pattern[str], Callable[[str], str]]] = [
    (_MSG, lambda sentence: _MSG.sub(r"message\1", sentence)),
    (_CONVO, lambda sentence: _CONVO.sub(r"conversation\1", sentence)),
    (_DROPPED_G, lambda sentence: _DROPPED_G.sub(r"\1g", sentence)),
    (_CHAT_SHORT_RE, lambda sentence: _CHAT_SHORT_RE.sub(lambda found: _CHAT_SHORT[found.group()], sentence)),
    (_RUN_ON, lambda sentence: _RUN_ON.sub(lambda found: f"{found[1] or found[2]}, ", sentence)),
    (_NT, lambda sentence: _NT.sub(lambda found: found[1] + "n't", sentence)),  # "cant" -> "can't"
    (_DICTATED, lambda sentence: _DICTATED.sub(",", sentence)),
    (_THEM, lambda sentence: _THEM.sub(r"\1 them", sentence)),
]

"""The salience gate (docs/design.md §4): turns that cannot hold a durable fact skip the LLM.

Cheap and conservative: it only skips what is clearly empty of assertions
(greetings, thanks, acknowledgements, one word, or text with no first-person
statement at all). Anything else goes to the extractor, which decides.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[\w']+", re.UNICODE)
_GREETING = re.compile(
    r"^(hi|hello|hey|hiya|yo|howdy|greetings|good (morning|afternoon|evening|night)|morning|evening|"
    r"bye|goodbye|see you|see ya|cya|good ?night|take care)( there| all| everyone| again| now| later)?$"
)
_THANKS = re.compile(
    r"^(thanks?|thank you|thx|ty|cheers|much appreciated|appreciate it|great thanks|ok thanks|okay thanks|"
    r"thanks a lot|thank you so much|thanks so much|many thanks)( a lot| again| so much| very much)?$"
)
_ACK = re.compile(
    r"^(ok|okay|k|kk|sure|yes|yeah|yep|no|nope|nah|cool|great|nice|perfect|awesome|got it|sounds good|"
    r"alright|all right|fine|right|lol|haha|wow|hmm|done|continue|go on|please continue|makes sense)$"
)
# Any first-person reference: the only turns that can tell us something about the user.
_FIRST_PERSON = re.compile(r"\b(i|i'm|im|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours|us)\b")


def _folded(text: str) -> str:
    text = text.casefold().replace("\u2019", "'")
    text = re.sub(r"[^\w\s']", " ", text)  # punctuation and emoji out
    return re.sub(r"\s+", " ", text).strip()


def skip_reason(user_input: str) -> str | None:
    """Why this user text needs no extraction ("greeting", ...), or None when it may hold facts."""
    folded = _folded(user_input or "")
    words = _WORD.findall(folded)
    if not words:
        return "empty"
    if _GREETING.match(folded):
        return "greeting"
    if _THANKS.match(folded):
        return "thanks"
    if _ACK.match(folded):
        return "acknowledgement"
    if len(words) == 1:
        return "one word"
    if not _FIRST_PERSON.search(folded):
        return "no first-person statement"
    return None

"""Does the person ask, in their own words, not to be remembered? (issue 37; docs/design.md §13)

A deterministic detector, no model: a turn it flags is withheld before anything is
extracted from it (facts.services.turns), so it must be cheap, explainable and never
send the words anywhere. It reads the user's message only, never the assistant's.

Two requests are told apart:
  - WITHHOLD: "don't remember this", "off the record: ...", "please don't save that";
  - FORGET_PREVIOUS: "forget what I just said", "forget I said that", "strike that from
    the record": this turn is withheld and what the previous turn of the session stored
    is forgotten.

What keeps it precise (tests/facts/test_consent_detector.py measures it):
  - a request is an imperative to the assistant: the verb opens a clause ("Don't save
    that", "..., and don't remember it") or follows "can/could/would you"; "I don't
    remember where I parked" has a subject and is not one;
  - verbs that mean memory for nothing else ("remember", "memorise") take any object;
    verbs with everyday meanings ("save", "store", "keep", "record") need "this/that/it"
    or a memory as their place ("don't save money on shoes" is not a request);
  - quoted words are someone else's ("my friend said 'this is off the record'") and are
    left out, and so is a question about the feature ("what happens if I say don't
    remember this?");
  - "forget it" alone is "never mind", not a request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

# A clause opening where an imperative may start: the text's start, punctuation, a
# conjunction or interjection, or a polite question to the assistant; then softeners.
_OPENING = (
    r"(?:^|[.!?;:,()\-\u2013\u2014]\s*|\b(?:and|but|so|then|wait|oh|ok|okay|hey|actually|also)\s+"
    r"|\b(?:can|could|would|will) you\s+(?:please\s+|kindly\s+)?)"
    r"(?:(?:please|kindly|just|also|now)\s+)*"
)
_NOT = r"(?:don't|do not)\s+"
# Verbs whose only meaning here is keeping a memory: any object (or none) will do.
_MEMORY_VERB = r"(?:remember|memori[sz]e|retain)\b"
# Verbs with everyday meanings: they need a pointing object or a memory as their place.
_KEEP_VERB = (
    r"(?:save|store|keep|record|log|note|write|commit|add|put|track|hold on to|make a note of|keep a record of)\b"
)
_POINTING = (
    r"(?:this|that|it|any of (?:this|that|it)|anything|all (?:of )?(?:this|that)|what (?:i'm|i am) about to"
    r"|what follows|the following|a (?:record|note) of (?:this|that|it))\b"
)
_IN_MEMORY = r"[^.!?;]{0,30}\b(?:to|in|into) (?:your |my |the )?(?:memory|memories|notes|profile)\b"
_CLAUSE_END = r"\s*(?:[.!;]|$)"

_WITHHOLD_PATTERNS = [
    # Don't remember this / do not memorise my address / for this message only: do not remember.
    _OPENING + _NOT + _MEMORY_VERB,
    # Don't save that / don't keep this in memory / private: don't save.
    _OPENING + _NOT + _KEEP_VERB + r"\s+" + _POINTING,
    _OPENING + _NOT + _KEEP_VERB + _IN_MEMORY,
    _OPENING + _NOT + r"(?:save|store|log|record)" + _CLAUSE_END,
    # Can you not remember this? / could you not save that?
    r"\b(?:can|could|would|will) you (?:please )?not (?:" + _MEMORY_VERB + "|" + _KEEP_VERB + r"\s+" + _POINTING + ")",
    # Would you mind not remembering this?
    r"\bmind not (?:remembering|memori[sz]ing|saving|storing|keeping|recording)\b",
    # I'd rather you didn't remember this / I'd prefer that you don't save it.
    r"\b(?:rather|prefer(?: it)? if|prefer that) you (?:didn't|did not|don't|do not|wouldn't|would not) "
    r"(?:" + _MEMORY_VERB + "|" + _KEEP_VERB + r"\s+" + _POINTING + ")",
    # I don't want you to remember this / I don't want this remembered.
    r"\b(?:don't|do not) want (?:you to (?:" + _MEMORY_VERB + "|" + _KEEP_VERB + r"\s+" + _POINTING + ")"
    r"|(?:this|that|it|any of this) (?:to be )?(?:remembered|saved|stored|recorded|kept)\b)",
    # Please forget this / forget this conversation happened ("forget it" is "never mind").
    _OPENING + r"forget (?:this|all of this)\b",
    # Off the record: ... / strictly off the record, ... / this is off the record.
    r"(?:^|[.!?;]\s*)(?:(?:strictly|completely|totally|purely|just|all of this)\s+)?"
    r"off the record\s*[:,\-\u2013\u2014]",
    r"\b(?:this|that|it|what follows|all of this)"
    r"(?:'s| is| stays| remains| is strictly| is completely) off the record\b",
    r"\b(?:go|keep (?:this|it|that|all of this)) off the record\b",
    r"\btell(?:ing)? you (?:this|that) off the record\b",
    r"(?:^|[.!?;]\s*)not for the record\b",
    # No memory for this one / memory off for this message.
    r"(?:^|[.!?;]\s*)no memory for (?:this|that)\b",
    r"\bmemory off for (?:this|that)\b",
]

_SAID = r"(?:said|say|told you|typed|wrote|written|mentioned|shared)"
_FORGET_PREVIOUS_PATTERNS = [
    # Forget what I just said / forget everything I said in my last message.
    _OPENING + r"forget (?:about )?(?:what|everything|all(?: that)?) i (?:just |have just |'ve just )?" + _SAID,
    # I'd prefer if you forgot what I just said.
    r"\byou (?:to )?(?:forget|forgot) (?:what|everything|all(?: that)?) i (?:just )?" + _SAID,
    # Forget I said that / forget that I mentioned my ex / forget I ever mentioned it.
    _OPENING + r"forget (?:that )?i (?:ever |just |even )?" + _SAID,
    # Forget that last message / can you forget the last thing I said?
    _OPENING + r"forget (?:that|the|my) last (?:message|thing|bit|part|sentence)",
    # Pretend I never said that.
    _OPENING + r"pretend i never " + _SAID,
    # Delete what I just told you / erase that last bit from your memory / strike that from the record.
    _OPENING + r"(?:scratch|strike|erase|delete|remove|wipe) (?:what|everything) i (?:just )?" + _SAID,
    _OPENING
    + r"(?:scratch|strike|erase|delete|remove|wipe) (?:that|it|this|that last \w+|the last \w+)"
    + r"(?: \w+){0,2} from (?:your |my |the )?(?:memory|memories|record|notes)\b",
]

_WITHHOLD_RE = [re.compile(p) for p in _WITHHOLD_PATTERNS]
_FORGET_RE = [re.compile(p) for p in _FORGET_PREVIOUS_PATTERNS]

# Someone else's words: a span in double quotes, or in single quotes that open after a
# blank and close before a non-letter (an apostrophe inside a word, as in don't, stays).
_QUOTED = re.compile(r"\"[^\"]*\"|(?:^|(?<=\s))'(?:[^']|'(?=\w))*'(?!\w)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
# A question about something rather than a request to the assistant.
_ASKING = re.compile(r"^(?:what|how|why|who|whom|where|when|which|does|do|did|is|are|was|were|has|have)\b")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


@dataclass(frozen=True)
class ConsentRequest:
    kind: str  # WITHHOLD or FORGET_PREVIOUS
    pattern: int  # which rule matched, for the logs and the tests (no words kept)


def _normalise(text: str) -> str:
    text = text.translate(_APOSTROPHES).casefold()
    text = re.sub(r"\bdont\b", "don't", text)
    text = re.sub(r"\boff-the-record\b", "off the record", text)
    text = _QUOTED.sub(" ", text)
    return text


def _sentences(text: str) -> list[str]:
    kept = []
    for sentence in _SENTENCE.split(text):
        sentence = " ".join(sentence.split())
        if not sentence or (sentence.endswith("?") and _ASKING.match(sentence)):
            continue
        kept.append(sentence)
    return kept


def detect(user_input: str) -> ConsentRequest | None:
    """The person's request not to be remembered in this message, or None."""
    if not user_input:
        return None
    sentences = _sentences(_normalise(user_input))
    for kind, patterns in ((FORGET_PREVIOUS, _FORGET_RE), (WITHHOLD, _WITHHOLD_RE)):
        for index, pattern in enumerate(patterns):
            if any(pattern.search(sentence) for sentence in sentences):
                return ConsentRequest(kind, index)
    return None

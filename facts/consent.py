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
# The other ways an imperative says "not": to the assistant ("you must not", "you don't need
# to"), or suggested ("no need to", "let's not"). Each is a request only at a clause opening,
# like "don't"; with "I" as the subject ("I never remember") it is a statement.
_NOT_ANY = (
    r"(?:(?:you\s+)?(?:don't|do not|never|must not|mustn't|should not|shouldn't|need not|needn't"
    r"|(?:don't|do not) (?:need|have) to)|no need to|let's not(?: have you)?)\s+"
)
# Verbs whose only meaning here is keeping a memory: any object (or none) will do.
_MEMORY_VERB = r"(?:remember|memori[sz]e|retain)\b"
# Verbs with everyday meanings: they need a pointing object or a memory as their place.
_KEEP_VERB = (
    r"(?:save|store|keep|record|log|note|write|commit|add|put|track|hold on ?to|file"
    r"|(?:make|keep) (?:a|any) (?:note|record|log) of)\b"
)
# The same verbs after "refrain from", "avoid", "mind not", "want you": the -ing forms.
_MEMORY_ING = r"(?:remembering|memori[sz]ing|retaining)\b"
_KEEP_ING = r"(?:saving|storing|keeping|recording|logging|noting|writing down|filing|holding on ?to)\b"
# Their past participles, for "this shouldn't be saved"; an everyday one (saved, kept) counts
# only at the end of its clause or with a memory as its place ("it shouldn't be kept in the
# fridge" is not a request).
_MEMORY_DONE = r"(?:remembered|memori[sz]ed|retained)\b"
_KEEP_DONE = r"(?:saved|stored|kept|recorded|logged|noted|written down|filed)"
_PLACE = r"(?:your |my |the )?(?:long-term )?(?:memory|memories|notes|profile|records?|file|history)\b"
_POINTING = (
    r"(?:this|that|it|any of (?:this|that|it)|anything|all (?:of )?(?:this|that)|what (?:i'm|i am) about to"
    r"|what follows|the following|a (?:record|note) of (?:this|that|it))\b"
)
_IN_MEMORY = r"[^.!?;]{0,30}\b(?:to|in|into) " + _PLACE
_CLAUSE_END = r"\s*(?:[.!;]|$)"
_DONE = r"(?:" + _MEMORY_DONE + "|" + _KEEP_DONE + r"(?:\s*(?:[.!;,]|$)|" + _IN_MEMORY + "))"
_NEGATED_BE = (
    r"(?:(?:should|must|shall|can|could|would|need|ought)(?:n't| not)|is not to|isn't to|needs? not|not|never)"
    r"\s+(?:to\s+)?(?:be|get)\s+"
)

_WITHHOLD_PATTERNS = [
    # Don't remember this / do not memorise my address / for this message only: do not remember.
    _OPENING + _NOT + _MEMORY_VERB,
    # Don't save that / don't keep this in memory / private: don't save.
    _OPENING + _NOT + _KEEP_VERB + r"\s+" + _POINTING,
    _OPENING + _NOT + _KEEP_VERB + _IN_MEMORY,
    _OPENING + _NOT + r"(?:save|store|log|record)" + _CLAUSE_END,
    # You must not remember this / no need to keep any of it / let's not have you remember this.
    _OPENING + _NOT_ANY + "(?:" + _MEMORY_VERB + "|" + _KEEP_VERB + r"\s+" + _POINTING + ")",
    # Kindly refrain from remembering this / avoid saving any of this.
    r"\b(?:refrain from|avoid|stop) (?:" + _MEMORY_ING + "|" + _KEEP_ING + r"\s+" + _POINTING + ")",
    # I'd rather this not be saved / this shouldn't be remembered / any of this must not get stored.
    r"\b(?:this|that|it|any of (?:this|that|it)|all of this|this (?:message|part|bit|one))\s+" + _NEGATED_BE + _DONE,
    # Nothing from this message should be saved / nothing I say here is to be remembered.
    r"\bnothing (?:(?:from|in|of) (?:this|that|my) (?:message|chat|conversation|session)\s+"
    r"|i (?:say|tell you|write)(?: here| now| next)?\s+)(?:should|must|can|may|is to|needs to)\s+(?:be|get)\s+" + _DONE,
    # Keep this out of your memory / leave it out of my profile / exclude this from memory.
    r"\b(?:keep|leave) (?:this|that|it|all of this|any of this|this (?:message|part|bit|one)) out of " + _PLACE,
    r"\b(?:exclude|omit) (?:this|that|it)(?: \w+)? from " + _PLACE,
    # This shouldn't go into your memory.
    r"\b(?:this|that|it)\s+(?:should|must|can)(?:n't| not) (?:go|end up|get) (?:in|into|to) " + _PLACE,
    # Can you not remember this? / could you not save that?
    r"\b(?:can|could|would|will) you (?:please )?not (?:" + _MEMORY_VERB + "|" + _KEEP_VERB + r"\s+" + _POINTING + ")",
    # Would you mind not remembering this?
    r"\bmind not (?:" + _MEMORY_ING + "|" + _KEEP_ING + ")",
    # I'd rather you didn't remember this / I'd prefer that you don't save it.
    r"\b(?:rather|prefer(?: it)? if|prefer that|appreciate it if|be better if) you "
    r"(?:didn't|did not|don't|do not|wouldn't|would not) "
    r"(?:" + _MEMORY_VERB + "|" + _KEEP_VERB + r"\s+" + _POINTING + ")",
    # I don't want you to remember this / I don't want this remembered.
    r"\b(?:don't|do not) want (?:you to (?:" + _MEMORY_VERB + "|" + _KEEP_VERB + r"\s+" + _POINTING + ")"
    r"|you (?:" + _MEMORY_ING + "|" + _KEEP_ING + r"\s+" + _POINTING + ")"
    r"|(?:this|that|it|any of this) (?:to be )?(?:remembered|saved|stored|recorded|kept)\b)",
    # Please forget this / forget this conversation happened ("forget it" is "never mind").
    _OPENING + r"forget (?:this|all of this)\b",
    # Off the record: ... / strictly off the record, ... / this is off the record.
    r"(?:^|[.!?;]\s*)(?:(?:strictly|completely|totally|purely|just|all of this)\s+)?"
    r"off the record\s*[:,\-\u2013\u2014]",
    # This is off the record / treat this as off the record / all of this stays strictly off the record.
    r"\b(?:this|that|it|what follows|all of this)\b(?:(?!\bnot\b)[^.!?;]){0,25}\boff the record\b",
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
    _OPENING + r"forget (?:everything (?:from|in) |all of )?(?:that|the|my) (?:last|previous) "
    r"(?:message|thing|bit|part|sentence|comment|reply|turn)",
    # Pretend I never said that.
    _OPENING + r"pretend i never " + _SAID,
    # Delete what I just told you / erase that last bit from your memory / strike that from the record.
    _OPENING + r"(?:scratch|strike|erase|delete|remove|wipe) (?:what|everything) i (?:just )?" + _SAID,
    _OPENING
    + r"(?:scratch|strike|erase|delete|remove|wipe) (?:that|it|this|my|the)"
    + r"(?: \w+){0,3} from (?:your |my |the )?(?:memory|memories|record|notes)\b",
    # Delete my last message / erase that previous message.
    _OPENING + r"(?:erase|delete|remove|wipe) (?:that|my|the) (?:last|previous) (?:message|comment|reply|turn)",
    # Can you unremember what I told you?
    _OPENING + r"un-?remember (?:what|everything|all(?: that)?) i (?:just )?" + _SAID,
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
    text = re.sub(r"\boff(?:-the-|-| )record\b", "off the record", text)
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

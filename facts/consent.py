"""Does the person ask, in their own words, not to be remembered? (issue 37; docs/design.md §13)

A deterministic detector, no model: a turn it flags is withheld before anything is
extracted from it (facts.services.turns), so it must be cheap, explainable and never
send the words anywhere. It reads the user's message only, never the assistant's.

Two requests are told apart:
  - WITHHOLD: "don't remember this", "off the record: ...", "please don't save that";
  - FORGET_PREVIOUS: "forget what I just said", "forget I said that", "strike that from
    the record": this turn is withheld and what the previous turn of the session stored
    is forgotten. A request that points back ("my previous message", "what I told you",
    "I take that back", "I shouldn't have shared that") is this kind even when its verb is
    a withholding one ("don't keep it"); one that points at this message or what follows
    stays WITHHOLD, the cheaper mistake (reading a withhold as "forget the previous turn"
    would delete what the person said before).

What keeps it precise (tests/facts/test_consent_detector.py measures it):
  - a request is an imperative to the assistant: the verb opens a clause ("Don't save
    that", "..., and don't remember it", "Do NOT save this: ...?") or follows "can/could/would
    you", "make sure you"; facts/consent_wishes.py adds softer and chattier forms ("off the record
    what do you think", "this convo is not for keeps", "could the previous message not be saved?");
    "I don't remember where I parked" has a subject and is not one;
  - verbs that mean memory for nothing else ("remember", "memorise") take any object;
    verbs with everyday meanings ("save", "store", "keep", "record") need "this/that/it",
    the person's own details ("my address") or a memory as their place ("don't save money
    on shoes" is not a request), and not a place of another kind ("don't keep it in the
    fridge"); verbs that only say where ("put", "add", "write", "file") need a memory as
    their place or "down"/"away";
  - quoted words are someone else's ("my friend said 'this is off the record'") and are
    left out, and so are a third party's reported words ("my manager told me it was off the
    record, but ..."), "off the record" with a journalist, a source or someone else, a question
    about the feature ("what happens if I say don't remember this?") and a question about a
    memory ("don't remember the title?", "you don't remember my name?"); a polite question
    that asks the assistant not to ("is there a way you can not keep this?", "do you mind not
    saving this?") is read;
  - a memory verb whose object is a thing of the world or the person's own memory ("(I) don't
    remember the name of that film", "don't memorise the formulas", "dont remember if I paid"),
    the words mentioned in a condition ("if I say it's off the record"), a device told to stop
    ("get my phone to stop remembering") are no request; a message that gives leave to remember
    ("I'm fine with you remembering everything") with nothing against it is not sent to the
    classifier either (allows_memory);
  - "forget it" alone is "never mind", not a request, and a request to forget what was said
    that a correction follows ("forget what I said, let's go to Rome") is a correction: its
    new words are kept, unless the message calls what was said private.

Every pattern is linear: bounded repeats only, no quantifier inside a repeated group that
can match the same text two ways (a turn holds up to 20,000 characters).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate

from core.lazy_re import Patterns
from facts import consent_forget as forget
from facts import consent_languages as languages
from facts import consent_rules as rules
from facts import consent_statements as statements
from facts.consent_prefilter import may_match, warm_needs
from facts.consent_signs import AHEAD, BACKWARD, CORRECTION, PRIVATE, UNDO_PRONOUN
from facts.consent_spelling import SPELT_OUT as _SPELT_OUT
from facts.consent_wishes import WISH_RE

# The ways of asking to withhold: the rules', the later wishes', the statements' (numbered so).
_WITHHOLD_RE = rules.WITHHOLD_RE + WISH_RE + statements.WITHHOLD_STATEMENT_RE
# The ways of asking to forget the previous turn: the soft ones (a correction after them keeps the
# new words) first, then the rest; the rules' before the statements' in each.
_SOFT = len(forget.SOFT_FORGET_PATTERNS) + len(statements.SOFT_FORGET_STATEMENTS)
FORGET_RE = Patterns(
    forget.SOFT_FORGET_PATTERNS
    + statements.SOFT_FORGET_STATEMENTS
    + forget.FORGET_PREVIOUS_PATTERNS[len(forget.SOFT_FORGET_PATTERNS) :]
    + statements.FORGET_STATEMENTS[len(statements.SOFT_FORGET_STATEMENTS) :]
)

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

# Someone else's words: a span in double quotes, or in single quotes that open after a
# blank and close before a non-letter (an apostrophe inside a word, as in don't, stays).
# The apostrophe a span holds has a letter on both sides: one that also took "'a" after a blank
# read " 'a 'a 'a ..." to the end from every quote and back again (19,999 characters: 4 s).
_QUOTED = re.compile(r"\"[^\"]*\"|(?:^|(?<=\s))'(?:[^']|(?<=\w)'(?=\w))*'(?!\w)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
# A question about something rather than a request to the assistant...
_ASKING = re.compile(r"^(?:what|how|why|who|whom|where|when|which|does|do|did|is|are|was|were|has|have)\b")
# The rules read "Do not save this: ...?" and "Do me a favour and don't ...?": an imperative
# before the question, not a question (the classifier's pieces keep _ASKING as it was trained).
_ASKING_RULES = re.compile(
    r"^(?:what|how|why|who|whom|where|when|which|does|do(?! not\b| me a favou?r\b)|did|is|are|was|were|has|have)\b"
)
# ...unless it asks the assistant not to ("is there a way you can not keep this?").
_ASKING_NOT_TO = re.compile(r"^(?:is there (?:a|any|some) way|is it (?:possible|ok|okay|alright|fine)|do you mind)\b")
# Chat spellings of the words the patterns read ("i dont want u to remember this").
_CHAT_WORDS = {"u": "you", "ur": "your", "im": "i'm", "pls": "please", "plz": "please", "rn": "right now"}
_CHAT_SPELLING = re.compile(r"\b(?:u|ur|im|pls|plz|rn)\b")
# "No need to remember, I'll paste it again next time", "you don't need to remember my order, just
# total it": the assistant let off keeping what the person will give again or what a task needs only
# now; a convenience, not a wish to be forgotten. ("... this, just help me word it" still asks.)
_NO_NEED = r"(?:no need to|(?:you )?(?:don't|do not) (?:need|have) to|(?:you )?needn't)"
_CONVENIENCE = re.compile(
    r"\b" + _NO_NEED + r" (?:remember|memori[sz]e|save|store|keep)(?: (?:it|them|this))?,? (?:i'll|i will|i can) "
    r"(?:paste|send|give|tell|type|share|upload|attach|repeat|copy)(?: (?:it|them|this|the (?:full |whole )?\w+))?"
    r"(?: (?:to )?you)? again\b"
    r"|\b" + _NO_NEED + r" (?:remember|memori[sz]e|keep track of) (?:my|the) (?:order|list|numbers|items|shopping"
    r"|receipt|bill|scores?|totals?|figures),? (?:just |only |simply )(?:total|add|sum|count|calculate|compute|tally"
    r"|split|check)\b"
)
_AS_ASIDE = re.compile(
    r"\b(don't|do not|never)\s*,\s*(?:under any circumstances|for any reason|whatever happens|whatever you do|ever"
    r"|seriously|i repeat|and i mean it|i beg you)\s*,\s*"
)
# The words mentioned, not said: "if I say it's off the record", "unless I tell you don't save it":
# what saying them would do, not a request.
_MENTION = re.compile(
    r"\b(?:even if|if|unless) (?:i|you|we|someone|somebody|they|he|she) (?:say|says|said|tell|tells|told|type|types"
    r"|write|writes|call|calls|mark|marks)"
    r"(?: (?:that|it's|it is|its|this is|that's|it was|to you|you|them|it|this)){0,3}"
    r" (?:off the record|(?:don't|do not) (?:remember|memori[sz]e|save|store|keep|record|log)(?: (?:this|it|that))?)\b"
)
# "Off the record" with a journalist, as a source, with him: a deal with someone else, not
# with the assistant ("I'd prefer to stay off the record as a source"); no rule reads it in
# that sentence.
_PRESS = re.compile(r"\b(?:journalists?|reporters?|press|newspapers?|interviews?|as a source|anonymous source)\b")
_WITH_SOMEONE = re.compile(r"\boff the record (?=(?:with|to) (?!you\b|u\b))")
# Reported speech: a third party's words after a speech verb, to the clause's end ("my manager
# told me it was off the record, but ..."): someone else's wish, like a quotation.
_REPORTED = re.compile(
    r"\b(?:(?:my|his|her|their|our|the|a|an)(?: (?!(?:i|you|we|me)\b)[\w']+){1,2}|he|she|they|someone|somebody)"
    r" (?:told|tells|said|says|asked|asks|insisted|insists|claimed|claims|warned|mentioned|promised|whispered)\b"
    r"[^,;:.!?\-\u2013\u2014]{0,200}?(?=\s+but\b|[,;:.!?\-\u2013\u2014]|$)"
)
# "Don't remember the title?", "you don't remember my name?": a question about a memory (the
# person's or the assistant's), not a request; a clause of its own, no comma, no "please".
_MEMORY_QUESTION = re.compile(
    r"^(?:(?:so|oh|wait|what),? )?(?:you )?(?:don't|do not|can't|cannot) (?:remember|recall)\b"
    r"(?![^?]*\b(?:please|this)\b)[^,;:]{0,200}\?$"
)
# Leave given, not withheld: "I'm fine with you remembering everything", "feel free to save it".
# With no "but", "except", "else" or "not" beside it, such a message asks nothing (the classifier,
# which hears "remembering everything", is not asked; facts/consent_model.py).
_ALLOWS = re.compile(
    r"\b(?:(?:i'm|i am|i'd be|i'll be|we're) (?:(?:totally|completely|really|perfectly|absolutely|quite|honestly) )?"
    r"(?:fine|ok|okay|happy|cool|good|comfortable|alright|glad) (?:with|for) you"
    r" (?:to )?|i (?:don't|do not) mind (?:if )?you |feel free to |go ahead and |you (?:can|may) (?:always |totally )?)"
    r"(?:remember|save|store|keep|memori[sz]e|retain|remembering|saving|storing|keeping|memori[sz]ing|retaining)\b"
)
_BUT_NOT = re.compile(
    r"\b(?:but|except|apart from|other than|unless|however|though|although|else|not|never|nothing|no|without"
    r"|forget|off the record|between us|private)\b|n't\b"
)
# Leave given by saying forgetting is not wanted; and "I don't mind" beside a leave is not a
# "but not" (ninth set: "You can keep all of this, I don't mind.").
_NO_NEED_TO_FORGET = re.compile(r"\bno need (?:for you )?to (?:forget|delete|erase)\b")
_BENIGN = re.compile(
    r"\bi (?:don't|do not) mind\s*(?=[.!,;]|$)"
    # "..., it's not a secret": a leave's reason, not a "but not".
    r"|\b(?:it's|it is|that's|that is|this is|this's)(?: not|n't) (?:a |any )?"
    r"(?:secret|private|sensitive|confidential)\b"
    r"|\b(?:it|this|that) (?:isn't|is not) (?:a |any )?(?:secret|private|sensitive|confidential)\b"
    r"|\bnothing to hide\b"
)
# What _requests_only changes, in order, each with the pattern whose words it needs: chat
# spellings spelt out (facts/consent_spelling.py), then (after a convenience is dropped) words
# that are not the person's own request left out.
_LEFT_OUT: list[tuple[re.Pattern[str], Callable[[str], str]]] = [
    (_AS_ASIDE, lambda sentence: _AS_ASIDE.sub(r"\1 ", sentence)),
    (_REPORTED, lambda sentence: _REPORTED.sub(" ", sentence)),
    (_MENTION, lambda sentence: _MENTION.sub(" ", sentence)),
]
_ELSEWHERE: list[tuple[re.Pattern[str], Callable[[str], str]]] = [
    (
        _PRESS,
        lambda sentence: (
            sentence.replace("off the record", "off-record-elsewhere") if _PRESS.search(sentence) else sentence
        ),
    ),
    (_WITH_SOMEONE, lambda sentence: _WITH_SOMEONE.sub("off-record-elsewhere ", sentence)),
]
# Emoji and pictographs end a clause as a comma would ("🤐 don't save this one", "way too much
# info 😬 pls forget the last message"): the rules read one so. A zipped mouth or a finger to the
# lips stays before its comma: a rule reads it ("between us 🤫 ...", facts/consent_wishes.py).
# (One blank on each side at most: "\\s*" on both took 3 s on 20,000 blanks.)
_PICTOGRAPHS = re.compile("[ \t]?[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d]+[ \t]?")
_HUSH = "\U0001f910\U0001f92b"


def _as_comma(found: re.Match[str]) -> str:
    return "".join(char for char in found.group() if char in _HUSH) + ", "


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


@dataclass(frozen=True)
class ConsentRequest:
    kind: str  # WITHHOLD or FORGET_PREVIOUS
    pattern: int  # which rule matched, for the logs and the tests (no words kept)


def _normalise(text: str) -> str:
    text = text.translate(_APOSTROPHES).casefold()
    text = re.sub(r"\bdont\b", "don't", text)
    text = _CHAT_SPELLING.sub(lambda found: _CHAT_WORDS[found.group()], text)
    text = re.sub(r"\boff(?:-the-|-| )record\b", "off the record", text)
    text = re.sub(r"\blong term\b", "long-term", text)
    text = _QUOTED.sub(" ", text)
    return text


def _sentences(text: str, asking: re.Pattern[str] = _ASKING) -> list[str]:
    kept = []
    for sentence in _SENTENCE.split(text):
        sentence = " ".join(sentence.split())
        if not sentence:
            continue
        if sentence.endswith("?") and asking.match(sentence) and not _ASKING_NOT_TO.match(sentence):
            continue
        kept.append(sentence)
    return kept


def _requests_only(sentences: list[str]) -> list[str]:
    """The sentences as the rules read them: "msg", "convo" and "rememberin" spelt out, a third
    party's reported words, words mentioned after "if I say" and "off the record" with the press
    or someone else left out, questions about a memory dropped."""
    # Each change is made on every sentence before the next (a sentence's changes do not depend on
    # another's): a run of sentences without a word a change needs is passed over whole. Made
    # sentence by sentence, 10,000 one-word sentences took 0.2 s.
    for pattern, change in _SPELT_OUT:
        sentences = _changed(sentences, pattern, change)
    convenience = {at for at, _sentence, _found in _matches(_CONVENIENCE, sentences, _runs(sentences))}
    sentences = [sentence for at, sentence in enumerate(sentences) if at not in convenience]
    for pattern, change in _LEFT_OUT:
        sentences = _changed(sentences, pattern, change)
    sentences = [" ".join(sentence.split()) for sentence in sentences]
    for pattern, change in _ELSEWHERE:
        sentences = _changed(sentences, pattern, change)
    questions = {at for at, _sentence, _found in _matches(_MEMORY_QUESTION, sentences, _runs(sentences))}
    return [sentence for at, sentence in enumerate(sentences) if sentence and at not in questions]


def _changed(sentences: list[str], pattern: re.Pattern[str], change: Callable[[str], str]) -> list[str]:
    """`change` made on each sentence, but not on a run of sentences that lacks a word `pattern`
    (what `change` looks for) needs: there it would change nothing (facts/consent_prefilter.py)."""
    changed = list(sentences)
    for text, places in _runs(sentences):
        if may_match(pattern, text):
            for at in places:
                changed[at] = change(sentences[at])
    return changed


def _withheld(sentences: list[str], runs: Runs, backward: bool) -> ConsentRequest | None:
    for index, pattern in enumerate(_WITHHOLD_RE):
        for _at, sentence, _found in _matches(pattern, sentences, runs):
            # Its whole sentence: "this next part, don't save it" is about this message.
            if backward and not AHEAD.search(sentence):
                # "Disregard my previous message and don't store it": the request is about it.
                return ConsentRequest(FORGET_PREVIOUS, len(FORGET_RE) + index)
            return ConsentRequest(WITHHOLD, index)
    return None


# Sentences are read in runs of about this many characters: a run that lacks a word a rule needs
# is not searched by it. (Checked sentence by sentence, hundreds of short sentences cost more to
# check than to search; checked as one text, a long ordinary message holds every word somewhere.)
_RUN_CHARS = 1000
Runs = list[tuple[str, range]]  # the joined sentences of a run, and their places


def _runs(sentences: list[str]) -> Runs:
    ends = list(accumulate(map(len, sentences)))  # the characters up to each sentence's end
    runs, first = [], 0
    while first < len(sentences):
        # The first sentence whose end brings the run to _RUN_CHARS, or the last one.
        reach = (ends[first - 1] if first else 0) + _RUN_CHARS
        last = min(bisect_left(ends, reach, lo=first), len(sentences) - 1)
        runs.append(("\n".join(sentences[first : last + 1]), range(first, last + 1)))
        first = last + 1
    return runs


def _matches(pattern: re.Pattern[str], sentences: list[str], runs: Runs) -> Iterator[tuple[int, str, re.Match[str]]]:
    """Each sentence `pattern` matches, in order: its place, itself and the match. A run of
    sentences that lacks a word the pattern needs is not searched (facts/consent_prefilter.py):
    each of ~250 rules searched every sentence, 0.5 s of CPU on a 20,000-character turn, nearly
    all of it rules whose words were not there."""
    for text, places in runs:
        if not may_match(pattern, text):
            continue
        for at in places:
            if (found := pattern.search(sentences[at])) is not None:
                yield at, sentences[at], found


def _corrected_after(sentences: list[str], runs: Runs) -> list[bool]:
    """For each sentence, whether a later one corrects (each sentence read once: linear)."""
    corrects = {at for at, _sentence, _found in _matches(CORRECTION, sentences, runs)}
    later, after = False, []
    for at in reversed(range(len(sentences))):
        after.append(later)
        later = later or at in corrects
    return after[::-1]


def _asked(patterns: Sequence[re.Pattern[str]], sentences: list[str], runs: Runs, soft: int) -> int | None:
    """The first pattern that asks (a soft one only when no correction follows it), or None."""
    if any(_matches(PRIVATE, sentences, runs)):
        soft = 0  # "it was private": a request whatever follows
    corrected_after = _corrected_after(sentences, runs) if soft else []
    for index, pattern in enumerate(patterns):
        for at, sentence, found in _matches(pattern, sentences, runs):
            if index < soft and (corrected_after[at] or CORRECTION.search(sentence, found.end())):
                continue
            return index
    return None


def allows_memory(user_input: str) -> bool:
    """Whether the message gives leave to remember and says nothing against it."""
    text = _normalise(user_input or "")
    granted = _ALLOWS.search(text) or _NO_NEED_TO_FORGET.search(text)
    rest = _BENIGN.sub(" ", _NO_NEED_TO_FORGET.sub(" ", _ALLOWS.sub(" ", text)))
    return granted is not None and _BUT_NOT.search(rest) is None


def detect(user_input: str) -> ConsentRequest | None:
    """The person's request not to be remembered in this message, or None."""
    if not user_input:
        return None
    sentences = _requests_only(_sentences(_PICTOGRAPHS.sub(_as_comma, _normalise(user_input)), _ASKING_RULES))
    # Every step below reads the same sentences: their runs are joined once.
    runs = _runs(sentences)
    index = _asked(FORGET_RE, sentences, runs, soft=_SOFT)
    if index is not None:
        return ConsentRequest(FORGET_PREVIOUS, index)
    # "Olvida lo que te acabo de decir. I don't want it saved.": the other languages' pointer back
    # is read before an English withholding verb.
    index = _asked(languages.FORGET_PREVIOUS_RE, sentences, runs, soft=len(languages.SOFT_FORGET_FORMS))
    if index is not None:
        return ConsentRequest(FORGET_PREVIOUS, len(FORGET_RE) + len(_WITHHOLD_RE) + 1 + index)
    backward = any(_matches(BACKWARD, sentences, runs))
    withheld = _withheld(sentences, runs, backward)
    if withheld is not None:
        return withheld
    if backward and _asked([UNDO_PRONOUN], sentences, runs, soft=1) is not None:
        # "That address I gave you just now - please forget it."
        return ConsentRequest(FORGET_PREVIOUS, len(FORGET_RE) + len(_WITHHOLD_RE))
    return _in_another_language(sentences, runs)


def _in_another_language(sentences: list[str], runs: Runs) -> ConsentRequest | None:
    """The same requests in Spanish, German, French, Portuguese, Italian or Dutch
    (facts/consent_languages.py), numbered after the English rules."""
    # (Their "forget the previous message" forms were read before the English withholding ones.)
    first = len(FORGET_RE) + len(_WITHHOLD_RE) + 1 + len(languages.FORGET_PREVIOUS_RE)
    for index, pattern in enumerate(languages.WITHHOLD_RE):
        if any(_matches(pattern, sentences, runs)):
            return ConsentRequest(WITHHOLD, first + index)
    return None


def warm() -> None:
    """Compile every rule and read its needs now (about a second of CPU), so no person's turn
    waits for them. gunicorn's master calls it before forking (gunicorn.conf.py); any other
    process compiles the rules (core/lazy_re.py) and reads a rule's needs the first time it runs
    them: at import they cost every process, a Celery worker and each `manage.py` command
    included, which never read a turn's words."""
    warm_needs([pattern for pattern, _change in _SPELT_OUT + _LEFT_OUT + _ELSEWHERE])
    warm_needs([_CONVENIENCE, _MEMORY_QUESTION, *FORGET_RE, *languages.FORGET_PREVIOUS_RE, *_WITHHOLD_RE])
    warm_needs([*languages.WITHHOLD_RE, BACKWARD, CORRECTION, PRIVATE, UNDO_PRONOUN])

"""The injection floor (docs/design.md §3): memory text must never be able to steer a prompt.

Every fact written, by the API or by the extractor, passes `check_fact_text`.
A refusal raises `Rejected` naming the rule, so the client can tell what to fix.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

from core.errors import Rejected
from core.ids import INVISIBLE_CHARS

# Zero-width, bidi-override and other invisible code points (core/ids.py: the API
# schemas leave them out of ids too).
_INVISIBLE = re.compile(f"[{INVISIBLE_CHARS}]")

# Every check below takes time linear in the length of the text: a recalled turn of 20,000
# characters passes the floor on every recall, so one pattern that retried a long stretch
# from each of its starts made one recall take seconds (issue 33). A repeat either stops
# where what follows it cannot begin (possessive `*+`: nothing is retried), or the check is
# a pass in Python that reads each stretch a bounded number of times. Each replaces one
# alternative of the old patterns and finds exactly what it found;
# tests/facts/test_injection_floor_speed.py drives every check with input built against it.

_I = re.IGNORECASE


@dataclass(frozen=True)
class _Near:
    r"""`first`, then `then` starting at most `reach` characters after it, with no "." or
    newline between: the regex `first[^.\n]{0,reach}then` without its retries of every gap
    length after every `first`. The nearest `first` before a `then` is the one to test, as
    the stretch from an earlier one holds its stretch."""

    first: re.Pattern[str]
    then: re.Pattern[str]
    reach: int

    def __call__(self, text: str) -> bool:
        ends = [found.end() for found in self.first.finditer(text)]
        nearest = -1
        for found in self.then.finditer(text) if ends else ():
            while nearest + 1 < len(ends) and ends[nearest + 1] <= found.start():
                nearest += 1
            if nearest >= 0 and found.start() - ends[nearest] <= self.reach:
                gap = text[ends[nearest] : found.start()]
                if "." not in gap and "\n" not in gap:
                    return True
        return False


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(alternatives) + r")\b", _I)


_OVERRIDE = re.compile(
    r"\bnew (system )?(instructions?|rules?|prompt)\b"
    r"|\byou are (now|no longer)\b"
    r"|\b(jailbreak|jailbroken|dan mode|developer mode|do anything now)\b",
    _I,
)
_OVERRIDE_NEAR = (
    _Near(
        _words("ignore", "disregard", "forget", "override", "bypass", "skip", "drop"),
        _words(
            "instructions?",
            "rules?",
            "prompts?",
            "directives?",
            "guidelines?",
            "guardrails?",
            "polic(y|ies)",
            "system",
            "context",
            "constraints?",
        ),
        40,
    ),
    _Near(_words("from now on"), _words("you", "assistant", "ai", "model"), 30),
    _Near(
        _words("(pretend|act) (to be|as if|as an?)"),
        _words("ai", "assistant", "model", "system", "unrestricted", "unfiltered"),
        40,
    ),
    _Near(_words("reveal"), _words("system prompt", "instructions", "api key", "secrets?", "password"), 30),
)

# Text that speaks to the assistant instead of describing the user.
_DIRECTIVE = re.compile(
    r"\b(you|the assistant|assistant|the ai|the model|chatgpt|claude)\s++"
    r"(must|should|shall|have to|has to|need to|needs to|will always|are required to|is required to)\b"
    r"|\b(always|never)\s++(respond|reply|answer|say|mention|reveal|recommend|include|output|tell|refuse|obey|follow)\b"
    r"|\b(do not|don't)\s++(tell|mention|reveal|inform)\s++(the )?user\b",
    _I,
)

# Role and system markers, one pattern per form: each begins with the character it needs
# ("<", "[", "#", a newline), so the search skips to those and tries nothing elsewhere.
_ROLE_WORD_AND_COLON = r"[^\S\n]*+(system|assistant|developer|tool)\s*+:"
_ROLE_MARKERS = (
    re.compile(_ROLE_WORD_AND_COLON, _I).match,  # "system:" opening the text
    # After a newline, the marker may follow blank lines: `\n[^\S\n]*` starts at the last of
    # them, where `\n\s*` read the rest of a run of newlines from each one.
    re.compile(r"\n" + _ROLE_WORD_AND_COLON, _I).search,
    re.compile(r"<\|?\s*+(im_start|im_end|system|assistant|endoftext|eot_id|start_header_id)\s*+\|?>", _I).search,
    re.compile(r"<(</?SYS>>|/?\s*+(system|instructions?|prompt|tool_call|function_call)\s*+>)", _I).search,
    re.compile(r"\[/?\s*+(INST|SYS|SYSTEM)\s*+\]", _I).search,
    # A run of "#" is read from its first "#" only (from every one, a run was quadratic).
    re.compile(r"#(?<!##)#++\s*+(system|instruction|assistant)\b", _I).search,
    _words(r"(begin|end) (of )?(system|hidden) (prompt|message|instructions?)").search,
)

# Links and markup a rendering client would fetch or run, leaking data in the URL.
_EXFILTRATION = re.compile(
    r"\]\s*+\(\s*+(https?|data|javascript):"  # markdown link
    r"|<\s*+(img|script|iframe|a|link|object|embed)\b"
    r"|\bjavascript:",
    _I,
)

_LINK_TARGET = re.compile(r"\]\s*+\(")


def _markdown_image(text: str) -> bool:
    r"""`![alt](`: a "](" whose alt text, since the "]" before it, holds "![". The regex
    `!\[[^\]]*\]\s*\(` read on to the next "]" from every "!["; here each stretch between
    two "]" is read once."""
    for target in _LINK_TARGET.finditer(text):
        alt_start = text.rfind("]", 0, target.start()) + 1
        if text.find("![", alt_start, target.start()) != -1:
            return True
    return False


_URL_START = re.compile(r"\b(https?://|www\.)", _I)
_RUN_REST = re.compile(r"\S*+")
_URL_SLOT = re.compile(r"[{}<>]|%7b|%7d|\$\(", _I)


def _templated_url(text: str) -> bool:
    r"""A URL whose run of non-blank characters holds a slot awaiting data ({, }, $(, <, >).
    The regex `\b(https?://|www\.)\S*(slot)` read the rest of the run from every URL start
    in it; the first start sees all that the later ones see."""
    position = 0
    while (start := _URL_START.search(text, position)) is not None:
        run = _RUN_REST.match(text, start.end())
        run_end = run.end() if run else len(text)  # \S*+ always matches
        if _URL_SLOT.search(text, start.end(), run_end):
            return True
        position = run_end
    return False


# "send ... to <URL>".
_SENDS_TO_URL = _Near(
    _words("send", "post", "upload", "forward", "exfiltrate", "leak"),
    re.compile(r"\b(to|at)\s++(https?://|www\.)", _I),
    60,
)

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# The characters above as the body of a regex class, for the API schema to state
# what the floor refuses (tab and newline are refused in facts, allowed in turns).
UNTRUSTED_TEXT_CHARS_REFUSED = "\\x7f-\\x9f" + INVISIBLE_CHARS


def normalise(text: str) -> str:
    """NFKC folds full-width and other look-alike forms so the rules see plain letters."""
    return unicodedata.normalize("NFKC", text)


def check_fact_text(text: str, *, max_chars: int | None = None) -> str:
    """Return the cleaned text (stripped) or raise Rejected(rule, detail)."""
    if not isinstance(text, str) or not text.strip():
        raise Rejected("empty", "Fact text is empty.")
    text = text.strip()
    limit = max_chars or settings.MEMORY_MAX_FACT_CHARS
    if len(text) > limit:
        raise Rejected("too_long", f"Fact text is {len(text)} characters; the limit is {limit}.")
    check_untrusted_text(text)
    if "\n" in text or "\t" in text:
        raise Rejected("control_characters", "Fact text must be a single line.")
    return text


MAX_ENTITY_CHARS = 100


def check_entity_name(name: str) -> str:
    """An entity name reaches prompts (get_memories, graph supplements): the same floor, one line."""
    if not isinstance(name, str):
        raise Rejected("entity_name", "Entity names are strings.")
    name = name.strip()
    if len(name) > MAX_ENTITY_CHARS:
        raise Rejected("entity_name", f"Entity name is {len(name)} characters; the limit is {MAX_ENTITY_CHARS}.")
    if "\n" in name or "\t" in name:
        raise Rejected("control_characters", "Entity names must be a single line.")
    check_untrusted_text(name)
    return name


def check_entity_names(names: list[str] | None) -> list[str] | None:
    return None if names is None else [check_entity_name(name) for name in names]


@dataclass(frozen=True)
class Check:
    """One rule of the floor: `found(text)` is truthy when the text breaks it. The first two
    read the text as sent (folding could hide a code point); the others read it folded."""

    rule: str
    detail: str
    found: Callable[[str], object]
    folded: bool = True


_LINK_DETAIL = "Text contains an embedded image, link markup or templated URL."

# In the order they are tried: a text that breaks several rules is refused for the first.
CHECKS: tuple[Check, ...] = (
    Check(
        "invisible_characters",
        "Text contains invisible or bidirectional control characters.",
        _INVISIBLE.search,
        folded=False,
    ),
    Check("control_characters", "Text contains control characters.", _CONTROL.search, folded=False),
    *(Check("role_marker", "Text contains a role or system marker.", found) for found in _ROLE_MARKERS),
    *(
        Check("instruction_override", "Text tries to override the assistant's instructions.", found)
        for found in (_OVERRIDE.search, *_OVERRIDE_NEAR)
    ),
    Check("exfiltration_link", _LINK_DETAIL, _EXFILTRATION.search),
    Check("exfiltration_link", _LINK_DETAIL, _markdown_image),
    Check("exfiltration_link", _LINK_DETAIL, _templated_url),
    Check("exfiltration_link", _LINK_DETAIL, _SENDS_TO_URL),
    Check("assistant_directive", "Text gives the assistant an order instead of stating a fact.", _DIRECTIVE.search),
)


# Where a model reads a word break in a key or an id: any run of non-letters, and a
# lower-to-upper case change ("ignore.all.previous.instructions", "ignoreAllPrevious...").
_ID_WORD_BREAK = re.compile(r"[\W_]+|(?<=[a-z])(?=[A-Z])")


def check_identifier(value: str | None, field: str) -> str | None:
    """A key or an id (user_id, session_id, turn_id) reaches a model beside the text (MCP tool
    results, mem0 answers), so it passes the same floor: as written, and read as words. A
    refusal names the field: `key: Text tries to override...`, with `field` beside `rule`."""
    if value is None:
        return None
    for form in (value, _ID_WORD_BREAK.sub(" ", value)):
        try:
            check_untrusted_text(form)
        except Rejected as refused:
            error = Rejected(refused.rule, f"{field}: {refused.detail}")
            error.extra["field"] = field
            raise error from None
    return value


def shown_identifier(value: str) -> str:
    """A stored key or id as a model may see it: "" when it fails the floor (stored before keys
    and ids passed it, issue 33), else unchanged."""
    try:
        check_identifier(value, "id")
    except Rejected:
        return ""
    return value


def check_untrusted_text(text: str) -> None:
    """The prompt-steering rules alone, for any text that may reach a future prompt."""
    folded = normalise(text)
    for check in CHECKS:
        if check.found(folded if check.folded else text):
            raise Rejected(check.rule, check.detail)

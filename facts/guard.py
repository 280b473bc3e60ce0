"""The injection floor (docs/design.md §3): memory text must never be able to steer a prompt.

Every fact written, by the API or by the extractor, passes `check_fact_text`.
A refusal raises `Rejected` naming the rule, so the client can tell what to fix.
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings

from memory_service.errors import Rejected

# Zero-width, bidi-override and other invisible code points used to hide text
# from a human reviewer while a model still reads it.
_INVISIBLE_CHARS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\U000e0000-\U000e007f"  # tag characters ("ASCII smuggling")
)
_INVISIBLE = re.compile(f"[{_INVISIBLE_CHARS}]")

_OVERRIDE = re.compile(
    r"\b(ignore|disregard|forget|override|bypass|skip|drop)\b[^.\n]{0,40}?"
    r"\b(instructions?|rules?|prompts?|directives?|guidelines?|guardrails?|polic(y|ies)|system|context|constraints?)\b"
    r"|\bnew (system )?(instructions?|rules?|prompt)\b"
    r"|\byou are (now|no longer)\b"
    r"|\bfrom now on\b[^.\n]{0,30}\b(you|assistant|ai|model)\b"
    r"|\b(jailbreak|jailbroken|dan mode|developer mode|do anything now)\b"
    r"|\b(pretend|act) (to be|as if|as an?)\b[^.\n]{0,40}\b(ai|assistant|model|system|unrestricted|unfiltered)\b"
    r"|\breveal\b[^.\n]{0,30}\b(system prompt|instructions|api key|secrets?|password)\b",
    re.IGNORECASE,
)

# Text that speaks to the assistant instead of describing the user.
_DIRECTIVE = re.compile(
    r"\b(you|the assistant|assistant|the ai|the model|chatgpt|claude)\s+"
    r"(must|should|shall|have to|has to|need to|needs to|will always|are required to|is required to)\b"
    r"|\b(always|never)\s+(respond|reply|answer|say|mention|reveal|recommend|include|output|tell|refuse|obey|follow)\b"
    r"|\b(do not|don't)\s+(tell|mention|reveal|inform)\s+(the )?user\b",
    re.IGNORECASE,
)

_ROLE_MARKER = re.compile(
    r"(^|\n)\s*(system|assistant|developer|tool)\s*:"
    r"|<\|?\s*(im_start|im_end|system|assistant|endoftext|eot_id|start_header_id)\s*\|?>"
    r"|\[/?\s*(INST|SYS|SYSTEM)\s*\]|<</?SYS>>"
    r"|</?\s*(system|instructions?|prompt|tool_call|function_call)\s*>"
    r"|#{2,}\s*(system|instruction|assistant)\b"
    r"|\b(begin|end) (of )?(system|hidden) (prompt|message|instructions?)\b",
    re.IGNORECASE,
)

_EXFILTRATION = re.compile(
    r"!\[[^\]]*\]\s*\("  # markdown image: rendered clients fetch it, leaking data in the URL
    r"|\]\s*\(\s*(https?|data|javascript):"  # markdown link
    r"|<\s*(img|script|iframe|a|link|object|embed)\b"
    r"|\b(https?://|www\.)\S*(\{|\}|%7b|%7d|\$\(|<|>)"  # templated URL awaiting data
    r"|\b(send|post|upload|forward|exfiltrate|leak)\b[^.\n]{0,60}\b(to|at)\s+(https?://|www\.)"
    r"|\bjavascript:",
    re.IGNORECASE,
)

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# The characters above as the body of a regex class, for the API schema to state
# what the floor refuses (tab and newline are refused in facts, allowed in turns).
UNTRUSTED_TEXT_CHARS_REFUSED = "\\x7f-\\x9f" + _INVISIBLE_CHARS


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


def check_untrusted_text(text: str) -> None:
    """The prompt-steering rules alone, for any text that may reach a future prompt."""
    if _INVISIBLE.search(text):
        raise Rejected("invisible_characters", "Text contains invisible or bidirectional control characters.")
    if _CONTROL.search(text):
        raise Rejected("control_characters", "Text contains control characters.")
    folded = normalise(text)
    if _ROLE_MARKER.search(folded):
        raise Rejected("role_marker", "Text contains a role or system marker.")
    if _OVERRIDE.search(folded):
        raise Rejected("instruction_override", "Text tries to override the assistant's instructions.")
    if _EXFILTRATION.search(folded):
        raise Rejected("exfiltration_link", "Text contains an embedded image, link markup or templated URL.")
    if _DIRECTIVE.search(folded):
        raise Rejected("assistant_directive", "Text gives the assistant an order instead of stating a fact.")

"""The offline rule-based extractor, active when no OPENAI_API_KEY is configured.

It recognises a handful of clear first-person statements in the user's own
text, skips those that are replies to the assistant ("I like that idea", "I love
the sound of it") or point back with a pronoun ("I use them"), and answers in the
same reply schema as the LLM, so everything after it
(arbitration, idempotency, edges) is the same code. It never supersedes or
expires by id: same-key arbitration in the write path handles "I moved to X".
Pure Python, no models.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
# An object phrase: up to six words, cut at a clause boundary.
_OBJ = r"(?P<obj>[A-Za-z0-9][\w+#.'&-]*(?:\s+[\w+#.'&-]+){0,5}?)"
_END = (
    r"(?=\s*(?:$|[,.!?;:]|\s+(?:and|but|because|since|so|which|where|who|when|though|although|as|at|in|for|"
    r"with|from|on|to|last|next|this|yesterday|today|now|recently)\b))"
)


def _rule(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern + _OBJ + _END, re.IGNORECASE)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40]


def _clean(obj: str) -> str:
    obj = re.sub(r"^(the|a|an)\s+", "", obj.strip(), flags=re.IGNORECASE)
    return obj.rstrip(".'")


_THEIR = {"my": "their", "mine": "theirs", "myself": "themselves"}


def _third_person(obj: str) -> str:
    """'my Mac' -> 'their Mac': the fact speaks of the user."""
    return re.sub(r"\b(?:my|mine|myself)\b", lambda m: _THEIR[m.group(0).lower()], obj, flags=re.IGNORECASE)


# What no object of a fact starts with: a pronoun standing for something said before ("I like
# those", "I use them"), a clause ("I like how it looks"), or a preposition left by a cut.
_NOT_A_START = frozenset(
    """
    it its them they their this that these those some any all both each either one ones
    how what which when where why whether if for with in on at of by from about yet
    something anything everything nothing
    """.split()  # noqa: SIM905  (a word list reads better as text)
)
# Words that make a statement a reply to the assistant, not a fact about the user: "I like
# that idea", "I love the sound of it", "I like your suggestions".
_REPLY_WORDS = frozenset(
    """
    it them these those i me you your yours yourself idea ideas sound suggestion suggestions tip tips
    recommendation recommendations option options advice
    """.split()  # noqa: SIM905  (a word list reads better as text)
)


def _about_the_user(obj: str) -> bool:
    words = re.findall(r"[a-z0-9']+", obj.lower())
    if not words or words[0] in _NOT_A_START:
        return False
    return not any(w in _REPLY_WORDS or w.startswith(("you'", "your")) for w in words)


# (pattern, builder(obj) -> (text, key, category, entities, relation))
Built = tuple[str, str, str, list[str], str | None]
_RULES: list[tuple[re.Pattern[str], Callable[[str], Built]]] = [
    (
        _rule(r"\b(?:my name is|my name's|call me|i am called|i'm called)\s+"),
        lambda o: (f"User's name is {o}.", "name", "identity", [o], None),
    ),
    (
        _rule(
            r"\b(?:i live in|i'm living in|i am living in|i moved to|i've moved to|i have moved to|"
            r"i'm based in|i am based in|i relocated to)\s+"
        ),
        lambda o: (f"User lives in {o}.", "home_city", "identity", [o], "lives_in"),
    ),
    (
        _rule(
            r"\b(?:i work at|i work for|i'm working at|i am working at|i'm employed at|i am employed at|"
            r"i'm employed by|i am employed by|i joined(?=\s+(?-i:[A-Z])))\s+"
        ),
        lambda o: (f"User works at {o}.", "employer", "identity", [o], "works_at"),
    ),
    (
        _rule(
            r"\b(?:i work as|i'm working as|i am working as|i'm employed as|my job is|my job title is)\s+(?:an?\s+)?"
        ),
        lambda o: (f"User works as {_article(o)}.", "job_title", "identity", [o], None),
    ),
    (
        _rule(r"\b(?:i'm allergic to|i am allergic to|i have an allergy to|i've got an allergy to)\s+"),
        lambda o: (f"User is allergic to {o}.", f"allergy_{_slug(o)}", "health", [o], "allergic_to"),
    ),
    (
        _rule(r"\b(?:i prefer|i'd rather use|i would rather use)\s+"),
        lambda o: (f"User prefers {o}.", f"prefers_{_slug(o)}", "soft_preference", [o], "prefers"),
    ),
    (
        _rule(r"\b(?:i (?:really )?(?:don't|do not) like|i dislike|i hate|i can't stand|i cannot stand)\s+"),
        lambda o: (f"User dislikes {o}.", f"likes_{_slug(o)}", "soft_preference", [o], "dislikes"),
    ),
    (
        _rule(r"\b(?:i (?:really )?like|i love|i enjoy|i'm a fan of|i am a fan of)\s+"),
        lambda o: (f"User likes {o}.", f"likes_{_slug(o)}", "soft_preference", [o], "likes"),
    ),
    (
        _rule(r"\b(?:i use|i'm using|i am using|i mostly use|i usually use|i code in|i write code in)\s+"),
        lambda o: (f"User uses {o}.", f"uses_{_slug(o)}", "environment", [o], "uses"),
    ),
    (
        re.compile(r"\b(?:i'm|i am)\s+(?:a\s+)?(?P<obj>vegan|vegetarian|pescatarian|pescetarian)\b", re.IGNORECASE),
        lambda o: (f"User is {o.lower()}.", "diet", "hard_preference", [o.lower()], None),
    ),
]


def _article(obj: str) -> str:
    return f"an {obj}" if obj[:1].lower() in "aeiou" else f"a {obj}"


def extract(user_texts: list[str]) -> dict[str, Any]:
    """A reply dict (add/supersede/expire/edges) for the user's own messages, oldest first."""
    adds: dict[str, dict[str, Any]] = {}  # by key: a later statement of the same slot wins
    edges: list[dict[str, Any]] = []
    for text in user_texts:
        for sentence in _SENTENCE.split(text or ""):
            sentence = sentence.strip().replace("\u2019", "'")
            if not sentence or sentence.endswith("?"):
                continue  # questions assert nothing
            for pattern, build in _RULES:
                for match in pattern.finditer(sentence):
                    obj = _clean(match.group("obj"))
                    if not obj or len(obj) > 80 or not _about_the_user(obj):
                        continue
                    obj = _third_person(obj)
                    fact_text, key, category, entities, relation = build(obj)
                    # Tags name what a fact is about; the user is the subject of every
                    # fact, so tagging "user" would link everything in graph recall.
                    adds.pop(key, None)
                    adds[key] = {
                        "text": fact_text,
                        "key": key,
                        "category": category,
                        "entities": list(entities),
                        "confidence": None,
                        "valid_from": None,
                        "event_time": None,
                    }
                    if relation:
                        edges.append({"src": "User", "relation": relation, "dst": obj})
    return {"add": list(adds.values()), "supersede": [], "expire": [], "edges": edges}

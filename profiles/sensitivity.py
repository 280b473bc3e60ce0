"""Which sensitive facts (health, finance), and which past turns, may enter a context block.

Rule (docs/design.md §6): a health or finance fact enters only when the
tenant allows sensitive context, or the query is about its topic, or the query
matched the fact's own words in recall. Hard constraints such as allergies or
dietary restrictions also count as relevant to any query about food or
medicine, so a food question still carries "allergic to peanuts".

A past turn quoted as an episode says the same things in the user's own words,
so it passes the same rule: it is held to every sensitive fact it produced or
repeats words of, and to the topics its own words are about (the word lists
that tell a query's topics tell a turn's too).

Topics are found with word lists, not a model: predictable, cheap and easy to
audit.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from facts.models import Category

SENSITIVE_CATEGORIES = frozenset({Category.HEALTH, Category.FINANCE})

# "stem*" matches any word starting with the stem; a plain entry matches the
# whole word (plural "s" allowed), so "pain" is not found in "painting".
TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "health": (
        "health*",
        "sick*",
        "ill",
        "illness*",
        "symptom*",
        "pain",
        "painful",
        "diagnos*",
        "disease*",
        "therap*",
        "doctor*",
        "nurse*",
        "hospital*",
        "clinic",
        "clinical",
        "injur*",
        "pregnan*",
        "mental",
        "anxiety",
        "depress*",
        "allerg*",
        "asthma*",
        "diabet*",
        "blood",
        "surgery",
        "fever*",
        "migraine*",
        "headache*",
        "disabilit*",
        "disabled",
        "wheelchair*",
        "medical",
        "dentist*",
        "condition",
    ),
    "medicine": (
        "medic*",
        "drug",
        "pill",
        "pharma*",
        "prescri*",
        "dose",
        "dosage*",
        "vaccin*",
        "antibiotic*",
        "ibuprofen",
        "aspirin",
        "paracetamol",
        "painkiller",
        "supplement",
        "vitamin*",
        "inhaler",
        "insulin",
    ),
    "food": (
        "food*",
        "eat",
        "eating",
        "eats",
        "ate",
        "meal*",
        "dinner*",
        "lunch*",
        "breakfast*",
        "brunch*",
        "snack*",
        "recipe*",
        "cook*",
        "bake",
        "baking",
        "restaurant*",
        "menu",
        "dish",
        "dishes",
        "cuisine*",
        "grocer*",
        "ingredient*",
        "dessert*",
        "cake",
        "pizza*",
        "sandwich*",
        "salad*",
        "drink*",
        "cafe",
        "takeaway*",
        "takeout",
        "nut",
        "peanut*",
        "milk*",
        "dairy",
        "gluten*",
        "bread*",
        "vegan*",
        "vegetarian*",
        "diet",
        "dietary",
        "kitchen*",
        "chef",
        "hungry",
        "catering",
        "chocolate*",
        "seafood",
        "shellfish",
        "egg",
        "wheat",
        "soy",
        "fish",
        "meat*",
        "beer*",
        "wine*",
        "coffee*",
        "tea",
        "fruit*",
        "cheese*",
    ),
    "finance": (
        "money",
        "financ*",
        "bank",
        "banking",
        "budget*",
        "salary",
        "salaries",
        "income*",
        "loan",
        "debt*",
        "mortgage*",
        "invest*",
        "stock",
        "saving",
        "savings",
        "tax",
        "taxes",
        "pay",
        "paid",
        "payment*",
        "price*",
        "pricing",
        "cost",
        "costs",
        "afford*",
        "expens*",
        "credit",
        "rent",
        "insurance",
        "pension*",
        "crypto*",
        "spend*",
        "wage",
        "bill",
        "cheap*",
        "fund",
        "funds",
        "dollar*",
        "euro",
        "invoice*",
    ),
}


def _topic_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    parts = [re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) + r"(?:e?s)?" for w in words]
    return re.compile(r"\b(?:" + "|".join(parts) + r")\b", re.IGNORECASE)


TOPIC_PATTERNS = {topic: _topic_pattern(words) for topic, words in TOPIC_WORDS.items()}

# Words that make a health fact a hard constraint: it limits what the user
# may eat, take or do, and ignoring it can hurt them.
_CONSTRAINT = re.compile(
    r"allerg|intoleran|anaphyla|celiac|coeliac|cannot (?:eat|have|take|drink)|can't (?:eat|have|take|drink)"
    r"|must (?:not|avoid)|never (?:eat|take|drink)|avoid|vegan|vegetarian|halal|kosher|gluten[- ]free"
    r"|lactose|epipen|diabet|contraindicat",
    re.IGNORECASE,
)


def query_topics(query: str) -> set[str]:
    return {topic for topic, pattern in TOPIC_PATTERNS.items() if pattern.search(query or "")}


def is_hard_constraint(item: dict[str, Any]) -> bool:
    if item["category"] == Category.HARD_PREFERENCE:
        return True
    return item["category"] == Category.HEALTH and bool(_CONSTRAINT.search(f"{item['key']} {item['text']}"))


def admits(item: dict[str, Any], *, topics: set[str], allow_all: bool, matched_ids: set[str]) -> bool:
    """May this item enter a context block for a query with these topics?"""
    category = item["category"]
    if category not in SENSITIVE_CATEGORIES or allow_all or item["id"] in matched_ids:
        return True
    if category == Category.FINANCE:
        return "finance" in topics
    if topics & {"health", "medicine"}:
        return True
    return "food" in topics and is_hard_constraint(item)


# Words that tie nothing: function words, "user" (the subject of every fact) and the verbs
# of the fact templates ("User likes X", "User lives in Y"), which say nothing of the topic.
_COMMON = frozenset(
    """
    the and but not nor for with from into onto about than then that this these those there
    was were are been being has have had does did doing will would can could should may might
    its they them their theirs you your yours our ours his her hers she him who whom whose which
    what when where why how all any both each few more most other some such only own same very
    just also too now yes user users like likes liked lives lived works worked uses used prefers
    preferred says said year years month months week weeks day days today time times
    """.split()  # noqa: SIM905  (a word list reads better as text)
)
_WORD = re.compile(r"[^\W_]{3,}")


def _words(text: str) -> set[str]:
    """The telling words of a text, lower case, a plural "s" dropped ("peanuts" ties "peanut")."""
    words = {w.casefold() for w in _WORD.findall(text)}
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") and len(w) > 3 else w for w in words} - _COMMON


@lru_cache(maxsize=4096)
def _fact_words(key: str, text: str) -> frozenset[str]:
    # Cached: every quoted turn of every block is compared with the same few facts.
    return frozenset(_words(f"{key} {text}"))


def episode_ties(episode: dict[str, Any], sensitive: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sensitive facts a quoted turn is about: those it produced, and those whose telling words
    (text and key) it repeats: "it was penicillin, not shellfish" is about the shellfish allergy."""
    said = _words(episode["text"])
    produced = set(episode.get("produced") or ())
    return [f for f in sensitive if f["id"] in produced or said & _fact_words(f.get("key") or "", f["text"])]


def text_categories(text: str) -> set[str]:
    """The sensitive categories a text talks about, by the topic word lists."""
    topics = query_topics(text)
    categories: set[str] = set()
    if topics & {"health", "medicine"}:
        categories.add(Category.HEALTH)
    if "finance" in topics:
        categories.add(Category.FINANCE)
    return categories


def admits_episode(
    episode: dict[str, Any],
    *,
    sensitive: list[dict[str, Any]],
    topics: set[str],
    allow_all: bool,
    matched_ids: set[str],
) -> bool:
    """May this quoted turn enter a context block? Only when every sensitive fact it is about is
    admitted, and so would be a fact of each sensitive category its own words talk about.

    The query matching the turn's own words admits nothing by itself, as it does a fact: a turn
    holds several statements, and "jazz" matching "...not shellfish. I like jazz." says nothing
    about the allergy. A fact it is about that the query matched is admitted, and counts so."""
    if allow_all:
        return True
    own = [{**episode, "key": "", "category": category} for category in text_categories(episode["text"])]
    return all(
        admits(item, topics=topics, allow_all=False, matched_ids=matched_ids)
        for item in [*episode_ties(episode, sensitive), *own]
    )

"""Which sensitive facts (health, finance) may enter a context block.

Rule (docs/design.md §6): a health or finance fact enters only when the
tenant allows sensitive context, or the query is about its topic, or the query
matched the fact's own words in recall. Hard constraints such as allergies or
dietary restrictions also count as relevant to any query about food or
medicine, so a food question still carries "allergic to peanuts".

Topics are found with word lists, not a model: predictable, cheap and easy to
audit.
"""

from __future__ import annotations

import re

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


def _topic_pattern(words: tuple[str, ...]) -> re.Pattern:
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


def is_hard_constraint(item: dict) -> bool:
    if item["category"] == Category.HARD_PREFERENCE:
        return True
    return item["category"] == Category.HEALTH and bool(_CONSTRAINT.search(f"{item['key']} {item['text']}"))


def admits(item: dict, *, topics: set[str], allow_all: bool, matched_ids: set[str]) -> bool:
    """May this item enter a context block for a query with these topics?"""
    category = item["category"]
    if category not in SENSITIVE_CATEGORIES or allow_all or item["id"] in matched_ids:
        return True
    if category == Category.FINANCE:
        return "finance" in topics
    if topics & {"health", "medicine"}:
        return True
    return "food" in topics and is_hard_constraint(item)

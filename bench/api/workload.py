"""What bench_api sends: the bench users' facts, recall queries, turns, and one request list per
(route, concurrency) step, built before the step starts so no client spends its time composing.

Every id carries a per-run nonce, so runs against the same server never meet each other's
users, turn ids or query texts (a "new" query must miss every process's embedding cache).
"""

from __future__ import annotations

import itertools
import json
import random
import secrets
from dataclasses import dataclass

FACTS_PER_USER = 100
# Facts a store-fact step or turns a post-turn step gives one user before moving to the
# next: keeps every written user near the size of the recall users, far from the budgets.
WRITES_PER_USER = 100
REPEATED_POOL = 8
RECALL_K = 10
CONTEXT_MAX_TOKENS = 512

CITIES = ["Lisbon", "Oslo", "Kyoto", "Porto", "Berlin", "Lima", "Accra", "Hanoi", "Quito", "Perth", "Tallinn", "Cusco"]
NAMES = ["Ana", "Bruno", "Chloe", "Dmitri", "Esi", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kemal", "Lena"]
FOODS = ["peanuts", "shellfish", "sesame", "mushrooms", "lentils", "figs", "oysters", "kiwi", "celery", "mango"]
HOBBIES = ["jazz", "hiking", "chess", "surfing", "pottery", "cycling", "opera", "climbing", "birding", "origami"]
TOOLS = ["Neovim", "PostgreSQL", "Django", "Rust", "Kotlin", "Terraform", "Redis", "Figma", "Blender", "Godot"]
JOBS = ["nurse", "architect", "teacher", "pilot", "baker", "translator", "geologist", "carpenter"]
MONTHS = ["January", "March", "April", "June", "August", "October", "November", "December"]
TOPICS = ["beekeeping", "tide pools", "urban gardens", "sailing", "solar panels", "old maps", "tea farms"]
RELATIVES = ["sister", "brother", "cousin", "aunt", "uncle", "grandmother"]
DRINKS = ["black coffee", "green tea", "oat milk", "espresso", "rooibos", "hot chocolate"]

SLOTS = {
    "city": CITIES,
    "name": NAMES,
    "food": FOODS,
    "hobby": HOBBIES,
    "tool": TOOLS,
    "job": JOBS,
    "month": MONTHS,
    "topic": TOPICS,
    "relative": RELATIVES,
    "drink": DRINKS,
}
# (category, template, the slot whose value is tagged as an entity or None)
FACT_TEMPLATES = [
    ("identity", "User lives in {city}.", "city"),
    ("identity", "User works as a {job} in {city}.", "city"),
    ("identity", "User's {relative} is called {name}.", "name"),
    ("hard_preference", "User is allergic to {food}.", None),
    ("soft_preference", "User likes {hobby} on weekends with {name}.", "name"),
    ("soft_preference", "User prefers {drink} in the morning before {hobby}.", None),
    ("project", "User is building a {topic} tracker in {tool}.", "tool"),
    ("task_context", "User is planning a trip to {city} in {month}.", "city"),
    ("task_context", "User has to finish the {topic} report by {month}.", None),
    ("other", "User went to {city} with {name} in {month}.", "city"),
    ("other", "User read a book about {topic} that {name} recommended.", "name"),
    ("other", "User cooked {food} for {name}'s birthday in {month}.", "name"),
]
QUESTIONS = [
    "Where does the user live?",
    "Has the user ever been to {city}?",
    "Who is the user's {relative}?",
    "What is the user allergic to?",
    "What does the user like doing on weekends?",
    "What is the user building with {tool}?",
    "When is the trip to {city} planned?",
    "Which books about {topic} has the user read?",
    "What did the user cook for {name}?",
    "What does the user drink in the morning?",
    "What does the user do for a living?",
    "What is due in {month}?",
]
TURNS = [
    "I moved to {city} last year and I use {tool} at work.",
    "I really like {hobby}, and my cousin {name} joins me.",
    "I'm allergic to {food}, so please keep that in mind.",
    "I work as a {job} and I mostly use {tool}.",
]
_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


@dataclass(frozen=True)
class Route:
    name: str
    method: str
    expect: int  # the status every answer should have
    writes: bool  # leaves work for the Celery worker (the bench waits for it before the next step)


ROUTES = [
    Route("recall_new", "POST", 200, False),
    Route("recall_repeated", "POST", 200, False),
    Route("context", "POST", 200, False),
    Route("store_fact", "POST", 201, True),
    Route("post_turn", "POST", 202, True),
]
ROUTE_NAMES = [route.name for route in ROUTES]


@dataclass(frozen=True)
class Call:
    path: str  # under /api/v1
    body: bytes


def _fill(template: str, rng: random.Random) -> tuple[str, dict[str, str]]:
    values = {slot: rng.choice(SLOTS[slot]) for slot in SLOTS if "{" + slot + "}" in template}
    return template.format(**values), values


class Workload:
    def __init__(self, users: int, facts_per_user: int = FACTS_PER_USER, *, seed: int | None = None):
        self.facts_per_user = facts_per_user
        self.nonce = secrets.token_hex(3)
        self.rng = random.Random(seed)
        self.recall_users = [f"bench-{self.nonce}-u{i:03d}" for i in range(users)]
        self.written_users: set[str] = set()
        self._tags = itertools.count(self.rng.randrange(10**9))
        self.repeated = [self._question(i) for i in range(REPEATED_POOL)]

    def _tag(self) -> str:
        # A made-up word: the query stays unique without a number a date parser could read.
        n, word = next(self._tags), ""
        while True:
            n, digit = divmod(n, len(_SYLLABLES))
            word += _SYLLABLES[digit]
            if not n:
                return word

    def _question(self, index: int | None = None) -> str:
        template = QUESTIONS[index % len(QUESTIONS)] if index is not None else self.rng.choice(QUESTIONS)
        return f"{_fill(template, self.rng)[0]} [{self._tag()}]"

    def facts(self, count: int = FACTS_PER_USER) -> list[dict]:
        """`count` distinct fact payloads for one user (no key: nothing supersedes anything)."""
        chosen: dict[str, dict] = {}
        while len(chosen) < count:
            category, template, entity = self.rng.choice(FACT_TEMPLATES)
            text, values = _fill(template, self.rng)
            chosen[text] = {"text": text, "category": category, "entities": [values[entity]] if entity else []}
        return list(chosen.values())

    def population(self) -> list[Call]:
        """The facts of every recall user, interleaved by user as months of writes would leave them."""
        per_user = [
            [Call(self._user_path(u, "facts"), _json(f)) for f in self.facts(self.facts_per_user)]
            for u in self.recall_users
        ]
        return [call for row in zip(*per_user, strict=True) for call in row]

    @staticmethod
    def _user_path(user: str, tail: str) -> str:
        return f"/users/{user}/{tail}"

    def calls(self, route: Route, count: int, concurrency: int) -> list[Call]:
        build = {
            "recall_new": self._recall_new,
            "recall_repeated": self._recall_repeated,
            "context": self._context,
            "store_fact": self._store_facts,
            "post_turn": self._turns,
        }[route.name]
        return build(count, concurrency)

    def _reader(self, i: int) -> str:
        return self.recall_users[i % len(self.recall_users)]

    def _recall_new(self, count: int, _concurrency: int) -> list[Call]:
        return [
            Call(self._user_path(self._reader(i), "recall"), _json(self._recall_body(i, new=True)))
            for i in range(count)
        ]

    def _recall_repeated(self, count: int, _concurrency: int) -> list[Call]:
        return [
            Call(self._user_path(self._reader(i), "recall"), _json(self._recall_body(i, new=False)))
            for i in range(count)
        ]

    def _recall_body(self, i: int, *, new: bool) -> dict:
        query = self._question() if new else self.repeated[i % len(self.repeated)]
        return {"query": query, "k": RECALL_K}

    def warm_calls(self) -> list[Call]:
        """Each repeated query once, to put it in the embedding cache before it is timed."""
        return [
            Call(self._user_path(self._reader(i), "recall"), _json({"query": q, "k": RECALL_K}))
            for i, q in enumerate(self.repeated)
        ]

    def _context(self, count: int, _concurrency: int) -> list[Call]:
        return [
            Call(
                self._user_path(self._reader(i), "context"),
                _json({"query": self._question(), "max_tokens": CONTEXT_MAX_TOKENS}),
            )
            for i in range(count)
        ]

    def _writer(self, kind: str, concurrency: int, i: int) -> str:
        user = f"bench-{self.nonce}-{kind}{concurrency}-{i // WRITES_PER_USER:03d}"
        self.written_users.add(user)
        return user

    def _store_facts(self, count: int, concurrency: int) -> list[Call]:
        calls: list[Call] = []
        for start in range(0, count, WRITES_PER_USER):
            user = self._writer("w", concurrency, start)
            calls += [
                Call(self._user_path(user, "facts"), _json(f)) for f in self.facts(min(WRITES_PER_USER, count - start))
            ]
        return calls

    def _turns(self, count: int, concurrency: int) -> list[Call]:
        calls = []
        for i in range(count):
            user = self._writer("t", concurrency, i)
            body = {
                "session_id": f"bench-{self.nonce}-s{i // 20}",
                "turn_id": f"bench-{self.nonce}-c{concurrency}-{i}",
                "user_input": _fill(self.rng.choice(TURNS), self.rng)[0],
                "assistant_response": "Noted.",
            }
            calls.append(Call(self._user_path(user, "turns"), _json(body)))
        return calls

    def all_users(self) -> list[str]:
        return self.recall_users + sorted(self.written_users)


def _json(payload: dict) -> bytes:
    return json.dumps(payload).encode()

"""Scripted turns for load tests: every user states a few distinct facts the offline rules
extractor understands, between greetings it skips."""

from __future__ import annotations

from dataclasses import dataclass

_NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gia", "Hugo", "Ines", "Jon"]
_CITIES = ["Lisbon", "Kyoto", "Oslo", "Lima", "Cairo", "Quito", "Perth", "Turin", "Dakar", "Hanoi"]
_EMPLOYERS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Tyrell", "Cyberdyne", "Soylent"]
_TOOLS = ["Neovim", "Emacs", "Vim", "VSCode", "IntelliJ", "Xcode", "Eclipse", "Sublime", "Atom", "Kate"]
_FACTS = [
    "My name is {name}.",
    "I live in {city}.",
    "I work at {employer}.",
    "I use {tool}.",
    "I'm allergic to peanuts.",
]
_CHATTER = ["Thanks!", "ok", "Sounds good.", "Hi there", "Thank you!"]
TURNS_PER_USER = 10


@dataclass(frozen=True)
class ScriptedTurn:
    user_id: str
    session_id: str
    turn_id: str
    user_input: str

    def body(self) -> dict:
        return {"session_id": self.session_id, "turn_id": self.turn_id, "user_input": self.user_input}


def _statement(index: int, facts_per_user: int) -> str:
    """Every other turn states one of the user's facts until they are all said; the rest is chatter."""
    if index % 2 == 0 and index // 2 < facts_per_user:
        return _FACTS[index // 2]
    return _CHATTER[index % len(_CHATTER)]


def scripted_turns(total: int, facts_per_user: int = len(_FACTS)) -> list[ScriptedTurn]:
    """`total` turns of users with TURNS_PER_USER turns each, interleaved as several assistants
    would post them."""
    users = -(-total // TURNS_PER_USER)
    turns = []
    for index in range(TURNS_PER_USER):
        for user in range(users):
            if len(turns) == total:
                break
            words = {
                "name": _NAMES[user % 10],
                "city": _CITIES[user % 10],
                "employer": _EMPLOYERS[user % 10],
                "tool": _TOOLS[user % 10],
            }
            text = _statement(index, facts_per_user).format(**words)
            turns.append(ScriptedTurn(f"user-{user}", "s1", f"t{index}", text))
    return turns

"""A LangGraph `BaseStore` over the memory service.

How a LangGraph item maps onto the service (docs/clients.md):
- the namespace's first label is the service's `user_id` (so a namespace is at least one label,
  and every item of a user lives in that user's memory, with its tenancy, erasure and export);
- an item is one fact of that user: `value_json` holds `{"langgraph": {namespace, key, value}}`,
  the fact's `key` slot is `lg_` + a digest of (namespace, key), so a new value for the same item
  supersedes the old fact (kept in history) and deleting the item forgets that key;
- the fact's text is the value's `text` (or `content`, `memory`) when that is its only field,
  else the value as compact JSON: that text is what recall searches (`search(query=...)`).
Delete is a put of None. Namespace labels follow LangGraph's rules (no ".", not empty, the first
not "langgraph"); the first must also be a valid user id (1-128 characters, no "/").
A search or a namespace listing needs the user: a namespace prefix whose first label is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Iterable
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from memory_service_client.client import Client
from memory_service_client.errors import NotFound
from memory_service_client.models import Fact

MARK = "langgraph"
TEXT_FIELDS = ("text", "content", "memory")
MAX_TEXT = 500


def item_slot(namespace: tuple[str, ...], key: str) -> str:
    """The fact key that holds an item: stable, snake_case, one per (namespace, key)."""
    return "lg_" + hashlib.sha256(json.dumps([list(namespace), key]).encode()).hexdigest()[:40]


def item_text(value: dict[str, Any]) -> str:
    """What recall searches: the value's one text field, else the value as compact JSON (so two
    different values never share a text, which the service would take for a duplicate)."""
    if len(value) == 1 and (field := next(iter(value))) in TEXT_FIELDS and isinstance(value[field], str):
        text = value[field]
    else:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    return " ".join(text.split())[:MAX_TEXT]


def validate_namespace(namespace: tuple[str, ...]) -> None:
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty: its first label is the user id.")
    for label in namespace:
        if not isinstance(label, str) or not label or "." in label or "\x00" in label:
            raise InvalidNamespaceError(f"Invalid namespace label {label!r} in {namespace}.")
    if namespace[0] == "langgraph":
        raise InvalidNamespaceError(f'Root label for namespace cannot be "langgraph". Got: {namespace}')


def _stored(fact: Fact) -> dict[str, Any] | None:
    held = fact.value_json.get(MARK) if isinstance(fact.value_json, dict) else None
    return held if isinstance(held, dict) and fact.status == "active" else None


def _item(fact: Fact, held: dict[str, Any], score: float | None = None, *, search: bool = False) -> Item:
    fields = {
        "namespace": tuple(held["namespace"]),
        "key": held["key"],
        "value": held["value"],
        "created_at": fact.created_at,
        "updated_at": fact.created_at,  # a new value is a new fact: its creation is the item's update
    }
    return SearchItem(**fields, score=score) if search else Item(**fields)


def _matches(value: Any, wanted: Any) -> bool:
    """LangGraph's filter: equality, nested objects, and $eq $ne $gt $gte $lt $lte."""
    if isinstance(wanted, dict) and any(k.startswith("$") for k in wanted):
        ops = {
            "$eq": lambda a, b: a == b,
            "$ne": lambda a, b: a != b,
            "$gt": lambda a, b: float(a) > float(b),
            "$gte": lambda a, b: float(a) >= float(b),
            "$lt": lambda a, b: float(a) < float(b),
            "$lte": lambda a, b: float(a) <= float(b),
        }
        return all(ops[op](value, operand) for op, operand in wanted.items())
    if isinstance(wanted, dict):
        return isinstance(value, dict) and all(_matches(value.get(k), v) for k, v in wanted.items())
    return value == wanted


def _condition_holds(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = condition.path
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    else:
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    return all(p == "*" or n == p for n, p in pairs)


class MemoryServiceStore(BaseStore):
    """`store = MemoryServiceStore(Client(key, url))`; then LangGraph's get/put/search/delete."""

    def __init__(self, client: Client, *, category: str = "other"):
        self.client = client
        self.category = category

    # --- the four operations -----------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, PutOp):
                self._put(op.namespace, op.key, op.value)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"Unknown operation {op!r}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The same requests from a worker thread, so the event loop is never blocked.
        return await asyncio.to_thread(self.batch, list(ops))

    def _facts(self, user_id: str) -> list[Fact]:
        try:
            return list(self.client.iter_facts(user_id, category=self.category, limit=200))
        except NotFound:  # a user the service has not seen holds nothing
            return []

    def _held(self, user_id: str) -> list[tuple[Fact, dict[str, Any]]]:
        return [(fact, held) for fact in self._facts(user_id) if (held := _stored(fact)) is not None]

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        validate_namespace(namespace)
        slot = item_slot(namespace, key)
        for fact, held in self._held(namespace[0]):
            if fact.key == slot:
                return _item(fact, held)
        return None

    def _put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any] | None) -> None:
        validate_namespace(namespace)
        slot = item_slot(namespace, key)
        if value is None:  # LangGraph's delete
            with contextlib.suppress(NotFound):  # nothing stored under that key yet
                self.client.forget_key(namespace[0], slot)
            return
        held = {MARK: {"namespace": list(namespace), "key": key, "value": dict(value)}}
        self.client.store_fact(namespace[0], item_text(dict(value)), key=slot, category=self.category, value_json=held)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        if not prefix:
            raise InvalidNamespaceError("Search a namespace prefix that names the user: (user_id, ...).")
        wanted = op.filter or {}

        def keep(held: dict[str, Any]) -> bool:
            in_prefix = tuple(held["namespace"][: len(prefix)]) == prefix
            return in_prefix and all(_matches(held["value"].get(k), v) for k, v in wanted.items())

        if op.query:
            try:
                found = self.client.recall(prefix[0], op.query, k=200)
            except NotFound:
                return []
            hits = [(i.fact, held, i.score) for i in found.items if i.fact and (held := _stored(i.fact)) and keep(held)]
        else:
            newest = sorted(self._held(prefix[0]), key=lambda pair: pair[0].created_at, reverse=True)
            hits = [(fact, held, None) for fact, held in newest if keep(held)]
        page = hits[op.offset : op.offset + op.limit]
        return [_item(fact, held, score, search=True) for fact, held, score in page]  # type: ignore[misc]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        users = {c.path[0] for c in conditions if c.match_type == "prefix" and c.path and c.path[0] != "*"}
        if len(users) != 1:
            raise InvalidNamespaceError("List namespaces under one user: prefix=(user_id, ...).")
        namespaces = {tuple(held["namespace"]) for _, held in self._held(users.pop())}
        namespaces = {ns for ns in namespaces if all(_condition_holds(c, ns) for c in conditions)}
        if op.max_depth is not None:
            namespaces = {ns[: op.max_depth] for ns in namespaces}
        return sorted(namespaces)[op.offset : op.offset + op.limit]


__all__ = ["MemoryServiceStore", "item_slot", "item_text"]

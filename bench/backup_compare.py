"""bench_backup's checks: the restored store against the live one and the backup's manifest.

Users and recalls are read through the ORM and recall.services.recall on each store in turn
(`recall.engines.sqlite.backup.connection_on` points this process's connection at the
restored file), so both sides run the same code. Index tables are not compared row for row
with the manifest: the restore drains the index outbox the backup caught mid-stream, so they
are checked for being whole.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from facts.models import Fact, FactHistory, MemoryUser
from recall.hits import FactHit
from recall.services import recall

# Rebuilt by the restore's index drain (and FTS5's segment tables change with every merge).
INDEX_TABLES = (
    *("recall_fts", "recall_episode_fts", "recall_doc", "recall_vector"),
    *("recall_episode_doc", "recall_episode_vector", "recall_pendingindex"),
)
RECALL_K = 10
# Tables that queued work may still write after the drill's idle wait (a streamed user's profile
# projection, queued every few turns and not visible as a waiting turn): their part of the
# erasures is read from the erase receipt (its count's key), not from counts around it.
ERASURE_FROM_RECEIPT = {"profiles_profile": "profiles"}


@dataclass
class Sample:
    users: list[tuple[str, str]]  # (tenant id, external id)
    queries: list[tuple[str, str, str]]  # (tenant id, external id, query)


def pick_sample(builder_tenant: str, people_tenant: str, people: list[str], n_users: int, queries) -> Sample:
    """`n_users` users of the built store (seeded choice) and the people told facts by API."""
    built = list(MemoryUser.objects.filter(tenant_id=builder_tenant).values_list("external_id", flat=True))
    chosen = random.Random(5).sample(sorted(built), k=min(n_users, len(built)))
    users = [(builder_tenant, e) for e in chosen] + [(people_tenant, e) for e in people]
    asked = [(builder_tenant, user.external_id, text) for user, text in queries]
    return Sample(users, asked)


def _user(tenant_id: str, external_id: str) -> MemoryUser | None:
    return MemoryUser.objects.filter(tenant_id=tenant_id, external_id=external_id).first()


def _facts_and_history(user: MemoryUser) -> dict:
    facts = Fact.objects.filter(user=user).order_by("uuid")
    history = FactHistory.objects.filter(user=user).order_by("fact_uuid", "pk")
    return {
        "facts": [
            [str(v) for v in row] for row in facts.values_list("uuid", "text", "status", "valid_from", "valid_to")
        ],
        "history": [[str(v) for v in row] for row in history.values_list("fact_uuid", "action")],
    }


def state_of(sample: Sample) -> dict:
    """The sample's facts, their history and recall answers on the store this connection is on."""
    users = {}
    for tenant_id, external_id in sample.users:
        user = _user(tenant_id, external_id)
        users[external_id] = _facts_and_history(user) if user else None
    answers = []
    for tenant_id, external_id, text in sample.queries:
        user = _user(tenant_id, external_id)
        hits = recall(user=user, query=text, k=RECALL_K, log=False).items if user else []
        answers.append([str(hit.fact.uuid) for hit in hits if isinstance(hit, FactHit)])  # facts only
    return {"users": users, "recalls": answers}


def compare_states(live: dict, restored: dict) -> dict:
    """A recall is equal when it answers with the same facts. Their order may differ among near
    ties: BM25's statistics are the whole index's, and the live store also holds the turns streamed
    after the backup, which the restored one does not, so two near-tied facts can swap (a CI run
    under load swapped the fourth and fifth of ten; `recalls_in_the_same_order` still counts the exact orders)."""
    users_equal = [name for name, held in live["users"].items() if held is not None and restored["users"][name] == held]
    pairs = list(zip(live["recalls"], restored["recalls"], strict=True))
    recalls_equal = sum(1 for a, b in pairs if sorted(a) == sorted(b))
    differing = [{"live": a, "restored": b} for a, b in pairs if a != b]
    return {
        "users": len(live["users"]),
        "users_equal": len(users_equal),
        "facts_compared": sum(len(held["facts"]) for held in live["users"].values() if held),
        "history_rows_compared": sum(len(held["history"]) for held in live["users"].values() if held),
        "recalls": len(live["recalls"]),
        "recalls_equal": recalls_equal,
        "recalls_in_the_same_order": len(pairs) - len(differing),
        "recalls_with_answers": sum(1 for a in live["recalls"] if a),
        "recall_differences": differing[:3],
        "all_equal": len(users_equal) == len(live["users"]) and recalls_equal == len(live["recalls"]),
    }


def _is_index(table: str) -> bool:
    return table.startswith(INDEX_TABLES)


def compare_counts(
    manifest: dict[str, int], before: dict[str, int], after: dict[str, int], restored: dict, receipt: dict
) -> dict:
    """Every table but the index's: restored = manifest + what the two erasures changed on the
    live store (counted around them with the stream stopped and the worker idle; for the tables of
    ERASURE_FROM_RECEIPT, what the erase receipt says it deleted)."""
    delta = {t: after.get(t, 0) - before.get(t, 0) for t in set(before) | set(after)}
    delta |= {table: -int(receipt.get(key) or 0) for table, key in ERASURE_FROM_RECEIPT.items()}
    wrong = {
        t: {"manifest": n, "erasures": delta.get(t, 0), "restored": restored.get(t)}
        for t, n in manifest.items()
        if not _is_index(t) and restored.get(t) != n + delta.get(t, 0)
    }
    index = {t: (manifest[t], restored.get(t)) for t in manifest if _is_index(t)}
    # restore's drain writes the lexical rows of what the backup caught unindexed; a process
    # that does not embed hands their texts to the embed queue, so their vectors wait for a worker.
    lexical = {restored.get(t) for t in ("recall_doc", "recall_fts_content", "recall_fts_docsize")}
    return {
        "tables_compared": sum(1 for t in manifest if not _is_index(t)),
        "unequal": wrong,
        "erasure_delta": {t: d for t, d in sorted(delta.items()) if d},
        "index_manifest_vs_restored": index,
        "index_whole": len(lexical) == 1,
        "vectors_waiting_for_a_worker": (restored.get("recall_doc") or 0) - (restored.get("recall_vector") or 0),
        "equal_but_erasures": not wrong and set(manifest) == set(restored),
    }


def texts_in_files(folder: Path, texts: dict[str, str]) -> dict[str, list[str]]:
    """For each named text, the files under `folder` that hold its bytes. Plain reads are safe
    here: this process has no connection open on these files any more (tests/db_files.py)."""
    found: dict[str, list[str]] = {name: [] for name in texts}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        for name, text in texts.items():
            if text.encode() in data:
                found[name].append(str(path.relative_to(folder)))
    return found

"""Settings of the memory itself: the write path, extraction, webhooks, embeddings and recall,
profiles and the context block; and the periodic tasks they need."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

from memory_service.environment import NOT_AN_ADDRESS
from memory_service.settings.base import env
from memory_service.settings.database import (
    DATABASE_ENGINE,
    MEMORY_BACKUP_EVERY_HOURS,
    MEMORY_POSTGRES_COMPACT_SECONDS,
    MEMORY_POSTGRES_ERASE_VACUUM,
)
from memory_service.settings.tasks import CELERY_TASK_TIME_LIMIT

# --- Memory: write path (docs/design.md §3) ------------------------------------------------
MEMORY_HIGH_RISK_CATEGORIES = env.list("MEMORY_HIGH_RISK_CATEGORIES", default=["identity", "health", "finance"])
MEMORY_FIRST_MENTION_CONFIDENCE = env.float("MEMORY_FIRST_MENTION_CONFIDENCE", default=0.40, minimum=0, maximum=1)
MEMORY_CONFIDENCE_STEP = env.float("MEMORY_CONFIDENCE_STEP", default=0.30, minimum=0, maximum=1)
MEMORY_CONFIRMED_CONFIDENCE = env.float("MEMORY_CONFIRMED_CONFIDENCE", default=0.90, minimum=0, maximum=1)
MEMORY_MAX_FACT_CHARS = env.int("MEMORY_MAX_FACT_CHARS", default=500, minimum=1)
MEMORY_PROFILE_BUDGET_CHARS = env.int("MEMORY_PROFILE_BUDGET_CHARS", default=8_000, minimum=1)
MEMORY_OTHER_BUDGET_CHARS = env.int("MEMORY_OTHER_BUDGET_CHARS", default=60_000, minimum=1)
# A fact's value_json as JSON text (non-ASCII escaped); it counts against the budgets above too.
MEMORY_VALUE_JSON_MAX_BYTES = env.int("MEMORY_VALUE_JSON_MAX_BYTES", default=16_384, minimum=0)
# The most a list of facts answers in one page (GET /users/{id}/facts); the rest on next_cursor.
MEMORY_LIST_MAX_BYTES = env.int("MEMORY_LIST_MAX_BYTES", default=1_048_576, minimum=65_536)
MEMORY_MAX_TURN_CHARS = env.int("MEMORY_MAX_TURN_CHARS", default=20_000, minimum=1)
# "Don't remember this": the rules, OR (when on) a classifier on the local MiniLM model that reads
# the phrasings they miss (facts/consent_model.py; ~5 ms more CPU per turn POST). Trained with
# ordinary conversation among its negatives, it flagged none of 2,760 + 19,085 ordinary messages
# it never saw (docs/design.md §13, "Ordinary conversation").
MEMORY_CONSENT_CLASSIFIER = env.bool("MEMORY_CONSENT_CLASSIFIER", default=True)
# Imports of a person's history (importer/): the pace, a pause while the tenant's extraction
# queue is longer than this, and the largest export the API takes (the command takes any).
MEMORY_IMPORT_TURNS_PER_SECOND = env.int("MEMORY_IMPORT_TURNS_PER_SECOND", default=5, minimum=1)
MEMORY_IMPORT_MAX_WAITING = env.int("MEMORY_IMPORT_MAX_WAITING", default=20, minimum=1)
# Live readers first (docs/api.md, "Import"): while the service answers more than this many
# recalls and context blocks a second, an import posts one turn every MEMORY_IMPORT_BUSY_SECONDS.
MEMORY_IMPORT_YIELD_ABOVE = env.float("MEMORY_IMPORT_YIELD_ABOVE", default=5.0, minimum=0)
MEMORY_IMPORT_BUSY_SECONDS = env.float("MEMORY_IMPORT_BUSY_SECONDS", default=10.0, minimum=1)
MEMORY_IMPORT_MAX_BYTES = env.int("MEMORY_IMPORT_MAX_BYTES", default=20_971_520, minimum=1024)

# --- Memory: extraction (docs/design.md §4) ------------------------------------------------
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.url("OPENAI_BASE_URL", "", {"http", "https"}, "https://api.example.org/v1")
MEMORY_LLM_MODEL = env.str("MEMORY_LLM_MODEL", default="gpt-4.1-mini")
MEMORY_LLM_TIMEOUT_SECONDS = env.float("MEMORY_LLM_TIMEOUT_SECONDS", default=30.0, minimum=0.001)
MEMORY_LLM_MAX_TRIES = env.int("MEMORY_LLM_MAX_TRIES", default=3, minimum=1)
MEMORY_EXTRACTION_FACTS_CHARS = env.int("MEMORY_EXTRACTION_FACTS_CHARS", default=6_000, minimum=0)
MEMORY_LLM_BACKOFF_SECONDS = env.float("MEMORY_LLM_BACKOFF_SECONDS", default=2.0, minimum=0)
MEMORY_LLM_JSON_MODE = env.bool("MEMORY_LLM_JSON_MODE", default=True)
# Off: every turn goes to the extractor (facts/extraction/salience.py says what the gate skips).
MEMORY_SALIENCE_GATE = env.bool("MEMORY_SALIENCE_GATE", default=True)
# The longest one extraction call may take: two completions (the re-ask), each up to
# MAX_TRIES timeouts with the backoffs between them (facts/extraction/llm.py). The
# call_extractor task's time limits are derived from it, so a slow endpoint fails a
# turn with the endpoint's reason, never with Celery's soft time limit.
MEMORY_LLM_WORST_CASE_SECONDS = 2 * (
    max(1, MEMORY_LLM_MAX_TRIES) * MEMORY_LLM_TIMEOUT_SECONDS
    + sum(MEMORY_LLM_BACKOFF_SECONDS * 2**i for i in range(max(1, MEMORY_LLM_MAX_TRIES) - 1))
)
# The periodic sweep of turns nobody will finish (facts.tasks.sweep_turns, run by
# Celery beat; `make run` embeds beat in its worker with -B).
MEMORY_TURN_SWEEP_SECONDS = env.int("MEMORY_TURN_SWEEP_SECONDS", default=300, minimum=1)
MEMORY_TURN_STUCK_SECONDS = env.int(
    "MEMORY_TURN_STUCK_SECONDS",
    default=max(900, int(MEMORY_LLM_WORST_CASE_SECONDS) + 2 * CELERY_TASK_TIME_LIMIT),
    minimum=1,
)
MEMORY_TURN_MAX_ATTEMPTS = env.int("MEMORY_TURN_MAX_ATTEMPTS", default=5, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "sweep-turns": {"task": "facts.sweep_turns", "schedule": float(MEMORY_TURN_SWEEP_SECONDS)},
    # Episode retention (off unless MEMORY_EPISODE_RETENTION_DAYS is set), once an hour.
    "expire-episodes": {"task": "facts.expire_episodes", "schedule": 3600.0},
    # The index's safety net: what a lost message or a crash left in its outbox (recall/indexer.py).
    "drain-index": {
        "task": "recall.drain_index",
        "schedule": float(env.int("MEMORY_INDEX_DRAIN_SECONDS", default=30, minimum=1)),
    },
}
if DATABASE_ENGINE == "postgresql" and MEMORY_POSTGRES_ERASE_VACUUM != "off":
    CELERY_BEAT_SCHEDULE["compact-erasures"] = {
        "task": "memory_service.compact_erasures",
        "schedule": float(MEMORY_POSTGRES_COMPACT_SECONDS),
    }
if MEMORY_BACKUP_EVERY_HOURS > 0:
    CELERY_BEAT_SCHEDULE["backup"] = {"task": "memory_service.backup", "schedule": MEMORY_BACKUP_EVERY_HOURS * 3600}
# Webhooks (webhooks/, docs/api.md "Webhooks"): the outbox's sweep, the request timeout, and the
# retries: a failed delivery waits BACKOFF x 2^(attempt-1) seconds (at most BACKOFF_MAX) and is
# given up after MAX_ATTEMPTS (the defaults retry for about 6 hours).
MEMORY_WEBHOOK_SWEEP_SECONDS = env.float("MEMORY_WEBHOOK_SWEEP_SECONDS", default=5.0, minimum=0.1)
MEMORY_WEBHOOK_TIMEOUT_SECONDS = env.float("MEMORY_WEBHOOK_TIMEOUT_SECONDS", default=5.0, minimum=0.1, maximum=60)
MEMORY_WEBHOOK_BACKOFF_SECONDS = env.float("MEMORY_WEBHOOK_BACKOFF_SECONDS", default=10.0, minimum=0.01)
MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS = env.float("MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS", default=3600.0, minimum=0.01)
MEMORY_WEBHOOK_MAX_ATTEMPTS = env.int("MEMORY_WEBHOOK_MAX_ATTEMPTS", default=15, minimum=1)
# The delivery log (delivered and given-up rows) is kept this many days, then pruned hourly.
MEMORY_WEBHOOK_LOG_DAYS = env.int("MEMORY_WEBHOOK_LOG_DAYS", default=30, minimum=1)
CELERY_BEAT_SCHEDULE["prune-webhook-log"] = {"task": "webhooks.prune_log", "schedule": 3600.0}


def _networks(raw: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(part.strip(), strict=False) for part in raw.split(",") if part.strip()]


# Where webhooks may go (webhooks/addresses.py): public addresses only, unless the operator
# allows networks of their own (CIDRs), or every address (a single host, the tests).
MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS = env.bool("MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS", default=False)
MEMORY_WEBHOOK_ALLOWED_NETWORKS = [
    str(network)
    for network in _networks(
        env.checked(
            "MEMORY_WEBHOOK_ALLOWED_NETWORKS", "", "networks like 10.0.0.0/8,fd00::/8", _networks, NOT_AN_ADDRESS
        )
    )
]
CELERY_BEAT_SCHEDULE["deliver-webhooks"] = {"task": "webhooks.deliver_due", "schedule": MEMORY_WEBHOOK_SWEEP_SECONDS}

# --- Memory: embeddings and recall (docs/design.md §5) -------------------------------------
MEMORY_EMBEDDER = env.choice("MEMORY_EMBEDDER", "local", ("local", "openai"))
MEMORY_EMBEDDING_MODEL = env.str("MEMORY_EMBEDDING_MODEL", default="")
# MEMORY_EMBEDDER=local: which packaged model (recall/embeddings.py; docs/measurements.md §18, §28:
# the int8 copy of all-MiniLM-L6-v2 recalls as well as the float model for about 0.6 of its CPU).
# A store that has switched models with `manage.py embedder_switch` serves the one it records.
MEMORY_EMBEDDING_LOCAL_MODEL = env.choice(
    "MEMORY_EMBEDDING_LOCAL_MODEL",
    "all-MiniLM-L6-v2-int8",
    ("all-MiniLM-L6-v2", "all-MiniLM-L6-v2-int8", "multilingual-e5-small-q4"),
)
MEMORY_EMBEDDING_BASE_URL = env.url("MEMORY_EMBEDDING_BASE_URL", "", {"http", "https"}, "https://api.example.org/v1")
# One intra-op thread per process by default: web workers and pool processes already
# fill the cores, and torch's threads spin-wait for each other when a core is taken,
# so a query that takes 18 ms on one thread took up to 1 s on two under load
# (docs/measurements.md, "Torch threads under load").
# (MEMORY_TORCH_THREADS is this setting's older name and is still read.)
MEMORY_EMBEDDING_THREADS = env.int(
    "MEMORY_EMBEDDING_THREADS", default=env.int("MEMORY_TORCH_THREADS", default=1, minimum=1), minimum=1
)
# The local model runs on ONNX Runtime (a query in 4.7 ms instead of 11.4 ms on torch,
# the same vectors; docs/measurements.md) or on torch, as before.
MEMORY_EMBEDDING_RUNTIME = env.choice("MEMORY_EMBEDDING_RUNTIME", "onnx", ("onnx", "torch"))
# The ONNX export of the packaged model is made from the installed package, so by
# default it lives with the installation (the venv), shared by every var dir.
MEMORY_MODEL_DIR = Path(env.str("MEMORY_MODEL_DIR", default=str(Path(sys.prefix) / "share" / "memory-service")))
MEMORY_RECALL_DEFAULT_K = env.int("MEMORY_RECALL_DEFAULT_K", default=20, minimum=1)
MEMORY_EMBEDDING_TIMEOUT_SECONDS = env.float("MEMORY_EMBEDDING_TIMEOUT_SECONDS", default=10.0, minimum=0.001)
MEMORY_EMBED_BATCH_SIZE = env.int("MEMORY_EMBED_BATCH_SIZE", default=64, minimum=1)
# Items of the index outbox written per transaction when a backlog is drained.
MEMORY_INDEX_BATCH = env.int("MEMORY_INDEX_BATCH", default=256, minimum=1)
# Recall tuning (the README's Recall section has the ablation behind each default).
MEMORY_RECALL_FUSION = env.choice("MEMORY_RECALL_FUSION", "rrf", ("rrf", "linear"))
MEMORY_RECALL_LEXICAL_WEIGHT = env.float("MEMORY_RECALL_LEXICAL_WEIGHT", default=3.0, minimum=0)
MEMORY_RECALL_VECTOR_WEIGHT = env.float("MEMORY_RECALL_VECTOR_WEIGHT", default=3.0, minimum=0)
MEMORY_RECALL_CANDIDATES = env.int("MEMORY_RECALL_CANDIDATES", default=50, minimum=1)
MEMORY_RECALL_MIN_SIMILARITY = env.float("MEMORY_RECALL_MIN_SIMILARITY", default=0.0, minimum=-1, maximum=1)
MEMORY_RECALL_LEXICAL_FLOOR = env.float("MEMORY_RECALL_LEXICAL_FLOOR", default=0.0, minimum=0, maximum=1)
MEMORY_RECALL_SCORE_DAMPING = env.bool("MEMORY_RECALL_SCORE_DAMPING", default=True)
MEMORY_RECALL_FULL_FUSION = env.bool("MEMORY_RECALL_FULL_FUSION", default=True)
MEMORY_RECALL_RESCORE_DEPTH = env.int("MEMORY_RECALL_RESCORE_DEPTH", default=500, minimum=1)
MEMORY_RECALL_UNIVERSAL_SHARE = env.float("MEMORY_RECALL_UNIVERSAL_SHARE", default=0.3, minimum=0, maximum=1)
MEMORY_RECALL_UNIVERSAL_MIN_FACTS = env.int("MEMORY_RECALL_UNIVERSAL_MIN_FACTS", default=20, minimum=0)
MEMORY_RECALL_EMBED_CONTEXT = env.bool("MEMORY_RECALL_EMBED_CONTEXT", default=True)
MEMORY_RECALL_EXCHANGE_CHARS = env.int("MEMORY_RECALL_EXCHANGE_CHARS", default=300, minimum=0)
MEMORY_RECALL_HALF_LIFE_DAYS = env.float("MEMORY_RECALL_HALF_LIFE_DAYS", default=7.0, minimum=0.001)
MEMORY_RECALL_TIME_WEIGHT = env.float("MEMORY_RECALL_TIME_WEIGHT", default=3.0, minimum=0)
# Hybrid recall: a hit's score grows by up to this share the newer it is (docs/recall.md, "Newer first").
MEMORY_RECALL_RECENCY_WEIGHT = env.float("MEMORY_RECALL_RECENCY_WEIGHT", default=0.2, minimum=0, maximum=1)
# Hybrid recall: hits scoring at least the best's 1/ratio go newest first (docs/recall.md); 1 = off.
MEMORY_RECALL_LEADER_RATIO = env.float("MEMORY_RECALL_LEADER_RATIO", default=1.5, minimum=1)
MEMORY_RECALL_EPISODE_MERGE = env.bool("MEMORY_RECALL_EPISODE_MERGE", default=True)
# With episodes asked for, a fact hit whose source turn was not folded into it still returns that
# turn's words as its quote (recall.episodes.quote_sources; docs/measurements.md §23).
MEMORY_RECALL_QUOTE_SOURCES = env.bool("MEMORY_RECALL_QUOTE_SOURCES", default=True)
# What a turn's index entry holds: its words, or its words and the live facts extracted from it
# (docs/recall.md "Turn keys"; after a change run reindex_embeddings).
MEMORY_RECALL_TURN_KEYS = env.choice("MEMORY_RECALL_TURN_KEYS", "words+facts", ("words", "words+facts"))
# With words+facts keys and both sources asked for, a fact its turn's key holds is ranked through
# that turn and returned folded into it (recall.through_turns; docs/recall.md).
MEMORY_RECALL_FACTS_THROUGH_TURNS = env.bool("MEMORY_RECALL_FACTS_THROUGH_TURNS", default=True)
# Episodes (processed turns) older than this many days are deleted by a periodic task; unset keeps them.
MEMORY_EPISODE_RETENTION_DAYS = env.int("MEMORY_EPISODE_RETENTION_DAYS", default=None, minimum=1)

# --- Memory: profiles and context (docs/design.md §6) --------------------------------------
MEMORY_PROFILE_EVERY_TURNS = env.int("MEMORY_PROFILE_EVERY_TURNS", default=5, minimum=1)
MEMORY_PROFILE_RECENT_DAYS = env.int("MEMORY_PROFILE_RECENT_DAYS", default=7, minimum=0)
MEMORY_PROFILE_KEEP_VERSIONS = env.int("MEMORY_PROFILE_KEEP_VERSIONS", default=20, minimum=1)
MEMORY_CONTEXT_MAX_TOKENS = env.int("MEMORY_CONTEXT_MAX_TOKENS", default=32_000, minimum=1)
MEMORY_CONTEXT_MIN_CONFIDENCE = env.float("MEMORY_CONTEXT_MIN_CONFIDENCE", default=0.5, minimum=0, maximum=1)
MEMORY_CONTEXT_STALE_DAYS = env.int("MEMORY_CONTEXT_STALE_DAYS", default=90, minimum=1)
MEMORY_CONTEXT_TASK_STALE_DAYS = env.int("MEMORY_CONTEXT_TASK_STALE_DAYS", default=14, minimum=1)

"""Time profile projection and context blocks on a throwaway tenant, then erase it.

    manage.py bench_context [--facts 200] [--requests 50] [--budgets 64,512,4000] [--json OUT]

The facts go through the real write path and the real recall index (indexed
inline, with the configured embedder); nothing of the run is left behind.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from core.queues import inline
from core.stats import percentile
from facts import services
from facts.models import Fact, Tenant
from profiles.services import context_block, profile_refresh
from profiles.tokens import count_tokens

CATEGORIES = [
    ("hard_preference", "User never schedules meetings before {n} am."),
    ("identity", "User has a colleague number {n} called Alex{n}."),
    ("soft_preference", "User prefers concise answers with code sample {n}."),
    ("task_context", "User is migrating service {n} from MySQL to Postgres this sprint, one table at a time."),
    ("project", "User maintains open-source library number {n} for parsing calendar files."),
    ("environment", "User runs build machine {n} on Debian with Python 3.11."),
    ("health", "User is allergic to ingredient number {n}."),
    ("other", "User visited city number {n} last spring and liked the trams."),
]
QUERIES = ["How is the Postgres migration going?", "What should I cook tonight?", "Which Python version do I use?", ""]


def _ms(value: float | None) -> float | None:
    # None when there were no samples (e.g. --requests below the number of queries).
    return None if value is None else round(value, 2)


def _p(values: list[float]) -> dict:
    return {"p50_ms": _ms(percentile(values, 0.5)), "p95_ms": _ms(percentile(values, 0.95))}


class Command(BaseCommand):
    help = "Time profile projection and context-block building on a throwaway tenant (erased afterwards)."

    def add_arguments(self, parser):
        parser.add_argument("--facts", type=int, default=200, help="facts of the measured user")
        parser.add_argument("--requests", type=int, default=50, help="context requests per budget")
        parser.add_argument("--budgets", default="64,512,4000", help="max_tokens values, comma separated")
        parser.add_argument("--json", dest="json_out", help="also write the results to this file")

    def handle(self, *args, facts: int, requests: int, budgets: str, json_out: str | None, **options):
        try:
            budget_list = [int(b) for b in budgets.split(",") if b.strip()]
        except ValueError as exc:
            raise CommandError("--budgets takes whole numbers separated by commas, e.g. 64,512,4000.") from exc
        if facts < 1 or requests < 1 or not budget_list:
            raise CommandError("--facts and --requests must be positive and --budgets not empty.")

        # Index inline so recall sees the facts without a running worker.
        with inline():
            tenant = Tenant.objects.create(name=f"bench-context-{uuid.uuid4().hex[:8]}")
            user = services.memory_user_get_or_create(tenant=tenant, user_id="bench-user")
            try:
                results = self._run(user, facts, requests, budget_list)
            finally:
                from facts.privacy import user_erase

                user_erase(user=user, actor=services.SYSTEM)
                tenant.delete()
        self.stdout.write(json.dumps(results, indent=2))
        if json_out:
            Path(json_out).write_text(json.dumps(results, indent=2))

    def _run(self, user, facts: int, requests: int, budgets: list[int]) -> dict:
        for n in tqdm(range(facts), desc="storing facts", unit="fact"):
            category, template = CATEGORIES[n % len(CATEGORIES)]
            services.fact_store(user=user, text=template.format(n=n), actor=services.SYSTEM, category=category)
        live = Fact.objects.live().filter(user=user).count()

        projection = []
        for _ in range(5):
            user.refresh_from_db()
            user.facts_version += 1  # force a new version each time: this times a real rebuild
            user.save(update_fields=["facts_version"])
            started = time.perf_counter()
            profile_refresh(user_pk=user.pk)
            projection.append((time.perf_counter() - started) * 1000)

        blocks = {}
        total = len(budgets) * requests
        with tqdm(total=total, desc="context blocks", unit="block") as bar:
            for budget in budgets:
                with_query: list[float] = []
                without_query: list[float] = []
                tokens: list[int] = []
                for i in range(requests):
                    query = QUERIES[i % len(QUERIES)]
                    started = time.perf_counter()
                    block = context_block(user=user, query=query, max_tokens=budget)
                    ms = (time.perf_counter() - started) * 1000
                    (with_query if query else without_query).append(ms)
                    tokens.append(block.tokens)
                    assert block.tokens <= budget and count_tokens(block.text) == block.tokens
                    bar.update(1)
                blocks[str(budget)] = {
                    "with_query": _p(with_query),
                    "without_query": _p(without_query),
                    "tokens_max": max(tokens),
                }
        return {"facts": facts, "live_facts": live, "projection": _p(projection), "context": blocks}

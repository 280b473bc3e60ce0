"""manage.py bench_embedder_switch: recall's latency while the embedding model is rebuilt and
switched on a live store (recall/switch.py, docs/measurements.md §18)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from django.test.utils import override_settings

from bench import locomo, locomo_data
from bench.embedding_cache import CachingEmbedder, load_embedding_cache, save_embedding_cache
from recall import switch, vec
from recall.embeddings import E5_MODEL_NAME, embedder_for, get_embedder, query_cache
from recall.models import EmbedderSwitch
from recall.services import recall
from recall.tables import EPISODES, FACTS

PHASES = ("before", "building", "switching", "after")


class Command(BaseCommand):
    help = (
        "On a store with no model switch on record: load LoCoMo conversations (corpus both) with the "
        "live model, then recall their questions in a loop in another thread (hybrid, facts and episodes, "
        "k=10, the query embedded every time) while this thread builds --to's vectors and switches; "
        "print recall's latency per phase, errors and empty answers. The store is left as it was."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them")
        parser.add_argument("--conversations", type=int, default=2, help="how many conversations (2)")
        parser.add_argument("--to", default=E5_MODEL_NAME, help=f"the model to switch to ({E5_MODEL_NAME})")
        parser.add_argument("--seconds", type=float, default=20.0, help="recalls before and after (20 s each)")
        parser.add_argument("--embedding-cache", help="an .npz memo of the live model's corpus embeddings")

    def handle(self, *args, data, conversations, to, seconds, embedding_cache, **options):
        if EmbedderSwitch.objects.exists() or vec.total_rows(FACTS) or vec.total_rows(EPISODES):
            raise CommandError("This store has vectors or a model switch on record; run this on a fresh store.")
        embedder_for(to)
        cache = Path(embedding_cache) if embedding_cache else None
        chosen = locomo_data.load_conversations(Path(data))[: max(1, conversations)]
        live = get_embedder()
        embedder = CachingEmbedder(live, load_embedding_cache(cache, live.model_name))
        with override_settings(DEBUG=False):
            loaded = locomo.load(chosen, "both", embedder=embedder)
            save_embedding_cache(cache, embedder.cache, embedder.model_name)
            try:
                samples, errors, empty, took = self._measure(loaded, to, seconds)
            finally:
                locomo.unload(loaded)  # the users' vectors in both tables go with them
                EmbedderSwitch.objects.all().delete()
        self.stdout.write(
            f"build {took['building']:.1f} s, switch {took['switching']:.2f} s; errors {len(errors)}, empty {empty}"
        )
        self.stdout.write("| phase | recalls | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|")
        for phase in PHASES:
            ms = np.array(samples[phase]) * 1000
            if len(ms):
                p50, p95 = np.percentile(ms, 50), np.percentile(ms, 95)
                self.stdout.write(f"| {phase} | {len(ms)} | {p50:.1f} | {p95:.1f} | {ms.max():.1f} |")
        for error in errors[:5]:
            self.stderr.write(error)

    @staticmethod
    def _measure(loaded, to: str, seconds: float):
        asked = [(user, q) for user, _, qas in loaded.users for q, _ in qas]
        phase = ["before"]
        samples: dict[str, list[float]] = {p: [] for p in PHASES}
        errors: list[str] = []
        empty = [0]
        stop = threading.Event()

        def ask_in_a_loop() -> None:
            try:
                n = 0
                while not stop.is_set():
                    user, question = asked[n % len(asked)]
                    n += 1
                    query_cache.clear()  # every recall embeds its query, as a new question does
                    now, started = phase[0], time.perf_counter()
                    try:
                        result = recall(user=user, query=question, k=10, log=False, sources=("facts", "episodes"))
                        empty[0] += not result.items
                    except Exception as exc:
                        errors.append(f"{type(exc).__name__}: {exc}")
                    samples[now].append(time.perf_counter() - started)
            finally:
                connections.close_all()

        thread = threading.Thread(target=ask_in_a_loop)
        took: dict[str, float] = {}
        thread.start()
        try:
            time.sleep(seconds)
            phase[0], started = "building", time.perf_counter()
            switch.start(to)
            switch.build()
            took["building"] = time.perf_counter() - started
            phase[0], started = "switching", time.perf_counter()
            switch.switch()
            took["switching"] = time.perf_counter() - started
            phase[0] = "after"
            time.sleep(seconds)
        finally:
            stop.set()
            thread.join(timeout=120)
        return samples, errors, empty[0], took

"""One `eval_pipeline` run inside the throwaway environment (bench/throwaway.py):
replay through the service, account for every observation, score recall both ways."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from django.test.utils import override_settings
from tqdm import tqdm

from bench import embedding_cache, locomo, locomo_data, throwaway
from bench.pipeline import replay, report
from bench.pipeline.data import first_turns
from bench.pipeline.replay_llm import ReplayExtractor, conversation_plan, replay_server
from facts.models import ApiKey, MemoryUser, Tenant
from recall.embeddings import get_embedder


@dataclass
class Options:
    data: Path
    pace: float
    ks: list[int]
    modes: list[str]
    max_turns: int | None
    concurrency: int
    timeout: float
    stall: float


def read_conversations(path: Path, max_turns: int | None) -> list[tuple[str, dict]]:
    conversations = locomo_data.load_conversations(path)
    if max_turns:
        conversations = [(name, first_turns(conv, max_turns)) for name, conv in conversations]
    return conversations


def _score(users, modes, ks, label, stderr) -> dict:
    loaded = locomo.Loaded(tenant=None, users=users)
    n = locomo.question_count(loaded) * len(modes)
    with tqdm(total=n, desc=f"recall {label}", unit="q", file=stderr) as bar:
        return locomo.evaluate(loaded, modes, ks, progress=bar.update, time_embedding=False)


def _replay(options: Options, conversations, workdir: Path, stderr) -> tuple[dict, dict[str, MemoryUser], dict]:
    """Post everything through a live server and worker; (report, users, provenance)."""
    plans = [conversation_plan(name, conv) for name, conv in conversations]
    extractor = ReplayExtractor(plans)
    llm_server = replay_server(extractor).start()
    llm_url = llm_server.url
    tenant = Tenant.objects.create(name="eval-pipeline")
    _, api_key = ApiKey.objects.issue(tenant=tenant, name="eval_pipeline", scopes=["read", "write"])
    total = sum(len(plan.turns) for plan in plans)
    try:
        llm_env = {"OPENAI_API_KEY": "replay", "OPENAI_BASE_URL": llm_url, "MEMORY_LLM_BACKOFF_SECONDS": "0.2"}
        with throwaway.service(workdir=workdir, concurrency=options.concurrency, env=llm_env) as stack:
            base_url, worker = stack.url, stack.worker
            started = time.monotonic()
            with tqdm(total=total, desc="posting turns", unit="turn", file=stderr) as bar:
                replay.post_turns(base_url, api_key, plans, pace=options.pace, progress=bar.update)
            posted_s = time.monotonic() - started
            users = {
                p.name: MemoryUser.objects.get(tenant=tenant, external_id=replay.user_id_for(p.name)) for p in plans
            }
            with tqdm(total=total, desc="worker", unit="turn", file=stderr) as bar:
                open_work = replay.wait_for_worker(
                    list(users.values()), total, timeout=options.timeout, stall=options.stall, progress=bar.update
                )
            wall_s = time.monotonic() - started
            open_work["worker_restarts"] = worker.restarts
    finally:
        llm_server.stop()
    result, provenance = report.analyse(plans, users, extractor)
    result["open_at_end"] = open_work
    result["turn_ms"]["wall_per_turn"] = round(wall_s * 1000 / total, 1) if total else None
    result["seconds"] = {"posting": round(posted_s, 1), "until_drained": round(wall_s, 1)}
    return result, users, provenance


def run(options: Options, workdir: Path, stderr) -> dict:
    """The measurement, inside the throwaway folder `workdir` (bench/throwaway.py)."""
    conversations = read_conversations(options.data, options.max_turns)
    result, users, provenance = _replay(options, conversations, workdir, stderr)
    questions = {name: locomo_data.questions(conv) for name, conv in conversations}
    # Query logging would keep every statement of the recalls in memory.
    with override_settings(DEBUG=False):
        pipeline_users = [(users[name], provenance.get(name, {}), questions[name]) for name, _ in conversations]
        pipeline = _score(pipeline_users, options.modes, options.ks, "pipeline", stderr)
        embedder = embedding_cache.CachingEmbedder(get_embedder())
        total_items = sum(len(locomo_data.corpus_items(c, "observations")) for _, c in conversations)
        with tqdm(total=total_items, desc="direct load", unit="fact", file=stderr) as bar:
            loaded = locomo.load(conversations, "observations", progress=bar.update, embedder=embedder)
        direct = _score(loaded.users, options.modes, options.ks, "direct", stderr)
    result["questions"] = sum(len(q) for q in questions.values())
    result["recall"] = {"pipeline": pipeline, "direct_load": direct}
    return result

"""manage.py eval_recall: LoCoMo retrieval evaluation and the lexical/vector/hybrid ablation."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings
from tqdm import tqdm

from bench import locomo, locomo_data, longmemeval, longmemeval_report, longmemeval_shards
from bench.embedding_cache import CachingEmbedder, OtherModelsCache, load_embedding_cache, save_embedding_cache
from bench.options import k_list
from core import engine
from recall.embeddings import get_embedder
from recall.models import EvalRun
from recall.services import MODES


def _mode_list(raw: str) -> list[str]:
    modes = [m.strip() for m in raw.split(",") if m.strip()]
    if bad := [m for m in modes if m not in (*MODES, "recency")]:
        raise CommandError(f"Unknown mode(s) {bad}; choose from {', '.join(MODES)} or recency.")
    return modes


def _conversations(path: Path, max_sessions: int | None) -> list[tuple[str, dict]]:
    try:
        conversations = locomo_data.load_conversations(path)
    except (OSError, ValueError) as exc:
        raise CommandError(f"Could not read {path}: {exc}") from exc
    if max_sessions is None:
        return conversations
    if max_sessions < 1:
        raise CommandError("--max-sessions needs a positive number of sessions.")
    return [(name, locomo_data.first_sessions(conv, max_sessions)) for name, conv in conversations]


def _caching_embedder(cache_path: Path | None) -> CachingEmbedder:
    """The configured embedder behind the run's text -> vector memo (each distinct text embedded
    once a run), started from `--embedding-cache` when it names a file of the same model."""
    inner = get_embedder()
    try:
        return CachingEmbedder(inner, load_embedding_cache(cache_path, inner.model_name))
    except OtherModelsCache as exc:
        raise CommandError(str(exc)) from exc


class Command(BaseCommand):
    help = (
        "Load LoCoMo-format conversations into a throwaway tenant (one memory user each), run every "
        "category 1-4 question through recall in each mode, and print recall@k / hit@10 with deltas "
        "against lexical. The tenant is deleted afterwards. `--format longmemeval` runs LongMemEval questions "
        "instead (docs/api.md), optionally beside mem0 (`--baseline mem0`)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them")
        parser.add_argument(
            "--format",
            choices=("locomo", "longmemeval"),
            default="locomo",
            help="longmemeval: LongMemEval questions, corpora turns and both, k 5 and 10 (docs/api.md)",
        )
        parser.add_argument("--baseline", choices=("mem0",), help="longmemeval: also run mem0 on the same questions")
        parser.add_argument("--limit", type=int, help="longmemeval: only the first N questions")
        parser.add_argument(
            "--questions", help="longmemeval: only these question ids (comma-separated), in the file's order"
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="longmemeval on SQLite: share the questions among this many processes, each with its own "
            "store and MEMORY_EMBEDDING_THREADS / N threads (the same figures, sooner on idle cores)",
        )
        parser.add_argument("--shard", help=argparse.SUPPRESS)  # i/n: one share of a --jobs run
        parser.add_argument("--shard-out", help=argparse.SUPPRESS)  # where that share writes what it scored
        parser.add_argument("--corpus", choices=locomo_data.CORPORA, default="observations")
        parser.add_argument(
            "--modes", default="lexical,vector,hybrid", help="recall modes, and `recency` (newest facts first)"
        )
        parser.add_argument("--k", default="5,10,20")
        parser.add_argument("--json", dest="json_out", help="write the results as JSON here")
        parser.add_argument(
            "--per-question",
            help="LoCoMo: write one JSON line per question and mode here: the rank at which each evidence "
            "turn is first covered and what each item covers (where the misses are)",
        )
        parser.add_argument(
            "--no-context",
            action="store_true",
            help="index facts without their context (source excerpt, the exchange around the source turn)",
        )
        parser.add_argument(
            "--ablation",
            action="store_true",
            help="also run the release ablation (one retrieval idea added per row) and print its table",
        )
        parser.add_argument("--embedding-cache", help="an .npz file memoising corpus embeddings between runs")
        parser.add_argument(
            "--max-sessions",
            type=int,
            help="keep only each conversation's first N sessions and the questions about them (users with few facts)",
        )

    def handle(
        self, *args, data, corpus, modes, k, json_out, no_context, ablation, embedding_cache, max_sessions, **options
    ):
        path = Path(data)
        if not path.exists():
            raise CommandError(f"{path} does not exist; pass a LoCoMo JSON file or folder with --data.")
        mode_list = _mode_list(modes)
        cache_path = Path(embedding_cache) if embedding_cache else None
        if options["format"] == "longmemeval":
            picked = {q.strip() for q in options["questions"].split(",") if q.strip()} if options["questions"] else None
            return self._longmemeval(path, mode_list, json_out, cache_path, picked, options)
        ks = k_list(k)
        conversations = _conversations(path, max_sessions)
        embedder = _caching_embedder(cache_path)
        total_items = sum(len(locomo_data.corpus_items(c, corpus)) for _, c in conversations)

        sources = ("facts", "episodes") if corpus == "both" else ("facts",)
        records: list[dict] = []  # the main run's questions, for --per-question

        def run(with_context: bool, overrides: dict, time_embedding: bool, label: str):
            # The overrides cover indexing too: some change what text is embedded.
            with override_settings(**overrides):
                with tqdm(total=total_items, desc=f"indexing {label}", unit="fact", file=self.stderr) as bar:
                    loaded = locomo.load(
                        conversations, corpus, with_context=with_context, progress=bar.update, embedder=embedder
                    )
                try:
                    n = locomo.question_count(loaded)
                    with tqdm(total=n * len(mode_list), desc=f"recall {label}", unit="q", file=self.stderr) as bar:
                        main = locomo.evaluate(
                            loaded,
                            mode_list,
                            ks,
                            progress=bar.update,
                            time_embedding=time_embedding,
                            sources=sources,
                            per_question=None if overrides else records,
                        )
                    if corpus == "both" and not overrides:
                        self.source_rows = self._source_ablation(loaded, mode_list, ks)
                    return n, main
                finally:
                    locomo.unload(loaded)

        # Query logging would keep every statement of thousands of recalls in memory.
        with override_settings(DEBUG=False):
            n_questions, results = run(not no_context, {}, True, corpus)
            rows = []
            if ablation and corpus != "both":
                for name, with_context, overrides in locomo.ABLATION:
                    _, variant = run(with_context, overrides, False, name.split(":")[0][:24])
                    rows.append({"variant": name, **{m: variant[m]["recall@10"] for m in mode_list}})
                rows.append({"variant": locomo.DEFAULT_ROW, **{m: results[m]["recall@10"] for m in mode_list}})
        save_embedding_cache(cache_path, embedder.cache, embedder.model_name)
        if options["per_question"]:
            Path(options["per_question"]).write_text("".join(json.dumps(r) + "\n" for r in records))
        self._report(corpus, n_questions, results, rows or getattr(self, "source_rows", []), ks, mode_list, json_out)

    def _report(self, corpus, n_questions, results, rows, ks, mode_list, json_out) -> None:
        """The run kept (EvalRun), its tables printed, and its JSON written when asked."""
        payload = {"corpus": corpus, "questions": n_questions, "results": results}
        if rows:
            payload["ablation"] = rows
        EvalRun.objects.create(corpus=corpus, questions=n_questions, results=results)
        self.stdout.write(self._table(payload, ks))
        if rows:
            self.stdout.write(self._ablation_table(rows, mode_list))
        if json_out:
            Path(json_out).write_text(json.dumps(payload, indent=2))
            self.stdout.write(f"wrote {json_out}")

    def _longmemeval(
        self, path: Path, modes: list[str], json_out, cache_path: Path | None, picked: set[str] | None, options: dict
    ) -> None:
        if "recency" in modes:
            raise CommandError("--format longmemeval measures lexical, vector and hybrid only.")
        try:
            questions = [q for q in longmemeval.load_questions(path) if not q.abstention]
        except (OSError, ValueError, KeyError) as exc:
            raise CommandError(f"Could not read {path} as LongMemEval: {exc}") from exc
        if picked is not None:
            if unknown := picked - {q.id for q in questions}:
                raise CommandError(f"No such question(s) in {path}: {', '.join(sorted(unknown))}.")
            questions = [q for q in questions if q.id in picked]
        questions = questions[: options["limit"]]
        if options["jobs"] < 1:
            raise CommandError("--jobs needs at least 1 process.")
        if options["shard"]:
            return self._longmemeval_share(questions, modes, cache_path, options)
        messages = sum(len(s.messages) for q in questions for s in q.sessions)
        embedder = _caching_embedder(cache_path)
        seconds: dict[str, float] = {}
        started = time.perf_counter()
        with override_settings(DEBUG=False), tqdm(total=messages, desc="ours", unit="msg", file=self.stderr) as bar:
            if options["jobs"] > 1:
                ours = self._longmemeval_jobs(path, modes, cache_path, options, bar.update, embedder)
            else:
                ours = longmemeval_report.evaluate_ours(questions, modes, bar.update, embedder)
        seconds["ours"] = round(time.perf_counter() - started, 1)
        others = {}
        if options["baseline"] == "mem0":
            started = time.perf_counter()
            with tqdm(total=messages, desc="mem0", unit="msg", file=self.stderr) as bar:
                others["mem0"] = longmemeval_report.run_mem0(questions, bar.update, embedder)
            seconds["mem0"] = round(time.perf_counter() - started, 1)
        save_embedding_cache(cache_path, embedder.cache, embedder.model_name)
        data = longmemeval_report.payload(ours, others, seconds)
        EvalRun.objects.create(corpus="longmemeval", questions=len(questions), results=data["results"])
        self.stdout.write(longmemeval_report.table(data))
        self.stdout.write(f"seconds: {seconds}")
        if json_out:
            Path(json_out).write_text(json.dumps(data, indent=2))
            self.stdout.write(f"wrote {json_out}")

    def _longmemeval_jobs(self, path: Path, modes, cache_path, options: dict, progress, embedder):
        """The questions shared among `--jobs` processes (bench/longmemeval_shards.py)."""
        if not engine.current().embedded:
            raise CommandError("--jobs shares the run among SQLite stores of its own; on a server store run --jobs 1.")
        share_args = ["--data", str(path.resolve()), "--modes", ",".join(modes)]
        for flag in ("limit", "questions"):
            if options[flag] is not None:
                share_args += [f"--{flag}", str(options[flag])]
        if cache_path is not None:
            share_args += ["--embedding-cache", str(cache_path.resolve())]
        try:
            ours, vectors = longmemeval_shards.run(
                share_args, options["jobs"], progress, cache_path, embedder.model_name
            )
        except longmemeval_shards.ShareFailed as exc:
            raise CommandError(f"A share of the run failed: {exc}") from exc
        embedder.cache.update(vectors)
        return ours

    def _longmemeval_share(self, questions, modes, cache_path: Path | None, options: dict) -> None:
        """One share of a `--jobs` run: its questions scored, written for the parent, progress on stdout."""
        try:
            questions = longmemeval_shards.pick(questions, options["shard"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        embedder = _caching_embedder(cache_path)

        def progress(messages: int) -> None:
            self.stdout.write(f"{longmemeval_shards.PROGRESS}{messages}")
            self.stdout.flush()

        with override_settings(DEBUG=False):
            ours = longmemeval_report.evaluate_ours(questions, modes, progress, embedder)
        longmemeval_shards.write_share(Path(options["shard_out"]), ours, embedder.cache, embedder.model_name)

    @staticmethod
    def _source_ablation(loaded, mode_list: list[str], ks: list[int]) -> list[dict]:
        """Corpus both: recall@10 of the loaded users from each source (no re-indexing)."""
        rows = []
        for name, sources, overrides in locomo.SOURCE_ABLATION:
            with override_settings(**overrides):
                variant = locomo.evaluate(loaded, mode_list, ks, time_embedding=False, sources=sources)
            rows.append({"variant": name, **{m: variant[m]["recall@10"] for m in mode_list}})
        return rows

    @staticmethod
    def _ablation_table(rows: list[dict], modes: list[str]) -> str:
        lines = ["ablation (recall@10)", "| variant | " + " | ".join(modes) + " |", "|---" * (len(modes) + 1) + "|"]
        for row in rows:
            lines.append(f"| {row['variant']} | " + " | ".join(f"{row[m]:.3f}" for m in modes) + " |")
        return "\n".join(lines)

    @staticmethod
    def _table(payload: dict, ks: list[int]) -> str:
        results = payload["results"]
        cols = [f"recall@{k}" for k in ks] + ["hit@10", "p50_ms", "p95_ms"]
        base = results.get("lexical")
        lines = [
            f"corpus={payload['corpus']} questions={payload['questions']}",
            f"{'mode':<8} " + " ".join(f"{c:>10}" for c in cols) + "   delta recall@10 vs lexical",
        ]
        for mode, row in results.items():
            delta = ""
            if base and mode != "lexical" and "recall@10" in row:
                delta = f"{row['recall@10'] - base['recall@10']:+.4f}"
            lines.append(f"{mode:<8} " + " ".join(f"{row.get(c, 0):>10.4f}" for c in cols) + f"   {delta}")
        lines.append("by LoCoMo category (the data's numbering: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)")
        scored = cols[: len(ks) + 1]
        lines.append(f"{'mode':<8} {'category (questions)':<24} " + " ".join(f"{c:>10}" for c in scored))
        for mode, row in results.items():
            for name, cat in row.get("by_category", {}).items():
                label = f"{name} ({cat['questions']})"
                lines.append(f"{mode:<8} {label:<24} " + " ".join(f"{cat.get(c, 0):>10.4f}" for c in scored))
        return "\n".join(lines)

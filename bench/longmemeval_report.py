"""The LongMemEval run as a command: ours, optionally mem0, the JSON payload and the printed table."""

from __future__ import annotations

from collections.abc import Callable

from bench import longmemeval_run
from bench.longmemeval import KNOWLEDGE_UPDATE, Question, Tally, new_tally

# The figures the field reports (LongMemEval's paper: turn recall_all@5/@10 and nDCG@10, session
# recall_any@5), then the two this project tracked before (turn recall_any@10, session recall_all@10).
COLUMNS = (
    ("turn", "recall_all@5"),
    ("turn", "recall_all@10"),
    ("turn", "ndcg@10"),
    ("session", "recall_any@5"),
    ("turn", "recall_any@10"),
    ("session", "recall_all@10"),
)


def run_mem0(questions: list[Question], progress: Callable[[int], object] | None = None, embedder=None) -> Tally:
    from bench import mem0_baseline

    tally = new_tally()
    with mem0_baseline.mem0_memory() as memory:
        mem0_baseline.use_batched_embedder(memory, embedder)
        for question in questions:
            count = mem0_baseline.add_history(memory, question)
            tally.add(question, mem0_baseline.ranked_items(memory, question))
            mem0_baseline.forget(memory, question)
            if progress:
                progress(count)
    return tally


def payload(ours: dict[str, dict[str, Tally]], baseline: dict[str, Tally], seconds: dict[str, float]) -> dict:
    return {
        "format": "longmemeval",
        "results": {corpus: {mode: t.summary() for mode, t in modes.items()} for corpus, modes in ours.items()},
        "baseline": {name: t.summary() for name, t in baseline.items()},
        "seconds": seconds,
    }


def _heading(level: str, name: str) -> str:
    return f"{level[0]}.{name.replace('recall_', '')}"  # "t.all@5", "s.any@5", "t.ndcg@10"


def _cells(scores: dict) -> str:
    return " ".join(f"{_cell((scores.get(level) or {}).get(name)):>9}" for level, name in COLUMNS)


def _rows(label: str, summary: dict) -> list[str]:
    lines = [f"{label:<24} {'all (' + str(summary['questions']) + ')':<30} {_cells(summary)}"]
    for kind, by_kind in summary["by_type"].items():
        lines.append(f"{label:<24} {kind + ' (' + str(by_kind['questions']) + ')':<30} {_cells(by_kind)}")
    return lines


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def table(data: dict) -> str:
    header = f"{'system':<24} {'question type':<30} " + " ".join(f"{_heading(*c):>9}" for c in COLUMNS)
    lines = [
        f"LongMemEval questions={_questions(data)} (abstention left out); t. = turn level, s. = session level",
        header,
    ]
    systems = [(f"{corpus}/{mode}", s) for corpus, modes in data["results"].items() for mode, s in modes.items()]
    systems += [(f"baseline {name}", s) for name, s in data["baseline"].items()]
    for label, summary in systems:
        lines += _rows(label, summary)
    lines.append("knowledge-update: newest evidence ranked above the older (questions with evidence from two dates)")
    for label, summary in systems:
        update = summary[KNOWLEDGE_UPDATE]
        lines.append(f"  {label:<24} {_cell(update['newest_first'])} of {update['questions']}")
    return "\n".join(lines)


def _questions(data: dict) -> int:
    first = next((s for modes in data["results"].values() for s in modes.values()), None)
    return first["questions"] if first else 0


def evaluate_ours(questions: list[Question], modes: list[str], progress, embedder=None) -> dict[str, dict[str, Tally]]:
    return longmemeval_run.evaluate(questions, modes, progress, embedder)

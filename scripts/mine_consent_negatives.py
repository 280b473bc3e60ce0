"""Pick the pieces of ordinary conversation the consent classifier is trained to leave alone.

    .venv/bin/python scripts/mine_consent_negatives.py [--data FILE] [--messages 4000] [--keep 1500]

The labelled sets (tests/facts/consent_sets.py) hold requests not to be remembered and their
look-alikes, but no ordinary talk: a classifier trained on them alone flagged 7 of LoCoMo's 2,760
dev turns and 39 of 3,000 LongMemEval user messages (docs/measurements.md §25). This reads the
first `--messages` distinct user messages of the first 50 questions of LongMemEval-S dev
(MIT licence, tests/facts/LONGMEMEVAL_LICENSE), splits them into the pieces the classifier scores,
scores each piece with a model fitted on the labelled sets alone, and keeps the `--keep`
highest-scoring pieces (the ones that read most like a request, so the ones worth learning from)
in tests/facts/consent_ordinary_pieces.json. The other 50 questions' messages and LoCoMo are left
for measuring. scripts/train_consent_model.py then trains on the labelled sets and these pieces.
Deterministic: the same file, the same packaged model, a fit from zeros, a stable sort.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the repository's packages
    sys.path.insert(0, str(ROOT))

from scripts import train_consent_model as training  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "longmemeval-dev" / "longmemeval_s_dev.jsonl.gz"
# Questions whose histories the pieces come from; the rest of the file is kept for measuring.
MINED_QUESTIONS = 50


def user_messages(path: Path, questions: int = MINED_QUESTIONS) -> Iterator[str]:
    """The distinct user messages of the file's first `questions` questions, in file order."""
    seen: set[str] = set()
    with gzip.open(path, "rt") as lines:
        for number, line in enumerate(lines):
            if number >= questions:
                return
            for session in json.loads(line)["haystack_sessions"]:
                for turn in session:
                    if turn["role"] == "user" and turn["content"] not in seen:
                        seen.add(turn["content"])
                        yield turn["content"]


def hardest_pieces(messages: list[str], embed: training.Embed, keep: int) -> list[str]:
    """The `keep` pieces of `messages` a model fitted on the labelled sets alone scores highest."""
    from facts.consent_model import features, pieces

    labelled = training.PieceTable(training.labelled(ordinary=False), embed)
    weights, bias = training.train_on(labelled, list(range(len(labelled.messages))))
    found = list(dict.fromkeys(piece for message in messages for piece in pieces(message)))
    x = features(found, embed(found), training.GRAM_BITS, training.GRAM_WEIGHT)
    order = np.argsort(-(x @ weights + bias), kind="stable")
    return [found[i] for i in order[:keep]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA), help="LongMemEval-S dev (jsonl.gz)")
    parser.add_argument("--messages", type=int, default=4000, help="distinct user messages to read")
    parser.add_argument("--keep", type=int, default=1500, help="pieces to keep")
    args = parser.parse_args()
    if not Path(args.data).is_file():
        parser.error(
            f"{args.data} not found: pass --data with the path of LongMemEval-S dev (longmemeval_s_dev.jsonl.gz)"
        )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
    import django

    django.setup()
    from recall.embeddings import embedder_for

    messages = list(user_messages(Path(args.data)))[: args.messages]
    kept = hardest_pieces(messages, embedder_for(training.EMBEDDING_MODEL).embed, args.keep)
    training.ORDINARY_FILE.write_text(json.dumps(kept, indent=0, ensure_ascii=False) + "\n")
    print(f"{len(kept)} pieces of {len(messages)} messages written to {training.ORDINARY_FILE}")


if __name__ == "__main__":
    main()

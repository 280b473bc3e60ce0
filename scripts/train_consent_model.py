"""Train the consent classifier (facts/consent_model.py) and write its weights.

    .venv/bin/python scripts/train_consent_model.py [--output FILE]

Reads the labelled sets in tests/facts/ (tests/facts/consent_sets.py TRAINING), so it runs in a
checkout only; embeds with the packaged all-MiniLM-L6-v2 model's int8 copy and downloads nothing. Writes
facts/consent_model.json, and the held-out scores the threshold was chosen on to
tests/facts/consent_held_out.json (tests/facts/test_consent_model.py checks the threshold follows
from them and refits one fold to check they are what the cross-validation gives), and prints each
set's held-out precision and recall.

Deterministic: the data are read in a fixed order, the embedding model is the packaged one,
and the logistic regression is fitted by Newton's method from zeros (no random start, no
sampling), so a fresh run gives the checked-in weights (tests/facts/test_consent_model.py).

Beside the sets, pieces of ordinary conversation are negatives (tests/facts/consent_ordinary_pieces.json,
from LongMemEval's histories: scripts/mine_consent_negatives.py): a model trained on requests and
look-alikes alone flagged about one ordinary message in a hundred (docs/measurements.md §25).

The labels are per message, the scores per piece (facts/consent_model.pieces): every piece
of a look-alike is a negative; of a request, the piece that reads most like one is its
positive (found by a first fit on the whole requests, then refitted: two rounds of
multiple-instance learning). The threshold is chosen by leave-one-set-out cross-validation:
each labelled set, written by a different hand, is scored by a model trained without it,
which is how a new set would meet the model, and read as the product reads it (rules OR
classifier; leave to remember not sent to the classifier).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the repository's packages
    sys.path.insert(0, str(ROOT))

from facts import consent  # noqa: E402
from facts.consent_model import WEIGHTS_FILE, Model, features, pieces  # noqa: E402
from recall.embedders import INT8_MODEL_NAME  # noqa: E402

HELD_OUT_FILE = ROOT / "tests" / "facts" / "consent_held_out.json"
ORDINARY_FILE = ROOT / "tests" / "facts" / "consent_ordinary_pieces.json"
# The model recall serves by default (its int8 copy), so a web process loads one model, not two.
EMBEDDING_MODEL = INT8_MODEL_NAME
# Folds of the ordinary pieces: the threshold must flag none of any fold held out.
ORDINARY_FOLDS = 4

# L2 penalty on the weights (not the bias), chosen by the same cross-validation (docs/measurements.md).
PENALTY = 1.0
# Words and word pairs hashed into 2**10 slots, each worth 0.3 beside the unit-length embedding:
# chosen by the same cross-validation from 2**8 / 2**10 / 2**12 slots and 0.15 / 0.3 / 0.5 / 1.0.
GRAM_BITS = 10
GRAM_WEIGHT = 0.3
NEWTON_STEPS = 50
# The precision the threshold must keep on every held-out set, with the rules' flags counted.
TARGET_PRECISION = 0.98
THRESHOLD_GRID = tuple(round(0.50 + 0.01 * i, 2) for i in range(50))


@dataclass(frozen=True)
class Message:
    text: str
    positive: bool
    group: str  # which labelled set: folds of the cross-validation


Embed = Callable[[list[str]], np.ndarray]


def labelled(ordinary: bool = True) -> list[Message]:
    """The training sets (tests/facts/consent_sets.py TRAINING), in a fixed order, then the
    pieces of ordinary conversation (scripts/mine_consent_negatives.py) dealt into
    ORDINARY_FOLDS sets of their own, so each is scored by a model trained without it."""
    from tests.facts.consent_sets import LABELLED, TRAINING

    out: list[Message] = []
    for group in TRAINING:
        positives, negatives = LABELLED[group]
        out.extend(Message(text, True, group) for text, _ in positives)
        out.extend(Message(text, False, group) for text in negatives)
    if ordinary:
        talk = json.loads(ORDINARY_FILE.read_text())  # hardest first: every fold gets its share
        for fold in range(ORDINARY_FOLDS):
            out.extend(Message(text, False, f"ordinary{fold + 1}") for text in talk[fold::ORDINARY_FOLDS])
    return out


class PieceTable:
    """Each message's pieces and their embeddings, each distinct piece embedded once."""

    def __init__(self, messages: Sequence[Message], embed: Embed) -> None:
        self.messages = list(messages)
        self.pieces = [pieces(m.text) or [" "] for m in self.messages]
        distinct = list(dict.fromkeys(p for found in self.pieces for p in found))
        row = {p: i for i, p in enumerate(distinct)}
        self.vectors = _features(distinct, embed)
        self.rows = [[row[p] for p in found] for found in self.pieces]
        self.whole = _features([" ".join(found) for found in self.pieces], embed)


def _features(texts: list[str], embed: Embed) -> np.ndarray:
    return features(texts, embed(texts), GRAM_BITS, GRAM_WEIGHT)


def fit_logistic(x: np.ndarray, y: np.ndarray, penalty: float = PENALTY) -> tuple[np.ndarray, float]:
    """L2-penalised logistic regression by Newton's method, classes weighted to balance."""
    n, dim = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    positives = max(1.0, float(y.sum()))
    negatives = max(1.0, float(n - y.sum()))
    weight = np.where(y > 0, n / (2 * positives), n / (2 * negatives))
    ridge = np.full(dim + 1, penalty)
    ridge[-1] = 0.0
    theta = np.zeros(dim + 1)
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(design @ theta)))
        gradient = design.T @ (weight * (p - y)) + ridge * theta
        hessian = (design * (weight * p * (1 - p))[:, None]).T @ design + np.diag(ridge) + 1e-9 * np.eye(dim + 1)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return theta[:-1], float(theta[-1])


def _instances(
    table: PieceTable, chosen: list[int], weights: np.ndarray | None, bias: float
) -> tuple[np.ndarray, np.ndarray]:
    xs: list[np.ndarray] = []
    ys: list[float] = []
    for i in chosen:
        message, rows = table.messages[i], table.rows[i]
        if not message.positive:
            xs.extend(table.vectors[r] for r in rows)
            ys.extend(0.0 for _ in rows)
            continue
        xs.append(table.whole[i])
        ys.append(1.0)
        if weights is not None and len(rows) > 1:
            # The piece that reads most like a request is the request (multiple-instance learning).
            best = max(rows, key=lambda r: float(table.vectors[r] @ weights))
            xs.append(table.vectors[best])
            ys.append(1.0)
    return np.vstack(xs), np.asarray(ys)


def train_on(table: PieceTable, chosen: list[int], penalty: float = PENALTY) -> tuple[np.ndarray, float]:
    weights: np.ndarray | None = None
    bias = 0.0
    for _ in range(2):
        x, y = _instances(table, chosen, weights, bias)
        weights, bias = fit_logistic(x, y, penalty)
    assert weights is not None
    return weights, bias


def message_scores(table: PieceTable, weights: np.ndarray, bias: float) -> np.ndarray:
    piece_scores = 1.0 / (1.0 + np.exp(-(table.vectors @ weights + bias)))
    return np.asarray([float(piece_scores[rows].max()) for rows in table.rows])


def held_out_scores(table: PieceTable, penalty: float = PENALTY, groups: Sequence[str] | None = None) -> np.ndarray:
    """Each message scored by a model trained without its set (leave-one-set-out); with `groups`,
    only those sets' folds are fitted (the rest stay 0)."""
    out = np.zeros(len(table.messages))
    for group in groups if groups is not None else sorted({m.group for m in table.messages}):
        inside = [i for i, m in enumerate(table.messages) if m.group != group]
        outside = [i for i, m in enumerate(table.messages) if m.group == group]
        weights, bias = train_on(table, inside, penalty)
        out[outside] = message_scores(table, weights, bias)[outside]
    return out


def per_group(table: PieceTable, flagged: np.ndarray) -> dict[str, dict[str, float]]:
    """Precision and recall of a flag per labelled set."""
    out = {}
    for group in dict.fromkeys(m.group for m in table.messages):
        idx = [i for i, m in enumerate(table.messages) if m.group == group]
        tp = sum(1 for i in idx if flagged[i] and table.messages[i].positive)
        fp = sum(1 for i in idx if flagged[i] and not table.messages[i].positive)
        pos = sum(1 for i in idx if table.messages[i].positive)
        out[group] = {
            "tp": tp,
            "fp": fp,
            "precision": tp / (tp + fp) if tp + fp else 1.0,
            "recall": tp / pos if pos else 1.0,
        }
    return out


def as_read(table: PieceTable, scores: np.ndarray) -> np.ndarray:
    """The scores as the product reads them: a message that gives leave to remember, with nothing
    against it, is not sent to the classifier (facts/consent.allows_memory), so it scores 0."""
    allowed = np.asarray([consent.allows_memory(m.text) for m in table.messages])
    return np.where(allowed, 0.0, scores)


def choose_threshold(table: PieceTable, scores: np.ndarray) -> float:
    """The lowest threshold at which rules OR classifier keep TARGET_PRECISION on every set
    (on a set where the rules alone fall below it, the precision the rules have). The ordinary
    folds hold no request, so there that means flagging none of their pieces."""
    rules = np.asarray([consent.detect(m.text) is not None for m in table.messages])
    floors = {g: min(TARGET_PRECISION, f["precision"]) for g, f in per_group(table, rules).items()}
    for threshold in THRESHOLD_GRID:
        figures = per_group(table, rules | (scores >= threshold))
        if all(f["precision"] >= floors[g] for g, f in figures.items()):
            return threshold
    return THRESHOLD_GRID[-1]


def train(
    embed: Embed, embedding_model: str, messages: Sequence[Message] | None = None
) -> tuple[Model, PieceTable, np.ndarray]:
    """The model on every labelled message, its threshold from the held-out scores."""
    table = PieceTable(messages if messages is not None else labelled(), embed)
    held_out = held_out_scores(table)
    return final_model(table, held_out, embedding_model), table, held_out


def final_model(table: PieceTable, held_out: np.ndarray, embedding_model: str) -> Model:
    """The fit on every message, with the threshold the held-out scores give."""
    threshold = choose_threshold(table, as_read(table, held_out))
    weights, bias = train_on(table, list(range(len(table.messages))))
    return Model(weights, bias, threshold, embedding_model, GRAM_BITS, GRAM_WEIGHT)


def held_out_json(table: PieceTable, held_out: np.ndarray) -> dict:
    """The held-out scores by set, in the training order (as the classifier scored them, before
    leave to remember is read)."""
    out: dict[str, list[float]] = {}
    for message, value in zip(table.messages, held_out, strict=True):
        out.setdefault(message.group, []).append(round(float(value), 6))
    return {"messages": len(table.messages), "sets": out}


def held_out_from(data: dict, table: PieceTable) -> np.ndarray:
    """The stored held-out scores, in the table's order (checked to be for the same sets)."""
    sets = data["sets"]
    assert list(sets) == list(dict.fromkeys(m.group for m in table.messages)), "the training sets changed"
    assert data["messages"] == len(table.messages), "a training set changed"
    return np.asarray([value for group in sets for value in sets[group]])


def to_json(model: Model) -> dict:
    return {
        "embedding_model": model.embedding_model,
        "threshold": model.threshold,
        "gram_bits": model.gram_bits,
        "gram_weight": model.gram_weight,
        "bias": round(model.bias, 6),
        "weights": [round(float(w), 6) for w in model.weights],
    }


def report(model: Model, table: PieceTable, held_out: np.ndarray) -> list[str]:
    """Each set's held-out precision and recall: rules | classifier | either."""
    rules = np.asarray([consent.detect(m.text) is not None for m in table.messages])
    classifier = held_out >= model.threshold
    figures = (per_group(table, rules), per_group(table, classifier), per_group(table, rules | classifier))
    lines = ["held-out (each set scored by a model trained without it): rules | classifier | either"]
    for group in figures[0]:
        if group.startswith("ordinary"):  # no request in it: how many pieces each reader flags
            count = sum(1 for m in table.messages if m.group == group)
            lines.append(f"  {group:9} flagged of {count}: " + "  ".join(str(f[group]["fp"]) for f in figures))
            continue
        lines.append(
            f"  {group:7} " + "  ".join(f"P {f[group]['precision']:.3f} R {f[group]['recall']:.3f}" for f in figures)
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=str(WEIGHTS_FILE), help="where to write the weights (JSON)")
    output = parser.parse_args().output
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
    import django

    django.setup()
    from recall.embeddings import embedder_for

    model, table, held_out = train(embedder_for(EMBEDDING_MODEL).embed, EMBEDDING_MODEL)
    Path(output).write_text(json.dumps(to_json(model), indent=0) + "\n")
    if output == str(WEIGHTS_FILE):
        HELD_OUT_FILE.write_text(json.dumps(held_out_json(table, held_out)) + "\n")
    print(f"threshold={model.threshold} messages={len(table.messages)} written to {output}")
    print("\n".join(report(model, table, held_out)))


if __name__ == "__main__":
    main()

"""A learned second reader of "don't remember this" (issue 37; docs/design.md §13).

The rules (facts/consent.py) are precise but miss phrasings nobody wrote a pattern for
(recall 0.56-0.72 on the blind sets). This reader embeds each piece of the person's message
(its sentences, and their clauses) with the packaged all-MiniLM-L6-v2 model, on this machine,
beside the piece's words and word pairs hashed into a fixed number of slots (a sentence
embedding hears "remember this" and "don't remember this" as nearly the same; a word pair
such as "dont remember" or "between us" tells them apart), and scores each piece with a
logistic regression trained on the labelled sets
(scripts/train_consent_model.py). A turn is a request when the rules
flag it OR a piece scores at least the frozen threshold (chosen by cross-validation for
precision, facts/consent_model.json).

Where only this reader flags, the kind is decided by a clear rule: a pointer back at what was
said before ("what I told you", "my previous message", "I shouldn't have shared that") that is
not about this message makes it FORGET_PREVIOUS, anything else WITHHOLD, the cheaper mistake.

The reader never fails a turn: with MEMORY_CONSENT_CLASSIFIER off, or the model unavailable,
the rules alone decide, and the failure is logged and shown by /api/v1/health (`state()`).
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from django.conf import settings

from facts import consent
from facts.consent_signs import AHEAD, BACKWARD

logger = logging.getLogger(__name__)

WEIGHTS_FILE = Path(__file__).with_name("consent_model.json")
# Inside a sentence a request is often one clause of several ("Please don't remember this,
# but I've been struggling..."): each clause is also scored, so the rest does not dilute it.
_CLAUSE = re.compile(r"\s*(?:[,;:()]|\s[-\u2013\u2014]+\s|\u2014|\u2013)\s*")
# A turn holds up to 20,000 characters: the pieces scored are capped, the first and the last
# ones kept (a request opens or closes a message), so a long turn costs a bounded time.
MAX_PIECES = 24
_MIN_CLAUSE_CHARS = 8
# The `pattern` of a request only the classifier found.
CLASSIFIER = -1

_lock = threading.Lock()
_loaded: dict[str, Model] = {}
_state: dict[str, Any] = {"last_error": None, "last_error_at": None, "last_ok_at": None}


class Embeds(Protocol):
    """What this reader asks of an embedding model (recall's embedders have it)."""

    def embed(self, texts: list[str]) -> np.ndarray: ...


_embedder_for: Callable[[str], Embeds] | None = None


# A word, with its apostrophe dropped ("don't" and "dont" are one word to this reader).
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def word_grams(text: str) -> set[str]:
    """The words of a text and its pairs of neighbouring words, lowercased."""
    words = [word.replace("'", "") for word in _WORD.findall(text.lower())]
    return set(words) | {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}


def hashed_grams(texts: list[str], bits: int) -> np.ndarray:
    """One row per text: 1.0 in the slot (crc32 of the gram, 2**bits slots) of each of its grams.
    crc32 is the same in every process and release, unlike Python's own string hash."""
    slots = np.zeros((len(texts), 1 << bits))
    for row, text in enumerate(texts):
        for gram in word_grams(text):
            slots[row, zlib.crc32(gram.encode()) & ((1 << bits) - 1)] = 1.0
    return slots


def features(texts: list[str], vectors: np.ndarray, gram_bits: int, gram_weight: float) -> np.ndarray:
    """What the regression reads of each text: its embedding, then its hashed word grams."""
    return np.hstack([np.asarray(vectors, dtype=np.float64), gram_weight * hashed_grams(texts, gram_bits)])


@dataclass(frozen=True)
class Model:
    weights: np.ndarray  # (embedding dim + 2**gram_bits,)
    bias: float
    threshold: float
    embedding_model: str
    gram_bits: int
    gram_weight: float  # the value of a gram's slot beside the unit-length embedding

    def features(self, texts: list[str], vectors: np.ndarray) -> np.ndarray:
        return features(texts, vectors, self.gram_bits, self.gram_weight)

    def scores(self, features: np.ndarray) -> np.ndarray:
        scores: np.ndarray = 1.0 / (1.0 + np.exp(-(features @ self.weights + self.bias)))
        return scores


def _pieces_in(user_input: str) -> list[tuple[str, str]]:
    """(piece, its sentence): the sentences the rules read (quotes and questions about the
    feature left out), then each sentence's clauses; capped at MAX_PIECES (first and last)."""
    found: dict[str, str] = {}
    for sentence in consent._sentences(consent._normalise(user_input)):
        found.setdefault(sentence, sentence)
        clauses = [c for c in _CLAUSE.split(sentence) if len(c) >= _MIN_CLAUSE_CHARS]
        if len(clauses) > 1:
            for clause in clauses:
                found.setdefault(clause, sentence)
    pairs = list(found.items())
    if len(pairs) > MAX_PIECES:
        half = MAX_PIECES // 2
        pairs = pairs[:half] + pairs[-half:]
    return pairs


def pieces(user_input: str) -> list[str]:
    """What the classifier scores in a message (each piece once)."""
    return [piece for piece, _ in _pieces_in(user_input)]


def kind_of(sentence: str) -> str:
    """The kind of a request only the classifier found, from the sentence that reads most like
    one: FORGET_PREVIOUS when it points back at what was said before and not at this message,
    else WITHHOLD (the cheaper mistake: the other deletes what the person said before)."""
    if BACKWARD.search(sentence) and not AHEAD.search(sentence):
        return consent.FORGET_PREVIOUS
    return consent.WITHHOLD


def model_from(data: dict[str, Any]) -> Model:
    return Model(
        weights=np.asarray(data["weights"], dtype=np.float64),
        bias=float(data["bias"]),
        threshold=float(data["threshold"]),
        embedding_model=str(data["embedding_model"]),
        gram_bits=int(data["gram_bits"]),
        gram_weight=float(data["gram_weight"]),
    )


def load_model(path: Path = WEIGHTS_FILE) -> Model:
    """The checked-in weights, read once per process."""
    key = str(path)
    with _lock:
        if key not in _loaded:
            _loaded[key] = model_from(json.loads(path.read_text()))
        return _loaded[key]


def use_embedders(embedder_for: Callable[[str], Embeds]) -> None:
    """Called by recall when its app loads (recall/apps.py): the embedding models live a floor
    above facts, so they are handed down here rather than imported up."""
    global _embedder_for
    _embedder_for = embedder_for


def _embedder(model: Model) -> Embeds:
    # The model the weights were trained on, whatever recall serves (e5, an endpoint):
    # a local model, so the person's words never leave the machine.
    if _embedder_for is None:
        raise RuntimeError("no embedding model was handed to the consent classifier: is `recall` in INSTALLED_APPS?")
    return _embedder_for(model.embedding_model)


def best(user_input: str) -> tuple[float, str]:
    """The highest piece's probability of being a request, and that piece's sentence
    ((0.0, "") for a message with no piece)."""
    found = _pieces_in(user_input)
    if not found or consent.allows_memory(user_input):
        # Leave to remember, with nothing against it, asks nothing (facts/consent.py).
        return 0.0, ""
    model = load_model()
    texts = [piece for piece, _ in found]
    scores = model.scores(model.features(texts, _embedder(model).embed(texts)))
    at = int(scores.argmax())
    return float(scores[at]), found[at][1]


def score(user_input: str) -> float:
    return best(user_input)[0]


def detect(user_input: str) -> consent.ConsentRequest | None:
    """The rules' reading, else the classifier's when it is on, confident and working."""
    asked = consent.detect(user_input)
    if asked is not None or not settings.MEMORY_CONSENT_CLASSIFIER or not user_input:
        return asked
    try:
        model = load_model()
        probability, sentence = best(user_input)
    except Exception as exc:  # never fail a turn: the rules alone decide
        _state["last_error"] = f"{type(exc).__name__}: {exc}"[:300]
        _state["last_error_at"] = time.time()
        logger.warning("Consent classifier unavailable, the rules alone decide: %s", _state["last_error"])
        return None
    _state["last_ok_at"] = time.time()
    if probability < model.threshold:
        return None
    # No pattern number: -1 says the classifier found it (the logs keep no words).
    return consent.ConsentRequest(kind_of(sentence), CLASSIFIER)


def state() -> dict[str, Any]:
    """For /api/v1/health: on or off, and the last failure (the rules alone decided then)."""
    return {"enabled": bool(settings.MEMORY_CONSENT_CLASSIFIER), **_state}

"""The consent classifier beside the rules (facts/consent_model.py, issue 37), on the real
packaged embedding model.

Its training data are the first, third, fresh, fourth, fifth, sixth, seventh and eighth sets,
the extra phrasings (tests/facts/consent_extra_phrases.py; tests/facts/consent_sets.py TRAINING)
and 1,500 pieces of ordinary conversation (tests/facts/consent_ordinary_pieces.json), so its
figures on them are in-sample: floors that catch a model or a piece split that stops
reading, not a measure of how it generalises.
That measure is the leave-one-set-out figures `scripts/train_consent_model.py` prints and the
seventh set, written blind and never trained on, scored once after the weights were frozen
(docs/measurements.md §25). The rules were then fixed on the seventh set's misreadings
(tests/facts/test_consent_seventh_fixes.py). The eighth set, written blind after both, was scored
once, then the rules were fixed on it too (tests/facts/test_consent_eighth_fixes.py), and the
classifier was retrained with both (2026-11-28): in-sample for both readers now. The ninth set is
the next blind measure. The ninth and tenth were scored once each, then the rules were fixed on
them (tests/facts/test_consent_languages.py, test_consent_tenth_fixes.py) and the classifier
not retrained with them (held out, trained on they raised the threshold and cost recall on the
earlier sets: tests/facts/consent_sets.py): in-sample for the rules. The eleventh likewise: scored
once, then the rules fixed on it (test_consent_eleventh_fixes.py), not trained on; and the twelfth
and thirteenth (test_consent_twelfth_fixes.py), the fourteenth (test_consent_fourteenth_fixes.py), the
fifteenth (test_consent_fifteenth_fixes.py) and the sixteenth (test_consent_sixteenth_fixes.py).
Run alone to read them:

    .venv/bin/python -m pytest -q -s -p no:cacheprovider tests/facts/test_consent_model.py
"""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from facts import consent, consent_model
from facts.consent_model import CLASSIFIER, MAX_PIECES, load_model, pieces
from recall.embeddings import EmbedderError, embedder_for
from scripts.train_consent_model import (
    EMBEDDING_MODEL,
    HELD_OUT_FILE,
    ORDINARY_FILE,
    PieceTable,
    final_model,
    held_out_from,
    held_out_scores,
    labelled,
    to_json,
)
from tests.facts.consent_sets import LABELLED

# Weights and words only: the PostgreSQL run would repeat a minute of embedding for nothing.
pytestmark = pytest.mark.no_database

# (name, positives, negatives, recall floor of rules OR classifier, precision floor): what each
# reached when the weights were frozen (153a84e, 2026-11-28), less one phrasing; on the sets it
# was trained on, the precision floor is 0.98 or the rules' own where they fall below it. The
# fifth, extra and seventh floors are what rules OR classifier reached after the rules' fixes
# for the seventh set (2026-11-28; the classifier unchanged), less one phrasing; the fifth,
# sixth, seventh and eighth floors were raised to what they reach after the rules' fixes for the
# eighth set and the retraining with the seventh and eighth (threshold 0.87), less one phrasing.
# Every floor below was set again (2026-11-29) when the classifier was retrained with pieces of
# ordinary conversation among its negatives, on the int8 model recall serves (threshold 0.96;
# docs/measurements.md §25): recall on the labelled sets fell 0.01-0.09 where the classifier had
# added it, and it stopped flagging ordinary talk (0 of LoCoMo's 2,760 turns against 7). Each is
# the figure reached then, less one request (and, for precision, plus one look-alike); the
# comments keep the history.
SETS = (
    ("first", *LABELLED["first"], 256 / 257, None),
    ("third", *LABELLED["third"], 49 / 50, None),
    ("fresh", *LABELLED["fresh"], 39 / 40, None),
    # (The fourth raised once the rules read the ninth and tenth sets' forms, less one phrasing.)
    ("fourth", *LABELLED["fourth"], 88 / 101, None),
    ("fifth", *LABELLED["fifth"], 84 / 98, None),
    ("extra", *LABELLED["extra"], 51 / 67, None),
    ("sixth", *LABELLED["sixth"], 95 / 115, None),
    # Written blind, never trained on, scored once after the weights were frozen: rules
    # P 0.950 / R 0.589 (4 look-alikes), classifier alone P 0.966 / R 0.667, either P 0.940 /
    # R 0.845 (109 of 129, 7 look-alikes of 147): below the aim on both. The rules were
    # then fixed on its misreadings, so it is in-sample for the rules now: rules P 1.000 /
    # R 0.698 (0 look-alikes), classifier unchanged, either P 0.976 / R 0.930 (120 of 129, the
    # classifier's 3 look-alikes of 147). Rules fixed for the eighth and the classifier trained on
    # both: rules P 1.000 / R 0.729, either P 0.992 / R 0.961 (124 of 129, 1 look-alike).
    ("seventh (in-sample)", *LABELLED["seventh"], 116 / 129, 116 / 117),
    # Written blind, seen by neither the classifier nor the rules' author, scored once after both
    # were committed (f9103ab): rules P 0.970 / R 0.662 (3 look-alikes), classifier alone
    # P 0.989 / R 0.641, either P 0.968 / R 0.834 (121 of 145, 4 look-alikes of 184). The rules
    # were then fixed on its misreadings (tests/facts/test_consent_eighth_fixes.py), so it is
    # in-sample for the rules now: rules P 1.000 / R 0.945 (0 look-alikes), either P 1.000 /
    # R 1.000 (the leave to remember in it is no longer sent to the classifier); then trained on.
    ("eighth (in-sample)", *LABELLED["eighth"], 144 / 145, 144 / 145),
    # Held out: written blind (0b57527) by someone who saw neither reader nor any other set, scored
    # once after the eighth's fixes and the retraining (3126325, c8311bc): rules P 1.000 / R 0.707,
    # classifier alone P 0.984 / R 0.644, either P 0.988 / R 0.859 (164 of 191, 2 look-alikes of
    # 243): the precision aim met, the recall aim (0.90) not; 11 of the 27 misses are in Spanish,
    # German or French. The rules then learnt leave to remember more widely (c948131) and the
    # five languages (facts/consent_languages.py), so it is in-sample for the rules now: rules
    # P 1.000 / R 0.759, either P 1.000 / R 0.911 (174 of 191, no look-alike).
    # The rules then read the ninth and tenth sets' misses by form (tests/facts/test_consent_tenth_fixes.py):
    # rules P 1.000 / R 0.859, either P 1.000 / R 1.000 (191 of 191, no look-alike).
    ("ninth (in-sample)", *LABELLED["ninth"], 187 / 191, 187 / 188),
    # Held out: written blind (fa2a827), scored once at c948131 (the rules and weights the ninth
    # was scored on, and leave to remember read more widely): rules P 1.000 / R 0.699, classifier
    # alone P 0.992 / R 0.656, either P 0.994 / R 0.828 (154 of 186, 1 look-alike of 199). 22 of
    # the 32 misses are wholly or partly in Spanish, German, French, Portuguese or Italian. Then
    # the five languages (facts/consent_languages.py) were written on the cause these two sets
    # showed, so it is no longer blind: rules P 1.000 / R 0.817, either P 0.994 / R 0.946 (176
    # of 186, the classifier's 1 look-alike). The next blind measure is an eleventh set.
    # After the fixes by form: rules P 1.000 / R 0.876, either P 1.000 / R 1.000 (186 of 186; the
    # classifier's look-alike is leave to remember, no longer sent to it).
    ("tenth (in-sample)", *LABELLED["tenth"], 180 / 186, 180 / 182),
    # Held out: written blind (801847b), scored once on it (the rules of e24af92, the weights of
    # c8311bc): rules P 0.987 / R 0.731 (2 look-alikes), classifier alone P 1.000 / R 0.577, either
    # P 0.989 / R 0.875 (182 of 208, 2 look-alikes of 227); 9 of the 26 misses in French, Italian,
    # Portuguese or Dutch, 4 requests of the wrong kind. The rules were then fixed on it by form
    # (tests/facts/test_consent_eleventh_fixes.py, Dutch added), so it is in-sample for the rules
    # now: rules P 1.000 / R 0.865, either P 1.000 / R 1.000 (208 of 208, no look-alike, every kind
    # right). Never trained on.
    ("eleventh (in-sample)", *LABELLED["eleventh"], 200 / 208, 200 / 201),
    # Held out: written blind (760dd3f), scored once: product P 0.926 / R 0.806 (39 requests
    # missed, 13 look-alikes), rules P 0.955 / R 0.632. The rules were then fixed on it by form
    # (tests/facts/test_consent_twelfth_fixes.py: labels, conditions, metaphors, terse chat, undoing a
    # memory), so it is in-sample for the rules now: rules P 0.974 / R 0.731 (147 of 201, 4
    # look-alikes), either P 0.943 / R 0.900 (181 of 201, 11 look-alikes of 252). Never trained on.
    ("twelfth (in-sample)", *LABELLED["twelfth"], 171 / 201, 171 / 178),
    # Held out: written blind (e435e06), scored once at aec3abe: product P 0.992 / R 0.787 (118 of
    # 150, 1 look-alike of 149), rules P 0.989 / R 0.620. Then the same fixes by form: rules
    # P 0.992 / R 0.800 (120 of 150, 1 look-alike), either P 0.993 / R 0.947 (142 of 150, 1
    # look-alike of 149). Never trained on.
    ("thirteenth (in-sample)", *LABELLED["thirteenth"], 132 / 150, 132 / 134),
    # Held out: written blind (2026-11-29) by someone who saw neither reader nor any other set,
    # scored once at 9f33437 (docs/measurements.md §25): product P 0.991 / R 0.732 (112 of 153, 1
    # look-alike of 150: "dont remember where i parked"), rules P 0.990 / R 0.634; 5 requests read
    # as the wrong kind. The weights before the ordinary-conversation training (a5eca91^,
    # threshold 0.87) reached R 0.765. Then the rules were fixed on it by form
    # (tests/facts/test_consent_fourteenth_fixes.py), so it is in-sample for the rules now: rules
    # P 0.991 / R 0.758, product P 0.992 / R 0.856 (131 of 153, the same look-alike). Never
    # trained on.
    ("fourteenth (in-sample)", *LABELLED["fourteenth"], 130 / 153, 130 / 132),
    # Held out: written blind (2026-11-29), scored once at 5f7d7f2 (docs/measurements.md §25):
    # product P 1.000 / R 0.745 (123 of 165, no look-alike of 177), rules P 1.000 / R 0.673; 7
    # requests read as the wrong kind. The classifier retrained on every set but this one did
    # worse on it (R 0.691: the threshold rose to 0.99). Then the rules were fixed on it by form
    # (tests/facts/test_consent_fifteenth_fixes.py), so it is in-sample for the rules now: rules
    # and product P 1.000 / R 0.976 (161 of 165). Never trained on.
    ("fifteenth (in-sample)", *LABELLED["fifteenth"], 160 / 165, 160 / 161),
    # Held out: written blind (2026-11-29) after the fifteenth's fixes, scored once at 163ec07
    # (docs/measurements.md §25): product P 0.993 / R 0.754 (135 of 179, 1 look-alike of 182: "Don't
    # delete anything you know about me, I like that you remember", the classifier's), rules
    # P 1.000 / R 0.642; 8 requests read as the wrong kind. Then the rules were fixed on it by form
    # (tests/facts/test_consent_sixteenth_fixes.py), so it is in-sample for the rules now: rules
    # P 1.000 / R 0.989, product P 0.994 / R 0.994 (178 of 179, the same look-alike). Never trained on.
    ("sixteenth (in-sample)", *LABELLED["sixteenth"], 177 / 179, 177 / 179),
)


def _flags(text: str) -> tuple[bool, bool]:
    """(the rules flag it, the classifier is confident)."""
    return consent.detect(text) is not None, consent_model.score(text) >= load_model().threshold


def _pr(positives: list[tuple[bool, bool]], negatives: list[tuple[bool, bool]], which) -> dict:
    tp = sum(1 for f in positives if which(f))
    fp = sum(1 for f in negatives if which(f))
    return {"tp": tp, "fp": fp, "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / len(positives)}


READERS = {
    "rules": lambda f: f[0],
    "classifier": lambda f: f[1],
    "either": lambda f: f[0] or f[1],
}


class _Batched:
    """The packaged model's vectors for every text the tests score, embedded once in one batched
    call (the model batches texts of a like length; a text's vector does not depend on its batch):
    one message at a time cost 41 s on one worker. A text not in it is embedded when asked."""

    def __init__(self, texts: list[str]) -> None:
        self._model = embedder_for(EMBEDDING_MODEL)
        distinct = list(dict.fromkeys(texts))
        self._vectors = dict(zip(distinct, self._model.embed(distinct), strict=True))

    def embed(self, texts: list[str]) -> np.ndarray:
        missing = [text for text in dict.fromkeys(texts) if text not in self._vectors]
        if missing:
            self._vectors.update(zip(missing, self._model.embed(missing), strict=True))
        return np.vstack([self._vectors[text] for text in texts])


@pytest.fixture(scope="module")
def batched():
    """Every piece the classifier scores in every set, and the whole messages training reads."""
    texts = []
    ordinary = json.loads(ORDINARY_FILE.read_text())
    for positives, negatives in [*LABELLED.values(), ([], ordinary)]:
        for message in [text for text, _ in positives] + list(negatives):
            found = pieces(message) or [" "]
            texts.extend(found)
            texts.append(" ".join(found))
    return _Batched(texts)


@pytest.fixture(autouse=True)
def _classifier_on(settings, monkeypatch, batched):
    settings.MEMORY_CONSENT_CLASSIFIER = True
    # The product's path (consent_model.detect and score), its vectors from the batch.
    monkeypatch.setattr(consent_model, "_embedder", lambda model: batched)


@pytest.fixture(scope="module")
def table(batched):
    """The training sets' pieces and features, as scripts/train_consent_model.py reads them."""
    return PieceTable(labelled(), batched.embed)


def test_rules_or_classifier_keep_the_precision_and_the_recall_they_reached_on_every_set():
    print()
    for name, positives, negatives, floor, precision_floor in SETS:
        pos = [_flags(text) for text, _ in positives]
        neg = [_flags(text) for text in negatives]
        figures = {reader: _pr(pos, neg, which) for reader, which in READERS.items()}
        print(
            f"{name:28}"
            + "  ".join(f"{r} P {m['precision']:.3f} R {m['recall']:.3f} (FP {m['fp']})" for r, m in figures.items())
        )
        # Where the rules alone fall below 0.98 (three look-alikes of the extra set), the
        # classifier may not lower it further on what it was trained on.
        wanted = precision_floor or min(0.98, figures["rules"]["precision"])
        assert figures["either"]["precision"] >= wanted, (name, figures)
        assert figures["either"]["recall"] >= floor, (name, figures)
        assert figures["either"]["recall"] >= figures["rules"]["recall"]


def test_a_request_only_the_classifier_finds_is_of_the_right_kind_and_never_deletes_by_mistake():
    only = []
    for _, positives, *_ in SETS:
        for text, kind in positives:
            if consent.detect(text) is None and (found := consent_model.detect(text)) is not None:
                only.append((text, kind, found.kind, found.pattern))
    right = sum(1 for _, kind, found, _ in only if kind == found)
    print(f"\nclassifier-only flags: {len(only)}, right kind {right}")
    assert {pattern for *_, pattern in only} == {CLASSIFIER}
    # A withhold read as "forget the previous turn" would delete what the person said before.
    assert [t for t, kind, found, _ in only if kind == consent.WITHHOLD and found == consent.FORGET_PREVIOUS] == []
    # 138 flags, 124 of the right kind, when the weights were frozen (153a84e), the seventh set
    # included; 133, 120 of the right kind, once the rules read the seventh set's clear forms;
    # 129 once they read the eighth's; 133 once the classifier was trained on both (threshold 0.87).
    # 180, 166 of the right kind, once it was trained with ordinary conversation (threshold 0.96).
    assert len(only) >= 175 and right / len(only) >= 0.85, only


def test_the_kind_comes_from_the_sentence_that_asks_not_from_a_pointer_back_elsewhere():
    asked = "Please keep this out of my saved stuff, I'm applying to Quillstone in secret."
    assert consent.detect(asked) is None  # the rules miss it: the classifier's case
    assert consent_model.detect(asked) == consent.ConsentRequest(consent.WITHHOLD, CLASSIFIER)
    # "What I said earlier" in another sentence does not make it forget the previous turn.
    beside = asked + " Also what I said earlier is fine."
    assert consent_model.detect(beside) == consent.ConsentRequest(consent.WITHHOLD, CLASSIFIER)
    # ("..., lose it from memory please" is the rules' since the sixteenth set's fixes.)
    back = "The bit I told you earlier about my landlord, release it from memory please."
    assert consent.detect(back) is None
    assert consent_model.detect(back) == consent.ConsentRequest(consent.FORGET_PREVIOUS, CLASSIFIER)


def test_with_the_setting_off_the_rules_alone_decide(settings):
    settings.MEMORY_CONSENT_CLASSIFIER = False
    assert consent_model.detect("Please keep this out of my saved stuff, I'm applying to Quillstone in secret.") is None
    assert consent_model.detect("Don't remember this.") == consent.detect("Don't remember this.")


def test_when_the_embedder_fails_the_rules_alone_decide_and_the_failure_is_logged_and_shown(monkeypatch, caplog):
    def broken(model):
        raise EmbedderError("the model file is gone")

    monkeypatch.setattr(consent_model, "_embedder", broken)
    with caplog.at_level(logging.WARNING, logger="facts.consent_model"):
        assert consent_model.detect("Please keep this out of my saved stuff, I'm applying in secret.") is None
    assert "the rules alone decide" in caplog.text and "the model file is gone" in caplog.text
    assert "the model file is gone" in consent_model.state()["last_error"]
    assert consent_model.detect("Off the record: I'm moving.") == consent.detect("Off the record: I'm moving.")


def test_a_turn_of_20000_characters_is_scored_on_a_bounded_number_of_pieces():
    long = ("I walked the dog today, then I cooked dinner. " * 500)[:20_000]
    found = pieces(long)
    assert 0 < len(found) <= MAX_PIECES
    assert consent_model.detect(long) is None


def test_the_checked_in_weights_are_what_a_fresh_training_run_gives(table):
    """`scripts/train_consent_model.py` rewrites facts/consent_model.json and the held-out scores
    its threshold was chosen on (tests/facts/consent_held_out.json); a set or a rule changed
    without it fails here. Each run embeds the same texts with the same model and fits from zeros.
    The final fit is redone whole; the threshold is chosen again, with today's rules, from the
    stored held-out scores, which the next test checks against one refitted fold."""
    held_out = held_out_from(json.loads(HELD_OUT_FILE.read_text()), table)
    fresh = to_json(final_model(table, held_out, EMBEDDING_MODEL))
    stored = to_json(load_model())
    assert fresh["threshold"] == stored["threshold"]
    assert fresh["embedding_model"] == stored["embedding_model"]
    assert abs(fresh["bias"] - stored["bias"]) < 1e-3
    assert np.abs(np.asarray(fresh["weights"]) - np.asarray(stored["weights"])).max() < 1e-3


def test_the_stored_held_out_scores_are_what_the_cross_validation_gives(table):
    """One fold of the leave-one-set-out refitted (the last one, scored by a model trained on all
    the others): the eleven fits of a whole run cost two minutes, and any change to any set or to
    the features moves every fold's fit, this one's too."""
    stored = held_out_from(json.loads(HELD_OUT_FILE.read_text()), table)
    newest = table.messages[-1].group
    fold = [i for i, message in enumerate(table.messages) if message.group == newest]
    refitted = held_out_scores(table, groups=[newest])
    assert np.abs(refitted[fold] - stored[fold]).max() < 1e-3

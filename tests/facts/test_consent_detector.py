"""The consent detector (facts/consent.py) on its labelled set (tests/facts/consent_phrases.py).

Precision and recall over the whole set must meet the issue's aim (>= 0.98, >= 0.90); the
held-back quarter's figures are computed apart and printed (`pytest -s`), so a detector
that only learnt the development phrases shows. Run it alone to read the matrices:

    .venv/bin/python -m pytest -q -s -p no:cacheprovider tests/facts/test_consent_detector.py
"""

from __future__ import annotations

from facts.consent import FORGET_PREVIOUS, WITHHOLD, detect
from tests.facts.consent_fresh_phrases import FRESH_NEGATIVE, FRESH_POSITIVE
from tests.facts.consent_phrases import DEV_NEGATIVE, DEV_POSITIVE, HELD_NEGATIVE, HELD_POSITIVE
from tests.facts.consent_third_phrases import THIRD_NEGATIVE, THIRD_POSITIVE


def _matrix(positives: list[tuple[str, str]], negatives: list[str]) -> dict:
    flagged = [detect(text) for text, _ in positives]
    tp = sum(1 for d in flagged if d is not None)
    fp = sum(1 for text in negatives if detect(text) is not None)
    kind_right = sum(1 for d, (_, kind) in zip(flagged, positives, strict=True) if d is not None and d.kind == kind)
    fn, tn = len(positives) - tp, len(negatives) - fp
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / len(positives),
        "kind_accuracy": kind_right / tp if tp else 1.0,
    }


def _report(name: str, m: dict) -> str:
    return (
        f"{name}: TP {m['tp']} FN {m['fn']} FP {m['fp']} TN {m['tn']}  precision {m['precision']:.3f}"
        f"  recall {m['recall']:.3f}  right kind among flagged {m['kind_accuracy']:.3f}"
    )


def test_the_set_has_at_least_80_phrasings_each_way_and_a_held_back_quarter():
    positives, negatives = DEV_POSITIVE + HELD_POSITIVE, DEV_NEGATIVE + HELD_NEGATIVE
    assert len(positives) >= 80 and len(negatives) >= 80
    assert len(HELD_POSITIVE) * 4 >= len(positives) and len(HELD_NEGATIVE) * 4 >= len(negatives)
    assert len({t for t, _ in positives} | set(negatives)) == len(positives) + len(negatives)
    assert {kind for _, kind in positives} == {WITHHOLD, FORGET_PREVIOUS}


def test_it_meets_the_precision_and_recall_aim_on_the_whole_set_and_reports_the_held_back_quarter():
    whole = _matrix(DEV_POSITIVE + HELD_POSITIVE, DEV_NEGATIVE + HELD_NEGATIVE)
    dev = _matrix(DEV_POSITIVE, DEV_NEGATIVE)
    held = _matrix(HELD_POSITIVE, HELD_NEGATIVE)
    print()
    for name, m in (("whole", whole), ("development", dev), ("held-back", held)):
        print(_report(name, m))
    missed = [t for t, _ in HELD_POSITIVE if detect(t) is None]
    wrongly = [t for t in HELD_NEGATIVE if detect(t) is not None]
    print("held-back missed:", missed)
    print("held-back wrongly flagged:", wrongly)
    assert whole["precision"] >= 0.98, _report("whole", whole)
    assert whole["recall"] >= 0.90, _report("whole", whole)


def test_on_the_sets_held_back_from_its_rules_it_flags_no_look_alike_and_errs_only_towards_keeping():
    """Recall on these sets is reported, not held to the aim (docs/design.md §13 gives it); a
    look-alike flagged would withhold a turn the person wanted kept, and a withhold read as
    "forget the previous turn" would delete what they said before, so neither may happen."""
    print()
    for name, positives, negatives in (
        ("fresh", FRESH_POSITIVE, FRESH_NEGATIVE),
        ("third (independent)", THIRD_POSITIVE, THIRD_NEGATIVE),
    ):
        m = _matrix(positives, negatives)
        print(_report(name, m))
        assert m["fp"] == 0, [t for t in negatives if detect(t) is not None]
        misread = [t for t, kind in positives if kind == WITHHOLD and (d := detect(t)) and d.kind == FORGET_PREVIOUS]
        assert misread == []


def test_it_reads_only_requests_to_the_assistant_not_quotes_or_questions():
    assert detect("Off the record: I'm moving to Lisbon.") is not None
    assert detect("My friend said 'off the record: he is moving' and told everyone.") is None
    assert detect("What happens if I say don't remember this?") is None
    assert detect("I live in Oslo. Please don't save that.") is not None


def test_it_tells_forgetting_the_previous_turn_from_withholding_this_one():
    assert detect("Forget what I just said.").kind == FORGET_PREVIOUS  # type: ignore[union-attr]
    assert detect("Don't remember this.").kind == WITHHOLD  # type: ignore[union-attr]
    assert detect("Forget it, let's talk about the weather.") is None


def test_it_reads_the_other_ways_of_saying_not_and_a_memory_as_the_place():
    for request in (
        "You must not remember this.",
        "Kindly refrain from remembering this.",
        "I'd rather this not be saved.",
        "Nothing from this message should be saved.",
        "Keep this out of your memory.",
        "This is off-record: my company is laying people off.",
        "I don't want you storing this.",
    ):
        assert detect(request) is not None, request
    for statement in (
        "It shouldn't be kept in the fridge.",
        "I never remember where I put my keys.",
        "Stop saving money for a car you'll never buy.",
        "You don't need to remind me.",
        "This should be saved for later.",
    ):
        assert detect(statement) is None, statement

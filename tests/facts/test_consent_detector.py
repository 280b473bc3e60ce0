"""The consent detector (facts/consent.py) on its labelled sets (tests/facts/consent_*phrases.py).

Precision and recall over the first set must meet the issue's aim (>= 0.98, >= 0.90), and
so must the fresh and third sets' now that their misses were read for the rules (on
2026-11-28); none of the three may flag a look-alike. The held-out measure is the fourth,
fifth and sixth sets, written blind and never read for rules; they do not meet the recall aim
(docs/design.md §13), so they hold the detector to its precision and to the recall it has
(a floor that catches a rule that stops reading). Run it alone to read the matrices:

    .venv/bin/python -m pytest -q -s -p no:cacheprovider tests/facts/test_consent_detector.py
"""

from __future__ import annotations

import re
import time

import pytest

from facts import consent, consent_languages, consent_words
from facts.consent import FORGET_PREVIOUS, WITHHOLD, detect
from facts.consent_prefilter import needs
from tests.facts.consent_fifth_phrases import FIFTH_NEGATIVE, FIFTH_POSITIVE
from tests.facts.consent_fourth_phrases import FOURTH_NEGATIVE, FOURTH_POSITIVE
from tests.facts.consent_fresh_phrases import FRESH_NEGATIVE, FRESH_POSITIVE
from tests.facts.consent_phrases import (
    CONSTRUCTION_NEGATIVE,
    CONSTRUCTION_POSITIVE,
    DEV_NEGATIVE,
    DEV_POSITIVE,
    HELD_NEGATIVE,
    HELD_POSITIVE,
)
from tests.facts.consent_sixth_phrases import SIXTH_NEGATIVE, SIXTH_POSITIVE
from tests.facts.consent_third_phrases import THIRD_NEGATIVE, THIRD_POSITIVE

# Words and dates only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database


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
    every = [t for t, _ in positives + CONSTRUCTION_POSITIVE] + negatives + CONSTRUCTION_NEGATIVE
    assert len(set(every)) == len(every), "a phrasing is listed twice"
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


def test_on_the_later_sets_it_meets_the_aim_flags_no_look_alike_and_errs_only_towards_keeping():
    """Both sets were held back from the rules until 2026-11-28, when their misses were read to
    broaden them (docs/design.md §13 gives the figures before and after): development data
    now, so they are held to the aim. A look-alike flagged would withhold a turn the person
    wanted kept, and a withhold read as "forget the previous turn" would delete what they said
    before, so neither may happen."""
    print()
    for name, positives, negatives in (
        ("fresh (misses read for rules on 2026-11-28)", FRESH_POSITIVE, FRESH_NEGATIVE),
        ("third (read for rules on 2026-11-28)", THIRD_POSITIVE, THIRD_NEGATIVE),
    ):
        m = _matrix(positives, negatives)
        print(_report(name, m))
        assert m["fp"] == 0, [t for t in negatives if detect(t) is not None]
        misread = [t for t, kind in positives if kind == WITHHOLD and (d := detect(t)) and d.kind == FORGET_PREVIOUS]
        assert misread == []
        assert m["recall"] >= 0.90, [t for t, _ in positives if detect(t) is None]


# The recall each held-out set had when it was first scored (2026-11-28, docs/design.md §13),
# less one phrasing: a floor, not the aim (0.90), which these sets show the rules do not reach.
HELD_OUT = (
    ("fourth (held out)", FOURTH_POSITIVE, FOURTH_NEGATIVE, 72 / 101),
    ("fifth (held out)", FIFTH_POSITIVE, FIFTH_NEGATIVE, 55 / 98),
    ("sixth (held out)", SIXTH_POSITIVE, SIXTH_NEGATIVE, 63 / 115),
)


def test_on_the_held_out_sets_it_flags_no_look_alike_and_keeps_the_recall_it_had():
    print()
    for name, positives, negatives, floor in HELD_OUT:
        m = _matrix(positives, negatives)
        print(_report(name, m))
        assert m["precision"] >= 0.98, [t for t in negatives if detect(t) is not None]
        misread = [t for t, kind in positives if kind == WITHHOLD and (d := detect(t)) and d.kind == FORGET_PREVIOUS]
        assert misread == []
        assert m["recall"] >= floor, [t for t, _ in positives if detect(t) is None]


def test_it_reads_each_construction_added_on_2026_11_28_of_the_right_kind_and_none_of_their_look_alikes():
    print("\n" + _report("constructions (added 2026-11-28)", _matrix(CONSTRUCTION_POSITIVE, CONSTRUCTION_NEGATIVE)))
    wrong = [(t, kind, d and d.kind) for t, kind in CONSTRUCTION_POSITIVE if (d := detect(t)) is None or d.kind != kind]
    flagged = [t for t in CONSTRUCTION_NEGATIVE if detect(t) is not None]
    assert wrong == [] and flagged == [], (wrong, flagged)


def test_a_pointer_back_makes_a_request_about_it_forget_the_previous_turn_but_not_one_about_this_message():
    assert detect("Disregard my previous message and don't store it.").kind == FORGET_PREVIOUS  # type: ignore[union-attr]
    assert detect("Don't store it.").kind == WITHHOLD  # type: ignore[union-attr]
    assert detect("My previous message was fine. Don't store this one.").kind == WITHHOLD  # type: ignore[union-attr]
    # A retraction with no request is a correction, nothing to withhold.
    assert detect("I take that back, it's Tuesday.") is None


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


LENGTH = 20_000
# The detector read these in 0.25-0.65 s of CPU each until 2026-11-29, every rule scanning the
# whole text; now a rule scans only the runs of sentences that hold the words it needs
# (facts/consent_prefilter.py): 0.02-0.22 s each on a nearly idle machine (median 0.09 s), the most
# for the texts that hold many rules' words ("every-rule-word" holds every word of every rule, so
# every rule scans it all, as before). The quadratic forms found before took seconds: "also also
# also ..." 7 s ("also" opened a clause and softened one, so every word began a scan to the end;
# put back, it fails this test at 20 s), quotes never closed 4.3 s at 19,999 characters
# (facts/consent.py, _QUOTED; put back, 2.95 s). The limit is about 5 times the slowest text on
# an idle machine and 3 times its 0.35 s under a load of 6 on 2 cores: CPU time, not wall time,
# which a busy CI machine slows 5-10 times; a quadratic form back in one rule takes seconds.
LIMIT_SECONDS = 1.0
# Words many rules need, in an order no rule reads as a request. Before the texts whose repeats
# the rules' openings could rescan, so that the rules are run on them at all (a text without
# them is passed over, whatever its shape).
RULE_WORDS = "remember save keep store record log forget delete erase memory message this that it don't not "


def _repeat(unit: str) -> str:
    return (unit * (LENGTH // len(unit) + 1))[:LENGTH]


def _adversarial() -> dict[str, str]:
    """Each word of the openings and softeners repeated (a word in both was the slow case),
    with the shapes the patterns repeat or skip over: quotes, pointers back, requests."""
    words = set(re.findall(r"[a-z]+", consent_words.OPENING))  # its softeners included
    texts = {f"{w}-run": (RULE_WORDS + _repeat(f"{w} "))[:LENGTH] for w in words}
    for unit in (
        " 'a",
        "'",
        "a'",
        '"a ',
        "don't ",
        "don't save ",
        "don't keep it ",
        "this should not be ",
        "not to be ",
        "keep this between ",
        "make sure none of this ",
        "what i just said ",
        "the last the last ",
        "forget that i ",
        "i shouldn't have ",
        "is there a way you can ",
        "stop saving ",
        "un-save ",
        "off the record ",
        "long term ",
        # a request read away by a correction after it, in every sentence (each once read the rest)
        "forget what i said, let's go. ",
        "scratch what i said, typo! ",
        "the number i gave you was wrong! forget it. ",
        # the seventh set's forms: reported speech, memory questions, labels, unsaved, kept
        "my manager told me ",
        "she said it ",
        "you don't remember ",
        "don't remember the title ",
        "no memory ",
        "no-memory ",
        "nothing here goes ",
        "keep this one ",
        "can i ask you without it being ",
        "treat this like a ",
        "msg ",
    ):
        texts[unit] = _repeat(unit)
    texts["no-end"] = "don't save " + "a" * (LENGTH - 12) + "."
    # Blanks with no emoji after them, and emoji between blanks: the emoji read as commas
    # (facts/consent.py, _PICTOGRAPHS) took 3 s on the first with a blank run on each side.
    texts["blanks-no-emoji"] = "a" + " " * (LENGTH - 2) + "b"
    texts["emoji-between-blanks"] = _repeat(" \U0001f910 ")
    # Quotes opened and never closed: " 'a 'a ... 'a a" (with a closing quote last it was fast).
    texts["quotes-never-closed"] = _repeat(" 'a")[: LENGTH - 1] + "a"
    texts["reported-no-end"] = ("my manager told me " + "a " * LENGTH)[:LENGTH]
    texts["memory-question-no-end"] = ("you don't remember " + "a " * LENGTH)[: LENGTH - 1] + "?"
    # 10,000 sentences of a word: each step of the reading made once per sentence.
    texts["one-word-sentences"] = _repeat("a\n")
    texts["sentences-of-rule-words"] = _repeat(RULE_WORDS.replace(" ", ". "))
    # Every word any rule needs, in one sentence: nothing is passed over, every rule scans it all.
    texts["every-rule-word"] = _repeat(" ".join(sorted({w for p in _rules() for need in needs(p) for w in need})) + " ")
    return texts


def _rules() -> list[re.Pattern[str]]:
    return [*consent.FORGET_RE, *consent._WITHHOLD_RE, *consent_languages.FORGET_PREVIOUS_RE]


def test_it_reads_20000_adversarial_characters_in_linear_time():
    consent.warm()  # each rule's needed words, read once per process (as gunicorn's master does)
    slow = {}
    for name, text in _adversarial().items():
        assert len(text) == LENGTH
        seconds = _timed(text)
        if seconds >= LIMIT_SECONDS:  # a busy machine slows a run, never speeds it: the best of three
            seconds = min(seconds, _timed(text), _timed(text))
        if seconds >= LIMIT_SECONDS:
            slow[name] = round(seconds, 2)
    assert slow == {}, f"took (s): {slow}"


def _timed(text: str) -> float:
    started = time.process_time()
    detect(text)
    return time.process_time() - started

"""The injection floor reads text in linear time (issue 33, item 4).

Every recalled episode passes the floor on every recall, and a turn holds up to 20,000
characters: one check that retried a long stretch from each of its starts ("http://" x 2850
took seconds) let one user's words stall every tenant's recall. Each check is driven here
with text built against each pattern: a prefix repeated (every start of the pattern), long
runs of what a pattern repeats, and near misses that run to the end without matching.
"""

from __future__ import annotations

import time

import pytest

from core.errors import Rejected
from facts import guard

# Patterns over text only: run once, in the SQLite run.
pytestmark = pytest.mark.no_database

LENGTH = 20_000
# A check that retried each start took seconds on these texts; a linear one takes 1-7 ms (best
# of five, on 2 busy cores). The limit sits between, far enough from both that a loaded
# machine does not cross it and a quadratic check cannot pass.
LIMIT_SECONDS = 0.100
# The whole floor (every check in turn) took 0.6 s on one such episode before; 10-30 ms now.
FLOOR_LIMIT_SECONDS = 0.200


def _repeat(unit: str, head: str = "") -> str:
    return (head + unit * (LENGTH // len(unit) + 1))[:LENGTH]


def _run_then(head: str, filler: str, tail: str) -> str:
    """`head`, a run of `filler`, then `tail`: one start that reads the whole run and fails."""
    return head + filler * (LENGTH - len(head) - len(tail)) + tail


ADVERSARIAL = {
    # The issue's own text, and every URL start repeated: each start read the rest of the run.
    "paris_then_http": _repeat("http://", "I live in Paris. "),
    "http": _repeat("http://"),
    "https": _repeat("https://"),
    "www": _repeat("www."),
    "url_runs": _repeat("http://x "),
    "url_then_no_slot": _run_then("http://x", "a", "/"),
    "url_then_percent": _repeat("http://%7"),
    # Markdown images and links: "![" read on to the next "]" from every "![".
    "image_starts": _repeat("!["),
    "image_alt": _repeat("![a"),
    "image_then_no_close": _run_then("![x", "a", "!"),
    "link_targets": _repeat("]("),
    "link_spaced": _repeat("] ("),
    "close_then_blanks": _run_then("]", " ", "("),
    "open_paren_blanks": _run_then("](", " ", "x"),
    # Role markers: "\n\s*" from every newline, "#{2,}" from every "#".
    "newlines": _repeat("\n"),
    "newline_blank": _repeat("\n "),
    "newlines_then_near_miss": _run_then("", "\n", "systems"),
    "hashes": _repeat("#"),
    "hashes_then_near_miss": _run_then("", "#", " sys"),
    "hash_pairs": _repeat("## "),
    "role_word_then_blanks": _run_then("system", " ", "x"),
    "angle": _repeat("<"),
    "angle_blank": _repeat("< "),
    "angle_then_blanks": _run_then("<", " ", "im"),
    "angle_bar": _repeat("<|"),
    "angle_slash": _repeat("</"),
    "brackets": _repeat("[/"),
    "begin_end": _repeat("end of "),
    # Bounded gaps ("ignore ... instructions" within 40 characters): every start tried every gap.
    "override_verbs": _repeat("ignore "),
    "override_drop": _repeat("drop the "),
    "override_verbs_sentences": _repeat("ignore. rules "),
    "from_now_on": _repeat("from now on "),
    "pretend": _repeat("pretend to be "),
    "act_as": _repeat("act as a "),
    "reveal": _repeat("reveal "),
    "send": _repeat("send "),
    "send_to": _repeat("send to "),
    "send_far_from_target": _repeat("send" + "x" * 70 + " to http:// "),
    "send_then_blanks": _run_then("send to", " ", "x"),
    # Directives: "\s+" after every subject.
    "you": _repeat("you "),
    "you_then_blanks": _run_then("you", " ", "mus"),
    "always": _repeat("always "),
    "do_not": _repeat("do not "),
    # Plain text of several kinds.
    "letters": _repeat("a"),
    "accented": _repeat("é"),
    "words": _repeat("word "),
    "digits": _repeat("1 "),
    "sentences": _repeat("x."),
    "dollars": _repeat("$"),
    "braces": _repeat("{"),
    "colons": _repeat(":"),
    "full_width": _repeat("ｈｔｔｐ：／／"),
}


def _best_of_five(check, text: str) -> float:
    best = float("inf")
    for _ in range(5):  # the best of five: a busy machine slows a run, never speeds it
        started = time.perf_counter()
        check(text)
        best = min(best, time.perf_counter() - started)
    return best


def test_the_adversarial_texts_are_full_length():
    assert {len(text) for text in ADVERSARIAL.values()} == {LENGTH}


@pytest.mark.parametrize("index", range(len(guard.CHECKS)), ids=lambda i: f"{i}-{guard.CHECKS[i].rule}")
def test_every_floor_check_reads_20000_adversarial_characters_in_under_100_ms(index):
    check = guard.CHECKS[index]
    slow = {}
    for name, text in ADVERSARIAL.items():
        subject = guard.normalise(text) if check.folded else text
        seconds = _best_of_five(check.found, subject)
        if seconds >= LIMIT_SECONDS:
            slow[name] = round(seconds * 1000, 1)
    assert slow == {}, f"{check.rule} check {index} took (ms): {slow}"


def _floor(text: str) -> str | None:
    try:
        guard.check_untrusted_text(text)
    except Rejected as refused:
        return refused.rule
    return None


def test_the_issues_recalled_episode_passes_the_floor_and_every_check_of_it_in_under_100_ms():
    # What every recall did for each of the 20 turns of the report: 0.6 s each, 12.5 s a recall.
    text = "I live in Paris. " + "http://" * 2850
    assert _floor(text) is None
    folded = guard.normalise(text)
    assert max(_best_of_five(check.found, folded) for check in guard.CHECKS) < LIMIT_SECONDS


def test_the_whole_floor_reads_every_adversarial_text_in_under_200_ms():
    # All its checks in turn: the floor on one episode.
    slow = {}
    for name, text in ADVERSARIAL.items():
        seconds = _best_of_five(_floor, text)
        if seconds >= FLOOR_LIMIT_SECONDS:
            slow[name] = round(seconds * 1000, 1)
    assert slow == {}, f"the floor took (ms): {slow}"

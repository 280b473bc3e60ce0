"""The consent rules are compiled the first time a turn is read, not when a process imports the
service (core/lazy_re.py): a `manage.py` command or a worker that never reads a turn does not
pay for them. A fresh interpreter shows it, as this test process has read turns already."""

from __future__ import annotations

import re
import subprocess
import sys

from core.lazy_re import Patterns
from tests.integration.stack import ROOT

IMPORT_THE_TASKS_THEN_READ_A_TURN = """
import django, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
django.setup()
import facts.tasks
from facts import consent, consent_languages
lists = [consent.FORGET_RE, consent._WITHHOLD_RE, consent_languages.WITHHOLD_RE, consent_languages.FORGET_PREVIOUS_RE]
print("before", sum(rules._compiled is not None for rules in lists))
print("request", consent.detect("Please don't remember this, I moved to Porto."))
print("after", sum(rules._compiled is not None for rules in lists))
"""


def test_a_process_that_imports_the_tasks_compiles_no_rule_until_it_reads_a_turn():
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_THE_TASKS_THEN_READ_A_TURN], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    assert "before 0" in lines, out.stdout
    assert any(line.startswith("request ConsentRequest(kind='withhold'") for line in lines), out.stdout
    assert "after 0" not in lines, out.stdout


def test_patterns_count_and_join_without_compiling_and_match_as_compiled():
    first, second = Patterns([r"\bforget\b"]), Patterns([r"\boff the record\b", r"\bdon't save\b"])
    joined = first + second
    assert (len(joined), first._compiled, second._compiled, joined._compiled) == (3, None, None, None)
    assert [p.pattern for p in joined] == [r"\bforget\b", r"\boff the record\b", r"\bdon't save\b"]
    assert joined[1].search("this is off the record") is not None
    assert joined[0:2] == [re.compile(r"\bforget\b"), re.compile(r"\boff the record\b")]

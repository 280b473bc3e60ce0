"""The two tests each consent fix file runs on the forms it was written for
(tests/facts/test_consent_*_fixes.py): every request read as its kind, every look-alike as no
request. A file binds them to its own lists under these names:

    test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request = (
        form_tests(REQUESTS, LOOK_ALIKES)
    )
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from facts.consent import detect


def form_tests(
    requests: list[tuple[str, str]], look_alikes: list[str]
) -> tuple[Callable[[str, str], None], Callable[[str], None]]:
    @pytest.mark.parametrize(("text", "kind"), requests)
    def test_a_request_of_each_form_is_read_as_its_kind(text: str, kind: str) -> None:
        found = detect(text)
        assert found is not None and found.kind == kind, (text, found)

    @pytest.mark.parametrize("text", look_alikes)
    def test_a_look_alike_of_each_form_is_not_a_request(text: str) -> None:
        assert detect(text) is None, text

    return test_a_request_of_each_form_is_read_as_its_kind, test_a_look_alike_of_each_form_is_not_a_request

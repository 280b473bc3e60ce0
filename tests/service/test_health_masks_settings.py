"""/health masks a URL setting as what it is (issue 33, item 10): the value is parsed whole,
so a password holding a quote, a blank, "@" or "/" is never shown in part."""

from __future__ import annotations

import pytest

from core.redact import mask_text, mask_url

QUOTED = "http://llmuser:pa'ss-w0rd@llm.example/v1"


def test_a_keyed_caller_never_sees_a_password_holding_a_quote(api, settings):
    settings.OPENAI_API_KEY = "sk-health-test"
    settings.OPENAI_BASE_URL = QUOTED
    r = api.get("/health")
    assert r.status_code == 200
    shown = r.content.decode()
    assert "llmuser" not in shown and "pa'ss" not in shown and "ss-w0rd" not in shown
    assert r.json()["extractor"]["base_url"] == "http://***:***@llm.example/v1"


@pytest.mark.parametrize(
    ("url", "shown", "secrets"),
    [
        (QUOTED, "http://***:***@llm.example/v1", ("llmuser", "pa'ss", "w0rd")),
        ('http://u:pa"ss<w>rd@h/v1', "http://***:***@h/v1", ('pa"ss', "rd")),
        ("http://u:pa ss word@h/v1", "http://***:***@h/v1", ("pa ss", "word")),
        ("http://u:pa%20ss@h/v1", "http://***:***@h/v1", ("pa%20ss",)),
        ("http://u:p@ss@w0rd@h/v1", "http://***:***@h/v1", ("ss", "w0rd")),
        ("http://u:pa/ss?wo#rd@h/v1", "http://***:***@h/v1", ("pa", "ss", "wo", "rd")),
        ("https://t0k'en@h/v1", "https://***@h/v1", ("t0k", "en")),
        ("https://h/v1?api_key=a'b c&region=eu", "https://h/v1?api_key=***&region=eu", ("a'b", "b c")),
        ("https://h/v1?api_key=ab&cd#ef&region=eu", "https://h/v1?api_key=***&***#***&region=eu", ("ab", "cd", "ef")),
        ("https://h/v1?region=eu#token=x'y", "https://h/v1?region=eu#token=***", ("x'y",)),
        ("llmuser:pa'ss@llm.example", "***", ("llmuser", "pa'ss")),
    ],
)
def test_a_url_setting_is_shown_without_any_part_of_its_credentials(url, shown, secrets):
    masked = mask_url(url)
    assert masked == shown
    assert not any(secret in masked for secret in secrets)


def test_an_error_text_quoting_a_url_setting_shows_none_of_its_password():
    text = f"Invalid URL '{QUOTED}': no host; see https://docs.example/e?token=t"
    masked = mask_text(text, [QUOTED, ""])
    assert masked == "Invalid URL 'http://***:***@llm.example/v1': no host; see https://docs.example/e?token=***"

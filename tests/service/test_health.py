"""GET /api/v1/health: anyone sees the status and each component's one word; a valid API
key also sees the details, with the credentials in any URL masked."""

from __future__ import annotations

import pytest
from kombu import Connection

from core.redact import mask_url, mask_urls
from tests.base import ApiClient

LLM_URL = "http://llm-user:llm-secret@127.0.0.1:9/v1?api_key=query-secret&region=eu"
SECRETS = ("llm-user", "llm-secret", "query-secret")


@pytest.fixture
def llm_with_credentials(settings):
    settings.OPENAI_API_KEY = "sk-health-test"
    settings.OPENAI_BASE_URL = LLM_URL


@pytest.fixture
def embedded_broker(settings, tmp_path):
    """The embedded SQLite broker on a file of this test's own (the suite runs tasks eagerly)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = f"sqlite:///{tmp_path / 'broker' / 'broker.sqlite3'}"
    return tmp_path / "broker"


def test_it_shows_anyone_only_the_status_and_each_components_word(db, llm_with_credentials):
    r = ApiClient(None).get("/health")
    assert r.status_code == 200
    assert not any(secret in r.content.decode() for secret in SECRETS)
    body = r.json()
    assert set(body) == {"status", "engine", "database", "broker", "embedder"}
    assert body["status"] == "ok" and body["database"] == "ok" and body["broker"] == "eager"
    assert body["embedder"] in {"ok", "error"}


def test_an_unknown_key_gets_the_anonymous_answer(db, llm_with_credentials):
    body = ApiClient("mem_not_a_key").get("/health").json()
    assert set(body) == {"status", "engine", "database", "broker", "embedder"}


def test_a_keyed_caller_sees_the_details_with_credentials_masked(api, llm_with_credentials):
    r = api.get("/health")
    assert r.status_code == 200
    body = r.json()
    assert not any(secret in r.content.decode() for secret in SECRETS)
    assert body["extractor"]["active"] == "llm" and body["extractor"]["model"]
    assert body["extractor"]["base_url"] == "http://***:***@127.0.0.1:9/v1?api_key=***&region=eu"
    assert body["sqlite"].startswith("SQLite ")
    assert body["embedder"]["model"] and "ready" in body["embedder"]


def test_a_key_sent_is_counted_as_a_read(api, settings):
    settings.MEMORY_RATE_LIMIT_READ = "1/day"
    assert api.get("/health").status_code == 200
    refused = api.get("/health")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert ApiClient(None).get("/health").status_code == 200  # a probe without a key is never limited


def test_a_broker_folder_that_is_missing_makes_it_degraded(api, embedded_broker):
    assert not embedded_broker.exists()
    anonymous = ApiClient(None).get("/health").json()
    assert anonymous["status"] == "degraded" and anonymous["broker"] == "error"
    keyed = api.get("/health").json()
    assert keyed["status"] == "degraded"
    assert keyed["broker"].startswith("error: ") and str(embedded_broker) in keyed["broker"]


def test_a_broker_file_that_is_no_database_makes_it_degraded(api, embedded_broker):
    embedded_broker.mkdir()
    (embedded_broker / "broker.sqlite3").write_bytes(b"not a database, " * 512)
    keyed = api.get("/health").json()
    assert keyed["status"] == "degraded"
    assert keyed["broker"].startswith("error: ") and "not a database" in keyed["broker"]


def test_a_working_embedded_broker_is_ok(api, embedded_broker, settings):
    embedded_broker.mkdir()
    assert api.get("/health").json()["broker"] == "ok"  # no file yet: the first message creates it
    with Connection(settings.CELERY_BROKER_URL, transport=settings.CELERY_BROKER_TRANSPORT) as conn:
        conn.SimpleQueue("health-test").put({"n": 1})  # the transport creates the file
    assert (embedded_broker / "broker.sqlite3").exists()
    body = api.get("/health").json()
    assert body["status"] == "ok" and body["broker"] == "ok"
    assert ApiClient(None).get("/health").json()["broker"] == "ok"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:pw@host:8080/v1", "http://***:***@host:8080/v1"),
        ("https://token@host/v1", "https://***@host/v1"),
        (
            "https://host/v1?api_key=k&apikey=k&access_token=t&region=eu",
            "https://host/v1?api_key=***&apikey=***&access_token=***&region=eu",
        ),
        (
            "https://host/v1?client_secret=s&Password=p&sig=s&page=2",
            "https://host/v1?client_secret=***&Password=***&sig=***&page=2",
        ),
        ("https://host/cb#access_token=t&state=s", "https://host/cb#access_token=***&state=s"),
        ("https://host/v1", "https://host/v1"),
        ("", ""),
        ("default", "default"),
    ],
)
def test_urls_are_shown_without_their_credentials(url, shown):
    assert mask_url(url) == shown


def test_urls_in_a_text_are_masked():
    text = "Connection to 'http://u:pw@10.0.0.1:9/v1?key=k' failed; see https://docs.example/e"
    assert mask_urls(text) == "Connection to 'http://***:***@10.0.0.1:9/v1?key=***' failed; see https://docs.example/e"

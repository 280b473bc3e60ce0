"""One extraction call to an OpenAI-compatible endpoint, with retries and one re-ask.

Runs on the `llm` queue, possibly on a machine with no database: it imports
no models and takes everything from its arguments and settings. Transient
failures (429, 5xx, timeouts, connection errors) are retried with exponential
backoff up to MEMORY_LLM_MAX_TRIES; an invalid reply is re-asked once with
the reason; anything else fails the turn with a reason an operator can act on.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, cast

import openai
from django.conf import settings
from openai.types.chat import ChatCompletionMessageParam

from facts.extraction import prompt, rules
from facts.extraction.job import Job
from facts.extraction.prompt import ChatMessage
from facts.extraction.schema import InvalidReply, parse_reply

log = logging.getLogger(__name__)


class ExtractionFailed(Exception):
    """The call cannot produce a reply; `reason` is stored on the turn."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class CallResult:
    reply: dict[str, Any]
    extractor: str  # "llm:<model>" or "rules"
    llm_ms: float = 0.0
    tries: int = 0
    reasks: int = 0
    notes: list[str] = field(default_factory=list)


def llm_configured() -> bool:
    return bool(settings.OPENAI_API_KEY)


_clients: dict[tuple[str, str, float], openai.OpenAI] = {}


def _client() -> openai.OpenAI:
    """One client per configuration and process: building one loads the CA bundle (~50 ms)."""
    config = (settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL, settings.MEMORY_LLM_TIMEOUT_SECONDS)
    client = _clients.get(config)
    if client is None:
        # The SDK's own retries are off: ours are counted, logged and backed off here.
        client = openai.OpenAI(api_key=config[0], base_url=config[1] or None, timeout=config[2], max_retries=0)
        _clients.clear()
        _clients[config] = client
    return client


def _is_transient(exc: Exception) -> bool:
    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError | openai.RateLimitError):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def _complete(client: openai.OpenAI, messages: list[ChatMessage], result: CallResult) -> str:
    """One completion, retried on transient errors; returns the reply text."""
    tries = max(1, settings.MEMORY_LLM_MAX_TRIES)
    extra: dict[str, Any] = {"response_format": {"type": "json_object"}} if settings.MEMORY_LLM_JSON_MODE else {}
    # The prompt module builds plain role/content dicts, the shape these TypedDicts describe.
    chat = cast(list[ChatCompletionMessageParam], messages)
    for attempt in range(1, tries + 1):
        result.tries += 1
        started = time.perf_counter()
        try:
            response = client.chat.completions.create(model=settings.MEMORY_LLM_MODEL, messages=chat, **extra)
            if not response.choices:
                return ""
            return response.choices[0].message.content or ""
        except openai.OpenAIError as exc:
            if not _is_transient(exc):
                raise ExtractionFailed(f"LLM endpoint refused the call: {_describe(exc)}") from exc
            result.notes.append(f"try {attempt}: {_describe(exc)}")
            if attempt == tries:
                raise ExtractionFailed(
                    f"LLM endpoint failed {tries} times ({'; '.join(result.notes[-tries:])}); "
                    "the turn is kept and will be fed again by the next turn of the session or a retry."
                ) from exc
            delay = settings.MEMORY_LLM_BACKOFF_SECONDS * (2 ** (attempt - 1))
            log.warning("LLM call failed (%s); retrying in %.2fs", _describe(exc), delay)
            time.sleep(delay)
        finally:
            result.llm_ms += (time.perf_counter() - started) * 1000
    raise AssertionError("unreachable")


def _describe(exc: Exception) -> str:
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}"
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection error"
    return type(exc).__name__


def run_llm(messages: list[ChatMessage]) -> CallResult:
    """Ask the model; validate; re-ask once when the reply is invalid."""
    result = CallResult(reply={}, extractor=f"llm:{settings.MEMORY_LLM_MODEL}")
    client = _client()
    raw = _complete(client, messages, result)
    try:
        result.reply = parse_reply(raw).model_dump(mode="json")
        return result
    except InvalidReply as first:
        result.reasks += 1
        log.info("Invalid extraction reply, asking again: %s", first)
        raw = _complete(client, prompt.reask_messages(messages, raw, str(first)), result)
        try:
            result.reply = parse_reply(raw).model_dump(mode="json")
            return result
        except InvalidReply as second:
            raise ExtractionFailed(f"The model's reply was invalid twice: {second}") from second


def run_extractor(job: Job) -> CallResult:
    """The reply for a prepared job: the LLM when configured here, else the offline rules."""
    if not llm_configured():
        started = time.perf_counter()
        reply = rules.extract([m["user"] for m in job.messages])
        return CallResult(reply=reply, extractor="rules", llm_ms=(time.perf_counter() - started) * 1000)
    messages = prompt.build_messages(facts=job.facts, messages=job.messages, now=job.now)
    return run_llm(messages)

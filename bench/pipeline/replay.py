"""Posting the conversations to the turn API and waiting until the worker is through.

One memory user per conversation holds both speakers' turns (the observations are about
both), posted as eval_recall stores them (bench/locomo.py `conversation_turns`):
user_input "Speaker: text" (plus the image caption), the other speaker's next message as
assistant_response, session_id per session and speaker, turn_id = the dia_id,
occurred_at = the session's date plus the turn's position in seconds.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

from django.conf import settings
from django.db.models import Q

from bench.pipeline.replay_llm import Conversation
from core import broker
from facts.models import Fact, MemoryUser, Turn, TurnState

FINAL = [TurnState.DONE, TurnState.SKIPPED, TurnState.FAILED]


def user_id_for(conversation: str) -> str:
    return f"locomo-{conversation}"


def post_turns(base_url: str, api_key: str, conversations: list[Conversation], *, pace: float, progress) -> None:
    """POST every turn in order; a refused post stops the run (the report would be meaningless)."""
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    for conv in conversations:
        url = f"{base_url}/api/v1/users/{user_id_for(conv.name)}/turns"
        for spec in conv.turns:
            payload = {
                "session_id": spec.session_id,
                "turn_id": spec.dia_id,
                "user_input": spec.user_input,
                "assistant_response": spec.reply,
                "occurred_at": spec.when.isoformat(),
            }
            request = urllib.request.Request(url, data=json.dumps(payload).encode(), headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    response.read()
            except urllib.error.HTTPError as exc:
                raise RuntimeError(f"POST {url} ({spec.dia_id}) answered {exc.code}: {exc.read()[:500]!r}") from exc
            progress(1)
            if pace > 0:
                time.sleep(pace)


def _unindexed(users: list[MemoryUser]) -> int:
    """Live facts without a stored vector yet (the index sync runs after each write)."""
    return (
        Fact.objects.live()
        .filter(user__in=users)
        .filter(Q(embedding_model="") | Q(embedding_model__isnull=True))
        .count()
    )


def _queued_messages() -> int:
    """Messages still in the embedded broker's file (0 for Redis: not visible here)."""
    url = settings.CELERY_BROKER_URL
    return broker.message_count(url) if url.startswith("sqlite:") else 0


def wait_for_worker(users: list[MemoryUser], total: int, *, timeout: float, stall: float, progress) -> dict:
    """Poll until every turn is finished and every live fact is indexed, or until nothing moved for
    `stall` seconds (a lost task message leaves its turn queued for good); what was still open."""
    deadline = time.monotonic() + timeout
    finished, state, moved_at = 0, None, time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - moved_at < stall:
        now_finished = Turn.objects.filter(user__in=users, state__in=FINAL).count()
        now_state = (now_finished, _unindexed(users), _queued_messages())
        if now_state != state:
            moved_at = time.monotonic()
        progress(now_finished - finished)
        finished, state = now_finished, now_state
        if finished >= total and state[1] == 0:
            break
        time.sleep(0.5)
    return {"unfinished_turns": total - finished, "unindexed_facts": state[1] if state else 0}

"""Ask a store the fixture's recall questions through the REST API of the code in the working directory.

The same file serves both releases: build_first_release_store.py runs it in the
first release's tree, the upgrade test in current main's. Usage:

    python ask_recalls.py QUESTIONS.json   (DATABASE_URL names the store)

QUESTIONS.json holds {"keys": {name: raw key}, "questions": [...]}; each question
names its key, user and the recall body. Prints one answer per question: the
status and, in order, each hit's fact id, text and signals.
"""

from __future__ import annotations

import json
import os
import sys

import django

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
django.setup()

from django.test import Client  # noqa: E402


def _hit(item: dict) -> dict:
    fact = item["fact"]
    return {"id": fact["id"], "text": fact["text"], "signals": item["signals"]}


def ask(client: Client, keys: dict, question: dict) -> dict:
    response = client.post(
        f"/api/v1/users/{question['user']}/recall",
        data=json.dumps(question["body"]),
        content_type="application/json",
        headers={"Authorization": f"Bearer {keys[question['key']]}"},
    )
    if response.status_code != 200:
        return {"status": response.status_code, "hits": []}
    return {"status": 200, "hits": [_hit(item) for item in response.json()["items"]]}


def main(path: str) -> None:
    with open(path) as f:
        spec = json.load(f)
    client = Client()
    print(json.dumps([ask(client, spec["keys"], q) for q in spec["questions"]]))


if __name__ == "__main__":
    main(sys.argv[1])

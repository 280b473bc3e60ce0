"""The ground: helpers every app stands on and that import no app (errors, API schemas,
timestamps, ids, stats, rate limits and their counters, redaction, private files, queues and
the embedded broker, the SQLite engine and the database helpers, backup files). Nothing here
imports facts, recall, profiles, the doors or the project package (scripts/floors.py,
tests/test_floors.py)."""

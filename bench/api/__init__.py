"""`manage.py bench_api`: load against the HTTP API of a running service (docs/measurements.md)."""

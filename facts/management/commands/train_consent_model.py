"""Train the consent classifier and write its weights (facts/consent_model.json).

Deterministic (facts/consent_training.py): run again on the same sets, it writes the same
file. Needs the repository's labelled sets (tests/facts/consent_*phrases.py) and the packaged
embedding model; downloads nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand

from facts import consent
from facts.consent_model import WEIGHTS_FILE
from facts.consent_training import per_group, to_json, train


class Command(BaseCommand):
    help = (
        'Train the "don\'t remember this" classifier on the labelled consent sets (all but the sixth), choose '
        "its threshold by leave-one-set-out cross-validation, and write the weights (default: "
        "facts/consent_model.json). Prints each set's held-out precision and recall."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", default=str(WEIGHTS_FILE), help="where to write the weights (JSON)")

    def handle(self, *args, output: str, **options):
        from recall.embeddings import LOCAL_MODEL_NAME, embedder_for

        embedder = embedder_for(LOCAL_MODEL_NAME)
        model, table, held_out = train(embedder.embed, LOCAL_MODEL_NAME)
        Path(output).write_text(json.dumps(to_json(model), indent=0) + "\n")
        rules = np.asarray([consent.detect(m.text) is not None for m in table.messages])
        classifier = held_out >= model.threshold
        either = rules | classifier
        self.stdout.write(f"threshold={model.threshold} messages={len(table.messages)} written to {output}")
        self.stdout.write("held-out (each set scored by a model trained without it): rules | classifier | either")
        figures = (per_group(table, rules), per_group(table, classifier), per_group(table, either))
        for group in figures[0]:
            row = "  ".join(f"P {f[group]['precision']:.3f} R {f[group]['recall']:.3f}" for f in figures)
            self.stdout.write(f"  {group:7} {row}")

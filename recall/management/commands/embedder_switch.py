"""manage.py embedder_switch: change the embedding model of a live store (recall/switch.py).

embedder_switch status
embedder_switch start MODEL      # record the model to build beside the live one
embedder_switch build            # embed it in the background (progress bar; resumes)
embedder_switch switch           # catch up and make it live, in one transaction
embedder_switch back             # the previous model again (kept vectors, only changes re-embedded)
embedder_switch cancel           # stop a build (its vectors are kept until dropped)
embedder_switch drop             # delete the kept vectors (no way back after this)
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from recall import slots, switch
from recall.embeddings import LOCAL_MODELS, EmbedderError

ACTIONS = ("status", "start", "build", "switch", "back", "cancel", "drop")


class Command(BaseCommand):
    help = (
        "Change the embedding model recall uses without re-extraction and without a recall outage: "
        "build the new model's vectors beside the old, switch atomically, keep the old for the way back."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=ACTIONS)
        parser.add_argument(
            "model", nargs="?", help=f"for start: a local model ({', '.join(LOCAL_MODELS)}) or the endpoint's"
        )
        parser.add_argument("--batch", type=int, default=256, help="documents embedded per write transaction")

    def handle(self, *args: Any, action: str, model: str | None = None, batch: int = 256, **options: Any) -> None:
        if batch < 1:
            raise CommandError("--batch must be at least 1.")
        if action == "start" and not model:
            raise CommandError("start needs the model to build, e.g. `embedder_switch start multilingual-e5-small-q4`.")
        if action != "start" and model:
            raise CommandError(f"{action} takes no model.")
        try:
            getattr(self, f"_{action}")(model, batch)
        except switch.SwitchError as exc:
            raise CommandError(str(exc)) from exc
        except EmbedderError as exc:
            raise CommandError(
                f"The embedder failed: {exc}. Fix it and run the same command again; it resumes."
            ) from exc

    def _status(self, model: str | None, batch: int) -> None:
        now = slots.state()
        counts = switch.counts()
        self.stdout.write(
            f"live: {now.live_model} (slot {now.live_slot})\n"
            f"building: {now.building_model or '-'} ({counts['missing_building']} documents to embed)\n"
            f"kept for the way back: {now.kept_model or '-'}\n"
            f"live documents without a current vector: {counts['missing_live']}\n"
            + "".join(f"rows {key}: {value}\n" for key, value in counts.items() if ":" in key)
        )

    def _start(self, model: str | None, batch: int) -> None:
        assert model is not None  # handle() refuses a start without a model
        now = switch.start(model)
        self.stdout.write(f"building {now.building_model} beside {now.live_model}; run `embedder_switch build`.")

    def _build(self, model: str | None, batch: int) -> None:
        now = slots.state()
        if not now.building_model:
            raise CommandError("No model is being built: `embedder_switch start MODEL` first.")
        with tqdm(
            total=switch.missing_count(now), desc=f"embedding {now.building_model}", unit="doc", file=self.stderr
        ) as bar:
            written = switch.build(batch=batch, progress=bar.update)
        self.stdout.write(f"{written} vectors of {now.building_model} written; `embedder_switch switch` makes it live.")

    def _switch(self, model: str | None, batch: int) -> None:
        before = slots.state()
        if before.building_model and switch.missing_count(before):
            self._build(model, batch)
        now = switch.switch(batch=batch)
        self.stdout.write(
            f"recall serves {now.live_model}; {now.kept_model} kept (`back` returns to it, `drop` deletes it)."
        )

    def _back(self, model: str | None, batch: int) -> None:
        now = slots.state()
        if not now.kept_model:
            raise CommandError("No previous model's vectors are kept: there is no way back.")
        switch.start(now.kept_model)
        self._switch(None, batch)

    def _cancel(self, model: str | None, batch: int) -> None:
        now = switch.cancel()
        self.stdout.write(f"build stopped; {now.kept_model}'s vectors kept until `embedder_switch drop`.")

    def _drop(self, model: str | None, batch: int) -> None:
        removed = switch.drop()
        self.stdout.write(f"{removed} kept vectors deleted.")

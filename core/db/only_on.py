"""A migration operation that runs on one database engine only: the migrations' guard.

The recall index is engine-specific SQL (recall/engines/): FTS5 tables on
SQLite, term and pgvector tables on PostgreSQL; the user-data tables are
hash-partitioned by user on PostgreSQL only (core/db/partitioned_tables.py). Each such
migration wraps its operations in `OnlyOn(vendor, ...)`; on the other engine it records
the migration as applied and does nothing. Migrations run before any engine object is
installed, so they ask the connection being migrated.
"""

from __future__ import annotations

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState


class OnlyOn(Operation):
    reduces_to_sql = False

    def __init__(self, vendor: str, operation: Operation) -> None:
        self.vendor = vendor
        self.operation = operation

    @property
    def reversible(self) -> bool:  # type: ignore[override]
        return self.operation.reversible

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        self.operation.state_forwards(app_label, state)

    def database_forwards(
        self, app_label: str, schema_editor: BaseDatabaseSchemaEditor, from_state: ProjectState, to_state: ProjectState
    ) -> None:
        if schema_editor.connection.vendor == self.vendor:
            self.operation.database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(
        self, app_label: str, schema_editor: BaseDatabaseSchemaEditor, from_state: ProjectState, to_state: ProjectState
    ) -> None:
        if schema_editor.connection.vendor == self.vendor:
            self.operation.database_backwards(app_label, schema_editor, from_state, to_state)

    def describe(self) -> str:
        return f"On {self.vendor} only: {self.operation.describe()}"

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from facts.models import ApiKey, Tenant
from tests.base import ApiClient


def _run(*args) -> dict:
    out = StringIO()
    call_command(*args, stdout=out)
    return dict(line.split("=", 1) for line in out.getvalue().splitlines() if "=" in line)


@pytest.mark.django_db
def test_create_tenant_prints_the_id_and_a_working_key_once():
    printed = _run("create_tenant", "Acme", "--key-name", "backend", "--scopes", "read,write")
    tenant = Tenant.objects.get(pk=printed["tenant_id"])
    key = ApiKey.objects.get(tenant=tenant)
    assert key.name == "backend" and key.scopes == ["read", "write"]
    assert printed["api_key"] not in key.key_hash  # only the hash is stored
    client = ApiClient(printed["api_key"])
    assert client.post("/users/u1/facts", {"text": "User likes tea."}).status_code == 201


@pytest.mark.django_db
def test_create_tenant_refuses_unknown_scopes():
    with pytest.raises(CommandError, match="Unknown scopes"):
        _run("create_tenant", "Acme", "--scopes", "read,root")
    assert not Tenant.objects.exists()


@pytest.mark.django_db
def test_issue_key_and_revoke_by_prefix():
    tenant_id = _run("create_tenant", "Acme")["tenant_id"]
    raw = _run("issue_key", tenant_id, "--scopes", "read")["api_key"]
    client = ApiClient(raw)
    assert client.get("/users/u1/facts").status_code == 404  # authenticated, unknown user
    prefix = raw.split("_")[1]
    assert _run("issue_key", tenant_id, "--revoke", prefix) == {"revoked": prefix}
    assert client.get("/users/u1/facts").status_code == 401


@pytest.mark.django_db
def test_issue_key_for_an_unknown_tenant_says_what_to_do():
    with pytest.raises(CommandError, match="create_tenant"):
        _run("issue_key", "not-a-uuid")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "command",
    [["issue_key"], ["retry_turns", "--tenant"], ["reindex_embeddings", "--tenant"]],
    ids=["issue_key", "retry_turns", "reindex_embeddings"],
)
@pytest.mark.parametrize("ref", ["not-a-uuid", "00000000-0000-0000-0000-000000000000"])
def test_a_command_given_no_tenants_id_says_so_instead_of_a_traceback(command, ref):
    _run("create_tenant", "Acme")
    keys = ApiKey.objects.count()
    with pytest.raises(CommandError, match="No tenant .*create_tenant prints it"):
        _run(*command, ref)
    assert ApiKey.objects.count() == keys

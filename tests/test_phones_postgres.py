"""The players' links on a PostgreSQL log: kept hashed in the log's own schema, beside the
chain, and out of the players' role's reach."""

import psycopg
import pytest

from fracas.ledger import invites
from fracas.ledger.postgres import split_url
from fracas.projections import Fracas


def test_links_live_in_the_logs_schema_and_the_players_role_cannot_read_them(
    pg_url: str,
) -> None:
    conninfo, schema = split_url(pg_url)
    role = f"players_{schema}"
    with Fracas(pg_url) as fracas:
        fracas.new("percentile", encounter="m")
        token = invites.invite(fracas.store, "m", "alice")
        fracas.store.execute(f"CREATE ROLE {role} LOGIN")
        fracas.store.execute(f"GRANT USAGE ON SCHEMA {schema}_players TO {role}")
        fracas.store.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema}_players TO {role}")
    with Fracas(pg_url, readonly=True) as reader:
        found = invites.holder(reader.store, token)
        assert found is not None and found.combatant == "alice"
        other = token[:-1] + ("B" if token.endswith("A") else "A")  # never the token itself
        assert invites.holder(reader.store, other) is None
    with (
        psycopg.connect(conninfo, user=role, autocommit=True) as player,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        player.execute(f"SELECT * FROM {schema}.invites")
    with Fracas(pg_url) as fracas:
        assert invites.revoke(fracas.store, "m", "alice") == 1
        assert invites.holder(fracas.store, token) is None
        rows = fracas.store.conn.execute("SELECT digest FROM invites").fetchall()
        assert [r[0] for r in rows] == [invites.digest(token)]

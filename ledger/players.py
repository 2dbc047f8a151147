"""What the players' role of a PostgreSQL log may read: the one place the rule lives in SQL.

A log in schema NAME gets a schema NAME_players holding two views, a conservative part of
the players' export (`fracas export --format jsonl --for players`) as rows:

- `steps`: each step's encounter, number, control, target, author and time; for the one
  secret step shown by its command alone, `withheld_after_secret_step` (its own number)
  and the command as players may know it (who, what, against whom) in `command`;
- `events`: the events of every step shown in full, `n` counting them within their step
  (no position, version, hash or salt: those would count what is withheld), a revealed
  seed that would re-derive a withheld roll replaced by `"seed": null, "withheld": true`.

The players' role is granted NAME_players alone, never NAME (the events, the read models,
the chains) or NAME_keys (the sealed seeds): the views read the log with their owner's
rights, the role reads only the views. Each view reads a SECURITY DEFINER function that
returns exactly its rows (`steps_rows()`, `events_rows()`): the role may call any function
it can see, so no other function lives here, and a reader's EXPLAIN ANALYZE of a view
shows the function's rows, never the log's tables and their counts.

The rule is a cut, decided from what the events record, never from a roll's faces. The
players' rule (`fracas.projections.secrecy`, which the ledger may not import) works out what
each later step reads; SQL cannot, so each encounter is shown only up to its first step of
trouble, the same steps, numbers and events a players' export shows up to there:

- an undisclosed secret step (a `rolled` event with `"secret": true` no `step.disclosed` in
  effect names) is shown by its command alone, and nothing after it is shown, undone or not;
- a hidden combatant (a `combatant.hidden` event no `combatant.revealed` in effect names):
  nothing is shown from the first step with an event whose body holds their id anywhere
  (their join at the latest), the step itself included.

So the views show at most what a players' export shows, and all of it when an encounter has
neither. A revealed seed whose epoch a roll at or after the cut used stays withheld.
tests/test_postgres_trust.py holds the views to a players' export; change the two together
(and PLAYERS_RULE with them).
"""

from collections.abc import Iterator

PLAYERS_RULE = 3  # bump with any change below: every writable open brings a log up to date
MARK = f"fracas players rule {PLAYERS_RULE}"
CONTROL = "('step.undone', 'step.redone', 'step.superseded')"
IN_EFFECT = (  # as in fracas.ledger.base.EFFECTIVE_EVENTS
    "s.control = 'command' AND coalesce((SELECT c.control FROM {log}.steps c "
    "WHERE c.encounter = s.encounter AND c.target = s.step ORDER BY c.step DESC LIMIT 1), "
    "'redo') = 'redo'"
)
# Each encounter's first undisclosed secret step and first step naming a hidden combatant.
TROUBLE = """
SELECT r.encounter, t.secret, t.hidden,
       coalesce(least(t.secret, t.hidden), 2147483647) AS cut,
       CASE WHEN t.secret < coalesce(t.hidden, 2147483647) THEN t.secret END AS masked
FROM {log}.registry r CROSS JOIN LATERAL (
  SELECT
    (SELECT min(e.step) FROM {log}.events e
     WHERE e.encounter = r.encounter AND e.kind = 'rolled'
       AND (e.body::jsonb ->> 'secret') = 'true'
       AND NOT EXISTS (
         SELECT 1 FROM {log}.events d JOIN {log}.steps s
           ON s.encounter = d.encounter AND s.step = d.step
         WHERE d.encounter = r.encounter AND d.kind = 'step.disclosed'
           AND (d.body::jsonb ->> 'step')::integer = e.step AND {in_effect})) AS secret,
    (SELECT min(e.step) FROM {log}.events e, (
       SELECT h.body::jsonb ->> 'combatant' AS id FROM {log}.events h
       WHERE h.encounter = r.encounter AND h.kind = 'combatant.hidden'
       EXCEPT
       SELECT v.body::jsonb ->> 'combatant' FROM {log}.events v JOIN {log}.steps s
         ON s.encounter = v.encounter AND s.step = v.step
       WHERE v.encounter = r.encounter AND v.kind = 'combatant.revealed' AND {in_effect}
     ) AS hid
     WHERE e.encounter = r.encounter AND strpos(e.body, coalesce(hid.id, '')) > 0) AS hidden
) AS t"""


def players_schema(log: str) -> str:
    return f"{log}_players"


def statements(log: str) -> Iterator[str]:
    """The players' schema of the log in schema `log`, created or brought up to date."""
    players = players_schema(log)
    trouble = TROUBLE.format(log=log, in_effect=IN_EFFECT.format(log=log))
    definer = f"STABLE SECURITY DEFINER SET search_path = {log}, pg_temp"
    yield f"CREATE SCHEMA IF NOT EXISTS {players}"
    yield f"COMMENT ON SCHEMA {players} IS '{MARK}'"
    yield f"""
CREATE OR REPLACE FUNCTION {players}.steps_rows() RETURNS TABLE (
  encounter text, step integer, control text, target integer, author text, at text,
  withheld_after_secret_step integer, command jsonb) LANGUAGE sql {definer} AS $$
SELECT s.encounter, s.step, s.control, s.target, s.author, s.at,
       CASE WHEN s.step = b.masked THEN s.step END AS withheld_after_secret_step,
       CASE WHEN s.step = b.masked THEN (
         SELECT jsonb_build_object(
           'actor', CASE WHEN coalesce(c ->> 'actor', '') <> '' THEN c -> 'actor'
                         ELSE coalesce(c -> 'combatant', 'null') END,
           'action', coalesce(c -> 'action', 'null'),
           'targets', CASE WHEN c ? 'targets' THEN c -> 'targets' ELSE '[]' END)
         FROM (SELECT e.body::jsonb -> 'command' AS c FROM {log}.events e
               WHERE e.encounter = s.encounter AND e.step = s.step
                 AND e.kind IN ('declared', 'command.given')
               ORDER BY e.version LIMIT 1) AS given)
       END AS command
FROM ({trouble}) AS b JOIN {log}.steps s ON s.encounter = b.encounter
WHERE s.step < b.cut OR s.step = b.masked
$$"""
    yield f"CREATE OR REPLACE VIEW {players}.steps AS SELECT * FROM {players}.steps_rows()"
    yield f"""
CREATE OR REPLACE FUNCTION {players}.events_rows() RETURNS TABLE (
  encounter text, step integer, n bigint, kind text, author text, at text, schema integer,
  body text) LANGUAGE sql {definer} AS $$
SELECT x.encounter, x.step, x.n, x.kind, x.author, x.at, x.schema, x.body
FROM ({trouble}) AS b CROSS JOIN LATERAL (
  SELECT e.encounter, e.step, row_number() OVER (PARTITION BY e.step ORDER BY e.version) AS n,
         e.kind, e.author, e.at, e.schema,
         CASE WHEN e.kind = 'seed.revealed' AND EXISTS (
                SELECT 1 FROM {log}.events later
                WHERE later.encounter = b.encounter AND later.step >= b.cut
                  AND later.kind = 'rolled'
                  AND coalesce((later.body::jsonb -> 'roll' ->> 'seed_epoch')::integer, 0)
                      = (e.body::jsonb ->> 'seed_epoch')::integer)
              THEN (e.body::jsonb || '{{"seed": null, "withheld": true}}')::text
              ELSE e.body END AS body
  FROM {log}.events e
  WHERE e.encounter = b.encounter AND e.step < b.cut AND e.kind NOT IN {CONTROL}
) AS x
$$"""
    yield f"CREATE OR REPLACE VIEW {players}.events AS SELECT * FROM {players}.events_rows()"
    for function in ("withheld(text)", "hidden_epochs(text)", "secret_steps(text)"):
        yield f"DROP FUNCTION IF EXISTS {players}.{function}"  # rule 1's: callable by anyone

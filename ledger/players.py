"""What the players' role of a PostgreSQL log may read: the one place the rule lives in SQL.

A log in schema NAME gets a schema NAME_players holding two views, the players' export
(`fracas export --players`) as rows:

- `steps`: every step's encounter, number, control, target, author and time; for a step
  withheld from the players, the secret step it waits on (`withheld_after_secret_step`)
  and the command as players may know it (who, what, against whom) in `command`;
- `events`: the events of every step not withheld, `n` counting them within their step
  (no position, version, hash or salt: those would count what is withheld), a revealed
  seed that would re-derive a withheld roll replaced by `"seed": null, "withheld": true`.

The players' role is granted NAME_players alone, never NAME (the events, the read models,
the chains) or NAME_keys (the sealed seeds): the views read the log with their owner's
rights, the role reads only the views.

The rule mirrors `fracas.projections.replay.players_mask` (which the ledger may not
import), decided from what the events record, never from a roll's faces: a step holding a
`rolled` event with `"secret": true` is withheld unless a `step.disclosed` event in effect
names it; every later command step is withheld too while a withheld step it follows is in
effect (an undo or supersede of it lets later steps through; a redo withholds again), except
the GM's own words (steps of `note` and `step.disclosed` events only). A seed epoch with a
withheld roll keeps its revealed seed withheld. tests/test_postgres_trust.py holds the views
equal to a players' export; change the two together (and PLAYERS_RULE with them).
"""

from collections.abc import Iterator

PLAYERS_RULE = 1  # bump with any change below: every writable open brings a log up to date
MARK = f"fracas players rule {PLAYERS_RULE}"
CONTROL = "('step.undone', 'step.redone', 'step.superseded')"
STATEMENTS = "('note', 'step.disclosed')"
IN_EFFECT = (  # as in fracas.ledger.base.EFFECTIVE_EVENTS
    "s.control = 'command' AND coalesce((SELECT c.control FROM {log}.steps c "
    "WHERE c.encounter = s.encounter AND c.target = s.step ORDER BY c.step DESC LIMIT 1), "
    "'redo') = 'redo'"
)


def players_schema(log: str) -> str:
    return f"{log}_players"


def statements(log: str) -> Iterator[str]:
    """The players' schema of the log in schema `log`, created or brought up to date."""
    players = players_schema(log)
    definer = f"STABLE SECURITY DEFINER SET search_path = {log}, pg_temp"
    yield f"CREATE SCHEMA IF NOT EXISTS {players}"
    yield f"COMMENT ON SCHEMA {players} IS '{MARK}'"
    in_effect = IN_EFFECT.format(log=log)
    yield f"""
CREATE OR REPLACE FUNCTION {players}.secret_steps(enc text) RETURNS SETOF integer
LANGUAGE sql {definer} AS $$
  SELECT e.step FROM {log}.events e WHERE e.encounter = enc AND e.kind = 'rolled'
    AND (e.body::jsonb ->> 'secret') = 'true'
  EXCEPT
  SELECT (d.body::jsonb ->> 'step')::integer FROM {log}.events d
    JOIN {log}.steps s ON s.encounter = d.encounter AND s.step = d.step
    WHERE d.encounter = enc AND d.kind = 'step.disclosed' AND {in_effect}
$$"""
    yield f"""
CREATE OR REPLACE FUNCTION {players}.hidden_epochs(enc text) RETURNS SETOF integer
LANGUAGE sql {definer} AS $$
  SELECT DISTINCT coalesce((e.body::jsonb -> 'roll' ->> 'seed_epoch')::integer, 0)
  FROM {log}.events e WHERE e.encounter = enc AND e.kind = 'rolled'
    AND (e.body::jsonb ->> 'secret') = 'true'
    AND e.step IN (SELECT {players}.secret_steps(enc))
$$"""
    yield f"""
CREATE OR REPLACE FUNCTION {players}.withheld(enc text)
RETURNS TABLE (step integer, source integer) LANGUAGE plpgsql {definer} AS $$
#variable_conflict use_column
DECLARE
  secret integer[] := ARRAY(SELECT {players}.secret_steps(enc));
  undone integer[] := '{{}}';
  tainted integer[] := '{{}}';
  sources integer[] := '{{}}';
  live integer[] := '{{}}';
  origin integer;
  r record;
BEGIN
  FOR r IN
    SELECT s.step AS n, s.control, s.target, bool_and(e.kind IN {STATEMENTS}) AS said
    FROM {log}.steps s JOIN {log}.events e ON e.encounter = s.encounter AND e.step = s.step
    WHERE s.encounter = enc GROUP BY s.step, s.control, s.target ORDER BY s.step
  LOOP
    IF r.control = 'command' THEN
      origin := CASE WHEN r.n = ANY(secret) THEN r.n
                     ELSE (SELECT min(x) FROM unnest(live) AS x) END;
      IF origin IS NOT NULL AND NOT r.said THEN
        tainted := tainted || r.n;
        sources := sources || origin;
        live := live || origin;
        step := r.n;
        source := origin;
        RETURN NEXT;
      END IF;
    ELSE
      IF r.control IN ('undo', 'supersede') THEN
        undone := array_remove(undone, r.target) || r.target;
      ELSIF r.control = 'redo' THEN
        undone := array_remove(undone, r.target);
      END IF;
      live := ARRAY(SELECT t.o FROM unnest(tainted, sources) AS t(n, o)
                    WHERE NOT t.n = ANY(undone));
    END IF;
  END LOOP;
END $$"""
    yield f"""
CREATE OR REPLACE VIEW {players}.steps AS
SELECT x.encounter, x.step, x.control, x.target, x.author, x.at,
       x.source AS withheld_after_secret_step,
       CASE WHEN x.source IS NOT NULL THEN (
         SELECT jsonb_build_object(
           'actor', CASE WHEN coalesce(c ->> 'actor', '') <> '' THEN c -> 'actor'
                         ELSE coalesce(c -> 'combatant', 'null') END,
           'action', coalesce(c -> 'action', 'null'),
           'targets', CASE WHEN c ? 'targets' THEN c -> 'targets' ELSE '[]' END)
         FROM (SELECT e.body::jsonb -> 'command' AS c FROM {log}.events e
               WHERE e.encounter = x.encounter AND e.step = x.step
                 AND e.kind IN ('declared', 'command.given')
               ORDER BY e.version LIMIT 1) AS given)
       END AS command
FROM {log}.registry r CROSS JOIN LATERAL (
  SELECT s.encounter, s.step, s.control, s.target, s.author, s.at, w.source
  FROM {log}.steps s LEFT JOIN {players}.withheld(r.encounter) w ON w.step = s.step
  WHERE s.encounter = r.encounter
) AS x"""
    yield f"""
CREATE OR REPLACE VIEW {players}.events AS
SELECT x.encounter, x.step, x.n, x.kind, x.author, x.at, x.schema, x.body
FROM {log}.registry r CROSS JOIN LATERAL (
  SELECT e.encounter, e.step, row_number() OVER (PARTITION BY e.step ORDER BY e.version) AS n,
         e.kind, e.author, e.at, e.schema,
         CASE WHEN e.kind = 'seed.revealed' AND (e.body::jsonb ->> 'seed_epoch')::integer
                   IN (SELECT {players}.hidden_epochs(r.encounter))
              THEN (e.body::jsonb || '{{"seed": null, "withheld": true}}')::text
              ELSE e.body END AS body
  FROM {log}.events e
  WHERE e.encounter = r.encounter AND e.kind NOT IN {CONTROL}
    AND e.step NOT IN (SELECT w.step FROM {players}.withheld(r.encounter) w)
) AS x"""

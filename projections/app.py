"""The Python API a game master scripts against: a file of encounters with live read models."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import msgspec

from fracas.ledger import BadInputError, LogStore, NotFoundError, open_store
from fracas.ledger.base import HIDDEN_KIND, KIND_OF_CONTROL
from fracas.ledger.history import COMMAND
from fracas.projections.asking import Question, pending
from fracas.projections.describe import describe_control, gm_lines
from fracas.projections.glance import current, latest
from fracas.projections.tables import (
    drop_tables,
    ensure_tables,
    has_tables,
    note_round_events,
    projector_for,
    write_view,
)
from fracas.rules import Encounter, Ruleset, StepOutcome
from fracas.rules import load as load_ruleset
from fracas.rules.commands import check_id, check_newcomer
from fracas.rules.encounter import StreamedFold, recorded_events, ruleset_of, started_event
from fracas.rules.events import (
    Event,
    Rolled,
    is_secret,
)
from fracas.rules.reactions import ANSWER, TIMEOUT, WITHDRAW, now
from fracas.rules.snapshots import BadSnapshot
from fracas.rules.views import View

if TYPE_CHECKING:  # the audit, exports, replay, what-if, secrecy and drift load when first used
    from fracas.projections.audit import AuditReport
    from fracas.projections.branches import WhatIf
    from fracas.projections.exports import CopyReport, Header, Progress
    from fracas.projections.replay import ReplayStep


class LogStep(msgspec.Struct, frozen=True):
    step: int
    control: str
    target: int | None
    undone: bool
    author: str
    at: str
    lines: list[str]
    events: list[dict[str, Any]]
    secret: bool = False  # its rolls are GM-only (`--secret`)
    disclosed_by: int | None = None  # the step that showed it to the players, if one did


class Fracas:
    """One log of encounters (a SQLite file or a PostgreSQL URL): start, play, undo, read,
    export, audit.

    `readonly` reads without a lock or a migration (and works on read-only media);
    `create=False` refuses a path that holds no fracas log yet instead of starting one.
    `path` may be a store already open (the options are then its own)."""

    def __init__(
        self,
        path: str | Path | LogStore = "fracas.db",
        *,
        synchronous: str | None = None,
        readonly: bool = False,
        create: bool = True,
    ) -> None:
        if isinstance(path, LogStore):
            self.store = path
        else:
            self.store = open_store(
                str(path), synchronous=synchronous, readonly=readonly, create=create
            )
        if not self.store.readonly and not has_tables(self.store):
            self.rebuild(only_if_missing=True)  # none yet, or an older release's: fold them

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Fracas:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- encounters ----------------------------------------------------------------------

    def new(
        self,
        ruleset: str | Ruleset,
        *,
        title: str = "",
        options: dict[str, Any] | None = None,
        encounter: str | None = None,
        author: str = "gm",
        limits: dict[str, int] | None = None,
    ) -> Encounter:
        rules = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        return Encounter.start(
            self.store,
            rules,
            title=title,
            options=options,
            encounter=encounter,
            author=author,
            projector=projector_for(rules, starting=True),
            limits=limits,
        )

    def encounter(self, encounter: str | None = None) -> Encounter:
        """The named encounter, or the most recently started one."""
        name = encounter or self._latest()
        rules = ruleset_of(self.store, name)
        return Encounter(self.store, name, rules, projector_for(rules))

    def unrevealed_ended(self, besides: str) -> list[str]:
        """The ended encounters of the log but `besides` whose seed in force has rolled:
        their seeded rolls are unverifiable until it is revealed (`fracas reveal`)."""
        found = []
        for name in self.store.encounters():
            if name == besides:
                continue
            live = self.encounter(name)
            if not getattr(live.state, "ended", False):
                continue
            epoch = live.seed_epoch()
            if any(
                isinstance(e, Rolled) and e.roll.source == "seeded" and e.roll.seed_epoch == epoch
                for _, e in recorded_events(self.store, name, live.ruleset)
            ):
                found.append(name)
        return found

    def _started(self, encounter: str | None) -> str:
        """The named encounter's id, or the most recently started one's, once its first
        event and its ruleset are found: as `encounter` refuses, without folding it."""
        name = encounter or self._latest()
        ruleset_of(self.store, name)
        return name

    def encounters(self) -> list[dict[str, Any]]:
        listed = []
        for encounter in self.store.encounters():
            started = started_event(self.store, encounter)
            version, step = self.store.head(encounter)
            listed.append(
                {
                    "encounter": encounter,
                    "ruleset": started.ruleset,
                    "title": started.title,
                    "steps": step,
                    "events": version,
                }
            )
        return listed

    def view(self, encounter: str | None = None) -> View:
        return self.encounter(encounter).view()

    def hidden(self, encounter: str | None = None) -> set[str]:
        """The combatants hidden from the players now; read without folding the encounter
        when it never hid anyone."""
        name = encounter or self._latest()
        if HIDDEN_KIND not in self.store.kinds_ever(name):
            return set()
        return self.encounter(name).hidden()

    def begun(self, encounter: str) -> bool:
        """Whether the fight has begun: one the GM is still setting up is theirs alone (the
        players' pages and a players' export of every encounter leave it out)."""
        return self.current(encounter)[2].phase != "setup"

    def current(self, encounter: str | None = None) -> tuple[str, str, View]:
        """(encounter, ruleset, view) as the read models hold it after the last append:
        a quick read that folds nothing and loads no ruleset (folded if they do not)."""
        name = encounter or self._latest()
        stored = current(self.store, name)
        if stored is None:
            live = self.encounter(name)
            return live.id, live.ruleset.name, live.view()
        return name, stored.ruleset, stored.view

    def add(
        self,
        combatant: str,
        sheet: dict[str, Any],
        encounter: str | None = None,
        *,
        name: str = "",
        side: str = "npc",
        count: int = 1,
        where: str = "",
        author: str = "gm",
        command_id: str | None = None,
        hidden: bool = False,
        dice: list[int] | None = None,
    ) -> list[StepOutcome]:
        """Join a combatant, or `count` numbered copies of one sheet (`cultist-1`, "Knife
        cultist 1", ...), all in one transaction: all of them or, on a refusal, none.
        `hidden`: the players see none of them until the GM reveals each. `dice`: faces
        typed for what joining rolls (d20: a newcomer's initiative), as many for each copy,
        in the order they join."""
        live = self.encounter(encounter)
        name = name or combatant
        copies = (
            [(combatant, name)]
            if count == 1
            else [(f"{combatant}-{n}", f"{name} {n}") for n in range(1, count + 1)]
        )
        for who, _shown in copies:  # first: every message after this one names the id
            check_id("combatant", who)
        live.ruleset.sheet(sheet, where or f"sheet of {combatant}")
        joins = [
            live.ruleset.command(
                {"action": "join", "combatant": who, "name": shown, "side": side, "sheet": sheet}
            )
            for who, shown in copies
        ]
        present = set(live.state.fighters)
        for join in joins:
            check_newcomer(join, present)
        typed = dealt(dice, count)
        with self.store.batch() if count > 1 else contextlib.nullcontext():  # one is one step
            return [
                live.execute(
                    join,
                    dice=faces,
                    entered_by=author,
                    author=author,
                    command_id=f"{command_id}-{n}" if command_id and count > 1 else command_id,
                    hidden=hidden,
                )
                for n, (join, faces) in enumerate(zip(joins, typed, strict=True), start=1)
            ]

    def disclose(
        self, step: int, encounter: str | None = None, *, author: str = "gm"
    ) -> StepOutcome:
        """Show the players what a step with GM-only rolls decided (and all that follows it)."""
        return self.encounter(encounter).disclose(step, author=author)

    def reveal_combatant(
        self, combatant: str, encounter: str | None = None, *, author: str = "gm"
    ) -> StepOutcome:
        """Show the players a combatant added hidden, and every step that involved them."""
        return self.encounter(encounter).reveal_combatant(combatant, author=author)

    # -- reactions (rules/reactions.py) --------------------------------------------------

    def pending(self, encounter: str | None = None, *, players: bool = False) -> Question | None:
        """The attack waiting for a reaction, as the GM or the players may see it; None if
        nothing waits (or nothing the players may see)."""
        return pending(self.encounter(encounter), players=players)

    def answer(
        self,
        combatant: str,
        choice: str,
        encounter: str | None = None,
        *,
        author: str = "gm",
        dice: list[int] | None = None,
        command_id: str | None = None,
    ) -> StepOutcome:
        """`combatant`'s reaction to the attack waiting for it, by their player or the GM
        (`author`); the last answer decides the attack (with `dice` typed, else seeded)."""
        data = {"action": ANSWER, "combatant": combatant, "choice": choice}
        return self._waits(data, encounter, author, dice, command_id)

    def timeout(
        self,
        encounter: str | None = None,
        *,
        at: str | None = None,
        author: str = "gm",
        dice: list[int] | None = None,
        command_id: str | None = None,
    ) -> StepOutcome:
        """The deadline has passed (`at`, default now): the rules' default for every target
        not yet answered, and the attack decided."""
        data = {"action": TIMEOUT, "at": at or now()}
        return self._waits(data, encounter, author, dice, command_id)

    def withdraw(
        self,
        encounter: str | None = None,
        *,
        reason: str = "",
        author: str = "gm",
        command_id: str | None = None,
    ) -> StepOutcome:
        """The GM takes back the attack waiting for a reaction."""
        data = {"action": WITHDRAW, "reason": reason}
        return self._waits(data, encounter, author, None, command_id)

    def _waits(
        self,
        data: dict[str, Any],
        encounter: str | None,
        author: str,
        dice: list[int] | None,
        command_id: str | None,
    ) -> StepOutcome:
        live = self.encounter(encounter)
        command = live.ruleset.command(data)
        return live.execute(
            command, dice=dice, entered_by=author, author=author, command_id=command_id
        )

    def rebuild(self, *, only_if_missing: bool = False) -> int:
        """Drop every read model and fold every encounter again; returns how many.
        `only_if_missing`: unless another process made them meanwhile."""
        with self.store.exclusive():
            if only_if_missing and has_tables(self.store):
                return 0
            return self._read_models_again()

    def _read_models_again(self, folded: StreamedFold | None = None) -> int:
        """Every read model made again from the log, inside the transaction already open
        (from the states `folded` while the log was loaded, where it has them)."""
        encounters = self.store.encounters()
        drop_tables(self.store)
        ensure_tables(self.store)
        for encounter in encounters:
            live = folded and folded.encounter(self.store, encounter)
            live = live or Encounter(self.store, encounter)
            note_round_events(self.store.conn, encounter, live.ruleset)
            write_view(self.store.conn, encounter, live.view(), live.ruleset, None)
            live.keep_snapshot(self.store.conn)  # (a log imported holds none)
        return len(encounters)

    # -- the log -------------------------------------------------------------------------

    def log(self, encounter: str | None = None) -> list[LogStep]:
        live = self.encounter(encounter)
        history = live.history
        by_step: dict[int, list[Event]] = {}
        for step, event in recorded_events(self.store, live.id, live.ruleset):
            by_step.setdefault(step, []).append(event)
        steps = []
        disclosed = live.disclosed()
        for record in history.steps:
            events = by_step.get(record.step, []) if record.control == COMMAND else []
            if record.control == COMMAND:
                lines = gm_lines(events, live)
                data = [msgspec.to_builtins(e) for e in events]
            else:
                lines = [describe_control(record.control, record.target)]
                data = [{"kind": KIND_OF_CONTROL[record.control], "step": record.target}]
            steps.append(
                LogStep(
                    record.step,
                    record.control,
                    record.target,
                    record.step in history.undone,
                    record.author,
                    record.at,
                    lines,
                    data,
                    is_secret(events),
                    disclosed.get(record.step),
                )
            )
        return steps

    # -- export and audit ----------------------------------------------------------------

    def export_jsonl(
        self,
        out: IO[str],
        *,
        players: bool = False,
        with_secrets: bool = False,
        progress: Progress | None = None,
    ) -> Header:
        """The whole file as JSONL (see fracas.projections.exports.export_jsonl)."""
        from fracas.projections import exports

        return exports.export_jsonl(
            self.store,
            out,
            players=players,
            with_secrets=with_secrets,
            progress=progress or exports.quiet,
        )

    def import_jsonl(self, path: str | Path, progress: Progress | None = None) -> int:
        """Take a GM's JSONL export into this empty file; returns how many events."""
        from fracas.projections import exports

        folded = StreamedFold()  # the read models folded as the rows pass, not read again
        imported = exports.import_jsonl(
            self.store,
            path,
            progress or exports.quiet,
            read_models=lambda: self._read_models_again(folded),
            stream=folded.see,
        )
        return imported.events

    def copy_to(self, target: str, progress: Progress | None = None) -> CopyReport:
        """This whole log into a new, empty one (a SQLite path or a PostgreSQL URL), read
        back and compared; the target gets its read models too."""
        from fracas.projections import exports

        with self.store.snapshot():  # the source as it stood at one moment, while tables play
            chain = exports.sound_source(self.store)  # a damaged source creates no target
            with Fracas(target, create=True) as copy:
                report = exports.copy_log(self.store, copy.store, chain, progress or exports.quiet)
                copy.rebuild()
        return report

    def export_text(
        self,
        out: IO[str],
        fmt: str,
        encounter: str | None = None,
        *,
        everything: bool = False,
        players: bool = False,
        npc_numbers: bool = False,
        template: str | Path | None = None,
        progress: Progress | None = None,
    ) -> int:
        """The session report, `md` or `html` (or through the user's own Jinja2 `template`),
        of one encounter or of every one; `players` follows the players' audience."""
        names = self.store.encounters() if everything else [self._started(encounter)]
        if everything and players:
            names = [name for name in names if self.begun(name)]
        if not names:
            raise NotFoundError(f"no encounters in {self.store.path} to export")
        from fracas.projections import report

        found = report.report(
            self.store, names, players=players, npc_numbers=npc_numbers, progress=progress
        )
        report.render(found, fmt, out, template)
        return len(found.encounters)

    # -- disputes ------------------------------------------------------------------------

    def replay(
        self,
        encounter: str | None = None,
        *,
        round_: int | None = None,
        turn: str | None = None,
        first: int | None = None,
        last: int | None = None,
        progress: Progress | None = None,
    ) -> list[ReplayStep]:
        """Every step of a round, a turn ("2:alice") or a step range, states before and after."""
        live = self.encounter(encounter)
        from fracas.projections.replay import replay

        steps = live.history.head_step
        tick = None if progress is None else lambda step: progress(step, steps)
        return replay(live, round_=round_, turn=turn, first=first, last=last, progress=tick)

    def view_at(self, step: int, encounter: str | None = None) -> View:
        """The fight as the table saw it once step `step` was recorded."""
        return self.encounter(encounter).view_at(step)

    def whatif(
        self,
        step: int,
        encounter: str | None = None,
        *,
        dice: list[int] | None = None,
        entered_by: str = "gm",
        amend: dict[str, Any] | None = None,
    ) -> WhatIf:
        """Step `step` decided again differently, and every step in effect after it, with
        their recorded dice; what would differ. The log is not touched."""
        live = self.encounter(encounter)
        from fracas.projections.branches import compare
        from fracas.rules.redecide import whatif

        return compare(
            whatif(live, step, dice=dice, entered_by=entered_by, amend=amend), live.ruleset
        )

    def adopt(
        self,
        step: int,
        encounter: str | None = None,
        *,
        dice: list[int] | None = None,
        entered_by: str = "gm",
        amend: dict[str, Any] | None = None,
        author: str = "gm",
    ) -> list[StepOutcome]:
        """The what-if made the main line, by appending; the superseded steps stay, marked."""
        live = self.encounter(encounter)
        from fracas.rules.redecide import adopt, whatif

        branch = whatif(live, step, dice=dice, entered_by=entered_by, amend=amend)
        return adopt(live, branch, author=author)

    def head_code(self, encounter: str | None = None, step: int | None = None) -> str:
        """The witnessed head of an encounter as it stands (or after `step`): note it,
        check it later with `audit(head=...)`."""
        name = encounter or self._latest()
        try:
            return self.store.head_code(name, step)
        except NotFoundError:
            self.store.require(name)  # no such encounter: said so, rather than no step
            raise

    def audit(
        self,
        *,
        against: str | Path | None = None,
        head: str | None = None,
        encounter: str | None = None,
        progress: Progress | None = None,
    ) -> AuditReport:
        """The hash chain first; then every step record against its events; then, only on a
        sound log, seeded rolls and rules drift (see fracas.projections.audit). Never
        raises on a damaged log: it says where the damage is."""
        from fracas.projections import audit

        return audit.audit(
            self.store, against=against, head=head, encounter=encounter, progress=progress
        )

    def drop_snapshots(self, found: list[BadSnapshot]) -> list[BadSnapshot]:
        """Drop the snapshots an audit found wrong (a read-only audit could not), so that no
        fold starts from them again."""
        return [
            msgspec.structs.replace(
                bad, dropped=bad.dropped or self.store.forget_snapshot(bad.encounter, bad.version)
            )
            for bad in found
        ]

    def _latest(self) -> str:
        """The fight started last (the party, kept in the log as an encounter, is none)."""
        return latest(self.store)


def dealt(dice: list[int] | None, count: int) -> list[list[int] | None]:
    """Typed faces dealt to `count` copies joining, as many to each in the order they join."""
    if dice is None:
        return [None] * count
    if len(dice) % count:
        raise BadInputError(
            f"--dice gave {len(dice)} face{'s' if len(dice) > 1 else ''} for {count} joining: "
            f"give the same number for each (a multiple of {count}), in the order they join"
        )
    each = len(dice) // count
    return [dice[n * each : (n + 1) * each] for n in range(count)]

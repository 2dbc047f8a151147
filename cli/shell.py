"""`fracas play`: one encounter at the table, in one process, with the CLI's own commands.

Every line is a `fracas` command line without `fracas` (one grammar, parsed by the same
click commands), plus short forms: `u`, `r`, `n`, `s` for undo, redo, next and status, and
a bare action (`attack cultist`) for the combatant whose turn it is. The encounter stays
folded in memory between commands; before each one the session reads the head, and folds
what another process (a second laptop, a script) appended since.
"""

import os
import shlex
import shutil
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import click

from fracas.cli.app import PLAY, SHORT
from fracas.ledger import BadInputError, FracasError
from fracas.ledger.errors import said
from fracas.projections import catalog
from fracas.projections.board import board
from fracas.rules import Encounter
from fracas.rules.gm import REMOVED

LEAVE = ("quit", "exit", "q")
NOT_HERE = {
    "play": "you are in it",
    "serve": "start the table's screen from the command line",
    "demo": "it plays its own file",
    "import": "it fills an empty file",
    "new": "a session plays one encounter; start another from the command line",
}
WEAPON_FLAGS = ("-w", "--weapon")
OPT_FLAGS = ("-o", "--opt")
TARGETED = ("harm", "heal", "remove", "return", "rename")
REFRESH = 1.0  # seconds between redraws of the prompt while the GM is not typing
# The lines that mean "end the turn I see" and "take back the step I see", and the flag each
# carries what was seen with
PINNED = {"next": "--turn", "end": "--turn", "undo": "--step"}


class Sight(NamedTuple):
    """What the GM was shown: the turn (its token) and the step an undo would take back."""

    turn: str
    latest: int | None

    @classmethod
    def of(cls, live: Encounter, step: int | None = None) -> "Sight":
        """As the table stands now, or as it stood after `step` (what a page showed)."""
        if step is None or step >= live.history.head_step:
            state, history = live.state, live.history
        else:
            state, history = live.state_at(step), live.history.upto(step)
        try:
            latest: int | None = history.undo_target()
        except FracasError:
            latest = None
        return cls(live.ruleset.turn_of(state), latest)


class Session:
    """What the shell keeps between lines: the App (the open log and its folded encounter)
    and the last result, shown in the bottom bar."""

    def __init__(self, app: Any, group: click.Group) -> None:
        self.app, self.group = app, group
        self.last = ""
        self.seen: Sight | None = None  # what the GM was last shown, which `n` and `u` carry
        self.app.encounter_id = self.live.id  # another encounter started elsewhere is not ours

    @property
    def live(self) -> Encounter:
        return self.app.encounter(write=True)

    # -- one line ------------------------------------------------------------------------

    def words(self, line: str, split: list[str] | None = None) -> list[str]:
        """The line (or its words, when already split) as the `fracas` arguments it stands for."""
        words = split_line(line) if split is None else split
        if not words:
            return []
        head = SHORT.get(words[0], words[0])
        if head in NOT_HERE:
            raise BadInputError(f"`{head}` does not run inside `fracas play`: {NOT_HERE[head]}")
        if head in self.group.commands:
            return self.pinned([head, *words[1:]])
        actions = self.live.ruleset.actions
        if head in actions:
            return self.for_the_actor(head, words[1:])
        from fracas.rules.names import closest  # only when a word is wrong

        if head in {w.combatant for w in self.live.view().wounds}:  # `wren attack goblin`
            if len(words) > 1 and words[1] in actions:
                return self.acting_as(head, words[1], words[2:])
            wanted = closest(words[1], list(actions)) if len(words) > 1 else None
            raise BadInputError(
                f"{said(head)} is a combatant: say an action after it, as in "
                f"`act {head} {wanted or next(iter(actions))} ...`; `actions` lists them"
            )
        guess = closest(head, [*self.group.commands, *actions])
        hint = f"did you mean {guess}? " if guess else ""
        raise BadInputError(
            f"no command or action {said(head)}; {hint}`help` lists the commands, "
            "`actions` the actions (a combatant acts by `act ID ACTION ...`)"
        )

    def pinned(self, words: list[str]) -> list[str]:
        """`next`, `end` and `undo` carry the turn or the step the GM was shown, so that one
        racing another table's (another laptop's, the web page's) is refused, not doubled."""
        flag = PINNED.get(words[0])
        if flag is None or self.seen is None or any(w.startswith(flag) for w in words):
            return words
        value = self.seen.turn if flag == "--turn" else self.seen.latest
        return words if value is None else [*words, flag, str(value)]

    def for_the_actor(self, action: str, rest: list[str]) -> list[str]:
        """`attack cultist`: the acting combatant acts, with what they hold unless told."""
        acting = self.live.view().acting
        if len(acting) != 1:
            who = "nobody is" if not acting else f"{', '.join(acting)} are"
            raise BadInputError(f"{who} acting now: say who, as in `act alice {action} ...`")
        return self.acting_as(acting[0], action, rest)

    def acting_as(self, actor: str, action: str, rest: list[str]) -> list[str]:
        """`act ACTOR ACTION ...`, with what the actor holds unless told."""
        words = ["act", actor, action, *rest]
        armed = "weapon" in self.live.ruleset.fields_of(action)
        held = self.held(actor) if armed else []
        if held and not any(w in WEAPON_FLAGS for w in rest):
            words += ["--weapon", held[0]]  # click tries "-w" as a long option first
        return words

    def held(self, who: str) -> list[str]:
        """What the combatant holds, where the view's detail says so (`holding`)."""
        for row in self.live.view().wounds:
            if row.combatant == who:
                return list(row.detail.get("holding") or [])
        return []

    def run(self, line: str, split: list[str] | None = None) -> bool:
        """Run one line (`split`: its words, split beforehand); False when the GM leaves."""
        if line.strip() in LEAVE:
            return False
        if line.strip() in ("help", "--help"):
            click.echo(self.help())
            return True
        try:
            with self.app.line():
                words = self.words(line, split)
                if words:
                    self.invoke(words)
        except (FracasError, click.ClickException) as error:
            message = (
                error.format_message() if isinstance(error, click.ClickException) else str(error)
            )
            self.last = f"refused: {message}"
            click.echo(f"Error: {message}", err=True)
        return True

    def help(self) -> str:
        """`help` here: play's own keys, then the commands that run here, under headings."""
        from fracas.cli.app import visible
        from fracas.cli.sections import sections_of

        ctx = click.Context(self.group, info_name="fracas")
        out = click.HelpFormatter(width=min(shutil.get_terminal_size().columns, 80))
        out.write_text("Every line is a fracas command without `fracas`; `help COMMAND` says more.")
        with out.section("Keys of fracas play"):
            keys = [
                (k, f"{c}: {self.group.commands[c].get_short_help_str(60)}")
                for k, c in SHORT.items()
            ]
            keys += [
                ("ACTION ...", "the acting combatant's action, with what they hold: attack bob"),
                ("Tab", "completes commands, combatants, actions, weapons and -o values"),
                (" ".join(LEAVE), "leave (or Ctrl-D)"),
            ]
            out.write_dl(keys)
        here = [name for name in self.group.list_commands(ctx) if name not in NOT_HERE]
        for heading, listed in sections_of(visible(self.group, ctx, here)).items():
            with out.section(heading):  # names only, so that help fits a 40-line screen
                out.write_text("  ".join(listed))
        return out.getvalue().rstrip()

    def invoke(self, words: list[str]) -> None:
        head = self.live.history.head_step
        self.group.main(words, prog_name=PLAY, standalone_mode=False, obj=self.app)
        live = self.live
        if live.history.head_step != head:
            self.last = self.latest(live)

    @staticmethod
    def latest(live: Encounter) -> str:
        """The last step in a line, its headline as the TV and the phones say it: what an
        action came to, or the undo or redo."""
        from fracas.projections.replay import latest_headline  # once a step has landed

        return latest_headline(live)

    # -- what the prompt shows -----------------------------------------------------------

    def prompt(self) -> str:
        live = self.live
        self.seen = Sight.of(live)
        acting = live.view().acting
        return f"{acting[0] if len(acting) == 1 else live.id}> "

    def toolbar(self) -> str:
        live = self.live
        self.seen = Sight.of(live)  # redrawn each REFRESH: what the GM is looking at
        header = board(live.id, live.ruleset, live.view()).header
        waiting = live.waiting()
        if waiting is not None:  # an attack waits for a reaction: say whose, and the choices
            asked = [f"{t} ({' | '.join(waiting.asked[t].options)})" for t in waiting.unanswered]
            header += f" · waiting for {', '.join(asked)}: answer TARGET CHOICE"
        bar = f" {header}" + (f"  |  {self.last}" if self.last else "")
        return one_row(bar, shutil.get_terminal_size().columns)


def one_row(text: str, width: int) -> str:
    """`text` on one row of `width` columns, cut with an ellipsis: a bar that wrapped would
    leave its tail as a stray line under the prompt."""
    text = " ".join(text.split("\n"))
    return text if len(text) < width else text[: max(width - 2, 0)] + "…"


def split_line(line: str) -> list[str]:
    """A line's words as a shell splits them (quotes, escapes)."""
    try:
        return shlex.split(line)
    except ValueError as error:
        raise BadInputError(f"cannot read that line: {error}") from None


def lenient_split(before: str) -> list[str]:
    """The words of a line being typed, a quote left open closed as it will be."""
    for closing in ("", "'", '"'):
        try:
            return shlex.split(before + closing)
        except ValueError:
            continue
    return before.split()


def typed_word(before: str) -> str:
    """The word being typed at the end of a line, as typed (its opening quote kept); ""
    where a new word would start (after a space outside quotes)."""
    words = lenient_split(before)
    if len(lenient_split(before + "x")) > len(words):
        return ""
    for start in range(len(before)):
        begins = start == 0 or before[start - 1].isspace()
        tail = before[start:]
        if begins and lenient_split(before[:start]) == words[:-1] and len(lenient_split(tail)) == 1:
            return tail
    return before


class Completion:
    """What can come next on a line: commands, combatant ids, actions, the actor's weapons,
    an action's option names and their values, a command's flags."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def candidates(self, before: str) -> list[str]:
        words = lenient_split(before)
        if typed_word(before) and words:
            current, words = words[-1], words[:-1]
        else:
            current = ""
        return [c for c in self.after(words, current) if c.startswith(current)]

    def after(self, words: list[str], current: str) -> Iterable[str]:
        live = self.session.live
        ruleset = live.ruleset
        removed = [i for i, f in live.state.fighters.items() if REMOVED in f.conditions]
        ids = [i for i in live.state.fighters if i not in removed]  # those in the fight
        if not words:
            return sorted({*self.session.group.commands, *ruleset.actions, *SHORT} - set(NOT_HERE))
        head = SHORT.get(words[0], words[0])
        if head in ruleset.actions and head not in self.session.group.commands:
            acting = live.view().acting
            words, head = ["act", acting[0] if acting else "", *words], "act"
        if current.startswith("-"):
            return self.flags(words)
        if words[-1] == "--monster":
            return sorted(m.slug for m in ruleset.monsters.monsters)
        if head == "act":
            return self.for_act(words, current, ids)
        if head in TARGETED and len(words) == 1:
            return removed if head == "return" else ids
        if head == "condition":
            return self.for_condition(words, list(live.state.fighters))
        return []

    def for_act(self, words: list[str], current: str, ids: list[str]) -> Iterable[str]:
        live = self.session.live
        if len(words) == 1:
            return ids
        if len(words) == 2:
            return list(live.ruleset.actions)
        actor, action, previous = words[1], words[2], words[-1]
        if previous in WEAPON_FLAGS:
            return catalog.offered(live, actor, action, "weapon")
        if previous in OPT_FLAGS:
            return opt_values(live, actor, action, current)
        if previous == "--called":
            return catalog.offered(live, actor, action, "called")
        return ids

    def for_condition(self, words: list[str], ids: list[str]) -> Iterable[str]:
        if len(words) == 1:
            return ["set", "clear"]
        if len(words) == 2:
            return ids
        if words[1] == "clear" and len(words) == 3:
            fighter = self.session.live.state.fighters.get(words[2])
            return list(fighter.conditions) if fighter else []
        if words[1] == "set" and len(words) == 3:
            return sorted(self.session.live.ruleset.condition_names)
        if words[1] == "set" and words[-1] == "--until":
            return [f"{edge}:{who}" for edge in ("end", "start") for who in ids] + ["removed"]
        return []

    def offers(self, before: str) -> list[tuple[str, int]]:
        """Each candidate as the line takes it (quoted when it holds a space, so that it
        runs as completed), with where it starts: over the word being typed."""
        typed = typed_word(before)
        return [(shlex.quote(c), -len(typed)) for c in self.candidates(before)]

    def flags(self, words: list[str]) -> list[str]:
        command: Any = self.session.group.commands.get(words[0])
        if isinstance(command, click.Group) and len(words) > 1:
            command = command.commands.get(words[1])
        if command is None:
            return []
        return [o for p in command.params if isinstance(p, click.Option) for o in p.opts]


def opt_values(live: Encounter, actor: str, action: str, current: str) -> list[str]:
    """`-o` of an action: its fields as FIELD=, then, after the =, what may go there."""
    field, sep, _ = current.partition("=")
    if sep:
        return [f"{field}={value}" for value in catalog.offered(live, actor, action, field)]
    flags = catalog.action(live.ruleset, action, "").flags
    return [f"{flag.field}=" for flag in flags if flag.flag.startswith("-o")]


def history_path() -> Path:
    """Where the lines typed are kept across sessions (FRACAS_HISTORY to choose)."""
    chosen = os.environ.get("FRACAS_HISTORY")
    if chosen:
        return Path(chosen)
    state = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return state / "fracas" / "history"


def play(app: Any, group: click.Group) -> None:
    """The loop: prompt, run, repeat; Ctrl-C clears the line, Ctrl-D (or `quit`) leaves."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer
    from prompt_toolkit.completion import Completion as Offer
    from prompt_toolkit.history import FileHistory

    session = Session(app, group)
    completion = Completion(session)

    class Offers(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Offer]:
            for text, start in completion.offers(document.text_before_cursor):
                yield Offer(text, start_position=start)

    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    prompt = PromptSession(
        history=FileHistory(str(path)),
        completer=Offers(),
        bottom_toolbar=session.toolbar,
        complete_while_typing=False,
        refresh_interval=REFRESH,  # the prompt and bar follow what another process appends
    )
    click.echo(f"fracas play: {session.live.id}. `help` lists commands; Ctrl-D leaves.")
    while True:
        try:
            line = prompt.prompt(session.prompt)
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        if not session.run(line):
            break
        sys.stdout.flush()

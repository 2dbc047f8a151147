"""The `fracas` command, as a table of contents: every command by name, with the module of
cli/commands/ that holds it. A command's module is imported when the command is first
wanted, so a quick command (`status --json`) starts quickly.

cli/app.py holds the group, the App a command works on and the global options;
cli/options.py the options, parsers and completion the commands share."""

import gc

from fracas.cli import collector_off

with collector_off():  # click, msgspec, sqlite-utils and fracas's own modules
    from fracas.cli.app import App, cli

__all__ = ["App", "cli"]

COMMANDS: dict[str, str] = {
    # setup.py: rulesets, a new encounter, combatants, the party, the demo
    "demo": "setup:demo",
    "new": "setup:new",
    "add": "setup:add",
    "party": "setup:party_",
    "monsters": "setup:monsters",
    "rulesets": "setup:rulesets",
    "options": "setup:options_",
    "encounters": "setup:encounters",
    # turns.py: the turn at the table
    "begin": "turns:begin",
    "act": "turns:act_",
    "answer": "turns:answer",
    "next": "turns:next_",
    "turn": "turns:turn",
    "undo": "turns:undo",
    "redo": "turns:redo",
    "roll": "turns:roll_",
    # gm.py: the GM's hand, and what the players are shown
    "harm": "gm:harm",
    "heal": "gm:heal",
    "condition": "gm:condition",
    "remove": "gm:remove",
    "return": "gm:return_",
    "rename": "gm:rename",
    "note": "gm:note",
    "end": "gm:end",
    "reopen": "gm:reopen",
    "disclose": "gm:disclose",
    "reveal-combatant": "gm:reveal_combatant",
    "reveal": "gm:reveal",
    # status.py: the fight as it stands (alone: the quickest start)
    "status": "status:status",
    # reading.py: the fight as it went, the rules, help
    "log": "reading:log",
    "replay": "reading:replay",
    "head": "reading:head",
    "actions": "reading:actions",
    "rules": "reading:rules",
    "help": "reading:help_",
    # archive.py: disputes and files
    "whatif": "archive:whatif",
    "adopt": "archive:adopt",
    "audit": "archive:audit",
    "export": "archive:export",
    "import": "archive:import_",
    "copy": "archive:copy",
    "rebuild": "archive:rebuild",
    # table.py: beyond the terminal
    "play": "table:play",
    "serve": "table:serve",
    "invite": "table:invite",
}
cli.register(COMMANDS)


def main() -> None:
    """`fracas` as a process (the installed script). Once its command is done the process
    ends, and with it every object: Python's last collection before its modules are torn
    down would only scan them (a quarter as long as `status --json`'s own work), so it is
    skipped; the modules' teardown still frees what is left."""
    try:
        cli()
    finally:
        gc.disable()


if __name__ == "__main__":
    main()

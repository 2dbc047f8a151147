"""The headings `fracas --help` (and `help` inside `fracas play`) lists the commands under,
in the order a newcomer meets them."""

SECTIONS: dict[str, tuple[str, ...]] = {
    "Start here": ("demo", "new", "add", "party", "begin", "status", "help"),
    "At the table": (
        "play",
        "act",
        "next",
        "turn",
        "answer",
        "undo",
        "redo",
        "harm",
        "heal",
        "condition",
        "remove",
        "return",
        "rename",
        "roll",
        "note",
        "end",
        "reopen",
    ),
    "Players and screen": ("serve", "invite", "reveal-combatant", "disclose"),
    "Disputes and audit": ("log", "replay", "whatif", "adopt", "audit", "head", "reveal"),
    "Files and servers": ("encounters", "export", "import", "copy", "rebuild"),
    "Rules": ("rulesets", "actions", "options", "rules", "monsters"),
}
OTHER = "Other commands"  # a command no heading names yet still shows, here


def sections_of(names: list[str]) -> dict[str, list[str]]:
    """`names` under their headings, in the headings' order; empty headings left out."""
    placed = {name for listed in SECTIONS.values() for name in listed}
    grouped = {heading: [n for n in listed if n in names] for heading, listed in SECTIONS.items()}
    grouped[OTHER] = sorted(n for n in names if n not in placed)
    return {heading: listed for heading, listed in grouped.items() if listed}

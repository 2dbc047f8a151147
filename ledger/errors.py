"""The one exception hierarchy of fracas. Every refusal says what was wrong and what to do."""

ECHOED = 40  # the most characters of what was given that a refusal repeats


def said(given: object) -> str:
    """What was given, quoted as a refusal repeats it: a long text cut to its first
    characters and its length, so that a refusal stays one readable line."""
    text = str(given)
    if len(text) <= ECHOED:
        return repr(given)
    return f"{text[:ECHOED]!r}… ({len(text)} characters)"


def cut(given: str) -> str:
    """`said` unquoted, for a message that quotes what was given itself."""
    return given if len(given) <= ECHOED else f"{given[:ECHOED]}… ({len(given)} characters)"


class FracasError(Exception):
    """Root of every error fracas raises on purpose; the CLI prints it as one line.

    `player`: the same refusal in a player's words, for a phone, where the message tells
    the GM a command to type (`fracas next`, `-w dagger`): what the player taps instead
    ("End turn"); "": the message is already one a player may read."""

    def __init__(self, *args: object, player: str = "") -> None:
        super().__init__(*args)
        self.player = player


class ConflictError(FracasError):
    """Another writer appended to the encounter since its state was loaded."""


class NotFoundError(FracasError):
    """An encounter, combatant or step that does not exist."""


class RefusedError(FracasError):
    """A command the rules (or the ledger) do not allow in the current state."""


class BadInputError(FracasError):
    """Input that cannot be understood: a malformed sheet, option, die face or flag."""


class RulesetFailedError(FracasError):
    """A ruleset's own code raised on a step (a bug in it, or in a plugin): nothing was
    appended; the error it raised is this one's cause."""


class IntegrityError(FracasError):
    """The stored log does not verify: a broken hash link or a forbidden edit."""


class UnreachableError(FracasError):
    """The log's server cannot be reached (down, restarting, or the connection was cut);
    the same call works again once it is back. `server`: its URL, without a password."""

    def __init__(self, message: str, server: str = "") -> None:
        super().__init__(message)
        self.server = server

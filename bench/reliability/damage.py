"""Damaged files: random bytes written into copies of a log at many offsets. Every command
that reads the copy answers (or refuses in one line); none ends in a traceback.

    python -m bench.reliability.run   (the "random bytes in the file" row)
"""

import random
import shutil
import sys
from pathlib import Path

from click.testing import CliRunner

from bench.reliability.trials import Figures, gunfight
from fracas.cli.main import cli

COMMANDS = (["audit"], ["status"], ["log"], ["export"])


def random_bytes(workdir: Path, copies: int, *, seed: int = 6, length: int = 30) -> Figures:
    """`copies` copies of one log, each with `length` random bytes at a random offset
    (`random.seed(seed)`), each read by audit, status, log and export."""
    figures = Figures(f"random bytes in the file ({length} bytes, {copies} copies)")
    source = workdir / "source.db"
    gunfight(source, steps=12)
    size = source.stat().st_size
    chance = random.Random(seed)
    runner = CliRunner()
    for number in range(copies):
        offset = chance.randrange(size - length)
        damaged = workdir / f"damaged-{number}.db"
        shutil.copyfile(source, damaged)
        with damaged.open("r+b") as file:
            file.seek(offset)
            file.write(chance.randbytes(length))
        for args in COMMANDS:
            figures.trials += 1
            result = runner.invoke(cli, ["--db", str(damaged), *args])
            crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
            figures.add("tracebacks", int(crashed))
            figures.add("refused", int(result.exit_code != 0))
            if crashed:
                print(f"traceback: offset {offset} {args}: {result.exception!r}", file=sys.stderr)
    return figures

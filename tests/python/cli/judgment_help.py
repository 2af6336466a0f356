"""The exit tables of judgment-ledger and judgment-card, read from their --help texts
(scripts/lib/help/*.txt, which the Bash entry points print): [(code, meaning)] per command,
the meaning on one line as the docs write it, without the docs' Markdown backticks."""
from pathlib import Path

HELP = Path(__file__).resolve().parents[3] / "scripts" / "lib" / "help"


def commands():
    """Every command with a help text: "judgment-ledger", "judgment-card record-answer", ..."""
    found = []
    for p in HELP.glob("judgment-*.txt"):
        parts = p.stem.split("-", 2)
        found.append("-".join(parts[:2]) + (f" {parts[2]}" if len(parts) > 2 else ""))
    return sorted(found)


def table(command):
    text = (HELP / (command.replace(" ", "-") + ".txt")).read_text(encoding="utf-8")
    rows = []
    for line in text.split("exit codes:\n", 1)[1].splitlines():
        if line[2:3] != " ":  # "  0   meaning" starts a row; six spaces continue one
            rows.append((int(line.split()[0]), " ".join(line.split()[1:])))
        else:
            rows[-1] = (rows[-1][0], rows[-1][1] + " " + line.strip())
    return rows


def plain(meaning):
    """A docs meaning as the help prints it."""
    return " ".join(meaning.replace("`", "").split())

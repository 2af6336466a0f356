"""The Bash layer's did-you-mean (scripts/lib/cli.sh `cli_suggest`) decides exactly as
cliargs.suggest, the one the Python command lines use (docs/internals.md, "Two layers"): one
Bash process answers every case, and each answer is compared with Python's."""
import subprocess
from pathlib import Path

from judgment_toolkit.cliargs import SUGGEST_MAX_LEN, suggest

CLI_SH = Path(__file__).resolve().parents[3] / "scripts" / "lib" / "cli.sh"
CHOICE_SETS = [
    ("append", "search", "recall", "prime", "verify"),
    ("should-issue", "validate", "record-answer", "recall", "render"),
    ("--project", "--answer", "--tags", "--id", "--json"),
    ("--limit", "--page", "--rank"),
    ("ab", "ac", "ad"),
]


def typos(word):
    """Every deletion and swap of `word`, insertions and substitutions from a small alphabet,
    and the edge cases (empty, dashes only, over SUGGEST_MAX_LEN)."""
    letters = "ae-"
    out = {word, word + word, "", "-", "--", "---" + word, "x" * (SUGGEST_MAX_LEN + 1)}
    for i in range(len(word) + 1):
        out.add(word[:i] + word[i + 1:])
        out.update(word[:i] + c + word[i:] for c in letters)
        out.update(word[:i] + c + word[i + 1:] for c in letters)
        if i + 1 < len(word):
            swapped = word[:i] + word[i + 1] + word[i] + word[i + 2:]
            out.add(swapped)
            out.add(swapped[:-1])
    return sorted(out)


def bash_answers(cases):
    """cli_suggest's answer for each (word, choices), from one bash process."""
    script = [f"source {str(CLI_SH)!r}"]
    for word, choices in cases:
        quoted = " ".join(f"'{c}'" for c in choices)
        script.append(f"printf '%s\\n' \"$(cli_suggest '{word}' {quoted})\"")
    r = subprocess.run(["bash", "-s"], input="\n".join(script), capture_output=True,
                       text=True, check=True, timeout=600)
    return r.stdout.split("\n")[:len(cases)]


def test_cli_suggest_answers_as_cliargs_suggest_does():
    cases = [(word, choices) for choices in CHOICE_SETS
             for target in choices for word in typos(target)]
    cases.append(("---abcd", ("-abcd", "zzzz")))  # every leading dash is dropped to size the limit
    assert all("'" not in w for w, _ in cases)
    answers = bash_answers(cases)
    wrong = [(w, c, a, suggest(w, c)) for (w, c), a in zip(cases, answers)
             if (a or None) != suggest(w, c)]
    assert not wrong, wrong[:10]
    assert sum(1 for a in answers if a) > len(cases) // 4  # the cases do exercise a hit

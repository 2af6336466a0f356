"""judgment-mcp as a user installs it: the wheel alone (the base install: no `mcp`, never
imported, `judgment-mcp` says how to get the extra and exits 69) and the wheel plus the `mcp`
extra in a fresh venv, driven by the SDK's stdio client from a folder outside the checkout; its
tools answer as that venv's own CLI on the same ledger. The wheel is built as
tests/python/builds.py builds it for every test (one build per run)."""
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "install"))
from builds import sh  # noqa: E402
from test_install import user_env  # noqa: E402
from helpers_mcp import error_text, session, structured  # noqa: E402
from judgment_toolkit.mcpserver.main import INSTALL, NO_EXTRA_LINE  # noqa: E402


# The session's shared builds (tests/python/builds.py): `installed` is the base install (the
# wheel alone), `mcp_venv` the wheel with its `mcp` extra.
@pytest.fixture
def base_venv(installed):
    return installed


def test_base_install_has_no_mcp_and_judgment_mcp_says_how_to_install(base_venv, tmp_path):
    env = user_env(tmp_path)
    r = sh(base_venv / "python", "-c", "import importlib.util as u; print(u.find_spec('mcp'))",
           env=env, cwd=tmp_path)
    assert r.stdout.strip() == "None"
    r = sh(base_venv / "judgment-mcp", check=False, env=env, cwd=tmp_path,
           stdin=subprocess.DEVNULL)
    assert r.returncode == 69 and r.stdout == ""
    assert r.stderr == NO_EXTRA_LINE + "\n" and "pipx install --force '.[mcp]'" in r.stderr
    r = sh(base_venv / "judgment-mcp", "--help", env=env, cwd=tmp_path)
    assert r.stdout.startswith("usage: judgment-mcp") and "HARNESS_JUDGMENT_LEDGER" in r.stdout


def test_installed_server_answers_as_the_installed_cli(mcp_venv, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    ledger = work / "ledger.jsonl"
    _, (stored, recall, refused) = session([
        ("record_judgment", {"question": "Keep the CSV export?", "answer": "yes",
                             "card_ref": "c.json"}),
        ("recall_judgments", {"question": "csv export"}),
        ("search_judgments", {"query": "csv", "limit": 9})],
        cwd=work, ledger=ledger, args=["--project", "shop"],
        command=str(mcp_venv / "judgment-mcp"))
    rec = structured(stored)["stored"]
    assert [json.loads(line) for line in ledger.read_text().splitlines()] == [rec]
    env = user_env(tmp_path, HARNESS_JUDGMENT_LEDGER=ledger)
    want = sh(mcp_venv / "judgment-ledger", "recall", "--project", "shop", "--question",
              "csv export", env=env, cwd=work)
    assert structured(recall) == json.loads(want.stdout) != []
    # A refused read goes through the wheel's own copy of the script (judgment_toolkit/sh).
    want = sh(mcp_venv / "judgment-ledger", "search", "--project", "shop", "--query", "csv",
              "--limit", "9", check=False, env=env, cwd=work)
    assert want.returncode == 64 and error_text(refused) == want.stderr.strip()


def test_the_install_hint_works_as_printed(source, tmp_path):
    """docs/mcp.md, "Without the extra": `pipx install .` in a clone (the plugin's documented
    install) gives a judgment-mcp that a client connects to and that names the command to run;
    that command, run as printed in the clone, gives the full server."""
    pipx = Path(sys.executable).parent / "pipx"
    env = user_env(tmp_path, PIPX_HOME=tmp_path / "pipx-home", PIPX_BIN_DIR=tmp_path / "bin",
                   PIPX_MAN_DIR=tmp_path / "man", PIPX_DEFAULT_PYTHON=sys.executable)
    sh(pipx, "install", ".", env=env, cwd=source)
    server = str(tmp_path / "bin" / "judgment-mcp")
    tools, (told,) = session([("how_to_install_the_mcp_extra", {})], cwd=tmp_path,
                             ledger=tmp_path / "ledger.jsonl", command=server)
    assert [t.name for t in tools.tools] == ["how_to_install_the_mcp_extra"]
    assert told.is_error and told.content[0].text == NO_EXTRA_LINE
    command = INSTALL.split("run: ", 1)[1].split("  (", 1)[0]
    assert command == "pipx install --force '.[mcp]'" and command in told.content[0].text
    sh(pipx, *shlex.split(command)[1:], env=env, cwd=source)
    tools, (prime,) = session([("prime", {"project": "shop"})], cwd=tmp_path,
                              ledger=tmp_path / "ledger.jsonl", command=server)
    assert "recall_judgments" in {t.name for t in tools.tools} and not prime.is_error

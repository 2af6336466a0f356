"""The plugin installed with the real Claude Code CLI (the pinned npm version of
tests/node/package.json, installed by scripts/setup.sh), as a user installs it
(docs/claude-kit.md, "Install"): `claude plugin marketplace add <a clone>`, `claude plugin
install judgment-toolkit@judgment-toolkit`, under a fresh HOME. Then: what the plugin cache
holds (the plugin's files only, links followed; none of the clone's ignored folders), that no
npm or bun ran, `claude plugin validate --strict` of the plugin and of the marketplace, the
command names it reports against the documented ones, and `claude mcp get` of the plugin's
server: connected with the toolkit installed with the extra, connected too with the toolkit
installed without it (the server then says how to install the extra, docs/mcp.md, "Without
the extra"), and a reason shown when nothing is installed.

The clone is what `git clone` of this working tree would give (its tracked and untracked,
not ignored files, links as links), plus the ignored folders a developer's clone has
(.venv, build/, node_modules): the install must leave those behind.

Under CI=true a missing `claude` is a failure; elsewhere the tests are skipped."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GIT_ENV, ROOT, git

CLAUDE = ROOT / "tests" / "node" / "node_modules" / ".bin" / "claude"
SERVER = "plugin:judgment-toolkit:judgment-toolkit"  # Claude Code's name for a plugin's server
IGNORED = (".venv/bin/python", "build/lib/x.py", "node_modules/left-pad/index.js",
           "tests/node/node_modules/bats/bin/bats", "pylib/judgment_toolkit.egg-info/PKG-INFO")
PLUGIN_PARTS = {".claude-plugin", "hooks", ".mcp.json", "skills", "commands", "scripts", "pylib",
                "templates"}
TIMEOUT = 300  # a safety net against a hang, never an assertion


def claude_or_skip():
    if not CLAUDE.exists():
        message = f"Claude Code is not installed ({CLAUDE}); run bash scripts/setup.sh"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return CLAUDE


def clone_of_the_working_tree(dest: Path) -> Path:
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        src, dst = ROOT / name, dest / name
        if not os.path.lexists(src):
            continue  # deleted in the working tree
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "the working tree")
    for name in IGNORED:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        (dest / name).write_text("an ignored file of a developer's clone\n")
    return dest


def logging_stubs(folder: Path, log: Path):
    """npm and bun that log their start and fail, first on PATH."""
    folder.mkdir()
    for name in ("npm", "npx", "bun"):
        (folder / name).write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit 1\n')
        (folder / name).chmod(0o755)


class Claude:
    def __init__(self, home: Path, path: str):
        self.home, self.path = home, path

    def __call__(self, *args, cwd, path=None, check=True):
        env = {"HOME": str(self.home), "PATH": path or self.path, "LANG": "C.UTF-8",
               "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", **GIT_ENV}
        p = subprocess.run([str(CLAUDE), *args], cwd=cwd, env=env, capture_output=True,
                           text=True, timeout=TIMEOUT)
        if check:
            assert p.returncode == 0, (args, p.stdout, p.stderr)
        return p


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(claude, the clone, the plugin's cache folder, the npm log, a project folder)."""
    claude_or_skip()
    top = tmp_path_factory.mktemp("plugin-install")
    clone = clone_of_the_working_tree(top / "clone")
    home, log = top / "home", top / "npm.log"
    home.mkdir()
    logging_stubs(top / "stubs", log)
    claude = Claude(home, f"{top / 'stubs'}:/usr/bin:/bin")
    project = top / "project"
    project.mkdir()
    git(project, "init", "-q")
    claude("plugin", "marketplace", "add", str(clone), cwd=project)
    claude("plugin", "install", "judgment-toolkit@judgment-toolkit", cwd=project)
    record = json.loads((home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    (entry,) = record["plugins"]["judgment-toolkit@judgment-toolkit"]
    return claude, clone, Path(entry["installPath"]), log, project


def files(folder: Path, follow: bool) -> set:
    found = set()
    for here, dirs, names in os.walk(folder, followlinks=follow):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            found.add(str((Path(here) / name).relative_to(folder)))
    return found


def test_the_cache_holds_the_plugins_files_only(installed):
    _, clone, cache, _, _ = installed
    assert {p.name for p in cache.iterdir()} == PLUGIN_PARTS
    held = files(cache, follow=False)
    assert held == files(clone / "plugin", follow=True)  # every link followed, nothing more
    for name in held:
        assert not (cache / name).is_symlink(), name
        parts = Path(name).parts
        assert not {".venv", "node_modules", "build", "tests", ".git", "docs", "bench"} & set(parts)
        assert not parts[-1].endswith((".egg-info", "package.json", "package-lock.json")), name
    for name in ("hooks/hooks.json", ".mcp.json", "skills/judgment-toolkit/SKILL.md",
                 "scripts/judgment-kit", "scripts/lib/py.sh", "pylib/judgment_toolkit/__init__.py",
                 "templates/schemas/judgment-ledger.v1.json"):
        assert (cache / name).read_bytes() == (ROOT / "plugin" / name).read_bytes(), name


def test_no_package_manager_ran(installed):
    _, _, _, log, _ = installed
    assert not log.exists(), log.read_text()


def test_validate_strict_passes_for_the_plugin_and_the_marketplace(installed):
    claude, clone, _, _, project = installed
    plugin = claude("plugin", "validate", "--strict", str(clone / "plugin"), cwd=project)
    assert "Validation passed" in plugin.stdout
    market = claude("plugin", "validate", "--strict", str(clone), cwd=project)
    assert "Validation passed" in market.stdout


def test_the_documented_command_names_are_the_ones_claude_code_gives(installed):
    claude, clone, _, _, project = installed
    out = claude("plugin", "validate", str(clone / "plugin"), cwd=project).stdout
    names = [line.split("commands: ", 1)[1].strip() for line in out.splitlines()
             if "commands: " in line]
    assert sorted(names) == sorted(f"judgment-toolkit:{p.stem}"
                                   for p in (ROOT / "plugin" / "commands").glob("*.md"))
    doc = (ROOT / "docs" / "claude-kit.md").read_text()
    readme = (ROOT / "README.md").read_text()
    for name in names:
        assert f"/{name}" in doc and f"/{name}" in readme, name


def mcp_get(claude, project, path):
    return claude("mcp", "get", SERVER, cwd=project, path=path, check=False)


def test_the_mcp_server_connects_with_the_toolkit_installed(installed):
    """The checkout's .venv holds judgment-mcp with the extra (scripts/setup.sh)."""
    claude, _, _, _, project = installed
    p = mcp_get(claude, project, f"{Path(sys.executable).parent}:/usr/bin:/bin")
    assert "Connected" in p.stdout and "Failed" not in p.stdout, p.stdout + p.stderr


def test_without_judgment_mcp_claude_code_shows_why(installed):
    claude, _, _, _, project = installed
    p = mcp_get(claude, project, "/usr/bin:/bin")
    assert "Failed to connect" in p.stdout
    (issue,) = [line for line in p.stdout.splitlines() if "Issue:" in line]
    assert "not found" in issue, p.stdout


@pytest.fixture(scope="module")
def base_install(installed, tmp_path_factory):
    """judgment-mcp from `pip install .` of the clone: the plugin's documented install, without
    the `mcp` extra."""
    _, clone, _, _, _ = installed
    venv = tmp_path_factory.mktemp("base") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=TIMEOUT)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(clone)],
                   check=True, capture_output=True, timeout=TIMEOUT)
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", "import mcp"], capture_output=True)
    assert probe.returncode != 0  # the extra really is missing
    return venv / "bin"


def test_without_the_extra_the_server_connects_and_says_how_to_install_it(installed,
                                                                           base_install):
    claude, _, _, _, project = installed
    p = mcp_get(claude, project, f"{base_install}:/usr/bin:/bin")
    assert "Connected" in p.stdout and "Failed" not in p.stdout, p.stdout + p.stderr
    # What the connected server tells the client and Claude: the install line, read over MCP.
    from judgment_toolkit.mcpserver.main import NO_EXTRA_LINE
    from judgment_toolkit.mcpserver.without_extra import TOOL
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def ask():
        params = StdioServerParameters(command=str(base_install / "judgment-mcp"), cwd=str(project),
                                       env={"PATH": f"{base_install}:/usr/bin:/bin",
                                            "HOME": str(claude.home)})
        async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
            init = await s.initialize()
            tools = (await s.list_tools()).tools
            return init, tools, await s.call_tool(TOOL, {})
    init, tools, result = anyio.run(ask)
    assert init.instructions == NO_EXTRA_LINE and "pipx install --force '.[mcp]'" in NO_EXTRA_LINE
    assert [(t.name, t.description) for t in tools] == [(TOOL, NO_EXTRA_LINE)]
    assert result.is_error and result.content[0].text == NO_EXTRA_LINE

"""Install shapes, as a user would install from an index: every wheel built
with `uv build --all-packages`, then fresh venvs with `pip install --find-links`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HELLO = ROOT / "examples" / "plugin-hello"
STANDARD = {"fs", "shell", "web", "agent"}

pytestmark = pytest.mark.slow


def run(*cmd: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("AGENTHOST_", "VIRTUAL_ENV", "PYTHONPATH"))
    }
    out = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, f"{cmd} failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dist")
    uv = shutil.which("uv") or pytest.fail("uv is not on PATH (pip install uv)")
    run(uv, "build", "--all-packages", "--wheel", "-q", "-o", folder)
    run(uv, "build", "--wheel", "-q", "-o", folder, HELLO)
    names = sorted(p.name.split("-")[0] for p in folder.glob("*.whl"))
    assert names == sorted(
        ["agenthost", "agenthost_core", "agenthost_hello"]
        + [f"agenthost_{p}" for p in ("fs", "shell", "browser", "system", "web", "agent", "js", "mcp")]
    )
    return folder


def install(tmp_path: Path, dist: Path, *requirements: str) -> Path:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    # ensurepip's pip 23.2 trips over trafilatura's lxml[html-clean] extra; users upgrade pip too
    run(bin_dir / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", "-U", "pip")
    run(
        bin_dir / "python",
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
        "--find-links",
        dist,
        *requirements,
    )
    return bin_dir


def listing(bin_dir: Path, workspace: Path, what: str) -> list[dict]:
    return json.loads(run(bin_dir / "agenthost", what, "--json", cwd=workspace))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def test_core_alone_shows_no_tools(tmp_path: Path, dist: Path, ws: Path) -> None:
    bin_dir = install(tmp_path, dist, "agenthost-core")
    assert listing(bin_dir, ws, "tools") == []
    assert listing(bin_dir, ws, "plugins") == []
    assert "no tools" in run(bin_dir / "agenthost", "tools", cwd=ws)


def test_core_and_the_example_plugin(tmp_path: Path, dist: Path, ws: Path) -> None:
    bin_dir = install(tmp_path, dist, "agenthost-core", "agenthost-hello[test]")
    assert [t["name"] for t in listing(bin_dir, ws, "tools")] == ["count_words", "hello"]
    assert [(p["name"], p["status"]) for p in listing(bin_dir, ws, "plugins")] == [("hello", "loaded")]
    assert run(bin_dir / "agenthost", "call", "hello", '{"name": "Ada"}', cwd=ws) == "Hello, Ada!\n"
    # the example's own test suite passes against the installed wheels
    run(bin_dir / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", HELLO / "tests", cwd=HELLO)


def test_core_and_fs_give_only_file_tools(tmp_path: Path, dist: Path, ws: Path) -> None:
    bin_dir = install(tmp_path, dist, "agenthost-core", "agenthost-fs")
    tools = listing(bin_dir, ws, "tools")
    assert {t["plugin"] for t in tools} == {"fs"}
    assert {t["name"] for t in tools} == {
        "read_file", "write_file", "edit", "glob", "grep", "list_dir",
        "file_stat", "file_delete", "file_move", "file_copy", "file_search",
    }  # fmt: skip
    (ws / "hello.txt").write_text("one\ntwo\n")
    assert "two" in run(bin_dir / "agenthost", "call", "read_file", '{"path": "hello.txt"}', cwd=ws)


def test_meta_distribution_with_the_browser_extra(tmp_path: Path, dist: Path, ws: Path) -> None:
    bin_dir = install(tmp_path, dist, "agenthost[browser]")
    plugins = {p["name"]: p for p in listing(bin_dir, ws, "plugins")}
    assert set(plugins) == STANDARD | {"browser"}
    assert all(p["status"] == "loaded" for p in plugins.values()), plugins
    assert "browser_navigate" in {t["name"] for t in listing(bin_dir, ws, "tools")}
    # the meta-distribution brings the MCP SDK for `agenthost serve`
    run(bin_dir / "python", "-c", "import mcp")
    assert not any(
        n.startswith("agenthost_system")
        for n in os.listdir(next((bin_dir.parent / "lib").glob("python3*")) / "site-packages")
    )


def test_uv_checkout_install_route() -> None:
    """Route 1 (the checkout): this very environment was made by `uv sync --all-packages --all-extras`."""
    from importlib.metadata import distribution

    for name in [
        "agenthost-core",
        *(f"agenthost-{p}" for p in ("fs", "shell", "browser", "system", "web", "agent", "js", "mcp")),
    ]:
        dist_ = distribution(name)
        direct = dist_.read_text("direct_url.json") or ""
        assert '"editable": true' in direct.replace(" ", "").replace('"editable":true', '"editable": true'), (
            name
        )
    assert sys.prefix != sys.base_prefix

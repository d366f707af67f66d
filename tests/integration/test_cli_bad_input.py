"""Bad input to the ``aria`` command (the red-team list of issue 13): arguments that are not UTF-8, a broken,
binary or wrong-typed aria.toml, out-of-range settings, an empty ARIA_HOME. Each is one line on stderr naming
the problem, exit code 2, no traceback, and nothing written (run in an empty working directory, which is
listed afterwards).

Most cases call the real entry point (``aria.cli.main``) in-process; the ones about how the process decodes
its argv and its working directory run ``.venv/bin/aria`` itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import aria.cli as aria_cli
from aria.config import get_settings
from aria.errors import ConfigError, DatabaseUnavailable

ARIA = Path(sys.executable).parent / "aria"


@pytest.fixture(autouse=True)
def _clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty working directory, no ARIA_* variables but a missing config file and a home that must not appear."""
    for name in list(os.environ):
        if name.startswith("ARIA_") or name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("ARIA_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("ARIA_HOME", str(tmp_path / "home"))
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    get_settings.cache_clear()
    yield cwd
    get_settings.cache_clear()


def _main(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run ``aria ARGS`` through ``aria.cli.main``; the exit code and the one line it printed."""
    monkeypatch.setattr(sys, "argv", ["aria", *args])
    get_settings.cache_clear()
    with pytest.raises(SystemExit) as exited:
        aria_cli.main()
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert "Traceback" not in captured.err + captured.out
    assert len(lines) == 1, captured.err
    return int(exited.value.code or 0), lines[0]


def _nothing_written(cwd: Path) -> None:
    assert sorted(p.name for p in cwd.iterdir()) == []
    assert not (cwd.parent / "home").exists()


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("ARIA_THETA_R", "abc", "ARIA_THETA_R=abc: must be a number from 0 to 10 (aria.toml key theta_r)"),
        ("ARIA_ROW_CAP", "-1", "ARIA_ROW_CAP=-1: must be a whole number from 1 to 1000000"),
        ("ARIA_ROW_CAP", "0", "ARIA_ROW_CAP=0: must be a whole number from 1 to 1000000"),
        ("ARIA_CLIENT_DEADLINE_S", "inf", "ARIA_CLIENT_DEADLINE_S=inf: must be a number above 0 and at most 3600"),
        ("ARIA_THETA_E", "nan", "ARIA_THETA_E=nan: must be a number from 0 to 5"),
        ("ARIA_W_C", "0.5", "ARIA_W_C + ARIA_W_G + ARIA_W_J + ARIA_W_Q (aria.toml keys w_c, w_g, w_j, w_q) must sum to 1"),
        ("ARIA_LLM", "ollama:\udcff", "ARIA_LLM=ollama:\\xff: is not valid UTF-8"),
    ],
)
def test_bad_setting_is_one_line_and_exit_2(
    variable: str, value: str, expected: str, _clean: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(variable, value)
    code, line = _main(["sql", "check", "SELECT 1"], monkeypatch, capsys)
    assert code == 2 and line.startswith(f"aria: {expected}"), line
    _nothing_written(_clean)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"row_cap = \n", "is not valid TOML: Invalid value (at line 1, column 11). Fix or delete the file."),
        (b"\x7fELF\x02\x01\x01\x00\xd0\xff\xfe\x00\x00", "is not UTF-8 text (byte 0xd0 at offset 8)"),
        (b'row_cap = "lots"\n', "row_cap = lots in "),
        (b"[theta_r]\nvalue = 4\n", "theta_r = {'value': 4} in "),
        (b"rowcap = 5\n", "unknown setting rowcap in "),
        (b'home = ""\n', 'home = "" in '),
    ],
)
def test_bad_aria_toml_is_one_line_and_exit_2(
    content: bytes, expected: str, _clean: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    config = tmp_path / "aria.toml"
    config.write_bytes(content)
    monkeypatch.setenv("ARIA_CONFIG", str(config))
    monkeypatch.delenv("ARIA_HOME")  # so that home = "" in the file counts
    code, line = _main(["db", "status"], monkeypatch, capsys)
    assert code == 2 and expected in line and str(config) in line, line
    _nothing_written(_clean)


def test_settings_errors_come_one_line_each(
    _clean: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARIA_ROW_CAP", "-1")
    monkeypatch.setenv("ARIA_THETA_R", "abc")
    monkeypatch.setattr(sys, "argv", ["aria", "config", "show"])
    with pytest.raises(SystemExit) as exited:
        aria_cli.main()
    lines = capsys.readouterr().err.splitlines()
    assert exited.value.code == 2 and len(lines) == 2
    assert {line.split("=")[0] for line in lines} == {"aria: ARIA_ROW_CAP", "aria: ARIA_THETA_R"}


def test_aria_errors_and_unexpected_errors(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def raising(err: BaseException) -> None:
        def app() -> None:
            raise err

        monkeypatch.setattr(aria_cli, "app", app)

    raising(ConfigError("--llm 'x' is not a model spec.", hint="Write it like ollama:qwen2.5-coder:14b."))
    assert _main(["ask", "q"], monkeypatch, capsys) == (
        2, "aria: --llm 'x' is not a model spec. Write it like ollama:qwen2.5-coder:14b.")
    raising(DatabaseUnavailable("Cannot connect to the database.", hint="Start it."))
    assert _main(["ask", "q"], monkeypatch, capsys) == (1, "aria: Cannot connect to the database. Start it.")
    raising(RuntimeError("boom\nsecond line"))
    code, line = _main(["ask", "q"], monkeypatch, capsys)
    assert code == 1 and line == "aria: unexpected error: RuntimeError: boom (ARIA_DEBUG=1 shows the traceback)"
    monkeypatch.setenv("ARIA_DEBUG", "1")
    monkeypatch.setattr(sys, "argv", ["aria", "ask", "q"])
    with pytest.raises(RuntimeError, match="boom"):
        aria_cli.main()


# --- the real command: argv bytes decoded by Python, and the working directory -------------------------------


def _run(args: list[str | bytes], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **env}
    result = subprocess.run([str(ARIA), *args], cwd=cwd, env=full_env, capture_output=True, text=True,
                            errors="backslashreplace", timeout=120, check=False)
    assert "Traceback" not in result.stderr + result.stdout
    assert result.returncode in (1, 2), result.stderr
    assert len([line for line in result.stderr.splitlines() if line.strip()]) == 1, result.stderr
    return result


@pytest.mark.parametrize(
    ("args", "position"),
    [([b"ask", b"\xff\xfe"], 2), ([b"sql", b"run", b"SELECT \xff"], 3), ([b"sql", b"check", b"SELECT '\xe1'"], 3)],
)
def test_argument_that_is_not_utf8(args: list[str | bytes], position: int, _clean: Path) -> None:
    result = _run(args, _clean)
    assert result.returncode == 2
    assert result.stderr.strip() == f"aria: argument {position} is not valid UTF-8. Retype it, or set the terminal to UTF-8."
    _nothing_written(_clean)


def test_empty_aria_home_creates_nothing_in_the_working_directory(_clean: Path) -> None:
    result = _run(["db", "status"], _clean, ARIA_HOME="")
    assert result.returncode == 2
    assert result.stderr.startswith('aria: ARIA_HOME="": is empty; unset it for the per-user data dir, or name a folder')
    assert list(_clean.iterdir()) == []


def test_infinite_client_deadline_is_refused_by_the_real_command(_clean: Path) -> None:
    result = _run(["sql", "run", "SELECT 1"], _clean, ARIA_CLIENT_DEADLINE_S="inf")
    assert result.returncode == 2 and result.stderr.startswith("aria: ARIA_CLIENT_DEADLINE_S=inf: must be a number")
    _nothing_written(_clean)

"""``aria demo``'s lock: one demo per ARIA_HOME, stale locks taken over; config flags."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from aria.cli.demo import streamlit_flags
from aria.errors import AlreadyRunning
from aria.procs import LOCK_FILE, demo_lock


def test_lock_is_held_then_released(tmp_path: Path) -> None:
    with demo_lock(tmp_path) as path:
        assert path.read_text() == str(os.getpid())
    assert not (tmp_path / LOCK_FILE).exists()


def test_a_live_holder_refuses_a_second_demo(tmp_path: Path) -> None:
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (tmp_path / LOCK_FILE).write_text(str(holder.pid))
        with pytest.raises(AlreadyRunning, match=f"already running \\(pid {holder.pid}\\)"), demo_lock(tmp_path):
            pass
        assert (tmp_path / LOCK_FILE).read_text() == str(holder.pid)  # not taken from the live holder
    finally:
        holder.kill()
        holder.wait()


def test_a_stale_lock_is_taken_over(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / LOCK_FILE).write_text(str(dead.pid))
    with demo_lock(tmp_path) as path:
        assert path.read_text() == str(os.getpid())


def test_streamlit_config_becomes_flags(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[server]\nheadless = true\n[theme]\nprimaryColor = "#B45309"\n')
    assert streamlit_flags(config) == ["--server.headless=true", "--theme.primaryColor=#B45309"]
    assert streamlit_flags(tmp_path / "missing.toml") == []

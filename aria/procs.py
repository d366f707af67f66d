"""The demo's process helpers: one ``aria demo`` per ``ARIA_HOME``, held by a lock file with its pid.

Used by ``aria demo`` (which takes the lock) and by ``aria bench ui`` (which refuses early when a
live demo holds it). A lock left by a process that died is taken over.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from pathlib import Path

from aria.errors import AlreadyRunning

log = logging.getLogger(__name__)

LOCK_FILE = "demo.lock"


def pid_alive(pid: int) -> bool:
    """True when a process with ``pid`` exists (also one of another user's, which we may not signal)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def lock_holder(home: Path) -> int | None:
    """The pid of the live process holding ``home``'s demo lock, or None (no lock, or a stale one)."""
    path = home / LOCK_FILE
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    pid = int(text) if text.isdigit() else 0
    return pid if pid and pid_alive(pid) else None


@contextlib.contextmanager
def demo_lock(home: Path) -> Iterator[Path]:
    """Hold ``home/demo.lock`` while the demo runs; refuse when a live process holds it."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / LOCK_FILE
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            text = path.read_text().strip()
            pid = int(text) if text.isdigit() else 0
            if pid and pid != os.getpid() and pid_alive(pid):
                raise AlreadyRunning(
                    f"Aria demo is already running (pid {pid}) for ARIA_HOME {home}.",
                    hint="Use that one, stop it, or set another ARIA_HOME.",
                ) from None
            log.info("taking over a stale demo lock (pid %s)", pid or "unknown")
            path.unlink(missing_ok=True)
            continue
        with os.fdopen(fd, "w") as handle:
            handle.write(str(os.getpid()))
        break
    else:
        raise AlreadyRunning(f"Could not take the demo lock {path}.", hint="Remove it if no demo is running.")
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)

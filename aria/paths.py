"""Where Aria's shipped resources live: in a source checkout, or inside an installed wheel.

In a checkout (and an editable install) ``prompts/``, ``pages/`` and ``seed_db/`` sit at the
repository's top level; a built wheel carries them as the packages ``aria.prompts``,
``aria.pages`` and ``aria.seed_db``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def resource_dir(name: str) -> Path:
    """The directory of a shipped resource folder: ``prompts``, ``pages`` or ``seed_db``."""
    in_checkout = _REPO_ROOT / name
    if in_checkout.is_dir() and (_REPO_ROOT / "pyproject.toml").exists():
        return in_checkout
    spec = importlib.util.find_spec(f"aria.{name}")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"Aria's {name}/ folder is missing from this installation; reinstall aria.")
    return Path(next(iter(spec.submodule_search_locations)))


def prompts_dir() -> Path:
    return resource_dir("prompts")


def pages_dir() -> Path:
    return resource_dir("pages")


def seed_dir() -> Path:
    return resource_dir("seed_db")

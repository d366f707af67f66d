"""No dead dependencies: every distribution pyproject.toml declares for running Aria is imported by a
module under aria/ or pages/ (the dev extra aside), unless it is on the short list of indirect ones
below, each with the reason it must be declared although nothing imports it by name."""

from __future__ import annotations

import ast
import importlib.metadata
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]

# Declared, never imported by name, and still needed:
INDIRECT = {
    # init_chat_model (aria/llm/factory.py) imports the integration of the provider named in ARIA_LLM
    "langchain-anthropic": "init_chat_model's 'anthropic' provider",
    "langchain-openai": "init_chat_model's 'openai' provider (and openai-compatible base URLs)",
    "langchain-ollama": "init_chat_model's 'ollama' provider",
    # Streamlit's st.login (OpenID Connect sign-in, aria/ui/auth.py) needs Authlib installed
    "authlib": "st.login's OpenID Connect client",
}


def _name(distribution: str) -> str:
    return distribution.lower().replace("_", "-")


def declared() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [_name(Requirement(spec).name) for spec in project["dependencies"]]


def imported_modules() -> set[str]:
    """Top-level names of every import (module level or inside a function) under aria/ and pages/."""
    names: set[str] = set()
    for folder in ("aria", "pages"):
        for path in (REPO / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split(".")[0])
    return names


def modules_of() -> dict[str, set[str]]:
    """Each installed distribution's importable top-level modules."""
    owners: dict[str, set[str]] = {}
    for module, distributions in importlib.metadata.packages_distributions().items():
        for distribution in distributions:
            owners.setdefault(_name(distribution), set()).add(module)
    return owners


def test_every_declared_dependency_is_imported_or_listed_as_indirect() -> None:
    used = imported_modules()
    owners = modules_of()
    unused = [d for d in declared() if d not in INDIRECT and not owners.get(d, set()) & used]
    assert not unused, f"declared in pyproject.toml but imported by no module of aria/ or pages/: {unused}"


def test_the_indirect_list_holds_only_declared_and_unimported_ones() -> None:
    """An entry goes as soon as its distribution is imported directly, or is no longer declared."""
    used = imported_modules()
    owners = modules_of()
    stale = [d for d in INDIRECT if d not in declared() or owners.get(d, set()) & used]
    assert not stale, stale

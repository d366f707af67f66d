"""The layering holds: import-linter checks pyproject.toml's contracts (the layers, and no import cycle
between the modules of a package), so an upward import fails the test suite, and so CI."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = REPO / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo", str(config)], cwd=REPO,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_layers_contract_is_kept() -> None:
    result = lint_imports(PYPROJECT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout and "Aria's layers KEPT" in result.stdout


def test_the_contract_names_every_package_and_module_of_aria() -> None:
    """A new package or module directly under aria/ must get a place in the layers, or it would escape
    the check."""
    layers = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"][0]["layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    top = {f"aria.{p.parent.name}" for p in (REPO / "aria").glob("*/__init__.py")}
    top |= {f"aria.{p.stem}" for p in (REPO / "aria").glob("*.py") if p.stem != "__init__"}
    assert top <= named, sorted(top - named)


def test_an_upward_import_breaks_it(tmp_path: Path) -> None:
    """The check itself works: with the order turned upside down, aria.cli's imports are upward ones."""
    config = tmp_path / "upside_down.toml"
    config.write_text('[tool.importlinter]\nroot_package = "aria"\n\n[[tool.importlinter.contracts]]\n'
                      'name = "upside down"\ntype = "layers"\nlayers = ["aria.sql", "aria.cli"]\n', encoding="utf-8")
    result = lint_imports(config)
    assert result.returncode != 0 and "upside down BROKEN" in result.stdout, result.stdout + result.stderr

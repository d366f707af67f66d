"""The examples in the semantic layer's docstrings run and hold: they document what the parser, the compiler and
the lexicon do, so a change that alters it must alter them too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import aria.semantic

MODULES = sorted(m.name for m in pkgutil.iter_modules(aria.semantic.__path__, "aria.semantic."))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"

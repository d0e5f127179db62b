"""The examples in the docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    ["kroon", "kroon._kroon", "kroon.checkers_game", "kroon.gym", "kroon.pettingzoo"],
)
def test_docstring_examples(name):
    if name in ("kroon.gym", "kroon.pettingzoo"):
        pytest.importorskip("gymnasium")
        pytest.importorskip("pettingzoo")
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    # The classes say they live in `kroon`: their examples are found there.
    tests = finder.find(module)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert result.attempted > 0

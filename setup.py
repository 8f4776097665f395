"""The compiled cores (see games/native.py); everything else about the package is in pyproject.toml.

Each is optional: where no C compiler is found, or its build fails, `pip install` goes on
without it and the pure-Python path runs (games.native says so in one line). They build with
the flags the running Python was built with (-O3 on CPython's usual builds, /Ox with MSVC).
The rules in games/csrc are plain C (no Python), for the bindings and a compiled search alike;
so are the search tree's walk and the network's Winograd convolutions in engine/core/csrc.
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("games._xiangqi_c", ["games/_xiangqi_c.c", "games/csrc/xiangqi_rules.c"], include_dirs=["games/csrc"],
              depends=["games/csrc/xiangqi_rules.h"], optional=True),
    Extension("engine.core._tree_c", ["engine/core/_tree_c.c", "engine/core/csrc/tree.c"],
              include_dirs=["engine/core/csrc"], depends=["engine/core/csrc/tree.h"], optional=True),
    Extension("engine.core._winograd_c", ["engine/core/_winograd_c.c", "engine/core/csrc/winograd.c"],
              include_dirs=["engine/core/csrc"], depends=["engine/core/csrc/winograd.h"], optional=True),
    Extension("games._gomoku_c", ["games/_gomoku_c.c", "games/csrc/gomoku_rules.c", "games/csrc/renju_rules.c"],
              include_dirs=["games/csrc"], depends=["games/csrc/gomoku_rules.h", "games/csrc/renju_rules.h"],
              optional=True),
    Extension("games._othello_c", ["games/_othello_c.c", "games/csrc/othello_rules.c"], include_dirs=["games/csrc"],
              depends=["games/csrc/othello_rules.h"], optional=True),
    Extension("games._connect4_c", ["games/_connect4_c.c", "games/csrc/connect4_rules.c"],
              include_dirs=["games/csrc"], depends=["games/csrc/connect4_rules.h"], optional=True),
])

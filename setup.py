"""The compiled cores (see games/native.py); everything else about the package is in pyproject.toml.

Each is optional: where no C compiler is found, or its build fails, `pip install` goes on
without it and the pure-Python path runs (games.native says so in one line).
"""
import sys

from setuptools import Extension, setup

# -O2 is setuptools' default on Unix already; MSVC takes its own defaults
FLAGS = [] if sys.platform == "win32" else ["-O2", "-std=c99"]

setup(ext_modules=[
    Extension("games._xiangqi_c", ["games/_xiangqi_c.c"], optional=True, extra_compile_args=FLAGS),
])

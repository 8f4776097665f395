"""tools/bootstrap.py: when the project environment is installed again (pip faked)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def bootstrap(tmp_path, monkeypatch):
    """tools/bootstrap.py on a small checkout in tmp_path, its pip calls recorded; an editable
    install "builds" games/_core.so as setup.py would."""
    spec = importlib.util.spec_from_file_location("bootstrap_under_test", ROOT / "tools" / "bootstrap.py")
    bs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bs)
    repo = tmp_path / "repo"
    (repo / "games").mkdir(parents=True)
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (repo / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    (repo / "requirements.lock").write_text("torch==2.5.1\nnumpy==2.1.0\n")
    (repo / "games" / "csrc").mkdir()
    (repo / "games" / "_core.c").write_text("int core;\n")
    (repo / "games" / "csrc" / "rules.h").write_text("int rules(void);\n")
    (repo / "engine" / "core" / "csrc").mkdir(parents=True)
    (repo / "engine" / "core" / "_tree.c").write_text("int tree;\n")
    (repo / "engine" / "core" / "csrc" / "tree.h").write_text("int walk(void);\n")
    env = tmp_path / "env"
    python = bs.venv_python(env)
    python.parent.mkdir(parents=True)
    python.touch()
    monkeypatch.setattr(bs, "ROOT", repo)
    monkeypatch.setattr(bs, "LOCK", repo / "requirements.lock")
    monkeypatch.setattr(bs, "venv_dir", lambda: env)
    bs.installs = []

    def pip(_env, *args):
        if "-e" in args:
            bs.installs.append(args[args.index("-e") + 1])
            (repo / "games" / "_core.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
            (repo / "engine" / "core" / "_tree.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    monkeypatch.setattr(bs, "pip", pip)
    bs.repo = repo
    return bs


def test_a_second_start_installs_nothing(bootstrap):
    bootstrap.ensure_installed(set())
    bootstrap.ensure_installed(set())
    assert bootstrap.installs == ["."]


def test_a_changed_c_source_or_header_installs_again_to_rebuild_the_compiled_core(bootstrap):
    bootstrap.ensure_installed(set())
    (bootstrap.repo / "games" / "_core.c").write_text("int core = 1;\n")
    bootstrap.ensure_installed(set())
    bootstrap.ensure_installed(set())
    (bootstrap.repo / "games" / "csrc" / "rules.h").write_text("int rules(int);\n")
    bootstrap.ensure_installed(set())
    assert bootstrap.installs == [".", ".", "."]


def test_a_changed_search_tree_source_installs_again(bootstrap):
    bootstrap.ensure_installed(set())
    (bootstrap.repo / "engine" / "core" / "csrc" / "tree.h").write_text("int walk(int);\n")
    bootstrap.ensure_installed(set())
    (bootstrap.repo / "engine" / "core" / "_tree.cpython-311-x86_64-linux-gnu.so").unlink()
    bootstrap.ensure_installed(set())
    assert bootstrap.installs == [".", ".", "."]


def test_a_compiled_core_gone_since_the_install_is_built_again(bootstrap):
    bootstrap.ensure_installed({"dev"})
    next((bootstrap.repo / "games").glob("*.so")).unlink()   # a cleaned checkout
    bootstrap.ensure_installed(set())
    assert bootstrap.installs == [".[dev]", ".[dev]"]   # the extras installed before are kept


def test_without_a_compiler_nothing_is_rebuilt_at_every_start(bootstrap, monkeypatch):
    monkeypatch.setattr(bootstrap, "pip", lambda _env, *args: bootstrap.installs.append("pip"))
    bootstrap.ensure_installed(set())    # the build left no compiled core
    bootstrap.ensure_installed(set())
    assert bootstrap.installs.count("pip") == 2   # torch, then the project: once

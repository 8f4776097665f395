"""The project's imports point one way and never in a circle.

Layers, lowest first: ``games`` (rules), ``engine.core`` (network, search, self-play
machinery), ``engine.play`` (players, matches, solvers), then two siblings that may not
import each other, ``engine.training`` (the learning loop) and ``engine.protocols``
(engines and clients other programs speak to), then ``engine.commands`` (the command-line
tools), ``gui`` and ``main``. Every import counts, also those inside functions.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("games", "engine", "gui", "main.py", "tools", "benchmarks")

#: module prefix -> (rank, name); a module takes the longest matching prefix
LAYERS = {
    "games": 0,
    "engine": 1,            # the package itself (its __init__ imports nothing)
    "engine.core": 1,
    "engine.play": 2,
    "engine.training": 3,
    "engine.protocols": 3,
    "engine.commands": 4,
    "gui": 5,
    "main": 6,
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    mods = {}
    for src in SOURCES:
        p = ROOT / src
        files = [p] if p.is_file() else sorted(p.rglob("*.py"))
        for f in files:
            mods[_module_name(f)] = f
    return mods


def _resolve(name: str, mods: dict[str, Path]) -> str | None:
    """The project module an imported name lives in (the longest existing prefix), or None."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in mods:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, mods: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # `from pkg import mod` imports pkg.mod when that is a module, else a name of pkg
            names = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in mods else prefix for a in node.names]
        else:
            continue
        for name in names:
            target = _resolve(name, mods)
            if target is not None and target != module:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    mods = project_modules()
    return {m: imports_of(m, p, mods) for m, p in mods.items()}


def layer_of(module: str) -> tuple[int, str] | None:
    best = None
    for prefix, rank in LAYERS.items():
        if module == prefix or module.startswith(prefix + "."):
            if best is None or len(prefix) > len(best[1]):
                best = (rank, prefix)
    return best


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative); components with more than one module are circles."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        comp.append(m)
                        if m == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


def test_the_walk_sees_the_imports_it_must_judge():
    graph = import_graph()
    assert "engine.core.mcts" in graph["engine.play.players"]
    assert "engine.core.checkpoint" in graph["engine.training.train"]      # a top-level relative import
    assert "engine.play.players" in graph["engine.commands.specs"]          # an import inside a function
    assert "games" in graph["engine.training.workers"]


def test_no_import_circles():
    circles = strongly_connected(import_graph())
    assert not circles, "import circles: " + "; ".join(" <-> ".join(c) for c in circles)


def test_imports_point_down_the_layers():
    wrong = []
    for module, targets in import_graph().items():
        mine = layer_of(module)
        if mine is None:       # tools/ and benchmarks/ sit above everything
            continue
        for target in targets:
            theirs = layer_of(target)
            if theirs is None:
                wrong.append(f"{module} -> {target} (a tool or benchmark)")
            elif theirs[0] > mine[0] or (theirs[0] == mine[0] and theirs[1] != mine[1]
                                          and "engine" not in (mine[1], theirs[1])):
                wrong.append(f"{module} ({mine[1]}) -> {target} ({theirs[1]})")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


@pytest.mark.parametrize("lower,higher", [("engine.core", "engine.play"), ("engine.training", "engine.protocols"),
                                          ("engine.play", "engine.commands"), ("games", "engine.core")])
def test_the_layer_rule_rejects_an_upward_import(lower, higher):
    mine, theirs = layer_of(lower + ".x"), layer_of(higher + ".y")
    assert theirs[0] > mine[0] or (theirs[0] == mine[0] and theirs[1] != mine[1])


def test_a_circle_is_found():
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]

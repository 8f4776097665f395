"""How much memory a search tree keeps alive, measured object by object (bench, and the
protocols' memory budget)."""
from __future__ import annotations

import sys
import time


def deep_size(objects, exclude=()) -> int:
    """Bytes of ``objects`` and everything they reference, each object counted once; the
    objects in ``exclude`` (shared ones, like the game) and types, modules and functions are skipped."""
    import gc
    import types
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    seen = {id(o) for o in exclude}
    stack = list(objects)
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, skip):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        stack.extend(gc.get_referents(o))
    return total


def measure_tree_memory(game, nodes: int) -> dict:
    """Build a ``nodes``-node tree (uniform priors, so no network time) and measure what it keeps
    alive: the node/edge arrays at their allocated capacity plus the stored states, measured
    object by object (`deep_size`; the game object they share is not counted)."""
    from .evaluators import UniformEvaluator
    from .mcts import MCTS, SearchConfig, Tree
    start = time.perf_counter()
    tree = Tree(game.initial_state())
    mcts = MCTS(UniformEvaluator(), SearchConfig())
    while tree.num_nodes < nodes:
        before = tree.num_nodes
        mcts.search([tree], int(tree.root_n) + (nodes - tree.num_nodes))
        if tree.num_nodes == before:  # a small game's whole tree is built
            break
    build = time.perf_counter() - start
    arrays = tree.memory_bytes()
    states = deep_size([tree.states], exclude=[game])
    total = arrays + states
    per_node = total / max(tree.num_nodes, 1)
    mb = 1 << 20
    return {"tree_nodes": tree.num_nodes, "tree_edges": tree.num_edges,
            "tree_arrays_mb": round(arrays / mb, 2), "tree_states_mb": round(states / mb, 2),
            "tree_total_mb": round(total / mb, 2), "tree_bytes_per_node": int(per_node),
            "tree_100k_mb": round(per_node * 100_000 / mb, 1), "tree_build_s": round(build, 2),
            "tree_memory_method": "array capacity + deep size of the stored states; uniform-prior search "
                                  "from the start position"}

"""What every engine protocol and protocol client shares: the value <-> centipawn scale,
one-line replies, JSON that is always valid, and the principal variation read off a search tree."""
from __future__ import annotations

import json
import math

import numpy as np

#: the largest score in centipawns that a value maps to
CP_LIMIT = 2000


def value_to_cp(v: float) -> int:
    """The documented value -> centipawn mapping: 400 * log10((1 + v) / (1 - v)), clipped.
    A value that is not a number has no score: ValueError."""
    v = float(v)
    if math.isnan(v):
        raise ValueError("the value is not a number")
    v = max(-0.99999, min(0.99999, v))
    return int(round(max(-CP_LIMIT, min(CP_LIMIT, 400.0 * math.log10((1 + v) / (1 - v))))))


def cp_to_value(cp: float) -> float:
    """Inverse of `value_to_cp`: tanh(cp * ln 10 / 800)."""
    return math.tanh(float(cp) * math.log(10) / 800.0)


def finite(obj):
    """``obj`` with every float that is not finite (NaN, infinity) replaced by None, in dicts,
    lists and tuples too: what JSON can carry."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    if isinstance(obj, np.floating):
        return finite(float(obj))
    return obj


def json_text(obj, **kwargs) -> str:
    """``json.dumps`` that never writes NaN or Infinity (invalid JSON): such numbers become null."""
    return json.dumps(finite(obj), allow_nan=False, **kwargs)


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def principal_variation(tree, first_action: int | None = None, max_len: int = 24) -> list[str]:
    """Move texts of the most visited line from the root (starting with ``first_action`` if given)."""
    pv: list[str] = []
    node = 0
    action = first_action
    while len(pv) < max_len and tree.n_count[node] > 0:
        actions, visits, _, _, kids = tree.edges(node)
        if action is None:
            j = int(visits.argmax())
            if visits[j] <= 0:
                break
        else:
            hits = np.nonzero(actions == action)[0]
            if not len(hits):
                break
            j = int(hits[0])
        pv.append(tree.states[node].action_to_text(int(actions[j])))
        node = int(kids[j])
        action = None
        if node < 0:
            break
    return pv

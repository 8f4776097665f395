"""The person's rating per game, and the levels' ratings it is measured against.

Levels' ratings come from the shipped ``models/<game key>.json`` ``"levels"`` (each level's
``rating``, its 95% interval ``low``..``high``, the ``games`` it was measured from and the
``reference`` ladder), read once per game; where the file has none, a level is described in
words only and no game is rated. The person's ratings (`engine.play.rating`: Glicko) live in
``ratings.json`` in the user data folder, read through `engine.core.safefile`: a damaged file
is set aside (``ratings.json.bak-<timestamp>``) and the ratings start again, never a crash.
A game counts when it was played from the start against a rated level and finished, and
nothing was taken back (unless the person said take-backs count: the ``rate_takebacks``
setting). Who moved first counts too: the same file's ``"first_mover_advantage"`` (``elo``, the
rating points the first move is worth, measured from the level games with the levels' ratings
held; see docs/levels.md) is added to the side that moved first when a game is counted.
"""
from __future__ import annotations

import json
import logging
import math
import re
import time

from engine.core.safefile import UnreadableFile, read_json, set_aside, user_path
from engine.play.rating import Rating, inflate, nearest_level, rd_of_interval, start_rating, update

VERSION = 1
_KEY_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,40}", re.ASCII)
#: the scale's words, for "about 1450 on the Fairy-Stockfish scale"
MAX_RATING = 5000.0

#: the largest first mover's advantage believed from a file (rating points)
MAX_ADVANTAGE = 400.0

_levels_cache: dict[str, dict] = {}
_advantage_cache: dict[str, float] = {}


def _number(x) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    x = float(x)
    return x if math.isfinite(x) and abs(x) <= MAX_RATING else None


def level_ratings(game) -> dict[str, dict]:
    """{level: {"rating", "low", "high", "rd", "games", "reference"}} from the shipped
    models/<game key>.json ``"levels"``; {} when the file, the entry or every level is missing or
    malformed (a malformed level is left out)."""
    key = game.key
    if key not in _levels_cache:
        data = _model_report(key)
        out: dict[str, dict] = {}
        levels = data.get("levels") if isinstance(data, dict) else None
        if isinstance(levels, dict):
            for name, entry in levels.items():
                if not isinstance(entry, dict) or not isinstance(name, str):
                    continue
                r, low, high = (_number(entry.get(k)) for k in ("rating", "low", "high"))
                if r is None:
                    continue
                low = r if low is None or low > r else low
                high = r if high is None or high < r else high
                games = entry.get("games")
                out[name] = {"rating": r, "low": low, "high": high, "rd": rd_of_interval(low, high),
                             "games": games if type(games) is int and games >= 0 else 0,
                             "reference": str(entry.get("reference", ""))[:120]}
        _levels_cache[key] = out
    return _levels_cache[key]


def first_mover_advantage(game) -> float:
    """The rating points a game's first move is worth on its scale (models/<game key>.json
    ``"first_mover_advantage"`` ``"elo"``; negative where the second mover has the edge); 0 when
    the file has none or a malformed one."""
    key = game.key
    if key not in _advantage_cache:
        entry = (_model_report(key) or {}).get("first_mover_advantage")
        elo = _number(entry.get("elo")) if isinstance(entry, dict) else None
        _advantage_cache[key] = elo if elo is not None and abs(elo) <= MAX_ADVANTAGE else 0.0
    return _advantage_cache[key]


def _model_report(key: str) -> dict | None:
    from engine.core.safefile import model_report
    return model_report(key) or None


def clear_cache() -> None:
    _levels_cache.clear()
    _advantage_cache.clear()


def path():
    return user_path("player ratings")


class PlayerRatings:
    """The person's rating for each game (by game key), kept on disk after every change."""

    def __init__(self, autosave: bool = True):
        self.autosave = autosave
        self.data: dict[str, dict] = {}
        #: the name a damaged file was moved aside to, for one message
        self.problem: str | None = None
        if autosave:
            self.data, self.problem = _load()

    def get(self, game_key: str, now: float | None = None) -> Rating | None:
        """The rating for ``game_key`` (its RD widened for the days since its last game), or None."""
        e = self.data.get(game_key)
        if e is None:
            return None
        r = Rating(e["rating"], e["rd"], e["games"])
        now = time.time() if now is None else now
        return inflate(r, (now - e["time"]) / 86400.0) if e["time"] else r

    def record(self, game, level: str, score: float, now: float | None = None,
               first: bool | None = None) -> tuple[Rating, Rating] | None:
        """Count a finished game against ``level`` with ``score`` (1, 0.5, 0 for the person):
        (before, after), or None when the level has no rating. ``first``: the person moved first
        (True) or second (False), weighed with the game's first mover's advantage; None: a game
        whose colours were settled to even it (a swap opening), counted as between equals."""
        levels = level_ratings(game)
        lv = levels.get(level)
        if lv is None:
            return None
        now = time.time() if now is None else now
        before = self.get(game.key, now) or start_rating({k: v["rating"] for k, v in levels.items()})
        advantage = 0.0 if first is None else first_mover_advantage(game) * (1.0 if first else -1.0)
        after = update(before, lv["rating"], lv["rd"], score, advantage)
        self.data[game.key] = {"rating": after.rating, "rd": after.rd, "games": after.games, "time": now}
        self._save()
        return before, after

    def reset(self) -> None:
        """Forget every rating."""
        self.data = {}
        self._save()

    def _save(self) -> None:
        if not self.autosave:
            return
        try:
            from engine.core.checkpoint import atomic_write_bytes
            p = path()
            p.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(p, json.dumps({"version": VERSION, "games": self.data}, indent=1).encode("utf-8"))
        except OSError as e:
            logging.getLogger("zeroboard.ratings").warning("the ratings could not be saved: %s", e)


def _load() -> tuple[dict, str | None]:
    """(ratings by game key, the name a damaged file was set aside as or None). Entries that are
    not ratings are left out; a file that is no ratings file at all is set aside."""
    p = path()
    try:
        data = read_json(p, "ratings")
    except UnreadableFile as e:
        if not e.damaged:
            return {}, None
        return {}, _aside(p, str(e))
    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(data.get("games"), dict):
        return {}, _aside(p, "is not a ratings file")
    out = {}
    for key, e in data["games"].items():
        if not isinstance(key, str) or not _KEY_RE.fullmatch(key) or not isinstance(e, dict):
            continue
        r, rd, t = _number(e.get("rating")), e.get("rd"), e.get("time", 0)
        games = e.get("games")
        rd = _number(rd)
        if r is None or rd is None or not 0 < rd <= 350 or type(games) is not int or games < 0:
            continue
        t = float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) else 0.0
        out[key] = {"rating": r, "rd": rd, "games": games, "time": max(0.0, t)}
    return out, None


def _aside(p, reason: str) -> str:
    backup = set_aside(p)
    logging.getLogger("zeroboard.ratings").warning("the ratings file %s %s; moved aside to %s", p, reason, backup)
    return (backup or p).name


def score_for(winner: int | None, human: int) -> float:
    """The person's score: 1 a win, 0.5 a draw, 0 a loss."""
    return 0.5 if winner is None else (1.0 if winner == human else 0.0)


def suggested_level(rating: Rating, levels: dict[str, dict]) -> str | None:
    """The level nearest the person's rating."""
    return nearest_level(rating.rating, {k: v["rating"] for k, v in levels.items()})


def scale_name(game) -> str:
    """The rating scale's name in words ("Fairy-Stockfish" for xiangqi)."""
    from gui.i18n import t
    key = f"scale.{game.id}"
    name = t(key)
    return name if name != key else game.id


def you_text(player: Rating | None) -> str:
    """"you: 1390 ± 120 after 14 games", or "" without a rating."""
    from gui.i18n import t
    if player is None or player.games <= 0:
        return ""
    key = "rating.you_one" if player.games == 1 else "rating.you"
    return t(key, rating=round(player.rating), pm=round(player.interval), n=player.games)


def level_line(game, level: str, player: Rating | None = None) -> str:
    """"Medium — about 1450 on the Fairy-Stockfish scale; you: 1390 ± 120 after 14 games", in the
    interface language; "" when the level has no measured rating (then its plain note says it)."""
    from gui.i18n import t
    lv = level_ratings(game).get(level)
    if lv is None:
        return ""
    if _round(lv["rating"]) < 0:   # a scale's numbers are anchored high; a rating under 0 reads as a fault
        text = t("level.rated_below_zero", level=t(f"level.{level}"), scale=scale_name(game))
    else:
        text = t("level.rated", level=t(f"level.{level}"), rating=_round(lv["rating"]), scale=scale_name(game))
    you = you_text(player)
    return f"{text}{t('rating.join')}{you}" if you else text


def _round(x: float) -> int:
    """A level's rating as said to a person: to the nearest 10 (its interval is far wider)."""
    return int(round(x / 10.0) * 10)

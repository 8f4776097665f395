"""The 2026-11-27 pilot for adjudication by a lasting material lead (from the project root).

usage: python docs/runs/ab-xiangqi-lead/pilot.py CHECKPOINT CONFIG GAMES SEED

Plays GAMES self-play games with CHECKPOINT under CONFIG's settings, every game played out (no
resignation, no lead adjudication), then replays each game and asks, for several margins M
(soldiers) and run lengths K (plies): in how many games did one side's lead first reach M for K
plies in a row, and how did those games end for that leader (won, drawn or adjudicated at the
cap, lost)? A margin whose leaders nearly always win is one that `[selfplay] material_adjudicate`
can use without teaching wrong results; the plies it saves are the self-play time it buys."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from engine.core.config import load_config  # noqa: E402
from engine.core.network import configure_threads  # noqa: E402
from engine.core.selfplay import GameRecord, lasting_leader, play_games  # noqa: E402
from engine.training.workers import selfplay_evaluator  # noqa: E402
from games import get_game  # noqa: E402


class _Lead:
    """A replayed position's heuristic, for `lasting_leader`."""

    def __init__(self, h: float):
        self.h = h

    def heuristic(self, player: int) -> float:
        return self.h if player == 0 else -self.h


def main() -> None:
    checkpoint, config, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    configure_threads(1)
    game = get_game("xiangqi")
    sp = load_config(game, config).selfplay
    sp.resign_threshold = 0.0
    evaluator, _ = selfplay_evaluator(checkpoint, game, sp)
    recs, stats = play_games(game, evaluator, sp, n, seed=seed)
    print(f"{stats.games} games, {stats.plies} plies, wins {stats.wins}, draws {stats.draws}, "
          f"{stats.seconds:.0f} s")
    leads = []
    for r in recs:
        s, trace = game.initial_state(), []
        for a in r.moves:
            s = s.apply(a)
            trace.append(s.heuristic(0))
        leads.append((trace, r.winner, r.adjudicated, len(r.moves)))
    for margin in (3.0, 4.0, 5.0, 6.0, 8.0):
        for plies in (6, 10, 16):
            won = drawn = lost = saved = 0
            for trace, winner, adjudicated, length in leads:
                rec = GameRecord()   # the rule self-play applies (`material_adjudicate`)
                for i, h in enumerate(trace):
                    side = lasting_leader(rec, _Lead(h), margin, plies)
                    if side is not None:
                        break
                else:
                    continue
                saved += length - 1 - i
                if winner == side:
                    won += 1
                elif winner is None:
                    drawn += 1
                else:
                    lost += 1
            hit = won + drawn + lost
            print(f"margin {margin:4.1f} plies {plies:2d}: {hit:3d} games with such a lead; leader won {won}, "
                  f"undecided {drawn}, lost {lost}; plies after it {saved} of {sum(x[3] for x in leads)}")


if __name__ == "__main__":
    main()

"""What the A/B scripts here share: a game's play settings, the shipped network (ONNX Runtime
float32) answering each batch size with the answer it gave first (so that its cost and its noise
are left out and what is timed is the search's own work), and four positions of random play."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
for path in (ROOT, ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from tree_search_speed import network_evaluator  # noqa: E402

from engine.commands.cli import sample_positions  # noqa: E402
from engine.play.players import play_search_config  # noqa: E402
from games import get_game  # noqa: E402


def held_setup(game_id: str):
    """(search settings, evaluator with its answers held, positions) for ``game_id``."""
    game = get_game(game_id)
    evaluator = network_evaluator(game, "ort-fp32")
    real, answers = evaluator.infer, {}

    def held(planes):
        if len(planes) not in answers:
            answers[len(planes)] = real(planes)
        return answers[len(planes)]
    evaluator.infer = held
    return play_search_config(game), evaluator, sample_positions(game, 4, seed=1)

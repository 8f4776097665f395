"""The engine commands other programs start: each speaks one protocol on stdin/stdout."""
from __future__ import annotations


def uci_main(argv: list[str]) -> int:
    """``python main.py uci``: serve the protocol on stdin/stdout."""
    from .cli import ArgParser, UsageError, game_from_args, run_command
    from ..play.players import LEVELS
    from ..protocols.uci import UCIEngine, serve
    parser = ArgParser(prog="main.py uci", description="Speak a UCI-style protocol on stdin/stdout.")
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--size", type=int, help="board size for games with variants")
    parser.add_argument("--model", help="model file (default: the shipped model, else rollout search)")
    parser.add_argument("--level", choices=LEVELS, help="initial level (default: strong)")

    def body(args) -> int:
        from ..core.checkpoint import CheckpointError
        game = game_from_args(args.game, args.size)
        try:
            engine = UCIEngine(game, args.model, args.level)
        except (CheckpointError, OSError) as e:
            raise UsageError(str(e)) from None
        return serve(engine)

    return run_command(parser, argv, body)

"""The engine commands other programs start: each speaks one protocol on stdin/stdout.

Each answers its protocol's handshake before torch and the model are imported: the model
loads on a background thread started once the handshake is answered.
"""
from __future__ import annotations

MODEL_HELP = "model file (default: the shipped model, else rollout search); 'rollout' for rollout search"
THREADS_HELP = "search threads sharing the tree (default: 1; more use more cores where the model runs)"


def _add_threads(parser) -> None:
    from .cli import threads_arg
    parser.add_argument("--threads", type=threads_arg, default=1, metavar="N", help=THREADS_HELP)


def _finish(rc: int, wait_s: float = 30.0) -> int:
    """``rc``, once the model-loading threads have ended (waiting up to ``wait_s`` seconds).

    An engine told to quit right after its handshake may still be importing torch or ONNX
    Runtime on its loader thread; an interpreter shutting down under such an import can abort
    (``terminate called without an active exception``, exit status -6) instead of returning
    ``rc``. So the engine waits for the load; if it has not ended by then, it leaves at once
    with its output flushed.
    """
    import os
    import sys
    import threading
    import time
    from ..protocols.common import LOADER_THREAD
    deadline = time.monotonic() + wait_s
    for thread in threading.enumerate():
        if thread.name == LOADER_THREAD and thread.is_alive():
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                for stream in (sys.stdout, sys.stderr):
                    try:
                        stream.flush()
                    except (OSError, ValueError):
                        pass
                os._exit(rc)
    return rc


def _checked_model(model: str | None) -> str | None:
    """``model`` when it is 'rollout' or a regular file of a model's size; UsageError otherwise
    (before any protocol): a pipe or a device is named as such, never opened for reading."""
    from .cli import UsageError
    from ..core.safefile import UnreadableFile, check_regular, limit_of
    from ..protocols.common import ROLLOUT
    if model and model != ROLLOUT:
        try:
            check_regular(model, limit_of("checkpoint"))
        except UnreadableFile as e:
            raise UsageError(f"--model {model}: {'no such file' if e.kind == 'missing' else e}") from None
    return model


def uci_main(argv: list[str]) -> int:
    """``python main.py uci``: serve the protocol on stdin/stdout."""
    from .cli import ArgParser, add_rule_option, game_from_args, run_command
    from ..play.players import LEVELS
    from ..protocols.uci import UCIEngine, serve
    parser = ArgParser(prog="main.py uci", description="Speak a UCI-style protocol on stdin/stdout.")
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--size", type=int, help="board size for games with variants")
    add_rule_option(parser)
    parser.add_argument("--model", help=MODEL_HELP)
    parser.add_argument("--level", choices=LEVELS, help="initial level (default: strong)")
    _add_threads(parser)

    def body(args) -> int:
        game = game_from_args(args.game, args.size, args.rule)
        return _finish(serve(UCIEngine(game, _checked_model(args.model), args.level, threads=args.threads)))

    return run_command(parser, argv, body)


def ucci_main(argv: list[str]) -> int:
    """``python main.py ucci``: xiangqi's UCCI engine on stdin/stdout."""
    from .cli import ArgParser, game_from_args, run_command
    from ..play.players import LEVELS
    from ..protocols.ucci import UCCIEngine, ucci_serve
    parser = ArgParser(prog="main.py ucci", description="Speak UCCI (xiangqi engines' protocol) on stdin/stdout.")
    parser.add_argument("--model", help=MODEL_HELP)
    parser.add_argument("--level", choices=LEVELS, help="initial level (default: strong)")
    _add_threads(parser)

    def body(args) -> int:
        game = game_from_args("xiangqi")
        return _finish(ucci_serve(UCCIEngine(game, _checked_model(args.model), args.level, threads=args.threads)))

    return run_command(parser, argv, body)


def pbrain_main(argv: list[str]) -> int:
    """``python main.py pbrain``: a Gomocup (Piskvork) gomoku brain on stdin/stdout."""
    from .cli import ArgParser, run_command
    from ..play.players import LEVELS
    from ..protocols.gomocup import GomocupBrain, serve
    parser = ArgParser(prog="main.py pbrain",
                       description="Be a Gomocup (Piskvork) gomoku brain on stdin/stdout.")
    parser.add_argument("--model", help=MODEL_HELP)
    parser.add_argument("--size", type=int, default=15, help="the board size --model PATH plays (default 15)")
    parser.add_argument("--level", choices=LEVELS, help="budget when the manager sends no time or node limit "
                                                          "(default: strong)")
    _add_threads(parser)

    def body(args) -> int:
        return _finish(serve(GomocupBrain(_checked_model(args.model), args.level, model_size=args.size,
                                          threads=args.threads)))

    return run_command(parser, argv, body)


def nboard_main(argv: list[str]) -> int:
    """``python main.py nboard``: an othello engine for the NBoard GUI on stdin/stdout."""
    from .cli import ArgParser, run_command
    from ..protocols.nboard import NBoardEngine, serve
    parser = ArgParser(prog="main.py nboard", description="Speak the NBoard protocol (othello) on stdin/stdout.")
    parser.add_argument("--model", help=MODEL_HELP)
    _add_threads(parser)

    def body(args) -> int:
        return _finish(serve(NBoardEngine(_checked_model(args.model), threads=args.threads)))

    return run_command(parser, argv, body)

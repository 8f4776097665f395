"""Entry point. No arguments opens the app; subcommands do everything else.

Each subcommand lives in the package it belongs to and is imported only when
used, so that opening the app does not pay for torch before the first frame.
"""
from __future__ import annotations

import sys

# subcommand -> (module, function taking argv list, one-line help)
COMMANDS = {
    "perft": ("games.perft", "main", "count positions k plies deep (rules check and move-generation benchmark)"),
    "analyse": ("engine.commands.cli", "analyse_main", "search positions and print the AI's move, value and top moves as JSON"),
    "uci": ("engine.commands.engines", "uci_main", "speak a UCI-style protocol on stdin/stdout"),
    "ucci": ("engine.commands.engines", "ucci_main", "be a xiangqi engine speaking UCCI on stdin/stdout"),
    "pbrain": ("engine.commands.engines", "pbrain_main", "be a Gomocup (Piskvork) gomoku brain on stdin/stdout"),
    "nboard": ("engine.commands.engines", "nboard_main", "be an othello engine for the NBoard GUI on stdin/stdout"),
    "arena": ("engine.commands.cli", "arena_main", "play two players against each other and print the score and Elo"),
    "bench": ("engine.commands.cli", "bench_main", "measure network and search throughput"),
    "train": ("engine.training.train", "main", "train a game's AI by self-play"),
    "evaluate": ("engine.commands.evaluate", "main", "run a game's strength suite"),
    "play": ("gui.app", "play_main", "open the app on the play scene"),
    "demo": ("gui.app", "demo_main", "open the app on an AI-vs-AI demo"),
}


def usage() -> str:
    lines = ["usage: python main.py [COMMAND] [options]", "",
             "With no command the app opens. Commands:"]
    lines += [f"  {name:<9} {help_}" for name, (_, _, help_) in COMMANDS.items()]
    lines.append("  --selftest [DIR]  check without a display that the app works (JSON summary; scenes kept in DIR)")
    lines.append("\n'python main.py COMMAND --help' describes a command's options.")
    return "\n".join(lines)


def _opens_window(argv: list[str]) -> bool:
    """True for the app itself (no command, play, demo), whose fatal errors get a window."""
    if not argv:
        return True
    return argv[0] in ("play", "demo") or argv[0].startswith("--") and argv[0] not in ("--help", "-h", "--selftest")


def _show_error(summary: str, log_path) -> None:
    from gui.crash import show_error
    show_error(summary, log_path)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # before anything else: a windowed app on Windows has no stdout/stderr (they go to the log),
    # and an uncaught error is logged and, for the app, shown in a window instead of vanishing
    from engine.core import logsetup
    logsetup.ensure_streams(copy_stderr=bool(getattr(sys, "frozen", False)))
    import multiprocessing
    multiprocessing.freeze_support()  # in the packaged app: run a spawned AI/trainer process and exit
    logsetup.install_excepthook(show=_show_error if _opens_window(argv) else None)
    if argv[:1] == ["--selftest"]:
        from gui.selftest_run import main as selftest_main
        return selftest_main(argv[1:])
    if not argv or argv[0].startswith("--") and argv[0] not in ("--help", "-h"):
        from gui.app import app_main
        code = app_main(argv)
        if code == 1 and getattr(sys, "frozen", False):  # e.g. no window could be opened
            _show_error("ZeroBoard could not open its window.", logsetup.writable_log_path())
        return code
    if argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    if argv[0] not in COMMANDS:
        print(f"unknown command {argv[0]!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module_name, func_name, _ = COMMANDS[argv[0]]
    import importlib
    func = getattr(importlib.import_module(module_name), func_name)
    return func(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())

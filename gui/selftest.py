"""Off-screen rendering of every scene, for the self-test and for people to look at."""
from __future__ import annotations

from pathlib import Path

import pygame

from games import GAME_IDS, get_game
from gui.app import FPS, App
from gui.settings import Settings


def render_all_scenes(out_dir, games=None, langs=("en", "zh"), size=(1280, 800), colorblind=(False,)) -> list[Path]:
    """Render every scene for every game and language off-screen into ``out_dir`` as PNGs.

    No AI process is started. Returns the written paths; raises on any drawing error.
    """
    from gui.scenes.loaddialog import LoadDialog
    from gui.scenes.home import sample_state
    from gui.boards import renderer_class
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    settings = Settings.in_memory()
    app = App(size, headless=True, ai_enabled=False, settings=settings, strict=True)
    written = []

    def shot(name):
        app.step((), 1 / FPS)
        path = out / f"{name}.png"
        pygame.image.save(app.screen, str(path))
        written.append(path)

    games = [g for g in (games or GAME_IDS)]
    for cb in colorblind:
        app.set_colorblind(cb)
        suffix = "-cb" if cb else ""
        for lang in langs:
            app.set_language(lang)
            app.toasts.clear()
            app.go_home()
            for _ in range(8):  # the home cards draw one board picture per frame
                app.step((), 1 / FPS)
            shot(f"home-{lang}{suffix}")
            app.open_settings()
            shot(f"settings-{lang}{suffix}")
            for gid in games:
                try:
                    get_game(gid)
                except Exception:
                    continue  # a game whose rules are not there yet
                app.open_setup(gid, "play")
                shot(f"setup-{gid}-{lang}{suffix}")
                app.open_setup(gid, "demo")
                shot(f"setup-demo-{gid}-{lang}{suffix}")
                app.start_play(gid, "first", "strong")
                c = app.scene.c
                cls = renderer_class(gid)
                mid = sample_state(c.game, max(4, getattr(cls, "THUMB_MOVES", 6)))
                c.load(mid)
                c.human = mid.current_player
                legal = sorted(mid.legal_actions(), key=lambda a: _centrality(c.game, a))
                c.hints_on = True
                c.hint_for = c.state
                c.hint.top = [{"action": a, "visits": 100 - 20 * i, "q": 0.1, "prior": 0.2}
                              for i, a in enumerate(legal[:3])]
                from gui.review import Evaluation
                c.analysis_on = False
                for i in range(len(c.history)):  # a made-up win-rate curve, for the graph
                    c.set_evaluation(i, Evaluation(0.24 * ((-1) ** i) * min(1, i / 3), None, None, 100, "analysis"))
                app.scene.view.renderer.animations = False
                shot(f"play-{gid}-{lang}{suffix}")
                app.scene.dialog = LoadDialog(app, on_pick=lambda p: None, on_close=lambda: None)
                shot(f"load-{gid}-{lang}{suffix}")
                app.scene.dialog = None
                c.resign()
                shot(f"play-over-{gid}-{lang}{suffix}")
                app.start_demo(gid, ("hard", "strong"))
                from gui.records import history_of
                app.scene.c._reset_history(history_of(mid))
                app.scene.c.paused = True
                app.scene.c.evals[-1] = Evaluation(-0.1, None, None, 100, "ai")
                shot(f"demo-{gid}-{lang}{suffix}")
                app.open_train()
                app.scene.game_id = gid
                shot(f"train-{gid}-{lang}{suffix}")
    app.go_home()
    app.shutdown()
    return written


def _centrality(game, action: int) -> float:
    """Distance of a cell action from the board's centre (0 for non-cell actions)."""
    h, w = game.board_shape
    if game.policy_planes != 1 or not 0 <= action < h * w:
        return 0.0
    r, c = divmod(action, w)
    return abs(r - (h - 1) / 2) + abs(c - (w - 1) / 2)

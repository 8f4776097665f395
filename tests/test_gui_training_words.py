"""What the training screen says is true and readable: a saved model is called stronger only
when the trainer measured it against the model in use, the log names the game (not its
internal key or an absolute folder), and a chart's long title is wrapped, not cut."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame


def test_a_model_saved_without_a_match_is_not_called_stronger():
    from gui.training import announcement
    first = announcement({"generation": 3, "score": None})
    assert "stronger" not in first and "3" in first
    measured = announcement({"generation": 5, "score": 0.62})
    assert "stronger" in measured and "62%" in measured


def test_the_trainer_announces_the_score_it_measured():
    from gui.training import TrainController
    tc = TrainController("test_gui_support:FakeTrainer")
    tc._take({"type": "model", "path": "/x/model.pt", "generation": 2, "score": 0.6})
    assert tc.announcements == [{"generation": 2, "score": 0.6}]


def test_the_log_names_the_game_not_its_key_or_folder():
    from gui.training import translated
    line = translated("training tictactoe in /home/someone/.local/share/zeroboard/runs/tictactoe from generation 4")
    assert line == "Training Tic-tac-toe from generation 4"


def test_a_first_training_in_the_packaged_app_says_it_unpacks_the_trainer(monkeypatch, tmp_path):
    from engine.core import packedlib
    from gui import training
    from gui.training import TrainController, translated
    monkeypatch.setattr(packedlib, "pending", lambda lib_dir, cache: 345_017_504)
    tc = TrainController()

    class NoProcess:   # the trainer process itself is not what this checks
        def __init__(self, **kwargs):
            pass

        def start(self):
            pass
    monkeypatch.setattr(tc._ctx, "Process", NoProcess)
    tc.start("tictactoe")
    tc._process = None
    assert tc.log[0] == "unpacking the trainer's library (345 MB), once"
    assert translated(tc.log[0]).startswith("First training here") and "345 MB" in translated(tc.log[0])
    monkeypatch.setattr(packedlib, "pending", lambda lib_dir, cache: 0)
    assert training._unpacks_first() == 0


def test_a_long_chart_title_is_wrapped_not_cut(monkeypatch):
    from gui import theme
    from gui.i18n import t
    from gui.widgets import line_chart
    pygame.font.init()
    surface = pygame.Surface((400, 200))
    drawn, rects = [], []
    real = theme.text

    def spy(s, text, *a, **k):
        rect = real(s, text, *a, **k)
        drawn.append(text)
        rects.append((text, rect))
        return rect
    monkeypatch.setattr(theme, "text", spy)
    title = t("train.elo_chart")
    line_chart(surface, theme.palette(False), pygame.Rect(0, 0, 300, 160), [0, -40, -70], (0, 200, 0), title, "{:.0f}")
    assert " ".join(d for d in drawn if len(d) > 3 and d in title) == title and not any("…" in d for d in drawn)
    title_rects = [r for text, r in rects if len(text) > 3 and text in title]
    others = [r for text, r in rects if not (len(text) > 3 and text in title)]
    assert not any(a.colliderect(b) for a in title_rects for b in others)     # clear of the value and the scale


def test_a_damaged_run_or_trained_model_is_said_in_plain_words(monkeypatch, tmp_path):
    """Defect: they were shown raw, in English ("RunStateError: … choose another --run-dir",
    "CheckpointError: …"), in the Chinese interface too."""
    from engine.core.paths import user_data_dir, user_model_path
    from gui import i18n
    from gui.training import translated
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    state = user_data_dir() / "runs" / "tictactoe" / "state.json"
    run = (f"RunStateError: {state} is not valid JSON; the run cannot be resumed from it (move the file away "
           "to look at it, or choose another --run-dir)")
    checkpoint = f"error: CheckpointError: {state.parent}/checkpoints/gen_000004.pt: the model file is corrupt"
    model = f"CheckpointError: {user_model_path('tictactoe')}: not a ZeroBoard model file"
    shipped = "CheckpointError: /app/models/tictactoe.pt: not a ZeroBoard model file"
    try:
        for lang, says_run, says_model in (
                ("en", "The saved training run cannot be read: a file in it is damaged",
                 "Your trained model cannot be read: its file is damaged"),
                ("zh", "保存的训练进度无法读取：其中有文件已损坏", "你训练的模型无法读取：文件已损坏")):
            i18n.set_language(lang)
            assert translated(run) == translated("error: " + run) == translated(checkpoint) == says_run
            assert translated(model) == says_model
            assert "/app/models/tictactoe.pt" in translated(shipped) and "CheckpointError" not in translated(shipped)
    finally:
        i18n.set_language("en")


def test_the_trainer_names_a_damaged_run_or_trained_model(monkeypatch, tmp_path):
    from engine.core.checkpoint import CheckpointError
    from engine.core.paths import user_model_path
    from engine.training.train import RunStateError
    from engine.training.trainer import _damage
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    run = tmp_path / "data" / "runs" / "tictactoe"
    assert _damage(RunStateError(f"{run}/state.json is not valid JSON"), str(run), "tictactoe") == "run_damaged"
    assert _damage(CheckpointError(f"{run}/checkpoints/gen_000002.pt: corrupt"), str(run), "tictactoe") == "run_damaged"
    assert _damage(CheckpointError(f"{user_model_path('tictactoe')}: corrupt"), str(run), "tictactoe") == "model_damaged"
    assert _damage(CheckpointError("/app/models/tictactoe.pt: corrupt"), str(run), "tictactoe") is None
    assert _damage(ValueError("something else"), str(run), "tictactoe") is None


def test_a_resumed_run_records_the_model_it_started_from(tmp_path):
    """Defect: models saved by a resumed run said trained_from "random" even when the run
    started from the shipped model (a resumed run has no init model of its own)."""
    import json
    from engine.training.trainer import _run_init
    (tmp_path / "run.json").write_text(json.dumps({"game_key": "tictactoe", "init": "/app/models/tictactoe.pt"}))
    assert _run_init(tmp_path) == "/app/models/tictactoe.pt"
    (tmp_path / "run.json").write_text("{broken")
    assert _run_init(tmp_path) == "random"

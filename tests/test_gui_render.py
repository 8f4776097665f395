"""Every scene renders for every game, in both languages, at a large and a small window
size; the screenshots are kept in test-artifacts/screens/ for people to look at."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame

from games import GAME_IDS
from gui.app import render_all_scenes

SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"


def test_every_scene_renders_for_every_game_and_language(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    paths = render_all_scenes(SCREENS)
    names = {p.stem for p in paths}
    for lang in ("en", "zh"):
        assert {f"home-{lang}", f"settings-{lang}"} <= names
        for gid in GAME_IDS:
            for scene in ("setup", "setup-demo", "play", "play-over", "load", "demo", "train"):
                assert f"{scene}-{gid}-{lang}" in names
    img = pygame.image.load(str(SCREENS / "play-xiangqi-zh.png"))
    assert img.get_size() == (1280, 800)


def test_the_colour_blind_palette_and_a_small_window_render(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    paths = render_all_scenes(SCREENS / "small", langs=("en",), size=(800, 560), colorblind=(True,))
    assert len(paths) == 2 + 7 * len(GAME_IDS)
    assert pygame.image.load(str(paths[0])).get_size() == (800, 560)

"""Move, capture and game-end sounds. Silent (never failing) where there is no audio device."""
from __future__ import annotations

import pygame

from engine.core.paths import assets_dir

NAMES = ("move", "capture", "end")


class Sound:
    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.available = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._tried = False

    def _init(self) -> None:
        self._tried = True
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=44100, size=-16, channels=1, buffer=512)
            for name in NAMES:
                path = assets_dir() / "sounds" / f"{name}.wav"
                if path.exists():
                    self._sounds[name] = pygame.mixer.Sound(str(path))
                    self._sounds[name].set_volume(0.6)
            self.available = bool(self._sounds)
        except (pygame.error, OSError, NotImplementedError):
            self.available = False

    def play(self, name: str) -> None:
        if not self.enabled:
            return
        if not self._tried:
            self._init()
        snd = self._sounds.get(name)
        if snd is not None:
            try:
                snd.play()
            except pygame.error:
                pass

    def for_move(self, before, after) -> str:
        """'capture' when pieces left the board (xiangqi), 'end' at the end, else 'move'."""
        if after.is_terminal():
            return "end"
        try:
            if (after.board_array() != 0).sum() < (before.board_array() != 0).sum():
                return "capture"
        except Exception:
            pass
        return "move"

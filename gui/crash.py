"""The window shown when the app stops because of an error, so that a double-clicked app never
just vanishes: what went wrong in one line, where the details were logged, and a way to open
that folder. Depends on pygame and engine.core.paths only, so it works when the GUI itself is broken.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TITLE = "ZeroBoard stopped because of an error"
SIZE = (680, 320)
BG, PANEL, TEXT, DIM, ACCENT, ACCENT_TEXT = ((22, 24, 29), (49, 53, 63), (234, 232, 227), (165, 168, 177),
                                             (226, 170, 84), (30, 26, 20))


def can_show() -> bool:
    """False where no one could see a window (dummy video driver, or turned off for tests)."""
    if os.environ.get("ZEROBOARD_NO_ERROR_WINDOW"):
        return False
    return os.environ.get("SDL_VIDEODRIVER", "").lower() not in ("dummy", "offscreen")


def show_error(summary: str, log_path=None, title: str = TITLE) -> None:
    """Show ``summary`` and where the log is (None: it could not be written) until the person
    closes the window. Falls back to the system's message box on Windows when pygame cannot
    open a window."""
    if not can_show():
        return
    log_path = Path(log_path) if log_path else None
    try:
        _pygame_window(title, summary, log_path)
    except Exception:
        _native_message(title, f"{summary}\n\n{_where(log_path)}")


def _where(log_path: Path | None) -> str:
    return f"Details were written to {log_path}" if log_path else "The details could not be written to a log file."


def _font(size: int, bold: bool = False):
    import pygame
    from engine.core.paths import assets_dir
    name = "ZeroBoardSansCJK-Bold.otf" if bold else "ZeroBoardSansCJK-Regular.otf"
    try:
        return pygame.font.Font(str(assets_dir() / "fonts" / name), size)  # covers Chinese messages too
    except Exception:
        return pygame.font.Font(None, int(size * 1.3))


def _wrap(font, text: str, width: int, max_lines: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for ch in paragraph:  # by character: also wraps paths and Chinese text, which have no spaces
            if font.size(line + ch)[0] > width and line:
                lines.append(line)
                line = ""
            line += ch
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [lines[max_lines - 1][:-1] + "…"]
    return lines


def open_folder(path: Path) -> None:
    """Open ``path`` in the system's file manager (best effort)."""
    try:
        if sys.platform == "win32":
            os.startfile(str(path))  # noqa: S606 — a folder of our own
        elif sys.platform == "darwin":
            subprocess.Popen(["open", str(path)])
        else:
            subprocess.Popen(["xdg-open", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except Exception:
        pass


def _pygame_window(title: str, summary: str, log_path: Path | None) -> None:
    import pygame
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode(SIZE)
        pygame.display.set_caption(title)
        big, small = _font(20, bold=True), _font(15)
        body = _wrap(small, summary, SIZE[0] - 64, 5)
        where = _wrap(small, _where(log_path), SIZE[0] - 64, 2)
        close = pygame.Rect(SIZE[0] - 32 - 120, SIZE[1] - 32 - 40, 120, 40)
        folder = pygame.Rect(close.x - 16 - 190, close.y, 190, 40) if log_path else pygame.Rect(0, 0, 0, 0)
        buttons = [(close, "Close", True)] + ([(folder, "Open log folder", False)] if log_path else [])
        clock = pygame.time.Clock()
        while True:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    return
                if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                    return
                if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
                    if close.collidepoint(ev.pos):
                        return
                    if log_path and folder.collidepoint(ev.pos):
                        open_folder(log_path.parent)
            mouse = pygame.mouse.get_pos()
            screen.fill(BG)
            y = 28
            screen.blit(big.render(title, True, TEXT), (32, y))
            y += 44
            for line in body:
                screen.blit(small.render(line, True, TEXT), (32, y))
                y += 22
            y += 10
            for line in where:
                screen.blit(small.render(line, True, DIM), (32, y))
                y += 22
            for rect, label, primary in buttons:
                colour = ACCENT if primary else PANEL
                if rect.collidepoint(mouse):
                    colour = tuple(min(255, c + 14) for c in colour)
                pygame.draw.rect(screen, colour, rect, border_radius=10)
                text = small.render(label, True, ACCENT_TEXT if primary else TEXT)
                screen.blit(text, text.get_rect(center=rect.center))
            pygame.display.flip()
            clock.tick(30)
    finally:
        pygame.display.quit()


def _native_message(title: str, text: str) -> None:
    if sys.platform == "win32":
        try:
            import ctypes
            ctypes.windll.user32.MessageBoxW(None, text, title, 0x10)  # MB_ICONERROR
        except Exception:
            pass

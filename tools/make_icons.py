"""Draw the app's icon into assets/icons/: PNGs at the usual sizes (the window and the Linux
.desktop entry use them) and a Windows .ico, all one picture — a wooden board with two stones.

The icon is the project's own work, dedicated to the public domain (CC0 1.0).
Run: python tools/make_icons.py   (needs only pygame; no display)
"""
from __future__ import annotations

import io
import os
import struct
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "assets" / "icons"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
SUPERSAMPLE = 8

BOARD = (226, 170, 84)        # the app's accent colour
BOARD_EDGE = (176, 122, 52)
GRID = (92, 62, 28)
BLACK_STONE = (30, 30, 34)
WHITE_STONE = (245, 243, 238)


def draw(size: int) -> pygame.Surface:
    """The icon at ``size`` pixels: drawn large, then smoothly scaled down.

    Small sizes get fewer, thicker grid lines so the board still reads at 16 px.
    """
    big = size * SUPERSAMPLE
    s = pygame.Surface((big, big), pygame.SRCALPHA)
    u = big / 64.0  # drawing unit: the picture is laid out on a 64x64 grid
    margin = 3 * u
    board = pygame.Rect(round(margin), round(margin), round(big - 2 * margin), round(big - 2 * margin))
    radius = round(12 * u)
    pygame.draw.rect(s, (0, 0, 0, 70), board.move(0, round(1.5 * u)), border_radius=radius)  # drop shadow
    pygame.draw.rect(s, BOARD_EDGE, board, border_radius=radius)
    pygame.draw.rect(s, BOARD, board.inflate(-round(3 * u), -round(3 * u)), border_radius=radius)

    lines = 3 if size >= 48 else 2
    width = max(1, round((1.6 if size >= 48 else 2.6) * u))
    inner = board.inflate(-round(18 * u), -round(18 * u))
    step = inner.width / (lines + 1)
    for i in range(lines + 2):
        x = round(inner.x + i * step)
        y = round(inner.y + i * step)
        pygame.draw.line(s, GRID, (x, inner.y), (x, inner.bottom), width)
        pygame.draw.line(s, GRID, (inner.x, y), (inner.right, y), width)

    r = round(inner.width * (0.23 if lines == 3 else 0.28))
    for k, colour in ((1, BLACK_STONE), (lines, WHITE_STONE)):
        cx, cy = round(inner.x + k * step), round(inner.y + k * step)
        pygame.draw.circle(s, (0, 0, 0, 90), (cx + round(1.2 * u), cy + round(1.8 * u)), r)
        pygame.draw.circle(s, colour, (cx, cy), r)
        if colour == WHITE_STONE:  # a rim, so the white stone stands out on light wood
            pygame.draw.circle(s, (150, 146, 138), (cx, cy), r, max(1, round(0.8 * u)))
        shine = (90, 90, 100) if colour == BLACK_STONE else (255, 255, 255)
        pygame.draw.circle(s, shine, (cx - round(r * 0.35), cy - round(r * 0.35)), max(1, round(r * 0.22)))
    return pygame.transform.smoothscale(s, (size, size))


def png_bytes(surface: pygame.Surface) -> bytes:
    buf = io.BytesIO()
    pygame.image.save(surface, buf, "png")
    return buf.getvalue()


def ico_bytes(images: dict[int, bytes]) -> bytes:
    """A Windows .ico holding PNG-compressed images (supported since Windows Vista)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries, data = [], []
    for size, png in sorted(images.items()):
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries.append(struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset))
        data.append(png)
        offset += len(png)
    return header + b"".join(entries) + b"".join(data)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    pngs = {}
    for size in PNG_SIZES:
        pngs[size] = png_bytes(draw(size))
        (OUT / f"zeroboard-{size}.png").write_bytes(pngs[size])
    (OUT / "zeroboard.ico").write_bytes(ico_bytes({s: pngs[s] for s in ICO_SIZES}))
    print(f"wrote {len(PNG_SIZES)} PNGs and zeroboard.ico into {OUT}")


if __name__ == "__main__":
    main()

#!/bin/sh
# Add the packaged app to the desktop's application menu (Linux, this user only):
#   tools/install_desktop_entry.sh [dist/ZeroBoard]
# installs the icons into ~/.local/share/icons/hicolor and a .desktop entry whose Exec is the
# bundle's executable. Run it again after moving the bundle; remove with --uninstall.
set -eu
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
if [ "${1:-}" = "--uninstall" ]; then
  rm -f "$DATA/applications/zeroboard.desktop" "$DATA"/icons/hicolor/*/apps/zeroboard.png
  exit 0
fi
BUNDLE="$(cd "${1:-dist/ZeroBoard}" && pwd)"
EXE="$BUNDLE/ZeroBoard"
ASSETS="$BUNDLE/_internal/assets"
[ -x "$EXE" ] || { echo "no executable at $EXE (build it with: make package)" >&2; exit 1; }
for png in "$ASSETS"/icons/zeroboard-*.png; do
  size="$(basename "$png" .png)"; size="${size#zeroboard-}"
  mkdir -p "$DATA/icons/hicolor/${size}x${size}/apps"
  cp "$png" "$DATA/icons/hicolor/${size}x${size}/apps/zeroboard.png"
done
mkdir -p "$DATA/applications"
sed "s|^Exec=.*|Exec=\"$EXE\"|" "$ASSETS/zeroboard.desktop" > "$DATA/applications/zeroboard.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$DATA/applications" || true
echo "installed $DATA/applications/zeroboard.desktop -> $EXE"

"""The desktop app (pygame-ce): scenes, board renderers, controllers and the AI worker.

Importing this package is cheap: nothing here imports torch or the engine's players; the
AI runs in a separate process started by `gui.ai_client.AIClient` (see `gui.ai_worker`).
"""
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on stdout from the app

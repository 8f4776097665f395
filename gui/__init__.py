"""The desktop app (pygame-ce): scenes, board renderers, controllers and the AI worker.

Importing this package is cheap: nothing here imports torch or the engine's players; the
AI runs in a separate process started by `gui.controller.AIClient` (see `gui.ai_worker`).
"""

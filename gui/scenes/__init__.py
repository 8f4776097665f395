"""Scenes: each draws one screen and forwards clicks and keys to its controller."""

"""Protocols other programs speak: engine servers (UCI, ...) and clients that drive outside
engines as players. Imports the core and play, never training or commands."""

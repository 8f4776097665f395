"""The learning loop: self-play workers, resumable training runs, the GUI's background
trainer and the Ray backend. Imports the core and play, never protocols or commands."""

"""The desktop app's shell around the GUI: the error window shown when the app stops, and the
packaged app's self-test (`main.py --selftest`). Sits above gui/, engine/ and games/."""

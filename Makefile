# Quick start: `make play` installs what is needed and opens the app; `make test` installs and runs the tests.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip

.PHONY: play test install install-dev package selftest bench

install:
	$(PIP) install -q -r requirements.txt

install-dev:
	$(PIP) install -q -r requirements-dev.txt

play: install
	$(PYTHON) main.py

test: install-dev
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PYTHON) -m pytest -q -x --durations=15 tests

# the windowed one-folder app dist/ZeroBoard/ZeroBoard (see README, "Packaging")
package:
	$(PIP) install -q -r requirements-package.txt
	$(PYTHON) -m PyInstaller --noconfirm build.spec

# the packaged app checks itself without a display and prints a JSON summary
selftest: package
	dist/ZeroBoard/ZeroBoard --selftest

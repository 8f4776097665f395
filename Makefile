# Quick start: `make play` installs what is needed and opens the app; `make test` installs and runs the tests.
# Both use the project environment .venv (tools/bootstrap.py creates it and installs the locked
# versions once; later runs start without pip). PYTHON only creates the environment.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: play test install install-dev package selftest deb

install:
	$(PYTHON) tools/bootstrap.py install

install-dev:
	$(PYTHON) tools/bootstrap.py install --extras dev

play:
	$(PYTHON) tools/bootstrap.py play

test:
	$(PYTHON) tools/bootstrap.py test --durations=15

# the windowed one-folder app dist/ZeroBoard/ZeroBoard (see docs/packaging.md)
package:
	$(PYTHON) tools/bootstrap.py install --extras package
	$(PY) -m PyInstaller --noconfirm build.spec

# the packaged app checks itself without a display and prints a JSON summary
selftest: package
	dist/ZeroBoard/ZeroBoard --selftest

# the Debian package dist/zeroboard_<version>_<arch>.deb, made from that bundle with dpkg-deb
# (tools/make_deb.py); tools/check_deb.py installs it into a throwaway root, starts it and removes it
deb: package
	$(PY) tools/make_deb.py

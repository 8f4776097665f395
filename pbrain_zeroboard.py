"""Entry point of the packaged ``pbrain-zeroboard`` executable: ZeroBoard's gomoku AI as a
Gomocup (Piskvork) brain. Gomocup managers run brains whose file name starts with
``pbrain-``; this is ``python main.py pbrain`` under that name (same options)."""
import sys

import main

if __name__ == "__main__":
    sys.exit(main.main(["pbrain", *sys.argv[1:]]))

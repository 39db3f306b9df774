"""``python -m patiencekit.server [--host H] [--port P]``: the same as ``patiencekit serve``."""

from patiencekit.server.cli import main

if __name__ == "__main__":
    main()

"""``python -m patiencekit``: the command line."""

from patiencekit.cli import main

if __name__ == "__main__":
    main()

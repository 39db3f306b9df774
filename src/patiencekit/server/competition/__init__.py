"""Competition on the web platform: tournaments, points, ranks, cups, medals and the Top 100.

RULES.md, "Tournaments and the Top 100", defines every figure; the modules are:

- :mod:`.scoring`: the pure formulas (rank, tournament deals, places, the day's medal order);
- :mod:`.tables`: the tables (Alembic migrations ``r0002``, ``r0003`` and ``r0005`` make them);
- :mod:`.standings`: ranked results, the per-player aggregates, the Top 100, medals (day close);
- :mod:`.tournaments`: creating, joining, playing and closing tournaments;
- :mod:`.daily`: the daily deal of every game (no points: its own table of the day's best);
- :mod:`.replays`: a finished tournament's and a closed day's replays, answered alike;
- :mod:`.periodic`: the app's periodic task (tournament deadlines, closing UTC days and
  daily deals);
- :mod:`.routes` and :mod:`.daily_routes`: the API and the pages; :mod:`.cli`:
  ``patiencekit close-day``.

Importing this package imports nothing else, so the command line can name
:func:`.cli.close_day` without the server's dependencies.
"""

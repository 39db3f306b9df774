"""Playing on the server: a play is its deal plus the append-only log of its events,
every action checked by the engine, answered with only what the player may see.

From the request down (each module uses only those below it):

- ``routes``: the ``/api`` play routes, thin (``routes.router``);
- ``service``: the rules of dealing, acting, hints and the end of ranked plays, and the
  hooks the competition adds;
- ``fastpath``: the kept-game fast path (a move stored with one write and no read);
- ``actions``: :class:`~.actions.Action`, what a player asks, checked and applied to a game;
- ``models``: request bodies, the answers' models and ``play_json``;
- ``replay``: a game rebuilt from the stored events, with the server's times;
- ``storage``: every statement on a play's row and its events;
- ``tables``: the ``plays`` and ``play_events`` tables.
"""

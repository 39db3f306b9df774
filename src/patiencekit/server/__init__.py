"""PatienceKit's web platform: a FastAPI app on the engine, with accounts and a database.

The app lives in :mod:`patiencekit.server.app` (``create_app``); ``patiencekit
serve`` (:mod:`patiencekit.server.cli`) runs it. Importing this package needs
none of the server's dependencies; its modules need the ``server`` extra.
"""

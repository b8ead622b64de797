import os

# The engine's hot modules may be compiled (.build/backend.py, mypyc): then ``durak_core.engine``
# is an extension module beside engine.py, and pytest's doctest collection of engine.py would
# refuse the mismatch (it finds no doctest in a compiled module; CI's pure-Python pass runs
# them). pytest reads this variable while collecting; this file is loaded before that.
os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")

# The fake Discord's fixtures, and the storage's (SQLite and PostgreSQL), which the tests of
# bot/storage/ and of bot/tournaments/storage/ share from their two folders.
pytest_plugins = ["tests.fake_discord.pytest_plugin", "tests.bot.storage.fixtures"]

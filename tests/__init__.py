"""The test suite, a package: its modules import each other as ``tests.bot.helpers`` etc."""

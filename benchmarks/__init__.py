"""Speed and strength measurements. Run from the repository root as ``python -m benchmarks.NAME``
(the ones that drive the bot import the fake Discord from ``tests``)."""

"""Pacing: how fast the bot may write to Discord and draw pictures (per channel, per process),
and at most one run of a piece of work per interval. Knows nothing of tables or messages."""

"""Server events: the tournament runner between the commands and the tables. No Discord here:
what needs Discord (a thread for a table, the ping, whether a member is still in the server,
refreshing the public messages) goes through :class:`~bot.tournaments.runner.host.EventHost`."""

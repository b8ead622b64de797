"""A tournament's messages: sign-up, standings, bracket, check-in button, export, and the
runner's Discord side (``tournament_host``: threads, pings, refreshing the public messages).
What a message shows, and the Discord calls of the runner's host; never a decision."""

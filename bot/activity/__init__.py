"""The Discord Activity's server side: a web server in the bot process (docs/activity.md).

``server`` (HTTP and WebSocket endpoints), ``session_tokens`` (the server's signed session
tokens), ``discord_api`` (the OAuth2 exchange, ``/users/@me``, activity instances), ``hub`` (the
connected browsers and how table changes reach them), ``listeners`` (one notifier for the table
service that tells the chat side and the browsers), ``table_frames`` and ``protocol`` (the JSON
frames). The TypeScript client is to come.
"""

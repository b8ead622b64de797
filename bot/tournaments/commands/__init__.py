"""``/durak-tournament`` and the sign-up buttons' clicks: a part of the ``/durak`` cog
(``bot.durak_cog`` assembles it), which parses, checks who may, and hands over to the runner."""

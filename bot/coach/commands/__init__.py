"""``/durak review``, ``/durak puzzle`` and the hand's "Hint": parts of the ``/durak`` cog
(``bot.durak_cog`` assembles them), which parse, check who may, and hand over to the coach."""

"""Delivery: keeping a table's Discord messages in step with its state (the refresher), the
edits themselves, and the turn notifications — rendering comes from :mod:`bot.ui`, pace from
:mod:`bot.pacing`."""

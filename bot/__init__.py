"""The Discord bot: a thin layer over `durak_core` (views → embeds and buttons,
clicks → actions)."""

from pathlib import Path as _Path

import durak_core as _durak_core
from durak_core.compiled_sources import run_fresh_sources as _run_fresh_sources

#: Sources of the bot's compiled text edited since the build: then that group runs as Python,
#: with a warning, until the next install; also when the engine runs as Python (the bot's
#: compiled modules call the compiled engine directly). See durak_core.compiled_sources.
EDITED_SINCE_BUILD: list[str] = _run_fresh_sources(
    _Path(__file__).parent, also_pure=not _durak_core.COMPILED
)

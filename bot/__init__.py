"""The Discord bot: a thin layer over `durak_core` (views → embeds and buttons,
clicks → actions)."""

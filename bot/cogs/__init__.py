"""The slash commands."""

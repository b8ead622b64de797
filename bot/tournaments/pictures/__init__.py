"""A tournament's pictures (Pillow, no Discord): the standings table and the bracket."""

"""Tournaments: the pure core (no Discord, no I/O, no clock, no global random source)."""

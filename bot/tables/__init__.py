"""Tables at runtime: state, seats, series, the one action path, AI seats, persistence."""

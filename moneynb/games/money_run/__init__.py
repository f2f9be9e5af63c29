"""Money Run: a coin-stacking race on a 9x9 board (rules in ``rules.py``, setup in ``setup.toml``)."""

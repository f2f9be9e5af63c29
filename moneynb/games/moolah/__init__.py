"""Moolah (LCJ Games, 1983/84): the rules in ``rules.py``, the board in ``board.toml`` and the
decks in ``cards.toml``."""

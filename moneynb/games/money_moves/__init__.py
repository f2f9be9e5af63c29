"""Money Moves: a dice-and-pot party game (rules in ``rules.py``, cards in ``cards.toml``)."""

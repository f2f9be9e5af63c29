"""Money Card: the 1972 American Express travel game over a map of Europe (rules in ``rules.py``)."""

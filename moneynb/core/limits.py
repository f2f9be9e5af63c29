"""The engine's size limits, in one small module that imports nothing (issue 39: they were
shared at module level between ``core/game.py`` and ``core/save.py``, which imported each
other). ``moneynb.core.game`` and ``moneynb.core.save`` re-export the ones they use.

Source: reconstruction (issues 21 and 31: bounds on what a save file or an action may hold).
"""

from __future__ import annotations

#: deepest list nesting an action may have (real actions are at most a list of lists)
MAX_ACTION_DEPTH = 16
#: a seed is a whole number from 0 to below this: what a store's column holds (a signed
#: 64-bit number in SQLite and PostgreSQL: a seed of 2**63 or more was dealt, then could not
#: be stored, and Start said nothing: the tester of stop 49); no negative seed: -7 would deal
#: what 7 deals
MAX_SEED = 2**63
#: :data:`MAX_SEED` in words, for the messages a player reads ("2**63" is a programmer's)
MAX_SEED_WORDS = f"{MAX_SEED - 1:,}"
#: longest player name, in characters (every log line repeats names; a person needs far less)
MAX_NAME = 40
#: most actions a save file may hold (a long Easy Money game takes a few thousand)
MAX_ACTIONS = 200_000
#: longest save text read (bytes or characters): MAX_ACTIONS actions of a few dozen
#: characters each fit; refused before parsing (a 7-million-action file took 17 s)
MAX_SAVE_CHARS = 64_000_000
#: longest string action ("build:Maple Avenue", a space id) and longest option string (a path)
MAX_ACTION_TEXT = 200
MAX_OPTION_TEXT = 1_000
#: largest whole number in an action or option (far beyond any game's money)
MAX_INT = 10**15

"""A search-based bot: looks ahead with the engine's own ``apply`` on copies of the game.

``make_bot("search", seed=1)`` (or ``SearchBot(seed=1, time_budget=0.3)``). Generic over
games; a game can help it with three optional hooks:

* ``game.evaluate(seat) -> float``: how good the position is for ``seat`` (higher is
  better). Default: ``seat``'s score minus the best other score, ±1000 for a finished game.
* ``game.search_moves() -> list[list]``: candidate *moves*, each a list of actions that
  together make one step of play (Money Run: "pick a table coin" + "the square"). Default:
  every legal action of the pending decision as a one-action move (amount ranges are sampled).
* ``game.copy()``: a fast independent copy. Default: a deep copy.
* ``game.determinize(rng)``: a copy with hidden information re-dealt. Default:
  ``copy(resample_chance=rng)`` (:meth:`~moneynb.core.game.Game.copy`): a fresh generator
  and every face-down deck reshuffled, so the search foresees no die, coin or card.

How it looks ahead (a minimax over whole turns, with a beam to keep it fast):

1. *Determinize*: search on a copy whose random generator is reseeded from the bot's own, so
   the bot never learns the real next coin, die or card (hidden information stays hidden).
2. *Own turn (max)*: every candidate move is applied and scored with ``evaluate``; the best
   ``beam`` positions where it is still the bot's turn are expanded again (a second action of
   the same turn), and so on until the turn passes.
3. *Replies (min)*: for the ``beam`` best end-of-turn positions, the other players' turns are
   played out with the game's greedy heuristic (what a sensible opponent would do next), and
   the position is scored again for the bot. The move whose line scores best is played.

Search stops expanding when ``time_budget`` seconds or ``max_nodes`` positions are used up,
keeping the best move found so far. The first level (every candidate move, scored once) is
always finished unless the time budget runs out, so the bot always has a move.
The rest of the chosen move (e.g. the square after picking a coin) is played on the next
decisions without searching again.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..core.errors import IllegalAction
from . import Bot, require_decision


class SearchBot(Bot):
    """Turn-level minimax with a beam, over copies of the game (see the module docstring).

    Args:
        seed: seed of the bot's own generator (determinization and tie-breaks).
        time_budget: seconds of search per move (``None``: no time limit, only ``max_nodes``).
        max_nodes: most positions scored per move beyond the first level (keeps runs
            reproducible in tests).
        beam: how many positions are expanded at each deeper level.
        replies: play out the other players' next turns (the min step) before scoring.

    Raises:
        ValueError: an option of the wrong type or below its lowest value (``time_budget``
            a number >= 0 or None, ``max_nodes`` and ``beam`` whole numbers >= 1, ``replies``
            True/False): see :meth:`Bot.check_options`.
    """

    kind = "search"
    options = {
        "time_budget": (0.3, (float, None), 0.0),
        "max_nodes": (2000, (int,), 1),
        "beam": (3, (int,), 1),
        "replies": (True, (bool,), None),
    }

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float | None = 0.3,
        max_nodes: int = 2000,
        beam: int = 3,
        replies: bool = True,
    ):
        super().__init__(seed)
        opts = self.check_options(
            time_budget=time_budget, max_nodes=max_nodes, beam=beam, replies=replies
        )
        self.time_budget = opts["time_budget"]
        self.max_nodes = opts["max_nodes"]
        self.beam = opts["beam"]
        self.replies = opts["replies"]
        self._queue: list = []
        self._expect: tuple | None = None
        #: statistics of the last search: positions scored, best line, its value
        self.last: dict = {}

    # ----- hooks with defaults --------------------------------------------------------------
    @staticmethod
    def _evaluate(game, seat: int) -> float:
        if hasattr(game, "evaluate"):
            return game.evaluate(seat)
        if game.over:
            return 1000.0 if seat in game.winners else -1000.0
        scores = game.scores()
        me = scores[game.players[seat]]
        others = [v for p, v in scores.items() if p != game.players[seat]]
        return float(me - max(others, default=0))

    def _moves(self, game) -> list[list]:
        if hasattr(game, "search_moves"):
            return game.search_moves()
        d = game.decision
        moves = [[o] for o in d.options]
        if d.kind == "amount" and d.low is not None and d.high is not None:
            n = (d.high - d.low) // d.step + 1
            picks = {0, n - 1} | {self.rng.randrange(n) for _ in range(min(n, 8))}
            moves += [[d.low + d.step * k] for k in sorted(picks)]
        return moves

    def _determinize(self, game):
        if hasattr(game, "determinize"):
            return game.determinize(random.Random(self.rng.getrandbits(64)))
        return game.copy(resample_chance=self.rng)

    # ----- the search -----------------------------------------------------------------------
    def choose(self, game) -> Any:
        """The bot's action for ``game.decision`` (searches at the start of each move).

        Raises:
            ValueError: the game is over.
        """
        require_decision(game)
        key = (id(game), len(game.actions))
        if self._queue and self._expect == key and game.decision.allows(self._queue[0]):
            action = self._queue.pop(0)
            self._expect = (id(game), len(game.actions) + 1)
            return action
        self._queue = []
        move = self._search(game)
        self._queue = list(move[1:])
        self._expect = (id(game), len(game.actions) + 1)
        return move[0]

    def _play(self, node, move):
        child = node.copy()
        try:
            for a in move:
                child.apply(a)
        except IllegalAction:
            return None
        self._nodes += 1
        return child

    def _out_of_budget(self) -> bool:
        if self._nodes >= self.max_nodes:
            return True
        return self._deadline is not None and time.perf_counter() > self._deadline

    def _search(self, game) -> list:
        seat = game.decision.player
        self._nodes = 0
        self._deadline = (
            None if self.time_budget is None else time.perf_counter() + self.time_budget
        )
        root = self._determinize(game)
        moves = self._moves(root)
        self.rng.shuffle(moves)  # ties go to a random move, not always the first
        first = []  # (static value, move, child)
        for m in moves:
            child = self._play(root, m)
            if child is not None:
                first.append((self._evaluate(child, seat), m, child))
            if first and self._deadline is not None and time.perf_counter() > self._deadline:
                break  # out of time: play the best move scored so far
        if not first:  # nothing searchable: answer like the greedy bot would
            return [game.greedy_action(self.rng)]
        first.sort(key=lambda t: -t[0])
        best_value, best_move = first[0][0], first[0][1]
        if best_value >= 1000:  # a winning move
            self.last = {"nodes": self._nodes, "move": best_move, "value": best_value}
            return best_move
        # deeper: the rest of our own turn (max), then the others' replies
        results = []
        for _value, m, child in first[: self.beam]:
            if self._out_of_budget():
                break
            results.append((self._turn_value(child, seat, 1), m))
        if results:
            results.sort(key=lambda t: -t[0])
            if results[0][0] > float("-inf"):
                best_value, best_move = results[0]
        self.last = {"nodes": self._nodes, "move": best_move, "value": best_value}
        return best_move

    def _turn_value(self, node, seat: int, depth: int) -> float:
        """Value for ``seat`` of ``node``: max over the rest of ``seat``'s turn, then replies."""
        if node.over or node.decision.player != seat or depth >= 6 or self._out_of_budget():
            return self._after_replies(node, seat)
        scored = []
        for m in self._moves(node):
            child = self._play(node, m)
            if child is not None:
                scored.append((self._evaluate(child, seat), child))
            if self._out_of_budget():
                break
        if not scored:
            return self._after_replies(node, seat)
        scored.sort(key=lambda t: -t[0])
        return max(self._turn_value(c, seat, depth + 1) for _, c in scored[: self.beam])

    def _after_replies(self, node, seat: int) -> float:
        """Play the other players' turns with the game's greedy heuristic, then score."""
        if self.replies and not node.over and node.decision.player != seat:
            node = node.copy()
            steps = 0
            while not node.over and node.decision.player != seat and steps < 40:
                try:
                    node.apply(node.greedy_action(self.rng))
                except IllegalAction:
                    break
                steps += 1
            self._nodes += 1
        return self._evaluate(node, seat)

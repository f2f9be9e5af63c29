"""Easy Money: what a holding is likely to earn, from the engine's own one-throw chances.

A model, labelled as one wherever it is shown. The engine states exactly where a man stops on
his next throw from where he stands (:meth:`EasyMoney.next_landing`: two dice, a Give or Take
card on doubles from the cards left in the pack, the first move counting the start space).
:func:`throw_matrix` asks it that once for every space (on a copy of the game), giving a
48 x 48 transition matrix; chaining it assumes the pack stays as it is now and that nothing else
moves a man (the model's two simplifications). ``tests/test_harness.py`` measures the model's
"stops in the next throws" against seeded engine games played on with greedy bots.

Nothing here restates a rule: dice, cards, the board's size and the rent all come from the game.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["throw_matrix", "stops_ahead", "long_run_stops", "Outlook", "outlook", "SOON"]

#: the near horizon of :func:`outlook` (throws of each opponent)
SOON = 10


_MATRICES: dict = {}  # (board, cards, pack) as text -> matrix; a few packs recur in a game


def throw_matrix(game) -> np.ndarray:
    """``P[a, b]``: chance that a man on space ``a`` (already started) stops on ``b`` with one
    throw, from :meth:`EasyMoney.next_landing` on a copy of ``game`` (the pack as it is now).
    Shape ``(n_spaces, n_spaces)``, rows summing to 1 (a read-only array, remembered per board,
    cards and pack). ``game`` is not changed."""
    key = repr((game.board, game.cards, sorted(game.pack_left().items())))
    hit = _MATRICES.get(key)
    if hit is not None:
        return hit
    g = copy.copy(game)  # shallow: only pos and started are set, on fresh lists
    seat = 0
    g.pos, g.started = list(game.pos), list(game.started)
    g.started[seat] = True
    n = len(g.board)
    m = np.zeros((n, n))
    for a in range(n):
        g.pos[seat] = a
        for b, p in g.next_landing(seat).items():
            m[a, b] += float(p)
    m.flags.writeable = False
    if len(_MATRICES) > 64:
        _MATRICES.clear()
    _MATRICES[key] = m
    return m


def stops_ahead(game, seat: int, space: int, throws: int, matrix=None) -> np.ndarray:
    """Expected number of times ``seat``'s man stops on ``space`` in each of his next
    ``throws`` throws, cumulated: element ``k-1`` is the expected stops in the first ``k``
    throws. The first throw is exact (:meth:`EasyMoney.next_landing`, with the first-move rule);
    later throws chain :func:`throw_matrix` (model). Shape ``(throws,)``."""
    m = throw_matrix(game) if matrix is None else matrix
    n = len(game.board)
    dist = np.zeros(n)
    for b, p in game.next_landing(seat).items():
        dist[b] += float(p)
    out = np.zeros(throws)
    total = 0.0
    for k in range(throws):
        if k:
            dist = dist @ m
        total += dist[space]
        out[k] = total
    return out


def long_run_stops(matrix: np.ndarray) -> np.ndarray:
    """Stationary distribution of :func:`throw_matrix`: the long-run share of throws that stop
    on each space (model). Shape ``(n_spaces,)``, summing to 1."""
    n = matrix.shape[0]
    a = np.vstack([matrix.T - np.eye(n), np.ones(n)])
    b = np.zeros(n + 1)
    b[-1] = 1.0
    pi, *_ = np.linalg.lstsq(a, b, rcond=None)
    return pi


@dataclass
class Outlook:
    """What holding ``space`` would earn ``seat`` (model; see the module docstring).

    Attributes:
        space: the space index; rent: dollars a stop costs an opponent once ``seat`` holds it
            (the engine's :meth:`EasyMoney.rent` after the engine's own acquisition).
        holding_value: the engine's score value of the holding then (:meth:`holding_value`).
        soon: the near horizon (throws; :data:`SOON`, or fewer if fewer rounds are left).
        stops_soon: ``{opponent seat: expected stops in their next ``soon`` throws}``.
        rounds_left: rounds left under the turn cap (with no cap: 20, a model choice).
        stops: ``{opponent seat: expected stops in their next rounds_left throws}``.
        rent_ahead: expected rent from all opponents over those throws (dollars, float), if
            the game runs to the cap and the rent stays as it is.
        per_round: long-run expected rent a round from all opponents (dollars, float).
        next_throw: ``{opponent seat: Fraction}``: exact chance of a stop on their next throw.
    """

    space: int
    rent: int
    holding_value: int
    soon: int
    stops_soon: dict
    rounds_left: int
    stops: dict
    rent_ahead: float
    per_round: float
    next_throw: dict

    def payback_rounds(self, price: int) -> float | None:
        """Rounds of long-run rent to earn ``price`` back (``None``: no rent)."""
        return price / self.per_round if self.per_round > 0 else None


def outlook(game, seat: int, space: int, owned) -> Outlook:
    """The :class:`Outlook` of ``space`` for ``seat``; ``owned`` is a copy of the game in which
    the engine has made ``seat`` the holder (its rent and score value are read from it). The
    opponents are the other seats still in the game. Horizon: rounds left under the turn cap
    (``max_rounds`` minus the current round; with no cap, 20 rounds: a model choice)."""
    cap = game.options.get("max_rounds") or 0
    rounds_left = max(1, cap - game.round) if cap else 20
    m = throw_matrix(game)
    pi = long_run_stops(m)
    rent = owned.rent(space)
    opponents = [o for o in range(len(game.players)) if o != seat and o != game.bankrupt]
    soon = min(SOON, rounds_left)
    ahead = {o: stops_ahead(game, o, space, max(rounds_left, soon), m) for o in opponents}
    stops = {o: float(a[rounds_left - 1]) for o, a in ahead.items()}
    return Outlook(
        space=space,
        rent=rent,
        holding_value=owned.holding_value(space),
        soon=soon,
        stops_soon={o: float(a[soon - 1]) for o, a in ahead.items()},
        rounds_left=rounds_left,
        stops=stops,
        rent_ahead=rent * sum(stops.values()),
        per_round=rent * float(pi[space]) * len(opponents),
        next_throw={o: game.next_landing(o).get(space, Fraction(0)) for o in opponents},
    )

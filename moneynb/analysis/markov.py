"""Roll-and-move tracks as Markov chains: exact long-run, n-step and hitting-time analysis.

A :class:`TrackModel` describes how ONE token moves on a track: the dice (any
:class:`moneynb.core.chance.Die` list, e.g. two D6), the successor of every space (a loop, a
line, or a branching track with the branch already chosen by a policy), spaces that cannot be
passed (Moolah's Bank), go-to spaces (ladders, chutes, "go to The Big House"), cards that move
the token (a deck per space, or a deck drawn on doubles before moving, as in Easy Money),
doubles rules (roll again, a limit of doubles that sends the token to a space) and waiting
spaces (miss ``k`` turns, then step to an exit space).

One *step* of the chain is one roll of the dice (or one missed turn while waiting). A state is
``(space, streak, wait)``: ``streak`` counts doubles already rolled this turn (so a step from a
state with ``streak == 0`` starts a new turn) and ``wait`` the turns still to miss.

Everything is compiled from ONE plain function, :meth:`TrackModel.step`, that moves a token for
a given dice outcome and card: the exact transition matrix counts its equally likely
(outcome, card) pairs, and the vectorised Monte Carlo (:mod:`moneynb.analysis.montecarlo`)
looks the same table up, so exact and simulated results describe exactly the same rules.

Source: the movement rules of each rulebook (Moolah: "cannot pass the Bank", doubles, Bufe's
Bar & Grill, The Big House; Easy Money: doubles draw a Give or Take card before moving); the
chain construction is the standard one (e.g. R. Ash and R. Bishop, "Monopoly as a Markov
process", Mathematics Magazine 45 (1972) 26-29).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

import numpy as np

from ..core.chance import D6, Die

__all__ = ["TrackModel", "MarkovChain", "chutes_and_ladders"]


@dataclass
class TrackModel:
    """How one token moves on a track (see the module docstring).

    Args:
        n_spaces: number of spaces, numbered ``0..n_spaces-1``.
        dice: the dice rolled each step (their faces are summed); default two D6.
        next_space: successor of every space (length ``n_spaces``); default ``s + 1`` around a
            loop, or ``s + 1`` up to the last space on a line.
        loop: True for a circuit (Moolah, Easy Money), False for a line ending on the last
            space (Snakes and Ladders), which is then absorbing.
        overshoot: on a line, a roll that would pass the last space: ``"stay"`` (do not move),
            ``"bounce"`` (count back from the end) or ``"end"`` (stop on the last space).
        stops: spaces a token may not pass: it stops there whatever it rolled (Moolah's Bank).
        go_to: ``{space: target}`` applied when a token lands on ``space`` (ladders, chutes,
            "go to The Big House").
        cards: ``{space: [target or None, ...]}`` one entry per card of the deck drawn on
            landing there (``None`` = the card does not move the token; an int = go to that
            space; ``("move", k)`` = move ``k`` spaces, backwards when negative, counted
            around the loop). Drawn with replacement (the usual long-run model of a
            reshuffled deck).
        doubles_cards: a deck drawn when doubles are rolled, BEFORE moving (Easy Money): a card
            with a target moves the token there instead of the roll and ends the turn.
        roll_again: doubles give another roll in the same turn.
        max_doubles: the ``max_doubles``-th doubles in one turn sends the token to
            ``doubles_target`` without moving (None = no limit).
        waits: ``{space: (turns, exit_space)}``: a token arriving there misses ``turns`` turns
            and is then put on ``exit_space``, from where it rolls on its next turn.
        doubles_cut_wait: a token sent to a waiting space by a doubles roll uses its extra
            roll to serve one missed turn at once (Moolah's "Rolling Doubles").
        absorbing: spaces where the token stays for ever (a finish square).
        start: the starting space.
        names: optional space names (for tables and plots).

    Raises:
        ValueError: any space index out of range, or an unknown ``overshoot``.
    """

    n_spaces: int
    dice: Sequence[Die] = (D6, D6)
    next_space: Sequence[int] | None = None
    loop: bool = True
    overshoot: str = "stay"
    stops: Sequence[int] = ()
    go_to: Mapping[int, int] = field(default_factory=dict)
    cards: Mapping[int, Sequence[int | None]] = field(default_factory=dict)
    doubles_cards: Sequence[int | None] = ()
    roll_again: bool = False
    max_doubles: int | None = None
    doubles_target: int | None = None
    waits: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    doubles_cut_wait: bool = False
    absorbing: Sequence[int] = ()
    start: int = 0
    names: Sequence[str] | None = None

    def __post_init__(self):
        n = self.n_spaces
        if n < 1:
            raise ValueError("a track needs at least one space")
        if self.next_space is None:
            self.next_space = [(s + 1) % n if self.loop else min(s + 1, n - 1) for s in range(n)]
        self.next_space = [int(x) for x in self.next_space]
        if len(self.next_space) != n:
            raise ValueError(f"next_space must list {n} successors, got {len(self.next_space)}")
        if self.overshoot not in ("stay", "bounce", "end"):
            raise ValueError(f"overshoot must be 'stay', 'bounce' or 'end', got {self.overshoot!r}")
        if self.max_doubles is not None and self.doubles_target is None:
            raise ValueError("max_doubles needs a doubles_target space")
        self.stops = frozenset(int(s) for s in self.stops)
        self.absorbing = frozenset(int(s) for s in self.absorbing)
        self.go_to = {int(k): int(v) for k, v in self.go_to.items()}
        self.cards = {int(k): [_card_entry(t) for t in v] for k, v in self.cards.items() if len(v)}
        self.doubles_cards = [_card_entry(t) for t in self.doubles_cards]
        self.waits = {int(k): (int(v[0]), int(v[1])) for k, v in self.waits.items()}
        every = (
            list(self.next_space)
            + list(self.stops)
            + list(self.absorbing)
            + [k for kv in self.go_to.items() for k in kv]
            + [t for deck in self.cards.values() for t in deck if type(t) is int]
            + list(self.cards)
            + [t for t in self.doubles_cards if type(t) is int]
            + [k for k, (_, e) in self.waits.items() for k in (k, e)]
            + [self.start]
            + ([self.doubles_target] if self.doubles_target is not None else [])
        )
        bad = sorted({s for s in every if not 0 <= s < n})
        if bad:
            raise ValueError(f"space index out of range 0..{n - 1}: {bad}")
        if self.names is None:
            self.names = [str(s) for s in range(n)]
        # the equally likely dice outcomes (joint faces of the dice)
        self.outcomes = list(product(*[d.faces for d in self.dice]))
        decks = [len(d) for d in self.cards.values()]
        if self.doubles_cards:
            decks.append(len(self.doubles_cards))
        #: number of equally likely card indices per step (a multiple of every deck's size)
        self.n_cards = math.lcm(*decks) if decks else 1

    # ----- one step of the rules ------------------------------------------------------------

    @property
    def labels(self) -> list[str]:
        """One label per space, all distinct, for the keys of a chart or a table.

        A space whose name is unique keeps it; a name shared by several spaces (Easy Money
        has two "Red Traffic Light" spaces) gets its space number, ``"Red Traffic Light (12)"``.
        A chart keyed by bare names would merge such spaces into one bar (plotly stacks bars
        that share a category). Shape: ``n_spaces`` strings, in space order.
        """
        count = Counter(self.names)
        return [f"{n} ({s})" if count[n] > 1 else str(n) for s, n in enumerate(self.names)]

    def _card(self, deck: Sequence, k: int):
        return deck[k * len(deck) // self.n_cards]

    def _advance(self, pos: int, total: int) -> int:
        """Move ``total`` spaces along ``next_space`` from ``pos``, stopping at a stop space."""
        if not self.loop:
            end = self.n_spaces - 1
            if pos + total > end:
                if self.overshoot == "stay":
                    return pos
                if self.overshoot == "end":
                    return end
                return end - (pos + total - end)
            return pos + total
        p = pos
        for _ in range(total):
            p = self.next_space[p]
            if p in self.stops:
                break
        return p

    def _target(self, p: int, entry) -> int | None:
        """Where a card entry sends a token standing on ``p`` (None: nowhere)."""
        if entry is None or type(entry) is int:
            return entry
        return (p + entry[1]) % self.n_spaces

    def _arrive(self, p: int, k: int) -> int:
        """Follow go-to spaces and a card at the landing space (one card per step)."""
        p = self.go_to.get(p, p)
        if p in self.cards:
            t = self._target(p, self._card(self.cards[p], k))
            if t is not None:
                p = self.go_to.get(t, t)
        return p

    def step(self, state: tuple, outcome: int, card: int) -> tuple[tuple, int]:
        """Move a token one step.

        Args:
            state: ``(space, streak, wait)``.
            outcome: index into :attr:`outcomes` (the joint faces rolled).
            card: card index ``0..n_cards-1`` (which card a deck drawn this step gives).

        Returns:
            ``(next_state, landed)``: ``landed`` is the space the token ends its move on
            (after go-to spaces and cards), or -1 if it did not move (a missed turn, an
            absorbing space, an overshoot that stays).
        """
        pos, streak, wait = state
        if pos in self.absorbing:
            return state, -1
        if wait > 0:
            if wait > 1:
                return (pos, 0, wait - 1), -1
            return self._settle(self.waits[pos][1], 0), -1  # an exit may be another wait
        faces = self.outcomes[outcome]
        doubles = len(faces) > 1 and all(f == faces[0] for f in faces)
        if doubles and self.max_doubles is not None and streak + 1 >= self.max_doubles:
            p = self.doubles_target
            return self._settle(p, 0), p
        if doubles and self.doubles_cards:
            t = self._target(pos, self._card(self.doubles_cards, card))
            if t is not None:
                p = self.go_to.get(t, t)
                return self._settle(p, 0), p
        new = self._advance(pos, sum(faces))
        if new == pos and not self.loop:
            return (pos, 0, 0), -1
        p = self._arrive(new, card)
        if p in self.waits:
            state = self._settle(p, 0)
            if doubles and self.doubles_cut_wait:
                state = self.step(state, outcome, card)[0]  # one missed turn served now
            return state, p
        again = doubles and self.roll_again
        return self._settle(p, streak + 1 if again else 0), p

    def _settle(self, p: int, streak: int) -> tuple:
        if p in self.waits:
            return (p, 0, self.waits[p][0])
        if self.max_doubles is None:
            streak = min(streak, 1)  # only "continuing a turn or not" matters
        return (p, streak, 0)

    # ----- compile ----------------------------------------------------------------------------
    def compile(self) -> MarkovChain:
        """Enumerate the states reachable from ``start`` and tabulate :meth:`step`.

        Returns:
            a :class:`MarkovChain`.
        """
        start = self._settle(self.start, 0)
        index = {start: 0}
        states = [start]
        rows_next: list[list[int]] = []
        rows_land: list[list[int]] = []
        i = 0
        R, D = len(self.outcomes), self.n_cards
        while i < len(states):
            s = states[i]
            nxt, land = [], []
            for r in range(R):
                for k in range(D):
                    t, landed = self.step(s, r, k)
                    if t not in index:
                        index[t] = len(states)
                        states.append(t)
                    nxt.append(index[t])
                    land.append(landed)
            rows_next.append(nxt)
            rows_land.append(land)
            i += 1
        return MarkovChain(self, states, np.array(rows_next), np.array(rows_land))


def _card_entry(t):
    if t is None:
        return None
    if isinstance(t, (tuple, list)) and len(t) == 2 and t[0] == "move" and type(t[1]) is int:
        return ("move", t[1])
    if type(t) is int or isinstance(t, np.integer):
        return int(t)
    raise ValueError(f"a card entry must be None, a space or ('move', k), got {t!r}")


class MarkovChain:
    """The compiled chain of a :class:`TrackModel`.

    Attributes:
        model: the track model.
        states: list of ``(space, streak, wait)`` tuples; row ``i`` of every matrix is state i.
        table: int array ``(n_states, n_outcomes * n_cards)``: next state index for every
            equally likely (outcome, card) pair (used by the Monte Carlo as is).
        landed: same shape: the space landed on, or -1.
        P: float array ``(n_states, n_states)``: the transition matrix (rows sum to 1).
    """

    def __init__(self, model: TrackModel, states, table: np.ndarray, landed: np.ndarray):
        self.model = model
        self.states = states
        self.table = table
        self.landed = landed
        n, m = table.shape
        self.P = np.zeros((n, n))
        np.add.at(self.P, (np.repeat(np.arange(n), m), table.ravel()), 1.0 / m)
        self.space_of = np.array([s[0] for s in states])
        self.turn_start = np.array([s[1] == 0 for s in states])

    @property
    def n_states(self) -> int:
        return len(self.states)

    def exact_row(self, i: int) -> dict[int, Fraction]:
        """Row ``i`` of the transition matrix as exact fractions ``{next state: Fraction}``."""
        m = self.table.shape[1]
        out: dict[int, Fraction] = {}
        for j in self.table[i]:
            out[int(j)] = out.get(int(j), Fraction(0)) + Fraction(1, m)
        return out

    def to_spaces(self, dist: np.ndarray) -> np.ndarray:
        """Sum a distribution over states into one over spaces: shape ``(n_spaces,)``."""
        return np.bincount(self.space_of, weights=dist, minlength=self.model.n_spaces)

    def start_distribution(self) -> np.ndarray:
        """The distribution concentrated on the start state (state 0)."""
        p = np.zeros(self.n_states)
        p[0] = 1.0
        return p

    def stationary(self) -> np.ndarray:
        """The stationary distribution over states, by solving ``pi P = pi, sum(pi) = 1``.

        A linear solve (least squares on the stacked system, exact up to float rounding),
        not power iteration. Requires a chain with one closed class (true for loop tracks).

        Returns:
            float array ``(n_states,)``.
        """
        n = self.n_states
        a = np.vstack([self.P.T - np.eye(n), np.ones((1, n))])
        b = np.zeros(n + 1)
        b[-1] = 1.0
        pi, *_ = np.linalg.lstsq(a, b, rcond=None)
        pi[np.abs(pi) < 1e-15] = 0.0
        return pi

    def stationary_spaces(self) -> np.ndarray:
        """Long-run share of steps that END on each space (where the token is), ``(n_spaces,)``."""
        return self.to_spaces(self.stationary())

    def landing_per_step(self, pi: np.ndarray | None = None) -> np.ndarray:
        """Long-run probability that a step lands on each space: ``(n_spaces,)``.

        Missed turns and stays count as no landing, so this sums to less than 1 when the track
        has waiting spaces.
        """
        pi = self.stationary() if pi is None else pi
        m = self.landed.shape[1]
        w = np.repeat(pi / m, m)
        lab = self.landed.ravel()
        ok = lab >= 0
        return np.bincount(lab[ok], weights=w[ok], minlength=self.model.n_spaces)

    def steps_per_turn(self, pi: np.ndarray | None = None) -> float:
        """Expected rolls (steps) in one turn (> 1 when doubles roll again); renewal theory:
        1 / (long-run share of steps that start a turn)."""
        pi = self.stationary() if pi is None else pi
        return 1.0 / float(pi[self.turn_start].sum())

    def landing_per_turn(self) -> np.ndarray:
        """Expected landings on each space per turn of this token, ``(n_spaces,)``: what an
        owner collects rent on per opponent turn."""
        pi = self.stationary()
        return self.landing_per_step(pi) * self.steps_per_turn(pi)

    def distribution_after(self, n: int, start: np.ndarray | None = None) -> np.ndarray:
        """State distributions after 0..n steps: float array ``(n + 1, n_states)``."""
        p = self.start_distribution() if start is None else np.asarray(start, float)
        out = np.empty((n + 1, self.n_states))
        out[0] = p
        for t in range(1, n + 1):
            p = p @ self.P
            out[t] = p
        return out

    def landing_after(self, n: int) -> np.ndarray:
        """Probability of landing on each space at step 1..n: ``(n, n_spaces)``."""
        dists = self.distribution_after(n)
        m = self.landed.shape[1]
        lab = self.landed.ravel()
        ok = lab >= 0
        out = np.empty((n, self.model.n_spaces))
        for t in range(n):
            w = np.repeat(dists[t] / m, m)
            out[t] = np.bincount(lab[ok], weights=w[ok], minlength=self.model.n_spaces)
        return out

    def hitting_times(self, targets: Sequence[int]) -> np.ndarray:
        """Expected steps until the token is on one of the spaces ``targets``, from each state.

        Solves ``(I - Q) h = 1`` over the states not on a target. Returns ``(n_states,)``
        (0 on target states, ``inf`` where a target can never be reached).
        """
        hit = np.isin(self.space_of, list(targets))
        free = ~hit
        q = self.P[np.ix_(free, free)]
        h = np.zeros(self.n_states)
        # states that can never reach a target would make I - Q singular: find them first
        reach = hit.copy()
        while True:
            new = reach | (self.P[:, reach].sum(axis=1) > 0)
            if (new == reach).all():
                break
            reach = new
        solvable = free & reach
        q = self.P[np.ix_(solvable, solvable)]
        h[solvable] = np.linalg.solve(np.eye(int(solvable.sum())) - q, np.ones(int(solvable.sum())))
        h[free & ~reach] = np.inf
        return h

    def expected_steps_to(self, targets: Sequence[int]) -> float:
        """Expected steps from the start until reaching ``targets`` (e.g. the finish square)."""
        return float(self.hitting_times(targets)[0])


#: Milton Bradley's Chutes and Ladders (1943 US edition of Snakes and Ladders): square -> square
CHUTES_AND_LADDERS = {
    # ladders
    1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 51: 67, 71: 91, 80: 100,
    # chutes
    16: 6, 47: 26, 49: 11, 56: 53, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 98: 78,
}  # fmt: skip


def chutes_and_ladders(overshoot: str = "stay") -> TrackModel:
    """Milton Bradley's Chutes and Ladders as a :class:`TrackModel` (one player).

    Space 0 is off the board, 1..100 the squares; a spinner 1-6; a spin that would pass 100
    is not moved (``overshoot="stay"``, the rule analysed by Althoen, King and Schilling,
    Mathematical Gazette 77 (1993) 71-76, who find an expected 39.2 spins).
    """
    return TrackModel(
        n_spaces=101,
        dice=(D6,),
        loop=False,
        overshoot=overshoot,
        go_to=CHUTES_AND_LADDERS,
        absorbing=(100,),
        start=0,
    )

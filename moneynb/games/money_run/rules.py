"""Money Run, a coin-stacking race on a 9x9 board, whole in one file.

Source: ``rulebooks/money-run.txt`` (sections "Setup", "Objective", "How to Play", "Placing
Coins", "Moving your Pawn" and the three EFAQ answers); reconstructed pieces are in
``setup.toml`` and listed in ``docs/money_run.md``.

The game, top to bottom as in the rulebook:

Setup.   Each pawn starts on the middle square of its own edge (reconstruction: the diagram is
         missing). 42 coins go in the bag (5 large, 10 medium, 12 small, 15 puny); 5 are drawn
         face up onto the table.
Goal.    Reach the opposite edge: any square of that row (or column) wins at once.
Turn.    Up to two actions, each one of: place a table coin on the board (then one coin is
         drawn from the bag to refill the table); move the top coin of a stack to another
         square; move your pawn. Using one or none is allowed ("end_turn").
Coins.   A coin may sit on an empty square or on top of a stack whose top coin is the same size
         or larger; never inserted lower down. A table coin may be added under any pawn
         (EFAQ 2); a coin moved on the board may not go under an opponent's pawn (EFAQ 1). A
         coin under a pawn is not taken away (reading: the pawn stands on the top coin).
Pawns.   A pawn only stands on coins. One step is orthogonal; diagonal only from a stack of 2
         or more; a step climbs at most one level. A step down may be of any height, and while
         every step goes down (each square lower than the one before) the pawn may keep going
         in the same action, diagonals allowed.
End.     A pawn on its goal edge wins. If nobody can make any move, the pawn closest to its goal
         (Manhattan distance) wins, ties to the pawn on the higher stack (EFAQ 3).

Decided here (the rulebook is silent; see docs/money_run.md): two pawns never share a square;
when the bag is empty the table is not refilled (it shrinks) and play goes on; a pawn's chain
stops on its goal edge. Passing (using none of the actions) never ends the game while a move
exists ("How to Play" 1 and 6); so that every game ends, the game also stops after
``max_rounds`` rounds, and then the EFAQ 3 ranking (closest pawn, then higher stack) decides.

Coins have no money value here: the ledger is empty (``money() == {}``) and ``scores()`` gives
each player's progress (rows or columns advanced toward the goal, 0-8). Coins are conserved
instead: :meth:`MoneyRun.coin_count` is always 42 over bag + table + board.

Actions (JSON values) — a turn action is chosen in one or two decisions:

* ``tag "action"`` (kind ``choose``): ``("place", i)`` pick table coin ``i`` (then a square);
  ``("coin", x, y)`` pick the top coin of the stack at ``(x, y)`` (then a square);
  ``("pawn", x, y)`` move your pawn to ``(x, y)`` (the path is found by the game);
  ``"end_turn"``.
* ``tag "place"`` / ``"move_coin"`` (kind ``space``): ``(x, y)`` where the picked coin goes.

Squares are ``(x, y)``: ``x`` the column 0-8 from the left, ``y`` the row 0-8 from the bottom.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from ...core.data import load_cached, load_toml, names_files, require
from ...core.errors import IllegalAction
from ...core.game import Game
from .schema import SetupFile


@names_files({"setup.toml": "path"})
def load_setup(path: str | None = None) -> dict:
    """Read and check ``setup.toml`` (or the house-rule file at ``path``).

    Returns the TOML as a dict: ``board_size`` (squares per side), ``table_size`` (coins face
    up), ``coins`` (list of ``{name, rank, count}``) and ``seats`` (list of ``{start: [x, y],
    goal_axis: "x"|"y", goal_line, ahead}``), with the board's geometry: ``orth`` and ``all8``
    (:func:`neighbours`), ``xy`` (:func:`squares_xy`) and each seat's ``ahead``
    (:func:`squares_ahead` towards its goal).

    Raises:
        ValueError: a missing key, a board smaller than 3 or larger than 26, fewer than 4
            seats, a start off the board, on its own goal line or shared, a non-positive coin
            count, or repeated coin names/ranks.
    """
    data = load_toml(__package__, "setup.toml", path, SetupFile)
    for key in ("board_size", "table_size", "coins", "seats"):
        require(key in data, f"setup.toml: missing {key!r}")
    n = data["board_size"]
    require(type(n) is int and 3 <= n <= 26, f"setup.toml: board_size must be 3-26, got {n!r}")
    t = data["table_size"]
    require(type(t) is int and t >= 1, f"setup.toml: table_size must be >= 1, got {t!r}")
    coins = data["coins"]
    require(isinstance(coins, list) and coins, "setup.toml: at least one [[coins]] entry")
    for c in coins:
        for key in ("name", "rank", "count"):
            require(key in c, f"setup.toml: a coin needs {key!r}: {c!r}")
        require(type(c["rank"]) is int and c["rank"] >= 1, f"setup.toml: bad rank in {c!r}")
        require(type(c["count"]) is int and c["count"] >= 1, f"setup.toml: bad count in {c!r}")
    require(len({c["name"] for c in coins}) == len(coins), "setup.toml: coin names repeat")
    require(len({c["rank"] for c in coins}) == len(coins), "setup.toml: coin ranks repeat")
    seats = data["seats"]
    require(isinstance(seats, list) and len(seats) >= 4, "setup.toml: need 4 [[seats]]")
    starts = set()
    for s in seats:
        for key in ("start", "goal_axis", "goal_line"):
            require(key in s, f"setup.toml: a seat needs {key!r}: {s!r}")
        x, y = s["start"]
        require(0 <= x < n and 0 <= y < n, f"setup.toml: start {s['start']} is off the board")
        require(s["goal_axis"] in ("x", "y"), f"setup.toml: goal_axis must be x or y: {s!r}")
        require(0 <= s["goal_line"] < n, f"setup.toml: goal_line off the board: {s!r}")
        coord = x if s["goal_axis"] == "x" else y
        require(coord != s["goal_line"], f"setup.toml: start already on its goal: {s!r}")
        starts.add((x, y))
    require(len(starts) == len(seats), "setup.toml: two seats share a start square")
    orth, all8 = neighbours(n)
    seats = [dict(s, ahead=squares_ahead(n, s["goal_axis"], s["goal_line"])) for s in seats]
    return {**data, "seats": seats, "orth": orth, "all8": all8, "xy": squares_xy(n)}


def neighbours(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """``(orthogonal, all8)``: for each square index ``y * size + x``, the indexes of its
    orthogonal neighbours and of all 8 neighbours (diagonals included) on the board."""
    orth, all8 = [], []
    for sq in range(size * size):
        x, y = sq % size, sq // size
        o, a = [], []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and 0 <= x + dx < size and 0 <= y + dy < size:
                    a.append((y + dy) * size + x + dx)
                    if not (dx and dy):
                        o.append((y + dy) * size + x + dx)
        orth.append(tuple(o))
        all8.append(tuple(a))
    return tuple(orth), tuple(all8)


def squares_xy(size: int) -> tuple[tuple[int, int], ...]:
    """``(x, y)`` of each square index ``y * size + x``."""
    return tuple((i % size, i // size) for i in range(size * size))


def squares_ahead(size: int, axis: str, line: int) -> tuple[tuple[int, ...], ...]:
    """For each square, its neighbours one step closer to the goal edge ``axis`` = ``line``
    (Manhattan distance), straight ahead first (the board's geometry, for the greedy bot)."""
    _, all8 = neighbours(size)

    def dist(sq: int) -> int:
        return abs((sq % size if axis == "x" else sq // size) - line)

    out = []
    for sq in range(size * size):
        x, y = sq % size, sq // size
        ahead = [nb for nb in all8[sq] if dist(nb) < dist(sq)]
        out.append(tuple(sorted(ahead, key=lambda nb: abs(nb % size - x) + abs(nb // size - y))))
    return tuple(out)


class MoneyRun(Game):
    """Money Run for 2-4 players (see the module docstring for the rules and actions).

    Options:
        max_rounds: int, the game stops after this many rounds (every player has had this many
            turns) and the EFAQ 3 ranking decides: the pawn closest to its goal wins, ties to
            the higher stack. Reconstruction, so every game ends; a pass never ends a game.
        data_file: path of a house-rule copy of ``setup.toml`` ("" = the shipped one).

    State (read-only for views): ``stacks`` (list of ``size*size`` tuples of coin ranks,
    bottom first, index ``y * size + x``), ``pawns`` (square index per seat), ``table`` (coin
    ranks face up), ``bag`` (coin ranks in the bag; drawn at random, order not kept),
    ``turn`` (seat), ``actions_left`` (0-2), ``round`` (1-based), ``selected`` (the picked
    coin of a two-step action, or None).
    """

    name = "money_run"
    title = "Money Run"
    undo_refused = "A coin already drawn from the bag can't be taken back in this game."
    min_players = 2
    max_players = 4
    default_options = {"max_rounds": 60, "data_file": ""}
    rulebook = "money-run.txt"

    @classmethod
    def _validate_options(cls, options: dict) -> None:
        if options["max_rounds"] < 1:
            raise ValueError(f"max_rounds must be at least 1, got {options['max_rounds']}")

    # ----- Setup ----------------------------------------------------------------------------
    def _setup(self) -> None:
        #: the setup data and the board's geometry (shared by every game: read-only)
        self.data = data = load_cached(load_setup, self.options["data_file"] or None)
        self.size = n = data["board_size"]
        self.table_size = data["table_size"]
        self.coin_names = {c["rank"]: c["name"] for c in data["coins"]}
        self.total_coins = sum(c["count"] for c in data["coins"])
        seats = data["seats"][: len(self.players)]
        self.goals = [(s["goal_axis"], s["goal_line"]) for s in seats]
        self.pawns = [s["start"][1] * n + s["start"][0] for s in seats]
        self.stacks: list[tuple[int, ...]] = [()] * (n * n)
        self.bag = sorted(c["rank"] for c in data["coins"] for _ in range(c["count"]))
        self.table: list[int] = []
        for _ in range(self.table_size):
            self.table.append(self._draw())
        self.emit(
            "drew",
            "Table: " + ", ".join(self.coin_names[c] for c in self.table),
            table=list(self.table),
        )
        self.turn = 0
        self.round = 1
        self.actions_left = 2
        self.selected: tuple | None = None
        self.turn_start = 0  # index in ``actions`` of this turn's first action
        self._ask_action()

    def _draw(self) -> int:
        """Take one coin at random out of the bag (the game's seeded generator)."""
        return self.bag.pop(self.chance("bag").randrange(len(self.bag)))

    # ----- squares --------------------------------------------------------------------------
    def xy(self, sq: int) -> tuple[int, int]:
        """Square index -> ``(x, y)``."""
        return sq % self.size, sq // self.size

    def sq(self, x: int, y: int) -> int:
        """``(x, y)`` -> square index. Raises IllegalAction off the board."""
        if not (type(x) is int and type(y) is int and 0 <= x < self.size and 0 <= y < self.size):
            raise IllegalAction(
                f"({x!r}, {y!r}) is not a square of the {self.size}x{self.size} board"
            )
        return y * self.size + x

    def height(self, sq: int) -> int:
        """Number of coins on square ``sq``."""
        return len(self.stacks[sq])

    def on_goal(self, seat: int, sq: int) -> bool:
        """True if ``sq`` is on ``seat``'s goal edge."""
        axis, line = self.goals[seat]
        return (sq % self.size if axis == "x" else sq // self.size) == line

    def distance(self, seat: int, sq: int | None = None) -> int:
        """Manhattan distance (squares) from ``sq`` (default: the pawn) to ``seat``'s goal edge."""
        if sq is None:
            sq = self.pawns[seat]
        axis, line = self.goals[seat]
        return abs((sq % self.size if axis == "x" else sq // self.size) - line)

    @staticmethod
    def standing_words(h: int) -> str:
        """What a pawn on a stack of ``h`` coins stands on, in words: ``"on no coin"``, ``"on 1
        coin"``, ``"on a stack of 3 coins"`` (the log's, the board's and the stalemate's words
        for a stack's height; issue 38: "height 0" read as jargon)."""
        return "on no coin" if h == 0 else "on 1 coin" if h == 1 else f"on a stack of {h} coins"

    def coin_count(self) -> int:
        """Coins in bag + table + board: always 42 with the rulebook's coins."""
        return len(self.bag) + len(self.table) + sum(len(s) for s in self.stacks)

    def can_undo_in_turn(self) -> bool:
        """True if the player to move has taken an action (or picked a coin) this turn, which
        ``undo()`` may take back without undoing another player's turn."""
        return self.pending is not None and len(self.actions) > self.turn_start

    # ----- Placing coins --------------------------------------------------------------------
    def fits(self, rank: int, sq: int) -> bool:
        """True if a coin of ``rank`` may go on top of square ``sq`` (empty, or its top coin is
        the same size or larger). A pawn on the square does not matter (EFAQ 2)."""
        s = self.stacks[sq]
        return not s or s[-1] >= rank

    def coin_targets(self, rank: int, source: int | None = None) -> list[int]:
        """Squares (indexes) where a coin of ``rank`` may go.

        ``source`` None: a table coin being placed: every square it :meth:`fits`, pawns or not
        (EFAQ 2, "May I add a coin under my own pawn, or even an opponent? Yes"). ``source`` a
        square: the top coin of that stack being moved (How to Play 3): every other square it
        fits except those of the opponents of the player to move (EFAQ 1, "May I move a coin
        under an opponent's pawn? No"); under the mover's own pawn is allowed.
        """
        if source is None:
            return [i for i, s in enumerate(self.stacks) if not s or s[-1] >= rank]
        barred = {p for seat, p in enumerate(self.pawns) if seat != self.turn}
        barred.add(source)
        return [
            i for i, s in enumerate(self.stacks) if (not s or s[-1] >= rank) and i not in barred
        ]

    def movable(self) -> list[int]:
        """Squares whose top coin may be moved: they hold coins and no pawn (EFAQ 1)."""
        pawns = self.pawns
        st = self.stacks
        return [i for i in range(len(st)) if st[i] and i not in pawns]

    # ----- Moving your pawn -----------------------------------------------------------------
    def pawn_paths(self, seat: int) -> dict[int, tuple[int, ...]]:
        """``{destination: path}`` for every square ``seat``'s pawn may reach in one action.

        ``path`` is a tuple of square indexes from the pawn's square to the destination. One
        step goes to a neighbouring square holding coins and no pawn, orthogonally (or
        diagonally from a stack of 2+), at most one level up. A first step that goes down may
        be followed by more steps, each onto a lower stack than the last (diagonals allowed).
        A path stops on the pawn's goal edge.
        """
        st = self.stacks
        start = self.pawns[seat]
        others = set(self.pawns)
        h0 = len(st[start])
        orth, all8 = self.data["orth"], self.data["all8"]
        out: dict[int, tuple[int, ...]] = {}
        queue: deque[int] = deque()
        expanded: set[int] = set()
        for nb in all8[start] if h0 >= 2 else orth[start]:
            h = len(st[nb])
            if not h or h > h0 + 1 or nb in others:
                continue
            out[nb] = (start, nb)
            if h < h0 and not self.on_goal(seat, nb):
                expanded.add(nb)
                queue.append(nb)
        while queue:  # descending chains
            cur = queue.popleft()
            hc = len(st[cur])
            for nb in all8[cur]:
                h = len(st[nb])
                if not h or h >= hc or nb in others:
                    continue
                if nb not in out:
                    out[nb] = out[cur] + (nb,)
                if nb not in expanded and not self.on_goal(seat, nb):
                    expanded.add(nb)
                    queue.append(nb)
        return out

    # ----- decisions ------------------------------------------------------------------------
    def _action_options(self, seat: int) -> list:
        opts: list = [("place", i) for i in range(len(self.table))]
        size = self.size
        opts += [("coin", i % size, i // size) for i in self.movable()]
        opts += [("pawn", d % size, d // size) for d in sorted(self.pawn_paths(seat))]
        opts.append("end_turn")
        return opts

    def _ask_action(self, opts: list | None = None) -> None:
        """Ask for the next action: ``opts`` if the rules listed them already, else
        :meth:`_action_options` (listed when read)."""
        left = "first" if self.actions_left == 2 else "second"
        self.ask(
            self.turn,
            "choose",
            f"{left.capitalize()} action: place a table coin, move a top coin, move your pawn, or end the "
            "turn",
            self._action_options if opts is None else opts,
            labels=self._labels,
            tag="action",
        )

    def _labels(self, opts: list) -> dict:
        """Display text of every option, in words a player reads (issue 38, case 6: the
        keyboard's action list showed ``('coin', 5, 4)``): "End turn"; a table coin by its
        size and place on the table ("slot 2 of 5", counted from the left as the view draws
        them; the table often holds two coins of one size, issue 28); a stack's top coin and a
        pawn move by where they are from the deciding player's pawn, as the board is drawn
        (:meth:`square_words`, :meth:`steps_words`: "Move your pawn 2 up and 1 left"). Every label is distinct (two
        squares never have the same place relative to the pawn). Computed only when read
        (the decision's ``labels`` function), so bots and simulations never pay for it."""
        out = {"end_turn": "End turn"}
        n = len(self.table)
        seat = self.turn
        for o in opts:
            if o == "end_turn":
                continue
            if o[0] == "place":
                out[o] = (
                    f"Place the {self.coin_names[self.table[o[1]]]} coin from table slot "
                    f"{o[1] + 1} of {n}"
                )
            elif o[0] == "coin":
                rank = self.stacks[self.sq(o[1], o[2])][-1]
                out[o] = (
                    f"Move the {self.coin_names[rank]} coin from "
                    f"{self.square_words(seat, o[1], o[2])}"
                )
            else:
                goal = " (to your goal)" if self.on_goal(seat, self.sq(o[1], o[2])) else ""
                out[o] = f"Move your pawn {self.steps_words(seat, o[1], o[2])}{goal}"
        return out

    def steps_words(self, seat: int, x: int, y: int) -> str:
        """Where square ``(x, y)`` is from ``seat``'s pawn, in the directions the board is
        drawn (up = higher rows): ``"1 up"``, ``"2 up and 1 left"``, ``""`` for the pawn's own
        square. Source: issue 38 (labels in words, no coordinates)."""
        px, py = self.xy(self.pawns[seat])
        dx, dy = x - px, y - py
        parts = []
        if dy:
            parts.append(f"{abs(dy)} {'up' if dy > 0 else 'down'}")
        if dx:
            parts.append(f"{abs(dx)} {'right' if dx > 0 else 'left'}")
        return " and ".join(parts)

    def square_words(self, seat: int, x: int, y: int) -> str:
        """Square ``(x, y)`` in words, as ``seat`` (the player deciding) reads it: ``"your
        pawn's square"``, ``"Bob's pawn's square"``, else ``"the square 2 above and 1 to the
        left of your pawn"``, ``"the square 1 below your pawn"`` (above = a higher row, as the
        board is drawn). Source: issue 38 (labels in words, no grid coordinates)."""
        sq = self.sq(x, y)
        if sq == self.pawns[seat]:
            return "your pawn's square"
        for other, at in enumerate(self.pawns):
            if at == sq:
                return f"{self.players[other]}'s pawn's square"
        px, py = self.xy(self.pawns[seat])
        dx, dy = x - px, y - py
        parts = []
        if dy:
            parts.append(f"{abs(dy)} {'above' if dy > 0 else 'below'}")
        if dx:
            parts.append(f"{abs(dx)} to the {'right' if dx > 0 else 'left'} of")
        return f"the square {' and '.join(parts)} your pawn"

    def square_said(self, seat: int, x: int, y: int) -> str:
        """Square ``(x, y)`` in words for the log, from ``seat``'s pawn (the player acting), in
        the third person: ``"Ann's pawn's square"``, ``"Bob's pawn's square"``, ``"the square
        2 above and 1 to the left of Ann's pawn"``. Source: issue 38 (the log gave squares as
        "(4, 1)": plain words, no coordinates, anywhere a player reads)."""
        return self.square_words(seat, x, y).replace("your pawn", f"{self.players[seat]}'s pawn")

    def _ask_target(self) -> None:
        seat, sel, size = self.turn, self.selected, self.size
        if sel[0] == "place":
            rank, source, tag = self.table[sel[1]], None, "place"
            what = f"the {self.coin_names[rank]} table coin"
        else:
            source = sel[2] * size + sel[1]
            rank, tag = self.stacks[source][-1], "move_coin"
            what = (
                f"the {self.coin_names[rank]} coin from {self.square_words(seat, sel[1], sel[2])}"
            )
        xy = self.data["xy"]
        targets = [xy[i] for i in self.coin_targets(rank, source)]
        self.ask(
            seat,
            "space",
            f"Where does {what} go?",
            targets,
            tag=tag,
            labels=lambda options: {t: self.square_words(seat, *t) for t in options},
        )

    # ----- playing --------------------------------------------------------------------------
    def _apply(self, action: Any) -> None:
        tag = self.pending.tag
        if tag == "action":
            if action == "end_turn":
                self.emit("end_turn", f"{self.players[self.turn]} ends the turn.")
                self._end_turn()
            elif action[0] == "pawn":
                self._move_pawn(self.sq(action[1], action[2]))
            else:
                self.selected = action
                self._ask_target()
        elif tag == "place":
            self._place(self.selected[1], self.sq(*action))
        else:
            sel = self.selected
            self._move_coin(self.sq(sel[1], sel[2]), self.sq(*action))

    def _place(self, index: int, target: int) -> None:
        """Table coin ``index`` onto square ``target``; refill the table from the bag."""
        rank = self.table[index]
        self.stacks[target] = self.stacks[target] + (rank,)
        x, y = self.xy(target)
        self.emit(
            "placed",
            f"{self.players[self.turn]} places a {self.coin_names[rank]} coin on "
            f"{self.square_said(self.turn, x, y)}.",
            seat=self.turn, rank=rank, square=[x, y], table_index=index,
        )  # fmt: skip
        if self.bag:
            new = self._draw()
            self.table[index] = new
            self.emit(
                "drew",
                f"A {self.coin_names[new]} coin is drawn from the bag onto the table "
                f"({len(self.bag)} left in the bag).",
                rank=new, table_index=index,
            )  # fmt: skip
        else:
            del self.table[index]
            self.emit("bag_empty", "The bag is empty: the table is not refilled.")
        self._done()

    def _move_coin(self, source: int, target: int) -> None:
        """Top coin of ``source`` onto ``target``."""
        rank = self.stacks[source][-1]
        self.stacks[source] = self.stacks[source][:-1]
        self.stacks[target] = self.stacks[target] + (rank,)
        (x1, y1), (x2, y2) = self.xy(source), self.xy(target)
        self.emit(
            "moved_coin",
            f"{self.players[self.turn]} moves a {self.coin_names[rank]} coin from "
            f"{self.square_said(self.turn, x1, y1)} to {self.square_said(self.turn, x2, y2)}.",
            seat=self.turn, rank=rank, source=[x1, y1], square=[x2, y2],
        )  # fmt: skip
        self._done()

    def _move_pawn(self, dest: int) -> None:
        seat = self.turn
        path = self.pawn_paths(seat)[dest]
        steps = self.steps_words(seat, *self.xy(dest))  # from where the pawn stands now
        self.pawns[seat] = dest
        squares = [list(self.xy(s)) for s in path]
        on = self.standing_words(self.height(dest))
        self.emit(
            "moved",
            f"{self.players[seat]} moves the pawn {steps}, {on}.",
            seat=seat, path=squares,
        )  # fmt: skip
        if self.on_goal(seat, dest):
            self.emit("reached_goal", f"{self.players[seat]} reaches the far side!", seat=seat)
            self.finish([seat])
            return
        self._done()

    def _done(self) -> None:
        """One action taken: ask for the next, or end the turn after two."""
        self.selected = None
        self.actions_left -= 1
        if self.actions_left == 0:
            self._end_turn()
        else:
            self._ask_action()

    def _end_turn(self) -> None:
        n = len(self.players)
        self.turn = (self.turn + 1) % n
        if self.turn == 0:
            if self.round >= self.options["max_rounds"]:
                self._stalemate(f"the {self.options['max_rounds']}-round limit was reached")
                return
            self.round += 1
        self.actions_left, self.selected = 2, None
        self.turn_start = len(self.actions) + 1  # the action ending this turn is not yet listed
        opts = self._action_options(self.turn)
        if opts == ["end_turn"] and not any(
            self._action_options(s) != ["end_turn"] for s in range(n)
        ):
            self._stalemate("no player can make any move")
            return
        self._ask_action(opts)

    def _stalemate(self, why: str) -> None:
        """EFAQ 3: the pawn closest to its goal wins; ties go to the higher stack."""
        keys = {
            s: (self.distance(s), -self.height(self.pawns[s])) for s in range(len(self.players))
        }
        best = min(keys.values())
        winners = [s for s in keys if keys[s] == best]
        self.emit(
            "stalemate",
            f"The game stops ({why}): closest to the goal wins, ties to the higher stack — "
            + ", ".join(
                f"{self.players[s]} {keys[s][0]} square{'s' * (keys[s][0] != 1)} away, "
                f"{self.standing_words(-keys[s][1])}"
                for s in keys
            ),
            distances={self.players[s]: keys[s][0] for s in keys},
        )
        self.finish(winners)

    # ----- reading the state ----------------------------------------------------------------
    def scores(self) -> dict[str, int]:
        """``{player: progress}``: rows/columns advanced toward the goal (0 at the start,
        ``size - 1`` on the goal edge). Money Run has no money, so scores are not dollars."""
        full = self.size - 1
        return {p: full - self.distance(s) for s, p in enumerate(self.players)}

    def observation(self, seat: int) -> dict:
        """Everything on view: stacks, pawns, table, and how many coins of each size are left
        in the bag (never which coin comes next)."""
        obs = super().observation(seat)
        bag_counts = {name: self.bag.count(rank) for rank, name in self.coin_names.items()}
        obs.update(
            stacks={
                f"{i % self.size},{i // self.size}": [self.coin_names[c] for c in s]
                for i, s in enumerate(self.stacks)
                if s
            },
            pawns={p: list(self.xy(self.pawns[s])) for s, p in enumerate(self.players)},
            goals={p: list(self.goals[s]) for s, p in enumerate(self.players)},
            table=[self.coin_names[c] for c in self.table],
            bag=bag_counts,
            bag_total=len(self.bag),
            coin_count=self.coin_count(),
            turn=self.turn,
            actions_left=self.actions_left,
            round=self.round,
            selected=None if self.selected is None else list(self.selected),
            selected_coin=self.selected_coin(),
        )
        return obs

    def selected_coin(self) -> str | None:
        """Name of the coin picked for the action under way (None when none is picked)."""
        sel = self.selected
        if sel is None:
            return None
        if sel[0] == "place":
            return self.coin_names[self.table[sel[1]]]
        return self.coin_names[self.stacks[sel[2] * self.size + sel[1]][-1]]

    # ----- bots -----------------------------------------------------------------------------
    def _ahead(self, seat: int, sq: int) -> list[int]:
        """Neighbours of ``sq`` one step closer to ``seat``'s goal, straight ahead first."""
        return list(self.data["seats"][seat]["ahead"][sq])

    def _best_table_coin(self, sq: int) -> int | None:
        """Index of the largest table coin that fits on ``sq`` (a good base), or None."""
        best = None
        for i, rank in enumerate(self.table):
            if self.fits(rank, sq) and (best is None or rank > self.table[best]):
                best = i
        return best

    def _greedy_plan(self, seat: int) -> tuple[tuple, int] | None:
        """``(first action, square)`` of the greedy bot's next coin action, or None. In order:
        lay a table coin on a square ahead of the pawn that it can then step onto; if the
        squares ahead are too high, lay a coin under the pawn (to climb) or take the top coin
        off the lowest of them; if every square ahead is blocked by a pawn, build sideways."""
        n = self.size
        pawn = self.pawns[seat]
        h0 = self.height(pawn)
        px, py = pawn % n, pawn // n
        free = [sq for sq in self._ahead(seat, pawn) if sq not in self.pawns]
        diagonal = [sq for sq in free if sq % n != px and sq // n != py]
        usable = [sq for sq in free if sq not in diagonal or h0 >= 2]
        for sq in usable:  # a) a step ahead
            if self.height(sq) <= h0:
                i = self._best_table_coin(sq)
                if i is not None:
                    return ("place", i), sq
        if usable or diagonal:
            # b) climb: a coin under the pawn (squares ahead too high, or only diagonals free)
            i = self._best_table_coin(pawn)
            if i is not None:
                return ("place", i), pawn
        if usable:
            low = min(usable, key=self.height)  # c) lower the square ahead
            if self.stacks[low]:
                rank = self.stacks[low][-1]
                keep = set(usable) | {pawn}
                away = [q for q in self.coin_targets(rank, low) if q not in keep]
                if away:
                    far = max(away, key=lambda q: (abs(q % n - px) + abs(q // n - py), -q))
                    return ("coin", low % n, low // n), far
            return None
        orth = self.data["orth"]
        here = self.distance(seat)
        for sq in orth[pawn]:  # d) sideways, round a pawn in the way
            if sq in self.pawns or self.distance(seat, sq) != here or self.height(sq) > h0:
                continue
            i = self._best_table_coin(sq)
            if i is not None:
                return ("place", i), sq
        return None

    def greedy_action(self, rng: random.Random) -> Any:
        """Heuristic: step or slide the pawn closer to the goal when possible; otherwise the
        coin action of :meth:`_greedy_plan` (build a step ahead, climb, clear the way, go
        round); otherwise a sideways pawn step if the way ahead is blocked; otherwise end the
        turn. Uses only what is on view."""
        d = self.pending
        seat = d.player
        if d.tag == "action":
            paths = self.pawn_paths(seat)
            here = self.distance(seat)
            if paths:
                best = min(paths, key=lambda s: (self.distance(seat, s), -self.height(s)))
                if self.distance(seat, best) < here:
                    return ("pawn", *self.xy(best))
            plan = self._greedy_plan(seat)
            if plan is not None:
                return plan[0]
            return "end_turn"
        plan = self._greedy_plan(seat)
        if plan is not None and plan[0] == self.selected and self.xy(plan[1]) in d.options:
            return self.xy(plan[1])
        return d.options[rng.randrange(len(d.options))]

    def evaluate(self, seat: int) -> float:
        """Search bots' score of the position for ``seat`` (higher is better): a win is 1000,
        a loss -1000; otherwise the best rival's reach minus ``seat``'s reach, where a pawn's
        reach is 2 x its distance to the goal plus the distance it could reach with one pawn
        action now, less a little for standing higher (squares)."""
        if self.pending is None:
            if seat in self.winners:
                return 1000.0 if len(self.winners) == 1 else 0.0
            return -1000.0

        def reach(s: int) -> float:
            paths = self.pawn_paths(s)
            d = self.distance(s)
            nxt = min([self.distance(s, q) for q in paths], default=d)
            return 2 * d + min(d, nxt) - 0.1 * self.height(self.pawns[s])

        mine = reach(seat)
        theirs = min(reach(s) for s in range(len(self.players)) if s != seat)
        return theirs - mine

    def search_moves(self) -> list[list]:
        """Candidate moves for search bots: lists of actions that each finish one turn action.

        Every pawn move and "end_turn"; each size of table coin (once) onto squares next to a
        pawn; the top coins near pawns moved next to a pawn. A pruning of the legal moves (a
        coin far from every pawn changes little); the options themselves stay all legal.
        """
        d = self.pending
        if d is None:
            return []
        if d.tag != "action":
            return [[o] for o in d.options]
        all8 = self.data["all8"]
        near: set[int] = set()
        for p in self.pawns:
            near.add(p)
            near.update(all8[p])
        moves: list[list] = [[o] for o in d.options if o == "end_turn" or o[0] == "pawn"]
        size = self.size
        seen: set[int] = set()
        for i, rank in enumerate(self.table):
            if rank in seen:
                continue
            seen.add(rank)
            for sq in sorted(near):
                if self.fits(rank, sq):
                    moves.append([("place", i), (sq % size, sq // size)])
        sources = set()
        for p in self.pawns:
            for nb in all8[p]:
                if self.stacks[nb] and nb not in self.pawns:
                    sources.add(nb)
        rivals = {p for s, p in enumerate(self.pawns) if s != self.turn}
        for src in sorted(sources):
            rank = self.stacks[src][-1]
            for sq in sorted(near):
                if sq != src and sq not in rivals and self.fits(rank, sq):
                    moves.append([("coin", src % size, src // size), (sq % size, sq // size)])
        return moves

"""A moneynb game as a PettingZoo AEC environment (needs the ``rl`` extra: pettingzoo,
gymnasium).

Agents are the seats, ``"player_0"`` .. ``"player_{n-1}"`` (seat order; they are also the
players' names in the engine). The agent selected is always the one the game's pending
:class:`~moneynb.core.Decision` waits on. See docs/env.md for the observation, action and
reward definitions, and :mod:`moneynb.env.actions` / :mod:`moneynb.env.observe` for the code.

Source: reconstruction (issue 17), shaped like PettingZoo's classic games (chess, Texas
Hold'em): Dict observation ``{"observation", "action_mask"}``, Discrete actions.
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import moneynb

from .actions import ActionCodec
from .observe import BOUND, SPECS, Observer

#: the default base of amount entry (a range of up to 100 amounts takes one step)
AMOUNT_SLOTS = 100


class MoneynbEnv(AECEnv):
    """One moneynb game as an AEC environment (make it with :func:`moneynb.env.make`).

    Args:
        name: the game (``moneynb.GAMES``).
        players: how many seats (an int in the game's rulebook range; default 2).
        render_mode: None, ``"ansi"`` (``render()`` returns the text log) or ``"human"``
            (shows the board widget in a notebook, prints the log elsewhere; returns None).
        option_slots: option slots of the action space (default: the game's
            :attr:`~moneynb.env.observe.GameSpec.option_slots`).
        amount_slots: base of amount entry (default :data:`AMOUNT_SLOTS`).
        win_reward: added to each winner's reward when the game ends (default 1.0).
        **options: the game's own options (house rules), passed to :func:`moneynb.new_game`.

    Raises:
        ValueError: unknown game, a player count outside the rulebook's range, an unknown or
            ill-typed game option, an unknown render mode, bad slot counts.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "moneynb", "is_parallelizable": False}

    def __init__(
        self,
        name: str,
        players: int = 2,
        render_mode: str | None = None,
        option_slots: int | None = None,
        amount_slots: int = AMOUNT_SLOTS,
        win_reward: float = 1.0,
        **options,
    ):
        super().__init__()
        cls = moneynb.game_class(name)
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players is the number of seats (an int), got {players!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        if isinstance(win_reward, bool) or not isinstance(win_reward, (int, float)):
            raise ValueError(f"win_reward must be a number, got {win_reward!r}")
        self.game_name = name
        self.spec = SPECS[name]
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.game_options = dict(options)
        self.render_mode = render_mode
        self.win_reward = float(win_reward)
        # a probe game checks players and options now and fixes the observation layout
        probe = cls(list(self.possible_agents), 0, **options)
        if option_slots is None:
            option_slots = self.spec.option_slots
            if callable(option_slots):
                option_slots = option_slots(probe)
        self.codec = ActionCodec(option_slots, amount_slots)
        self.observer = Observer(probe, self.spec, self.codec.option_slots)
        size = self.observer.encode(probe, 0).shape[0]
        self.feature_names = list(self.observer.names)
        self.metadata = {**self.metadata, "name": f"moneynb_{name}"}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.codec.n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.n) for a in self.possible_agents}
        self.game = None
        self._seeds: random.Random | None = None
        self._view = None

    def __str__(self) -> str:
        return self.metadata["name"]

    # ----- spaces --------------------------------------------------------------------------
    def observation_space(self, agent):
        """The Dict space of ``agent``'s observations (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """``Discrete(option_slots + amount_slots)`` (the same object every call)."""
        return self.action_spaces[agent]

    # ----- the AEC API ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``reset(seed=s)`` plays the same game as
        ``moneynb.new_game(name, players=env.possible_agents, seed=s, **game options)``; a
        reset without a seed takes the next seed from a generator seeded by the last seed
        given (or the system's entropy if none was). ``options`` is accepted (PettingZoo's
        API) and not used: game options are given to :func:`make`.

        Raises:
            ValueError: ``seed`` is not an int or None.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise ValueError(f"seed must be an int or None, got {seed!r}")
            seed = int(seed)
            self._seeds = random.Random(seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random(random.SystemRandom().randrange(2**32))
            seed = self._seeds.randrange(2**32)
        self.game = moneynb.new_game(
            self.game_name, players=list(self.possible_agents), seed=seed, **self.game_options
        )
        self.codec.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._scores = self._score_list()
        self._view = None
        self._select()
        if self.game.over:  # a game over before any decision (no game does this today)
            self._finish()

    def observe(self, agent: str) -> dict:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` for ``agent``; the
        mask is all zero unless ``agent`` is the one to decide."""
        seat = self.possible_agents.index(agent)
        d = self.game.decision
        mine = d is not None and d.player == seat
        entry = None
        if mine and self.codec.entry is not None:
            low, high = self.codec.entry_range(d)
            entry = (self.codec.entry.left, low, high)
        obs = self.observer.encode(self.game, seat, entry)
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """``agent``'s action mask alone (as in :meth:`observe`, without building the vector;
        fast for random play)."""
        d = self.game.decision
        if d is None or d.player != self.possible_agents.index(agent):
            return np.zeros(self.codec.n, dtype=np.int8)
        return self.codec.mask(d)

    def step(self, action) -> None:
        """Answer the pending decision with env action ``action`` (see docs/env.md); ``None``
        for an agent already terminated.

        Raises:
            ValueError: the action is not an int, outside the space, or masked out (the game
                and the env are unchanged then).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        d = self.game.decision
        ready, engine_action = self.codec.decode(d, action)
        for a in self.agents:
            self.rewards[a] = 0.0
        if ready:
            self.game.apply(engine_action)
            scores = self._score_list()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = (scores[i] - self._scores[i]) / self.spec.scale
            self._scores = scores
            if self.game.over:
                self._finish()
            else:
                self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _score_list(self) -> list[int]:
        s = self.game.scores()
        return [s[p] for p in self.game.players]

    def _select(self) -> None:
        self.agent_selection = self.possible_agents[self.game.decision.player]

    def _finish(self) -> None:
        for w in self.game.winners:
            self.rewards[self.possible_agents[w]] += self.win_reward
        self.terminations = dict.fromkeys(self.agents, True)

    # ----- reading and showing -------------------------------------------------------------
    @property
    def decision(self):
        """The pending :class:`~moneynb.core.Decision` (what the selected agent is asked, as a
        person would see it: option slot ``k`` answers ``decision.options[k]``), or None."""
        return None if self.game is None else self.game.decision

    def describe(self, action: int) -> str:
        """What env action ``action`` means for the pending decision ("option 1: Stay")."""
        return self.codec.describe(self.game.decision, int(action))

    def render(self):
        """``"ansi"``: the game's text log (one event a line). ``"human"``: the board widget in
        a notebook (updated on later calls), the log printed elsewhere; returns None."""
        if self.game is None:
            return "" if self.render_mode == "ansi" else None
        text = "\n".join(e.text for e in self.game.log)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            self._show(text)
        return None

    def _show(self, text: str) -> None:
        try:
            from IPython import get_ipython

            in_kernel = get_ipython() is not None and hasattr(get_ipython(), "kernel")
        except ImportError:
            in_kernel = False
        if not in_kernel:
            print(text)
            return
        from IPython.display import display

        from ..ui.boards import board_for

        if self._view is None or self._view[0] is not self.game:  # a new game: a new board
            board = board_for(self.game)
            board.update(self.game, list(self.game.log))
            board.release()  # its first message to the page holds the drawn state (ui docs)
            self._view = (self.game, board, len(self.game.log))
            display(board.widget())
        else:
            game, board, seen = self._view
            board.update(game, list(game.log[seen:]))
            self._view = (game, board, len(game.log))

    def close(self) -> None:
        """Forget the board widget, if one was shown (it stays in the notebook as drawn)."""
        self._view = None

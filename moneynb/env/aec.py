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

from ..core.registry import game_class
from .actions import ActionCodec
from .observe import BOUND, SPECS, Observer, TokenSlots

#: the default base of amount entry (a range of up to 100 amounts takes one step)
AMOUNT_SLOTS = 100


class MoneynbEnv(AECEnv):
    """One moneynb game as an AEC environment (make it with :func:`moneynb.env.make`).

    Args:
        name: the game (``moneynb.GAMES``).
        players: how many seats (an int in the game's rulebook range; default 2).
        render_mode: None, ``"ansi"`` (``render()`` returns the text log), ``"human"``
            (shows the board's plotly figure in a notebook, prints the log elsewhere; returns None) or
            ``"rgb_array"`` (the board as a ``uint8`` picture ``(height, width, 3)``:
            :func:`moneynb.env.render.board_image`; needs the ``render`` extra).
        option_slots: option slots of the action space (default: the game's
            :attr:`~moneynb.env.observe.GameSpec.option_slots`).
        amount_slots: base of amount entry (default :data:`AMOUNT_SLOTS`).
        win_reward: added to each winner's reward when the game ends (default 1.0).
        reward: ``"score"`` (default: the change in the seat's score, scaled, plus
            ``win_reward`` to each winner at the end) or ``"win"`` (sparse, as PettingZoo's
            classic games: 0 until the end, then ``+win_reward`` to each winner and
            ``-win_reward`` to every other seat; nothing at a truncation).
        max_cycles: truncate the game (every agent ``truncated``) once one agent has taken
            this many env steps (``None``: no limit; every game also ends by its own rules,
            whatever the policy: tests/test_env_training.py plays first- and last-legal-action
            policies to the end). PettingZoo's ``max_cycles`` argument.
        illegal_action: what a masked-out action does. ``"raise"`` (default): ``ValueError``,
            nothing changed. ``"lose"`` (PettingZoo classic's ``TerminateIllegalWrapper``):
            the offender gets ``illegal_reward``, the others 0, and the episode ends (every
            agent terminated; ``infos[agent]["illegal"]`` is True). ``"noop"``: nothing
            happens but the step counts (towards ``max_cycles``) and the offender gets
            ``illegal_reward``; the same agent is asked again.
        illegal_reward: the offender's reward in modes "lose" and "noop" (default -1.0).
        **options: the game's own options (house rules), passed to :func:`moneynb.new_game`.

    Raises:
        ValueError: unknown game, a player count outside the rulebook's range, an unknown or
            ill-typed game option, an unknown render mode, bad slot counts.
    """

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "moneynb",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        name: str,
        players: int = 2,
        render_mode: str | None = None,
        option_slots: int | None = None,
        amount_slots: int = AMOUNT_SLOTS,
        win_reward: float = 1.0,
        reward: str = "score",
        max_cycles: int | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        **options,
    ):
        super().__init__()
        cls = game_class(name)
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players is the number of seats (an int), got {players!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        if render_mode == "rgb_array":
            from .render import check_board_image

            check_board_image()  # ModuleNotFoundError naming the missing extra, now
        if isinstance(win_reward, bool) or not isinstance(win_reward, (int, float)):
            raise ValueError(f"win_reward must be a number, got {win_reward!r}")
        if reward not in ("score", "win"):
            raise ValueError(f"reward must be 'score' or 'win', got {reward!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or an int >= 1, got {max_cycles!r}")
        if illegal_action not in ("raise", "lose", "noop"):
            raise ValueError(
                f"illegal_action must be 'raise', 'lose' or 'noop', got {illegal_action!r}"
            )
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise ValueError(f"illegal_reward must be a number, got {illegal_reward!r}")
        self.reward_mode = reward
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.game_name = name
        self.spec = SPECS[name]
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.game_options = dict(options)
        self.render_mode = render_mode
        self.win_reward = float(win_reward)
        # a probe game checks players and options now and fixes the observation layout
        probe = cls(list(self.possible_agents), 0, **options)
        self._slot_fn = self.spec.slots
        if self._slot_fn is None and self.spec.tokens is not None:
            self._slot_fn = TokenSlots(self.spec.tokens(probe))
        if option_slots is None:
            option_slots = self.spec.option_slots
            if option_slots is None:
                option_slots = len(self._slot_fn)
            elif callable(option_slots):
                option_slots = option_slots(probe)
        self.codec = ActionCodec(option_slots, amount_slots)
        self._slots_key = None
        self._slots_val = None
        self.observer = Observer(probe, self.spec, self.codec.option_slots)
        size = self.observer.encode(probe, 0).shape[0]
        self.feature_names = list(self.observer.names)
        self.metadata = {**self.metadata, "name": f"moneynb_{name}"}
        self.observation_spaces = {  # one space object per agent, each seeded on its own
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-BOUND, BOUND, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(self.codec.n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
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
        self.game = game_class(self.game_name)(
            list(self.possible_agents), seed, **self.game_options
        )
        self.codec.reset()
        self._slots_key = self._slots_val = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.steps_taken = dict.fromkeys(self.agents, 0)  #: env steps per agent (max_cycles)
        self._scores = self._score_list()
        self._view = None
        self._select()
        if self.game.over:  # a game over before any decision (no game does this today)
            self._finish()

    def observe(self, agent: str) -> dict:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` for ``agent``; the
        mask is all zero unless ``agent`` is the one to decide."""
        seat = self.possible_agents.index(agent)
        d = self.game.pending  # (its labels are not made: see _select)
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
        d = self.game.pending
        if d is None or d.player != self.possible_agents.index(agent):
            return np.zeros(self.codec.n, dtype=np.int8)
        if self.terminations.get(agent) or self.truncations.get(agent):
            return np.zeros(self.codec.n, dtype=np.int8)
        return self.codec.mask(d, self.slots())

    def slots(self) -> list[int] | None:
        """The option slot of each option of the pending decision when the game gives options
        fixed slots (``GameSpec.slots``, see docs/env.md), else None (option ``k`` in slot
        ``k``)."""
        fn = self._slot_fn
        if fn is None or self.game is None or self.game.pending is None:
            return None
        key = (id(self.game), len(self.game.actions))
        if self._slots_key != key:
            self._slots_key, self._slots_val = key, fn(self.game, self.game.pending)
        return self._slots_val

    def env_actions(self, engine_action) -> list[int]:
        """The env actions (one, or the digits of an amount) that answer the pending decision
        with ``engine_action``, e.g. a bot's choice: ``for a in env.unwrapped.env_actions(
        bot.choose(env.unwrapped.game)): env.step(a)``. See :class:`moneynb.env.BotPolicy`.

        Raises:
            ValueError: the game is over, or ``engine_action`` does not answer the decision.
        """
        d = self.game.pending if self.game is not None else None
        if d is None:
            raise ValueError("the game is over: there is no decision to answer")
        return self.codec.encode(d, engine_action, self.slots())

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
        d = self.game.pending
        if self.illegal_action != "raise" and not self._legal(agent, action):
            self._cumulative_rewards[agent] = 0.0
            for a in self.agents:
                self.rewards[a] = 0.0
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {**self.infos[agent], "illegal": True}
            self.steps_taken[agent] += 1
            if self.illegal_action == "lose":
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self._truncate_if_due(agent)
            self._accumulate_rewards()
            return
        ready, engine_action = self.codec.decode(d, action, self.slots())
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {k: v for k, v in self.infos[agent].items() if k != "illegal"}
        for a in self.agents:
            self.rewards[a] = 0.0
        self.steps_taken[agent] += 1
        if ready:
            self.game.apply(engine_action)
            scores = self._score_list()
            if self.reward_mode == "score":
                for i, a in enumerate(self.possible_agents):
                    self.rewards[a] = (scores[i] - self._scores[i]) / self.spec.scale
            self._scores = scores
            if self.game.over:
                self._finish()
            else:
                self._select()
        if not self.game.over:
            self._truncate_if_due(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _legal(self, agent: str, action) -> bool:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return False
        return 0 <= int(action) < self.codec.n and bool(self.action_mask(agent)[int(action)])

    def _truncate_if_due(self, agent: str) -> None:
        if self.max_cycles is not None and self.steps_taken[agent] >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    def _score_list(self) -> list[int]:
        s = self.game.scores()
        return [s[p] for p in self.game.players]

    def _select(self) -> None:
        # the env reads the pending decision's player, kind, range and options (computed while
        # pending), never its labels, which only describe() and the public ``decision`` show:
        # made at every step they were a third of a random agent's step in Money Run (its
        # squares in words). Source: issue 40.
        self.agent_selection = self.possible_agents[self.game.pending.player]

    def _finish(self) -> None:
        winners = set(self.game.winners)
        for i, a in enumerate(self.possible_agents):
            if i in winners:
                self.rewards[a] += self.win_reward
            elif self.reward_mode == "win":
                self.rewards[a] -= self.win_reward
        self.terminations = dict.fromkeys(self.agents, True)

    # ----- reading and showing -------------------------------------------------------------
    @property
    def decision(self):
        """The pending :class:`~moneynb.core.Decision` (what the selected agent is asked, as a
        person would see it: option slot ``k`` answers ``decision.options[k]``), or None."""
        return None if self.game is None else self.game.decision

    def describe(self, action: int) -> str:
        """What env action ``action`` means for the pending decision ("option 1: Stay")."""
        return self.codec.describe(self.game.decision, int(action), self.slots())

    def render(self):
        """``"ansi"``: the game's text log (one event a line). ``"human"``: the board's plotly
        figure in a notebook (:mod:`moneynb.figures`; later calls draw it again in the same
        output), the log printed elsewhere; returns None."""
        if self.render_mode == "rgb_array":
            from .render import board_image

            return board_image(self.game)
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

        from ..figures import drawing_for, static_figure

        if self._view is None or self._view[0] is not self.game:  # a new game: a new board
            board = drawing_for(self.game)
            board.update(self.game, list(self.game.log))
            shown = display(static_figure(board), display_id=True)
            self._view = (self.game, board, len(self.game.log), shown)
        else:
            game, board, seen, shown = self._view
            board.update(game, list(game.log[seen:]))
            shown.update(static_figure(board))  # the same output, drawn again
            self._view = (game, board, len(game.log), shown)

    def close(self) -> None:
        """Forget the board, if one was shown (it stays in the notebook as drawn)."""
        self._view = None

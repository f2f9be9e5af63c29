"""A moneynb game as a Gymnasium single-agent environment: one seat (the learner) against
built-in bots; plus :class:`BotPolicy` (a bot's choice as env actions) and the parallel form.

``MoneynbGymEnv("moolah", seat=0, opponents="greedy")`` plays seat 0 of a two-seat Moolah
against the greedy bot: every ``step`` takes one env action of the learner (the action space
and the observation vector of :class:`~moneynb.env.aec.MoneynbEnv`), then lets the bots play
until the learner must decide again or the game ends. The legal actions are
``env.action_masks()`` (the method sb3-contrib's MaskablePPO reads) and ``info["action_mask"]``.
An illegal action follows PettingZoo classic's convention by default
(``illegal_action="lose"``): reward ``illegal_reward`` (-1) and the episode ends.

Importing this module registers the versioned ids of :data:`ENV_IDS` with Gymnasium
(``gymnasium.make("moneynb/moolah-v1")``, or without importing first,
``gymnasium.make("moneynb.env.gym:moneynb/moolah-v1")``). A version is bumped whenever the
observation, action or reward definitions of that game change (docs/env.md).

Source: reconstruction (issue 29).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..bots import Bot, make_bot
from . import ENV_IDS
from .aec import MoneynbEnv
from .observe import BOUND


class BotPolicy:
    """A built-in bot as a policy over env actions: ``policy(env)`` returns the next env
    action (an int) for the agent to move in ``env`` (a :func:`~moneynb.env.make`
    environment, a :class:`MoneynbEnv` or a :class:`MoneynbGymEnv`), so imitation and
    evaluation are one line: ``env.step(policy(env))``. An amount that takes several digit
    steps is chosen once and its digits are returned one per call.

    Args:
        bot: a bot name (``"random"``, ``"greedy"``, ``"search"``) or a :class:`Bot`.
        seed: the bot's seed (when ``bot`` is a name).

    Raises:
        ValueError: unknown bot name; (on call) the game is over.
    """

    def __init__(self, bot: str | Bot = "greedy", seed: int | None = None):
        self.bot = make_bot(bot, seed=seed) if isinstance(bot, str) else bot
        self._queue: list[int] = []
        self._key: tuple = (None, -1)

    def __call__(self, env) -> int:
        raw = env.unwrapped
        if isinstance(raw, MoneynbGymEnv):
            raw = raw.aec
        # the game itself (not its id(), which Python reuses once a game is gone) and its
        # action count say whether the queued digits still belong to this decision
        key = (raw.game, len(raw.game.actions))
        if self._queue and self._key[0] is key[0] and self._key[1] == key[1]:
            return self._queue.pop(0)
        self._queue = raw.env_actions(self.bot.choose(raw.game))
        self._key = key
        return self._queue.pop(0)


class MoneynbGymEnv(gymnasium.Env):
    """One seat of a moneynb game against built-in bots (see the module docstring).

    Args:
        game: the game's name.
        players: number of seats (default 2).
        seat: the learner's seat (an int), or ``"alternate"``: seat ``seed % players`` for a
            ``reset(seed=...)`` (the same seed, the same seat and game: Gymnasium's
            ``check_env`` asks it, issue 39), else ``episode % players``.
        opponents: a bot name or :class:`Bot` for every other seat, or a list of them (one per
            other seat, in seat order).
        illegal_action: ``"lose"`` (default: reward ``illegal_reward``, episode over),
            ``"noop"`` (reward ``illegal_reward``, nothing happens but the step counts
            towards ``max_cycles``) or ``"raise"``.
        illegal_reward: see ``illegal_action`` (default -1.0).
        render_mode: None, ``"ansi"`` or ``"rgb_array"``.
        **env_kwargs: :class:`~moneynb.env.aec.MoneynbEnv` arguments (``reward``,
            ``max_cycles``, ``win_reward``, slots) and the game's options.

    Observation: the float32 vector of :class:`~moneynb.env.aec.MoneynbEnv` (``Box``); the mask
    is ``action_masks()`` and ``info["action_mask"]``. Reward: the learner's env rewards
    summed over its step and the bots' steps that follow. ``truncated`` when ``max_cycles``
    truncates the game.

    Raises:
        ValueError: bad game, players, seat, opponents or options.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(
        self,
        game: str,
        players: int = 2,
        seat: int | str = 0,
        opponents: str | Bot | list = "random",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **env_kwargs: Any,
    ):
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        if illegal_action not in ("lose", "noop", "raise"):
            raise ValueError(
                f"illegal_action must be 'lose', 'noop' or 'raise', got {illegal_action!r}"
            )
        self.aec = MoneynbEnv(game, players, render_mode=render_mode, **env_kwargs)
        if seat != "alternate" and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat must be 0..{players - 1} or 'alternate', got {seat!r}")
        if isinstance(opponents, (str, Bot)):
            opponents = [opponents] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(f"{players - 1} opponents are needed, got {len(opponents)}")
        for o in opponents:
            if isinstance(o, str):
                make_bot(o)  # an unknown name fails now
        self.opponents = list(opponents)
        self.seat_choice = seat
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        n = self.aec.codec.n
        size = len(self.aec.feature_names)
        self.observation_space = spaces.Box(-BOUND, BOUND, shape=(size,), dtype=np.float32)
        self.action_space = spaces.Discrete(n)
        self.episodes = 0
        self.seat = 0 if seat == "alternate" else seat
        self._policies: dict[int, BotPolicy] = {}

    @property
    def agent(self) -> str:
        """The learner's agent name in the AEC environment (``"player_<seat>"``)."""
        return self.aec.possible_agents[self.seat]

    @property
    def game(self):
        """The engine's game being played."""
        return self.aec.game

    def action_masks(self) -> np.ndarray:
        """Bool array: the learner's legal actions now (sb3-contrib's MaskablePPO reads it)."""
        return self.aec.action_mask(self.agent).astype(bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a game (``seed``: the same game as ``moneynb.new_game(..., seed=seed)``) and
        let the bots play up to the learner's first decision. Returns ``(obs, info)``.

        ``options={"seat": k}`` seats the learner at ``k`` (0-based) for this game only
        (``"alternate"`` for the constructor's rotation); without it, the constructor's
        ``seat``, or the current value of ``seat_choice`` if it was changed since.

        Raises:
            ValueError: an unknown option or a seat that is not ``0..players-1`` or
                ``"alternate"``; the env is unchanged.
        """
        players = len(self.aec.possible_agents)
        options = dict(options or {})
        seat = options.pop("seat", self.seat_choice)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; known: ['seat']")
        if seat != "alternate" and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat must be 0..{players - 1} or 'alternate', got {seat!r}")
        super().reset(seed=seed)
        if seat == "alternate":  # a seeded reset is the same episode every time (issue 39)
            self.seat = (seed if seed is not None else self.episodes) % players
        else:
            self.seat = seat
        self.episodes += 1
        game_seed = seed if seed is not None else int(self.np_random.integers(2**32))
        self.aec.reset(seed=game_seed)
        others = [s for s in range(players) if s != self.seat]
        bot_seeds = random.Random(game_seed)
        self._policies = {}
        for s, o in zip(others, self.opponents, strict=True):
            bot = make_bot(o, seed=bot_seeds.randrange(2**32)) if isinstance(o, str) else o
            self._policies[s] = BotPolicy(bot)
        self._reward = 0.0
        self._advance()
        return self._obs(), self._info()

    def step(self, action):
        """One learner action; the bots then play until the learner decides again.

        Returns ``(obs, reward, terminated, truncated, info)``.

        Raises:
            ValueError: an illegal action with ``illegal_action="raise"``; the env is unchanged.
        """
        legal = self.action_masks()
        ok = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
        ok = ok and 0 <= int(action) < legal.shape[0] and bool(legal[int(action)])
        if not ok and self.illegal_action != "raise":
            if self.illegal_action == "lose":
                return (
                    self._obs(),
                    self.illegal_reward,
                    True,
                    False,
                    {**self._info(), "illegal": True},
                )
            # "noop": nothing happens, but the step counts towards max_cycles, as in the AEC
            # env (it never truncated here: issue 39)
            self.aec.steps_taken[self.agent] += 1
            self.aec._truncate_if_due(self.agent)
            truncated = bool(self.aec.truncations[self.agent])
            return (
                self._obs(),
                self.illegal_reward,
                False,
                truncated,
                {**self._info(), "illegal": True},
            )
        self.aec.step(int(action) if ok else action)
        self._reward = self.aec.rewards[self.agent]
        self._advance()
        terminated = self.aec.game.over
        truncated = not terminated and self.aec.truncations[self.agent]
        return self._obs(), float(self._reward), terminated, truncated, self._info()

    def _advance(self) -> None:
        aec = self.aec
        while not aec.game.over and not aec.truncations[self.agent]:
            agent = aec.agent_selection
            seat = aec.possible_agents.index(agent)
            if seat == self.seat:
                return
            aec.step(self._policies[seat](aec))
            self._reward += aec.rewards[self.agent]

    def _obs(self) -> np.ndarray:
        return self.aec.observe(self.agent)["observation"]

    def _info(self) -> dict:
        return {"action_mask": self.aec.action_mask(self.agent), "seat": self.seat}

    def render(self):
        """``"ansi"``: the text log; ``"rgb_array"``: the picture of
        :mod:`moneynb.env.render`."""
        return self.aec.render()


class MoneynbParallelEnv(ParallelEnv):
    """The parallel form (PettingZoo ``ParallelEnv``) of a turn-based moneynb game: every live
    agent sends an action each step, and only the action of the agent the game waits on is
    played (the others are read and ignored; their masks are all zero). ``max_cycles`` counts
    parallel steps. Because parallel tools usually sample every agent's action from its whole
    space, an illegal action is a no-op by default (``illegal_action="noop"``, reward
    ``illegal_reward``); see :class:`~moneynb.env.aec.MoneynbEnv` for the other arguments.

    Raises:
        ValueError: as :class:`~moneynb.env.aec.MoneynbEnv`.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "moneynb_parallel"}

    def __init__(
        self,
        game: str,
        players: int = 2,
        max_cycles: int | None = None,
        illegal_action: str = "noop",
        render_mode: str | None = None,
        **env_kwargs: Any,
    ):
        self.aec = MoneynbEnv(
            game, players, render_mode=render_mode, illegal_action=illegal_action, **env_kwargs
        )
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or an int >= 1, got {max_cycles!r}")
        self.max_cycles = max_cycles
        self.possible_agents = list(self.aec.possible_agents)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"moneynb_{game}_parallel"}
        self.agents: list[str] = []

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed)
        self.agents = list(self.possible_agents)
        self.cycles = 0
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict):
        mover = self.aec.agent_selection
        if mover in actions and mover in self.agents:
            self.aec.step(actions[mover])
        rewards = {a: float(self.aec.rewards.get(a, 0.0)) for a in self.agents}
        self.cycles += 1
        over = self.aec.game.over or all(self.aec.terminations.values())
        cut = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        observations = {a: self.aec.observe(a) for a in self.agents}
        infos = {a: dict(self.aec.infos.get(a, {})) for a in self.agents}
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()


def _register() -> None:
    for env_id, name in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="moneynb.env.gym:MoneynbGymEnv", kwargs={"game": name}
            )


_register()

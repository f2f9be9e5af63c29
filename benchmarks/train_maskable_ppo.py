"""Baseline a researcher compares with (issue 29): a masked learner per game, trained through
the Gymnasium wrapper (``moneynb.env.gym_env``), then played against the built-in bots.

Needs the ``train`` extra, with torch's CPU wheel (not the CUDA build)::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -e ".[train]"       # in a clone of the repository

Reproduce the table of docs/env.md (the five games in sequence, each with its own budget)::

    nice -n 5 python benchmarks/train_maskable_ppo.py --games all

or one game: ``python benchmarks/train_maskable_ppo.py moolah --minutes 8``.

The recipe (every part standard and switchable):

0. **Greedy's advice as an input** (default; ``--no-hint`` for the observation alone): the
   observation vector is followed by a one-hot of the env action the greedy bot would take
   now (:class:`Hinted`; the greedy bot reads only what the seat may see, so nothing hidden
   is added). Without it the clone of greedy stays far below greedy (docs/env.md: the
   observation does not carry all greedy computes, e.g. the fork lookahead in Moolah), so
   the fine-tuning starts from a policy that already plays as well as greedy and PPO has to
   find where deviating pays ("residual" learning on top of a heuristic). The hint is also
   added to the action logits (:class:`HintPriorPolicy`, ``--hint-prior``, default 4; 0 for
   an input only), so even an untrained network plays greedy's action in every state.
1. **Behaviour cloning warm start** (``--bc-games``, ``--bc-epochs``): the greedy bot plays
   the learner's seat (:class:`moneynb.env.BotPolicy` gives its choices as env actions)
   against the training opponents; the ``(observation, mask, action)`` pairs train
   MaskablePPO's policy network by cross-entropy over the *masked* logits, and its value head
   regresses the discounted return of those games (so the fine-tuning starts with a critic
   that matches the actor), for ``--bc-epochs`` passes or more, until at least
   ``--bc-min-updates`` gradient steps. Then ``--dagger-rounds`` rounds of DAgger (Ross, Gordon and
   Bagnell 2011): the clone plays ``--dagger-games`` games, greedy labels the states it
   visits, and the clone is trained ``--dagger-epochs`` more on all the data (default 0
   rounds: with the hint the clone is exact after a few epochs; use 2 with ``--no-hint``).
   ``--bc-games 0`` skips both (PPO from scratch).
1b. **Rollout teacher** (``--teacher``; ``--teacher-tags``, ``--teacher-playouts``,
   ``--teacher-minutes``): the demonstrations come from :class:`RolloutTeacher` instead of
   greedy: policy improvement by the engine (at the money decisions of
   :data:`TEACHER_TAGS` each option is played to the end of the game from the same
   resampled copies with greedy after, and the best by win share is taken when it beats
   greedy's choice by a standard error; greedy's choice elsewhere), the "expert iteration"
   idea (Anthony, Tian and Barber 2017) with a one-step rollout algorithm as the expert. Its
   games are played against the greedy opponents only, until ``--teacher-minutes`` of wall
   time (counted in ``--minutes``). The network then imitates it, the greedy hint still an
   input, so it learns where to deviate from greedy; MaskablePPO fine-tunes from there.
   ``--workers W`` plays the demonstration games in ``W`` processes (game ``i`` in worker
   ``i % W``: the same deals and seats); ``--teacher-turns k`` stops the teacher's play-outs
   at the seat's ``k``-th turn from now (cheaper; the measure is then mostly the score lead).
2. **Observation normalisation** (``--no-normalize`` to skip): each entry is shifted and
   scaled by the mean and standard deviation seen in the demonstration games (or in random
   games without BC), fixed for the whole run and saved with the policy (the hint is left
   as 0/1).
3. **MaskablePPO fine-tuning** (sb3-contrib) against a mix of opponents (``--opponents``, one
   vector environment per entry, default three greedy and one random), seats alternated,
   sparse reward by default (``--reward win``: +1 for a sole or shared win, -1 otherwise;
   ``--reward score`` adds the dense score changes), a larger network (``--net 256,256``),
   entropy bonus ``--ent-coef``, rollout ``--n-steps`` per environment, a small learning rate
   (``--lr``) so the clone is refined rather than forgotten. ``--subproc`` runs each table
   in its own process (sb3's ``SubprocVecEnv``). ``--select-games N`` then plays the clone and
   the fine-tuned policy ``N`` games each against greedy on *validation* deals (seeds
   2,000,000 +, duplicate; never used in evaluation) and keeps the better as ``<game>.zip``
   (PPO's is also saved as ``<game>-ppo.zip``): standard model selection, for games where the
   fine-tuning lowered the clone (docs/env.md, third round: Easy Money).
4. **Evaluation**: ``--eval-games`` (default 400) games against each of random and greedy
   (and, for Money Run, the search bot with a fixed node budget, ``--search-nodes``), seats
   alternated (the learner opens in even games), **duplicate** deals: games ``2k`` and
   ``2k + 1`` are the same deal (seed 1,000,000 + k, never used in training) with the seats
   swapped, so a deal's luck is played from both sides (the format of duplicate bridge and of
   poker-bot matches); ``--no-duplicate`` gives the first three rounds' seeds (1,000,000 +
   game index), on which greedy against greedy won 197, 175 and 206 of 400 in Moolah, Easy
   Money and Money Card, where duplicate deals give exactly 200 in the first two. The policy plays its most likely legal action (*argmax*) and, as a second
   column, samples from its masked distribution (*sample*). A win is a *sole* win; a game cut
   by ``--max-cycles`` counts as not won and is reported. Win rates come with Wilson 95%
   intervals (:func:`moneynb.analysis.stats.wilson_interval`, which treats the games as
   independent) and, for duplicate deals, the paired 95% interval over the deals
   (:func:`paired_interval`: each deal's share of the two games won, 0, 1/2 or 1). Greedy itself is played in
   the learner's seat too (``--no-reference`` skips it): what a perfect clone would reach.

Budget: ``--minutes`` is the wall-clock cap on BC plus PPO for one game (the issue allows at
most 30); ``--games all`` uses :data:`MINUTES` per game unless ``--minutes`` is given. One
torch thread. Reported per game: env steps, games, wall seconds AND processor seconds of
training (``time.process_time``), and the 1-minute load average sampled during training (the
machine is shared). Trained policies go to ``--out`` (default ``runs/agents/``, ignored by
git): ``<game>.zip`` (sb3 model), ``<game>-bc.zip`` (the same before PPO), ``<game>.npz``
(normalisation), ``<game>.json`` (figures);
``--games all`` also writes ``table.md``.

Options: ``--seed``, ``--max-cycles`` (default 3,000 learner steps), ``--batch-size``,
``--n-epochs``, ``--gamma``, ``--clip``, ``--sample-games`` (games per opponent for the
sampling column; 0 skips it), ``--eval-only`` (load ``--out/<game>.zip`` and evaluate),
``--resume`` (``--minutes`` more PPO on the saved policy, figures added to the saved ones).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import gymnasium
import numpy as np

try:  # the train extra; without it only the helpers that need no network work
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
except ImportError:  # pragma: no cover - the module is skipped by its tests then
    MaskableActorCriticPolicy = object

GAMES = ["moolah", "easy_money", "money_card", "money_moves", "money_run"]

#: minutes of training (BC + PPO) per game for ``--games all``: chosen so the five games and
#: their evaluations fit about an hour on a shared 2-core machine; the issue allows up to 30
MINUTES = {"moolah": 6, "easy_money": 7, "money_card": 6, "money_moves": 2, "money_run": 5}


class Normalized(gymnasium.ObservationWrapper):
    """The wrapper's observation shifted by ``mean`` and divided by ``std`` (fixed arrays of
    the observation's length), clipped to +-10; ``action_masks()`` passes through."""

    def __init__(self, env, mean: np.ndarray, std: np.ndarray):
        super().__init__(env)
        self.mean = mean.astype(np.float32)
        self.std = std.astype(np.float32)
        n = mean.shape[0]
        self.observation_space = gymnasium.spaces.Box(-10.0, 10.0, shape=(n,), dtype=np.float32)

    def observation(self, obs):
        return np.clip((obs - self.mean) / self.std, -10.0, 10.0).astype(np.float32)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def hint_vector(expert, env) -> np.ndarray:
    """One-hot (float32, the action space's size) of the env action ``expert`` (a
    :class:`moneynb.env.BotPolicy`) would take now; all zero when it has none that is legal
    (inside an amount the learner began entering otherwise)."""
    raw = env.unwrapped
    v = np.zeros(raw.action_space.n, np.float32)
    try:
        a = expert(raw)
    except ValueError:
        return v
    if raw.action_masks()[a]:
        v[a] = 1.0
    return v


class Hinted(gymnasium.ObservationWrapper):
    """The observation followed by :func:`hint_vector` of the greedy bot for the learner's
    seat (``--hint``): the greedy bot sees only what the seat may see, so this adds no hidden
    information, only greedy's reading of it."""

    def __init__(self, env, seed: int = 0):
        import moneynb.env as menv

        super().__init__(env)
        self.expert = menv.BotPolicy("greedy", seed=seed)
        n = env.observation_space.shape[0] + env.action_space.n
        self.observation_space = gymnasium.spaces.Box(-1e6, 1e6, shape=(n,), dtype=np.float32)

    def observation(self, obs):
        if self.env.unwrapped.game.over:
            return np.concatenate([obs, np.zeros(self.env.action_space.n, np.float32)])
        return np.concatenate([obs, hint_vector(self.expert, self.env)])

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


#: the decisions where the rollout teacher (``--teacher``) may overrule greedy, per game:
#: the money decisions whose greedy rule is a fixed magic number (Moolah's $50,000 reserve
#: and one-third Casino bet, Easy Money's $150 reserve and half-gap bids, Money Card's
#: destinations and bets); elsewhere the teacher's label is greedy's choice
TEACHER_TAGS = {
    "moolah": "bank,bank_amount,casino_bet,casino_raise,wall_street,wall_street_amount,gamble,take_pal",
    "easy_money": "buy,lone_bidder,bid,offer_reply,debt",
    "money_card": "move,bet,color,charge,express,join",
    "money_moves": "",
    "money_run": "",
}


def _win_and_lead(game, seat: int) -> float:
    """The rollout teacher's measure: ``seat``'s share of the win (1, ``1/k`` for a tie of
    ``k``, 0) plus ``1e-6`` times its engine score lead over the best other player (dollars
    or points, :func:`moneynb.coach.rollouts.lead_measure`), so a lost play-out still counts
    by how far it was lost."""
    from moneynb.coach.rollouts import lead_measure, win_measure

    return win_measure(game, seat) + 1e-6 * lead_measure(game, seat)


class RolloutTeacher:
    """Policy improvement by the engine (a one-step "rollout algorithm", Bertsekas; Tesauro and
    Galperin 1996): at a decision whose tag is in ``tags`` the teacher plays each option (the
    engine's discrete options, and for an amount range its limits and middle,
    :func:`moneynb.coach.rollouts.amounts`, plus greedy's own choice) ``n`` times to the end of
    the game from the same resampled copies (:func:`moneynb.coach.rollouts.play_outs`: the
    copies' hidden chance drawn afresh, common random numbers, greedy for every seat after)
    (or, with ``turns``, only until the seat's ``turns``-th turn from now: a cheaper, shorter
    look whose measure is then mostly the score lead)
    and takes the option with the best mean of :func:`_win_and_lead` when it beats greedy's
    choice by more than one standard error of their paired differences; otherwise, and at
    every other decision, greedy's choice. A :class:`moneynb.bots.Bot` (``choose(game)``), so
    :class:`moneynb.env.BotPolicy` turns its choices into env actions. Reads only what the
    seat may see (the play-outs start from resampled copies). ``calls``, ``changed`` and
    ``seconds`` (processor time in play-outs) count its work."""

    def __init__(self, tags: set[str], n: int = 24, seed: int = 0, turns: int | None = None):
        import random

        from moneynb.bots import GreedyBot

        self.tags, self.n, self.turns = tags, n, turns
        self.greedy = GreedyBot(seed=seed)
        self.rng = random.Random(seed)
        self.calls = self.changed = 0
        self.seconds = 0.0

    def choose(self, game):
        from moneynb.coach.rollouts import amounts, play_outs

        d = game.decision
        g = self.greedy.choose(game)
        if d.tag not in self.tags:
            return g
        cands = [g, *d.options]
        if d.kind == "amount":
            cands += amounts(d, 3)
        moves: dict = {}
        for c in cands:
            moves.setdefault(repr(c), (c,))
        if len(moves) < 2:
            return g
        t0 = time.process_time()
        po = play_outs(game, moves, measure=_win_and_lead, n=self.n, turns=self.turns,
                       seed=self.rng.randrange(1 << 30))  # fmt: skip
        self.seconds += time.process_time() - t0
        self.calls += 1
        best = max(moves, key=po.mean)
        if best == repr(g):
            return g
        diff, two_se = po.gap(best, repr(g))
        if diff > two_se / 2:
            self.changed += 1
            return moves[best][0]
        return g


class HintPriorPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic whose action logits are the network's plus ``w`` times the
    greedy hint (the last ``hint_size`` observation entries, :class:`Hinted`), ``w`` a
    learned scalar starting at ``hint_prior``: a *residual policy* on a heuristic's prior
    (``--hint-prior``; 0 switches it off and the hint is then only an input).

    Why: with the hint only as an input the network must learn to copy each of the action
    slots separately, and learns it only for the slots and states its demonstrations cover.
    Money Run's clone copied greedy in every demonstration state (accuracy 1.0) yet in 5,989
    of its 9,462 steps against random (100 games) chose otherwise, and won 0.875 where greedy
    wins 1.000 (docs/env.md, third round): greedy's games against greedy cover few states.
    With the prior, the untrained network already plays greedy's action everywhere (argmax),
    and cloning and PPO learn where to deviate."""

    def __init__(self, *args, hint_size: int = 0, hint_prior: float = 4.0, **kwargs):
        import torch

        super().__init__(*args, **kwargs)
        self.hint_size = hint_size
        self.hint_weight = torch.nn.Parameter(torch.tensor(float(hint_prior)))
        self._prior = None

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        data.update(hint_size=self.hint_size, hint_prior=float(self.hint_weight.detach()))
        return data

    def prior_logits(self, obs):
        """``w`` times the hint part of ``obs`` (a float tensor of observations, rows)."""
        return self.hint_weight * obs[..., -self.hint_size :].float()

    def _get_action_dist_from_latent(self, latent_pi):
        logits = self.action_net(latent_pi)
        if self._prior is not None:
            logits = logits + self._prior
        return self.action_dist.proba_distribution(action_logits=logits)

    def _with_prior(self, method, obs, *args, **kwargs):
        self._prior = self.prior_logits(obs)
        try:
            return method(obs, *args, **kwargs)
        finally:
            self._prior = None

    def forward(self, obs, *args, **kwargs):
        return self._with_prior(super().forward, obs, *args, **kwargs)

    def evaluate_actions(self, obs, *args, **kwargs):
        return self._with_prior(super().evaluate_actions, obs, *args, **kwargs)

    def get_distribution(self, obs, *args, **kwargs):
        return self._with_prior(super().get_distribution, obs, *args, **kwargs)


def make_env(game: str, opponent, reward: str, max_cycles: int, norm=None, hint=False):
    import moneynb.env as menv

    env = menv.gym_env(
        game, seat="alternate", opponents=opponent, reward=reward, max_cycles=max_cycles
    )
    if hint:
        env = Hinted(env)
    return env if norm is None else Normalized(env, *norm)


def collect_demos(
    game,
    opponents,
    n_games,
    reward,
    max_cycles,
    gamma,
    seed,
    expert="greedy",
    hint=False,
    deadline=None,
    info=None,
    start=0,
    stride=1,
):
    """Play games ``start, start + stride, ...`` below ``n_games`` (game ``i`` seeded ``seed +
    i``) with the ``expert`` bot (a name, or a :class:`RolloutTeacher`) in the learner's seat
    (seats alternated, opponents taken in turn from ``opponents``); no new game starts after
    ``deadline`` (a ``time.perf_counter()`` value). Returns raw observations, masks, the
    expert's env actions and the discounted returns (float32 / bool / int64 / float32).
    ``info`` (a dict), if given, receives ``"games"``: the games played."""
    import moneynb.env as menv

    envs = [make_env(game, o, reward, max_cycles, hint=hint) for o in opponents]
    obs_l, mask_l, act_l, ret_l = [], [], [], []
    played = 0
    for i in range(start, n_games, stride):
        if deadline is not None and time.perf_counter() > deadline:
            break
        played += 1
        if info is not None:
            info["games"] = played
        env = envs[i % len(envs)]
        policy = menv.BotPolicy(expert, seed=seed + i)
        # seats alternate at each table (games i, i + T, i + 2T, ... of T tables), as the
        # tables' own rotation did before; a function of i alone, so any --workers agrees
        seat = (i // len(envs)) % len(env.unwrapped.aec.possible_agents)
        obs, _ = env.reset(seed=seed + i, options={"seat": seat})
        rewards, done = [], False
        while not done:
            a = policy(env)
            obs_l.append(obs)
            mask_l.append(env.action_masks())
            act_l.append(a)
            obs, r, term, trunc, _ = env.step(a)
            rewards.append(r)
            done = term or trunc
        g, rets = 0.0, []
        for r in reversed(rewards):
            g = r + gamma * g
            rets.append(g)
        ret_l.extend(reversed(rets))
    n_obs, n_act = envs[0].observation_space.shape[0], envs[0].action_space.n
    return (
        np.asarray(obs_l, np.float32).reshape(-1, n_obs),
        np.asarray(mask_l, bool).reshape(-1, n_act),
        np.asarray(act_l, np.int64),
        np.asarray(ret_l, np.float32),
    )


def _demo_worker(job: dict) -> tuple:
    """One process's share of :func:`collect_demos` (``--workers``): games ``job["start"]``,
    ``+ job["stride"]``, ... with its own :class:`RolloutTeacher` (seeded ``seed + start``) or
    the named bot. Returns ``(demos, games played, teacher calls, changed, seconds)``."""
    import torch

    torch.set_num_threads(1)
    tags, expert = job.pop("tags"), job.pop("expert")
    if tags:
        expert = RolloutTeacher(set(tags.split(",")), job.pop("playouts"),
                                job["seed"] + job["start"], job.pop("turns"))  # fmt: skip
    else:
        job.pop("playouts"), job.pop("turns")
    info: dict = {"games": 0}
    demos = collect_demos(expert=expert, info=info, **job)
    t = expert if tags else None
    return demos, info["games"], getattr(t, "calls", 0), getattr(t, "changed", 0), \
        getattr(t, "seconds", 0.0)  # fmt: skip


def collect_demos_parallel(
    workers: int, tags: str | None, playouts: int, turns: int | None = None, **job
) -> tuple:
    """:func:`collect_demos` in ``workers`` processes (each a stride of the game indices: the
    same deals and seats whatever the number of workers, up to the deadline; a teacher's
    play-outs are seeded per worker). ``tags``: the
    rollout teacher's tags, or None for the named ``job["expert"]``. Returns ``(demos, info)``
    with ``info`` holding ``games``, and for the teacher ``calls``, ``changed`` and
    ``seconds`` (processor seconds in play-outs, summed over the workers)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    jobs = [{**job, "tags": tags, "playouts": playouts, "turns": turns, "start": w,
             "stride": workers}
            for w in range(workers)]  # fmt: skip
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        parts = list(pool.map(_demo_worker, jobs))
    demos = tuple(np.concatenate([p[0][k] for p in parts]) for k in range(4))
    info = {
        "games": sum(p[1] for p in parts),
        "calls": sum(p[2] for p in parts),
        "changed": sum(p[3] for p in parts),
        "seconds": sum(p[4] for p in parts),
    }
    return demos, info


def dagger_round(game, opponents, n_games, player, reward, max_cycles, gamma, seed, hint=False):
    """One DAgger round (Ross, Gordon and Bagnell 2011): the learner (``player``, sampling)
    plays ``n_games``; at each of its states the greedy bot's action is recorded as the label.
    Returns data as :func:`collect_demos` (returns are the learner's own). States inside an
    amount the learner started entering digit by digit are skipped (greedy chose no digits
    there)."""
    import moneynb.env as menv

    envs = [make_env(game, o, reward, max_cycles, hint=hint) for o in opponents]
    obs_l, mask_l, act_l, ret_l = [], [], [], []
    for i in range(n_games):
        env = envs[i % len(envs)]
        expert = menv.BotPolicy("greedy", seed=seed + i)
        obs, _ = env.reset(seed=seed + i)
        rewards, labelled, done = [], [], False
        while not done:
            try:
                label = expert(env)
            except ValueError:
                label = None
            if label is not None and not env.action_masks()[label]:
                label = None  # a later digit of an amount greedy began otherwise
            a = player(env, obs)
            if label is not None:
                obs_l.append(obs)
                mask_l.append(env.action_masks())
                act_l.append(label)
            labelled.append(label is not None)
            obs, r, term, trunc, _ = env.step(a)
            rewards.append(r)
            done = term or trunc
        g, rets = 0.0, []
        for r, keep in zip(reversed(rewards), reversed(labelled), strict=True):
            g = r + gamma * g
            if keep:
                rets.append(g)
        ret_l.extend(reversed(rets))
    return (
        np.asarray(obs_l, np.float32).reshape(-1, envs[0].observation_space.shape[0]),
        np.asarray(mask_l, bool).reshape(-1, envs[0].action_space.n),
        np.asarray(act_l, np.int64),
        np.asarray(ret_l, np.float32),
    )


def behaviour_clone(model, demos, norm, epochs, batch, lr, deadline, seed, min_updates=0):
    """Cross-entropy over the masked logits (policy) and mean squared error to the return
    (value), Adam at ``lr``, for ``epochs`` passes over the demonstrations, or more passes
    when that is fewer than ``min_updates`` gradient steps (a pass is ``ceil(n / batch)``
    steps: a few hundred demonstration games make few steps a pass, and Money Run's clone
    after 4 passes, 72 steps, copied the greedy hint in only 0.933 of states; docs/env.md,
    third round). Stops at ``deadline`` (a ``time.perf_counter()`` value). Returns the final
    accuracy on the demonstrations (argmax equals the expert's action)."""
    import math

    import torch

    obs, masks, acts, rets = demos
    epochs = max(epochs, math.ceil(min_updates / max(math.ceil(len(acts) / batch), 1)))
    x = torch.as_tensor(np.clip((obs - norm[0]) / norm[1], -10, 10))
    m, a, r = torch.as_tensor(masks), torch.as_tensor(acts), torch.as_tensor(rets)
    policy = model.policy
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    n = len(a)
    for _epoch in range(epochs):
        if time.perf_counter() > deadline:
            break
        perm = torch.randperm(n, generator=gen)
        for i in range(0, n, batch):
            idx = perm[i : i + batch]
            values, logp, _ = policy.evaluate_actions(x[idx], a[idx], action_masks=m[idx])
            loss = -logp.mean() + 0.5 * ((values.flatten() - r[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
    with torch.no_grad():
        correct = 0
        for i in range(0, n, 4096):
            dist = policy.get_distribution(x[i : i + 4096], action_masks=m[i : i + 4096])
            correct += (dist.get_actions(deterministic=True) == a[i : i + 4096]).sum().item()
    return correct / n


class PolicyPlayer:
    """A trained policy choosing env actions: argmax (``sample=False``) or a draw from the
    masked distribution (seeded)."""

    def __init__(self, model, norm, sample: bool = False, seed: int = 0):
        import torch

        self.torch = torch
        self.policy = model.policy
        self.norm = norm
        self.sample = sample
        self.gen = torch.Generator().manual_seed(seed)

    def choose(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Actions (int64, one per row) for a batch of un-normalised observations ``obs``
        (rows) and bool ``masks``: the actor network's logits, masked, then argmax or a
        draw. (The network is called directly: building sb3's distribution object for every
        single step was most of the evaluation's cost.)"""
        torch = self.torch
        if self.norm is not None:
            obs = np.clip((obs - self.norm[0]) / self.norm[1], -10, 10)
        p = self.policy
        with torch.no_grad():
            x = p.features_extractor(torch.as_tensor(obs, dtype=torch.float32))
            logits = p.action_net(p.mlp_extractor.forward_actor(x))
            if hasattr(p, "prior_logits"):  # a HintPriorPolicy (saved from __main__ by value)
                logits = logits + p.prior_logits(torch.as_tensor(obs, dtype=torch.float32))
            logits[~torch.as_tensor(masks)] = -torch.inf
            if self.sample:
                probs = torch.softmax(logits, dim=1)
                return torch.multinomial(probs, 1, generator=self.gen)[:, 0].numpy()
            return torch.argmax(logits, dim=1).numpy()

    def __call__(self, env, obs) -> int:
        """The action for ``obs`` (the un-normalised observation ``env`` returned)."""
        return int(self.choose(obs[None], env.unwrapped.action_masks()[None])[0])


#: the first seed of the evaluation games (never used in training) and of the validation
#: games that ``--select-games`` picks the kept policy on (never used in evaluation)
EVAL_SEED, SELECT_SEED = 1_000_000, 2_000_000


def eval_seed(index: int, duplicate: bool, base: int = EVAL_SEED) -> int:
    """The seed of evaluation game ``index`` (the learner sits in seat ``index % 2``): ``base +
    index``, or with ``duplicate`` ``base + index // 2``, so each deal is played twice with
    the seats swapped (the "duplicate" format of bridge and of poker-bot matches: the luck of
    a deal is played from both sides and cancels in the pair)."""
    return base + (index // 2 if duplicate else index)


def training_seed_clash(args) -> str | None:
    """Why the seeds training may use (``--seed``, the demonstration games, ``--dagger-rounds``
    rounds of ``--dagger-games`` games at ``--seed + 10,000 * round``) could reach the
    evaluation seeds (:data:`EVAL_SEED` on), or None when they cannot (issue 39: nothing
    stopped a chosen ``--seed`` or many DAgger rounds from training on evaluation games)."""
    if args.seed < 0:
        return f"--seed must be 0 or more, got {args.seed}"
    games = max(getattr(args, "bc_games", 0), getattr(args, "dagger_games", 0), 10_000)
    top = args.seed + 10_000 * (getattr(args, "dagger_rounds", 0) + 1) + games
    if top >= EVAL_SEED:
        return (
            f"training seeds reach {top:,}, past the first evaluation seed {EVAL_SEED:,}: "
            "choose a smaller --seed or fewer --dagger-rounds"
        )
    return None


def paired_interval(record: list) -> dict | None:
    """For a duplicate evaluation's ``record`` (``(index, seat, won)`` rows): the mean over
    deals of the pair's win share (0, 1/2 or 1) with its normal 95% interval
    (:func:`moneynb.analysis.stats.mean_interval`); the pairing removes the deal's luck, which
    the Wilson interval over single games counts as noise. None without complete pairs."""
    from moneynb.analysis.stats import mean_interval, wilson_interval

    deals: dict = {}
    for index, _seat, won in record:
        deals.setdefault(index // 2, []).append(float(won))
    pairs = [sum(v) / 2 for v in deals.values() if len(v) == 2]
    if len(pairs) < 2:
        return None
    m, lo, hi = mean_interval(pairs)  # (the normal interval, kept within 0..1)
    # never narrower than the Wilson interval over the deals (each deal one trial scoring its
    # share): when every deal has the same share the normal interval has zero width
    # ("paired 1.000-1.000" from 200 deals all won; issue 39)
    w_lo, w_hi = wilson_interval(sum(pairs), len(pairs))
    return {
        "pairs": len(pairs),
        "mean": m,
        "low": max(min(lo, w_lo), 0.0),
        "high": min(max(hi, w_hi), 1.0),
    }


def evaluate_batched(
    game, player, opponent, n_games, max_cycles, hint=False, width=32, record=None,
    duplicate=True, base=EVAL_SEED,
):  # fmt: skip
    """As :func:`evaluate` for a :class:`PolicyPlayer`, with ``width`` games under way at
    once so the network runs on a batch; the same games (seeds :func:`eval_seed`, the
    learner in seat ``index % 2``). ``opponent``: a bot name, or a callable making a fresh
    :class:`~moneynb.bots.Bot` for each of the ``width`` tables. ``record``: a list that
    receives ``(game index, learner's seat, sole win)`` per game."""
    envs = [
        make_env(game, opponent() if callable(opponent) else opponent, "win", max_cycles,
                 hint=hint)
        for _ in range(min(width, n_games))
    ]  # fmt: skip
    obs, started, won, capped, index = {}, 0, 0, 0, {}

    def start(i: int) -> None:
        nonlocal started
        seat = started % len(envs[i].unwrapped.aec.possible_agents)
        obs[i] = envs[i].reset(seed=eval_seed(started, duplicate, base), options={"seat": seat})[0]
        index[i] = started
        started += 1

    for i in range(len(envs)):
        start(i)
    while obs:
        idx = list(obs)
        masks = np.stack([envs[i].unwrapped.action_masks() for i in idx])
        actions = player.choose(np.stack([obs[i] for i in idx]), masks)
        for i, a in zip(idx, actions, strict=True):
            o, _, terminated, truncated, _ = envs[i].step(int(a))
            if not (terminated or truncated):
                obs[i] = o
                continue
            raw = envs[i].unwrapped
            capped += bool(truncated)
            win = raw.seat in raw.game.winners and len(raw.game.winners) == 1
            won += win
            if record is not None:
                record.append((index[i], raw.seat, win))
            del obs[i]
            if started < n_games:
                start(i)
    return won, capped


def evaluate(
    game, player, opponent, n_games, max_cycles, hint=False, record=None, duplicate=True,
    base=EVAL_SEED,
) -> tuple[int, int]:  # fmt: skip
    """``(sole wins, capped games)`` of ``player`` (a callable ``(env, obs) -> action``) over
    ``n_games`` seeded games (:func:`eval_seed`) against ``opponent``, the learner in seat
    ``index % 2``. ``record`` as in :func:`evaluate_batched`."""
    env = make_env(game, opponent, "win", max_cycles, hint=hint)
    raw = env.unwrapped
    won = capped = 0
    for g in range(n_games):
        seat = g % len(raw.aec.possible_agents)
        obs, _ = env.reset(seed=eval_seed(g, duplicate, base), options={"seat": seat})
        done = truncated = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(player(env, obs))
            done = terminated or truncated
        capped += bool(truncated)
        win = raw.seat in raw.game.winners and len(raw.game.winners) == 1
        won += win
        if record is not None:
            record.append((g, raw.seat, win))
    return won, capped


def _children_cpu() -> float:
    """Processor seconds of this process's ended child processes (``--workers``,
    ``--subproc``), which ``time.process_time()`` does not count."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def train_game(game: str, args) -> dict:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    def vec_env(fns):  # one process per table with --subproc (the engine's moves in parallel)
        if args.subproc:
            return SubprocVecEnv(fns, start_method="fork")
        return DummyVecEnv(fns)

    import moneynb.env as menv
    from moneynb.analysis.stats import wilson_interval

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    minutes = args.minutes if args.minutes is not None else MINUTES.get(game, 8)
    opponents = args.opponents.split(",")
    result: dict = {"game": game, "minutes_cap": minutes, "args": vars(args).copy()}
    loads: list[float] = [os.getloadavg()[0]]

    if args.eval_only:
        model = MaskablePPO.load(out / f"{game}.zip", device="cpu")
        z = np.load(out / f"{game}.npz")
        norm = (z["mean"], z["std"]) if z["mean"].size else None
        old = out / f"{game}.json"
        if old.exists():
            result = {**json.loads(old.read_text()), **result}
    elif args.resume:
        # more PPO on a saved policy (same normalisation); the figures add up
        z = np.load(out / f"{game}.npz")
        norm = (z["mean"], z["std"]) if z["mean"].size else None
        venv = vec_env(
            [
                lambda o=o: make_env(game, o, args.reward, args.max_cycles, norm, args.hint)
                for o in opponents
            ]  # fmt: skip
        )
        model = MaskablePPO.load(out / f"{game}.zip", env=venv, device="cpu")
        prev = json.loads((out / f"{game}.json").read_text())
        wall0, cpu0 = time.perf_counter(), time.process_time()
        deadline = wall0 + minutes * 60

        class Deadline2(BaseCallback):
            def _on_step(self) -> bool:
                if self.n_calls % 2000 == 0:
                    loads.append(os.getloadavg()[0])
                return time.perf_counter() < deadline

        steps0 = model.num_timesteps
        model.learn(total_timesteps=args.steps, callback=Deadline2(), reset_num_timesteps=False)
        result = {**prev, **result}
        result["ppo_steps"] = prev["ppo_steps"] + int(model.num_timesteps - steps0)
        result["ppo_games"] = prev["ppo_games"] + sum(venv.get_attr("episodes"))
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        result["train_wall_s"] = round(prev["train_wall_s"] + wall, 1)
        result["train_cpu_s"] = round(prev["train_cpu_s"] + cpu, 1)
        loads.append(os.getloadavg()[0])
        mean_load = float(np.mean(loads))
        result["load_avg_mean"] = round(
            (prev["load_avg_mean"] * prev["train_wall_s"] + mean_load * wall)
            / (prev["train_wall_s"] + wall),
            2,
        )
        result["resumed"] = prev.get("resumed", 0) + 1
        model.save(out / f"{game}.zip")
        print(
            f"{game}: resumed, PPO now {result['ppo_steps']:,} steps; "
            f"{result['train_wall_s']:.0f} s wall, {result['train_cpu_s']:.0f} s processor",
            flush=True,
        )
    else:
        wall0, cpu0, child0 = time.perf_counter(), time.process_time(), _children_cpu()
        deadline = wall0 + minutes * 60
        demos = None
        if args.bc_games:
            expert, demo_deadline, info = "greedy", None, {}
            tags = TEACHER_TAGS.get(game, "") if args.teacher_tags is None else args.teacher_tags
            if args.teacher and tags:
                expert = RolloutTeacher(set(tags.split(",")), args.teacher_playouts, args.seed,
                                        args.teacher_turns)  # fmt: skip
                demo_deadline = wall0 + args.teacher_minutes * 60
            demo_opps = opponents
            if not isinstance(expert, str):  # the teacher's time is spent where it matters
                demo_opps = [o for o in opponents if o != "random"] or opponents
            if args.workers > 1:  # each worker makes its own teacher from the tags
                named = isinstance(expert, str)
                demos, info = collect_demos_parallel(
                    args.workers, None if named else tags, args.teacher_playouts,
                    args.teacher_turns, game=game, opponents=demo_opps, n_games=args.bc_games,
                    reward=args.reward, max_cycles=args.max_cycles, gamma=args.gamma,
                    seed=args.seed, expert=expert if named else "greedy", hint=args.hint,
                    deadline=demo_deadline,
                )  # fmt: skip
            else:
                demos = collect_demos(
                    game, demo_opps, args.bc_games, args.reward, args.max_cycles, args.gamma,
                    args.seed, expert=expert, hint=args.hint, deadline=demo_deadline,
                    info=info,
                )  # fmt: skip
                if not isinstance(expert, str):
                    info.update(calls=expert.calls, changed=expert.changed,
                                seconds=expert.seconds)  # fmt: skip
            stats_obs = demos[0]
            if not isinstance(expert, str):
                result["teacher"] = {
                    "tags": tags, "playouts": args.teacher_playouts,
                    "games": info["games"], "workers": args.workers,
                    "calls": info["calls"], "changed": info["changed"],
                    "seconds": round(info["seconds"], 1),
                }  # fmt: skip
        else:
            stats_obs = collect_demos(
                game, opponents, 50, args.reward, args.max_cycles, args.gamma, args.seed,
                expert="random", hint=args.hint,
            )[0]  # fmt: skip
        norm = None
        if args.normalize:
            norm = (stats_obs.mean(0), np.maximum(stats_obs.std(0), 1e-3))
            if args.hint:  # the one-hot hint is left as it is
                k = make_env(game, "random", "win", 1).action_space.n
                norm[0][-k:], norm[1][-k:] = 0.0, 1.0
        loads.append(os.getloadavg()[0])
        result["demo_steps"] = 0 if demos is None else len(demos[2])
        result["demo_seconds"] = round(time.perf_counter() - wall0, 1)

        venv = vec_env(
            [
                lambda o=o: make_env(game, o, args.reward, args.max_cycles, norm, args.hint)
                for o in opponents
            ]  # fmt: skip
        )
        net = [int(w) for w in args.net.split(",")]
        policy_kwargs: dict = {"net_arch": {"pi": net, "vf": net}}
        policy_class = "MlpPolicy"
        if args.hint and args.hint_prior:
            policy_class = HintPriorPolicy
            policy_kwargs.update(hint_size=venv.action_space.n, hint_prior=args.hint_prior)
        model = MaskablePPO(
            policy_class,
            venv,
            learning_rate=args.lr,
            n_steps=args.n_steps,
            batch_size=args.batch_size,
            n_epochs=args.n_epochs,
            gamma=args.gamma,
            gae_lambda=0.95,
            clip_range=args.clip,
            ent_coef=args.ent_coef,
            policy_kwargs=policy_kwargs,
            seed=args.seed,
            verbose=0,
            device="cpu",
        )
        if demos is not None:
            result["bc_accuracy"] = round(
                behaviour_clone(
                    model,
                    demos,
                    norm,
                    args.bc_epochs,
                    256,
                    1e-3,
                    deadline,
                    args.seed,
                    args.bc_min_updates,
                ),
                4,
            )
            for k in range(args.dagger_rounds):
                if time.perf_counter() > deadline:
                    break
                player = PolicyPlayer(model, norm, sample=True, seed=args.seed + k)
                more = dagger_round(
                    game, opponents, args.dagger_games, player, args.reward, args.max_cycles,
                    args.gamma, args.seed + 10_000 * (k + 1), hint=args.hint,
                )  # fmt: skip
                demos = tuple(np.concatenate([a, b]) for a, b in zip(demos, more, strict=True))
                result["bc_accuracy"] = round(
                    behaviour_clone(
                        model, demos, norm, args.dagger_epochs, 256, 1e-3, deadline,
                        args.seed + k, args.bc_min_updates,
                    ),
                    4,
                )  # fmt: skip
            result["demo_steps"] = len(demos[2])
        result["bc_seconds"] = round(time.perf_counter() - wall0, 1)
        if demos is not None:  # the clone before PPO, to tell what the fine-tuning changed
            model.save(out / f"{game}-bc.zip")
        loads.append(os.getloadavg()[0])

        class Deadline(BaseCallback):
            def _on_step(self) -> bool:
                if self.n_calls % 2000 == 0:
                    loads.append(os.getloadavg()[0])
                return time.perf_counter() < deadline

        games_before = sum(venv.get_attr("episodes"))
        if time.perf_counter() < deadline:
            model.learn(total_timesteps=args.steps, callback=Deadline())
        result["ppo_steps"] = int(model.num_timesteps)
        result["ppo_games"] = sum(venv.get_attr("episodes")) - games_before
        venv.close()  # (--subproc: its processes end, so their processor time is counted)
        result["train_wall_s"] = round(time.perf_counter() - wall0, 1)
        result["train_cpu_s"] = round(time.process_time() - cpu0, 1)
        # the processes of --workers and --subproc (counted once they have ended)
        result["train_children_cpu_s"] = round(_children_cpu() - child0, 1)
        loads.append(os.getloadavg()[0])
        result["load_avg_mean"] = round(float(np.mean(loads)), 2)
        result["load_avg_max"] = round(float(np.max(loads)), 2)
        if args.select_games and demos is not None:
            # model selection on validation deals (never used in evaluation): the clone or the
            # fine-tuned policy, whichever wins more against greedy (a tie keeps PPO's)
            sel0 = time.perf_counter()
            clone = MaskablePPO.load(out / f"{game}-bc.zip", device="cpu")
            won = {}
            for name, m in (("bc", clone), ("ppo", model)):
                won[name] = evaluate_batched(
                    game, PolicyPlayer(m, norm), "greedy", args.select_games, args.max_cycles,
                    args.hint, duplicate=True, base=SELECT_SEED,
                )[0]  # fmt: skip
            kept = "bc" if won["bc"] > won["ppo"] else "ppo"
            result["selection"] = {"games": args.select_games, "won": won, "kept": kept,
                                   "wall_s": round(time.perf_counter() - sel0, 1)}  # fmt: skip
            print(f"{game}: validation against greedy ({args.select_games} games) {won}, "
                  f"kept {kept}", flush=True)  # fmt: skip
            model.save(out / f"{game}-ppo.zip")
            if kept == "bc":
                model = clone
        model.save(out / f"{game}.zip")
        np.savez(
            out / f"{game}.npz",
            mean=np.zeros(0) if norm is None else norm[0],
            std=np.zeros(0) if norm is None else norm[1],
        )
        print(
            f"{game}: {result['demo_steps']:,} demonstration steps, BC accuracy "
            f"{result.get('bc_accuracy', '-')}, PPO {result['ppo_steps']:,} steps "
            f"({result['ppo_games']:,} games); {result['train_wall_s']:.0f} s wall, "
            f"{result['train_cpu_s']:.0f} s processor, load average {result['load_avg_mean']}",
            flush=True,
        )

    from moneynb.bots import make_bot

    eval_opps = ["random", "greedy"]
    if game == "money_run" and args.search_nodes:
        eval_opps.append("search")
    rows = []
    ev0, evc0 = time.perf_counter(), time.process_time()
    for opp in eval_opps:
        opponent = opp
        if opp == "search":

            def opponent() -> object:
                return make_bot(
                    "search", seed=args.seed, time_budget=None, max_nodes=args.search_nodes,
                    beam=2,
                )  # fmt: skip

        row = {"against": opp}
        modes = [("argmax", False, args.eval_games), ("sample", True, args.sample_games)]
        if args.reference:
            modes.append(("greedy", None, args.eval_games))
        for mode, sample, n in modes:
            if not n:
                continue
            record: list = []
            if sample is None:
                expert = menv.BotPolicy("greedy", seed=args.seed)
                player = lambda env, obs, expert=expert: expert(env)  # noqa: E731
                bot = opponent() if callable(opponent) else opponent
                won, capped = evaluate(game, player, bot, n, args.max_cycles, args.hint,
                                       record, args.duplicate)  # fmt: skip
            else:
                player = PolicyPlayer(model, norm, sample=sample, seed=args.seed)
                won, capped = evaluate_batched(
                    game, player, opponent, n, args.max_cycles, args.hint, record=record,
                    duplicate=args.duplicate,
                )  # fmt: skip
            low, high = wilson_interval(won, n)
            row[mode] = {"games": n, "won": won, "capped": capped, "rate": won / n,
                         "low": low, "high": high, "duplicate": args.duplicate}  # fmt: skip
            paired = paired_interval(record) if args.duplicate else None
            if paired:
                row[mode]["paired"] = paired
            if n > 400:  # sole wins in each run of 400 games (the size), in order
                row[mode]["blocks"] = [
                    sum(w for g, _s, w in record if g // 400 == b) for b in range((n + 399) // 400)
                ]
                print(f"  wins in each 400 games: {row[mode]['blocks']}", flush=True)
            print(
                f"  {game} {mode:6} vs {opp:6}: {won}/{n} = {won / n:.3f} "
                f"({low:.3f} to {high:.3f})"
                + (f", paired {paired['low']:.3f} to {paired['high']:.3f}" if paired else "")
                + f", capped {capped}",
                flush=True,
            )
        rows.append(row)
    if args.eval_only:  # keep columns of an earlier evaluation that were not run now
        before = {r["against"]: r for r in result.get("eval", [])}
        rows = [{**before.get(r["against"], {}), **r} for r in rows]
    result["eval"] = rows
    result["eval_wall_s"] = round(time.perf_counter() - ev0, 1)
    result["eval_cpu_s"] = round(time.process_time() - evc0, 1)
    (out / f"{game}.json").write_text(json.dumps(result, indent=1, default=str))
    return result


def fmt(r: dict | None) -> str:
    """One cell: wins, rate, Wilson interval, and for a duplicate evaluation the paired one."""
    if not r:
        return ""
    text = f"{r['won']}/{r['games']} = {r['rate']:.3f} ({r['low']:.3f}-{r['high']:.3f})"
    if r.get("paired"):
        text += f"; paired {r['paired']['low']:.3f}-{r['paired']['high']:.3f}"
    return text


def table(results: list[dict]) -> str:
    """The markdown table of docs/env.md."""
    lines = [
        "| game | training (BC demos; PPO steps, games) | wall / processor s (load avg) "
        "| against | argmax: won (95% interval) | sample | greedy in the seat |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for res in results:
        first = True
        for row in res["eval"]:
            train = cost = ""
            if first:
                train = (
                    f"{res.get('demo_steps', 0):,} demo steps (acc {res.get('bc_accuracy', '-')}); "
                    f"{res.get('ppo_steps', 0):,}, {res.get('ppo_games', 0):,}"
                )
                if not res.get("ppo_steps"):  # the budget left no PPO step (issue 39)
                    train += (
                        " (0 PPO steps: the policy is the behaviour clone"
                        + (
                            ", with greedy's hint on the logits"
                            if res.get("args", {}).get("hint")
                            else ""
                        )
                        + ", not a PPO-trained one)"
                    )
                if res.get("teacher"):
                    tch = res["teacher"]
                    train = (
                        f"teacher: {tch['games']:,} games, {tch['calls']:,} decisions searched, "
                        f"{tch['changed']:,} overruled, {tch['seconds']:.0f} s; " + train
                    )
                cpu = res.get("train_cpu_s", 0) + res.get("train_children_cpu_s", 0)
                cost = (
                    f"{res.get('train_wall_s', 0):.0f} / {cpu:.0f} "
                    f"({res.get('load_avg_mean', '-')})"
                )
            lines.append(
                f"| {res['game'] if first else ''} | {train} | {cost} | {row['against']} | "
                f"{fmt(row.get('argmax'))} | {fmt(row.get('sample'))} | {fmt(row.get('greedy'))} |"
            )
            first = False
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", nargs="?", help="a game name (or use --games)")
    p.add_argument("--games", help="'all' or a comma list of games, trained in sequence")
    p.add_argument("--minutes", type=float, default=None, help="BC + PPO wall cap per game")
    p.add_argument("--steps", type=int, default=50_000_000, help="PPO step cap")
    p.add_argument("--opponents", default="greedy,greedy,greedy,random")
    p.add_argument("--reward", default="win", choices=["win", "score"])
    p.add_argument("--bc-games", type=int, default=200)
    p.add_argument("--bc-epochs", type=int, default=4)
    p.add_argument(
        "--bc-min-updates",
        type=int,
        default=1000,
        help="at least this many gradient steps of cloning (more passes when needed)",
    )
    p.add_argument("--dagger-rounds", type=int, default=0)
    p.add_argument("--dagger-games", type=int, default=200)
    p.add_argument("--dagger-epochs", type=int, default=5)
    p.add_argument(
        "--teacher",
        action="store_true",
        help="demonstrations by the rollout teacher instead of greedy",
    )
    p.add_argument("--teacher-tags", default=None, help="comma list (default TEACHER_TAGS)")
    p.add_argument("--teacher-playouts", type=int, default=24)
    p.add_argument(
        "--teacher-turns", type=int, default=None,
        help="the teacher's play-outs stop at the seat's k-th turn from now (default: the end)",
    )  # fmt: skip
    p.add_argument(
        "--teacher-minutes",
        type=float,
        default=18.0,
        help="wall cap on the teacher's demonstration games",
    )
    p.add_argument(
        "--subproc", action="store_true",
        help="PPO's tables (--opponents) each in its own process (SubprocVecEnv)",
    )  # fmt: skip
    p.add_argument("--no-hint", dest="hint", action="store_false", help="observation only")
    p.add_argument(
        "--hint-prior",
        type=float,
        default=4.0,
        help="the greedy hint added to the logits with this starting weight (0: input only)",
    )
    p.add_argument("--no-normalize", dest="normalize", action="store_false")
    p.add_argument("--net", default="256,256")
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--ent-coef", type=float, default=0.003)
    p.add_argument("--n-steps", type=int, default=1024)
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--clip", type=float, default=0.1)
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--sample-games", type=int, default=400)
    p.add_argument("--no-reference", dest="reference", action="store_false")
    p.add_argument(
        "--no-duplicate", dest="duplicate", action="store_false",
        help="evaluation seeds 1,000,000 + game (the first three rounds) instead of each deal "
        "played twice with the seats swapped",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=int, default=1,
        help="processes making the demonstrations (the teacher's games), within --minutes",
    )  # fmt: skip
    p.add_argument(
        "--select-games", type=int, default=0,
        help="validation games against greedy (seeds 2,000,000 +, duplicate) on which the "
        "clone and the PPO policy are compared; the better is kept as <game>.zip (0: PPO's)",
    )  # fmt: skip
    p.add_argument("--search-nodes", type=int, default=60)
    p.add_argument("--max-cycles", type=int, default=3_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/agents")
    p.add_argument("--eval-only", action="store_true")
    p.add_argument("--resume", action="store_true", help="more PPO on the saved policy")
    args = p.parse_args(argv)
    if args.games:
        games = GAMES if args.games == "all" else args.games.split(",")
    elif args.game:
        games = [args.game]
    else:
        p.error("give a game or --games all")
    clash = training_seed_clash(args)
    if clash:
        p.error(clash)
    results = [train_game(g, args) for g in games]
    text = table(results)
    print(text)
    if len(games) > 1:
        (Path(args.out) / "table.md").write_text(text + "\n")


if __name__ == "__main__":
    main()

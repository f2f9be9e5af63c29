"""Baseline: MaskablePPO (sb3-contrib) through the Gymnasium wrapper, then evaluated against
the built-in bots (issue 29). Needs the ``train`` extra, with torch's CPU wheel::

    pip install torch --index-url https://download.pytorch.org/whl/cpu   # not the CUDA build
    pip install "moneynb[train]"

Run: ``python benchmarks/train_maskable_ppo.py GAME [--minutes M] [--opponent random]
[--eval-games N] [--seed S]``. Trains seat-alternating (``seat="alternate"``) against the
opponent bot for at most ``M`` minutes of wall time (or ``--steps``), on one CPU thread, with
the default ``MlpPolicy`` (two layers of 64) over the observation vector and the fixed action
slots (masked). Then plays ``N`` games against each of random and greedy (and search in
Money Run with ``--search``), seats alternated, the policy taking its most likely legal action,
and prints each win rate with a Wilson 95% interval, the training steps, time and games.
Games are capped (``max_cycles``, default 3,000 env steps of one seat): a capped game counts
as not won and is reported.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--minutes", type=float, default=5.0)
    p.add_argument("--steps", type=int, default=10_000_000)
    p.add_argument("--opponent", default="random")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--max-cycles", type=int, default=3_000)
    p.add_argument("--search", action="store_true", help="also evaluate against bot:search")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    import moneynb.env as menv
    from moneynb.analysis.stats import wilson_interval

    torch.set_num_threads(1)
    env = menv.gym_env(
        args.game, seat="alternate", opponents=args.opponent, max_cycles=args.max_cycles
    )

    class Deadline(BaseCallback):
        def __init__(self, seconds: float):
            super().__init__()
            self.end = time.perf_counter() + seconds

        def _on_step(self) -> bool:
            return time.perf_counter() < self.end

    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, device="cpu")
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps, callback=Deadline(args.minutes * 60))
    train_s, train_cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{args.game}: trained {model.num_timesteps:,} steps ({env.episodes:,} games) against "
        f"{args.opponent} in {train_s:.0f} s ({train_cpu:.0f} s of processor time)"
    )

    opponents = ["random", "greedy"] + (["search"] if args.search else [])
    print("| against | games | won | capped | win rate (95% interval) |")
    print("| --- | ---: | ---: | ---: | --- |")
    for opp in opponents:
        ev = menv.gym_env(args.game, seat="alternate", opponents=opp, max_cycles=args.max_cycles)
        won = capped = 0
        for g in range(args.eval_games):
            obs, info = ev.reset(seed=1_000_000 + g)
            done = False
            while not done:
                action, _ = model.predict(obs, action_masks=ev.action_masks(), deterministic=True)
                obs, _, terminated, truncated, _ = ev.step(int(action))
                done = terminated or truncated
            capped += bool(truncated)
            won += ev.seat in ev.game.winners and len(ev.game.winners) == 1
        low, high = wilson_interval(won, args.eval_games)
        print(
            f"| {opp} | {args.eval_games} | {won} | {capped} | "
            f"{won / args.eval_games:.3f} ({low:.3f} to {high:.3f}) |"
        )


if __name__ == "__main__":
    main()

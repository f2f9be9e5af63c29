"""Honest figures of the training baseline (benchmarks/train_maskable_ppo.py, issue 39 case 7).

The helpers tested here need no torch (the script imports the ``train`` extra only where it
trains), so these run in the default test command, unlike tests/test_train_baseline.py.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import pytest

from moneynb.analysis.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "train_maskable_ppo_figures", ROOT / "benchmarks" / "train_maskable_ppo.py"
)
train = importlib.util.module_from_spec(_spec)
sys.modules["train_maskable_ppo_figures"] = train
_spec.loader.exec_module(train)


def test_paired_interval_is_not_zero_width_when_every_deal_has_the_same_share():
    """200 deals, every pair won twice: the normal interval over the pairs had width 0
    ("paired 1.000-1.000" in docs/env.md); it is now never narrower than the Wilson interval
    over the deals."""
    record = [(i, i % 2, True) for i in range(400)]
    paired = train.paired_interval(record)
    low, high = wilson_interval(200, 200)
    assert paired["pairs"] == 200 and paired["mean"] == 1.0
    assert paired["low"] == pytest.approx(low) and paired["high"] == pytest.approx(high)
    assert paired["high"] - paired["low"] > 0.01
    mixed = [(i, i % 2, i % 4 != 3) for i in range(400)]  # half the deals split 1-1
    wide = train.paired_interval(mixed)
    assert wide["low"] < wide["mean"] == 0.75 < wide["high"]


def _args(**kw):
    base = {"seed": 0, "bc_games": 200, "dagger_games": 200, "dagger_rounds": 0}
    return argparse.Namespace(**{**base, **kw})


def test_training_seeds_never_reach_the_evaluation_seeds():
    """Nothing stopped ``--seed`` or many DAgger rounds (seeds ``--seed + 10,000 * round``)
    from playing the evaluation games (seeds 1,000,000 on) in training."""
    assert train.training_seed_clash(_args()) is None
    assert train.training_seed_clash(_args(dagger_rounds=2, seed=5)) is None
    assert "evaluation seed" in train.training_seed_clash(_args(seed=999_000))
    assert "evaluation seed" in train.training_seed_clash(_args(dagger_rounds=99))
    assert "0 or more" in train.training_seed_clash(_args(seed=-1))
    with pytest.raises(SystemExit):
        train.main(["money_run", "--seed", "1000000"])


def test_zero_ppo_steps_is_reported_as_such():
    """A wall-clock budget can leave 0 PPO steps; the table said nothing and read as a
    PPO-trained policy (Money Run's 400/400 came from greedy's hint with 0 PPO steps)."""
    row = {"against": "random", "argmax": {"won": 400, "games": 400, "rate": 1.0,
                                            "low": 0.99, "high": 1.0}}  # fmt: skip
    res = {"game": "money_run", "eval": [row], "ppo_steps": 0, "demo_steps": 10,
           "args": {"hint": True}}  # fmt: skip
    text = train.table([res])
    assert "0 PPO steps: the policy is the behaviour clone, with greedy's hint" in text
    res["ppo_steps"] = 4096
    assert "0 PPO steps" not in train.table([res])

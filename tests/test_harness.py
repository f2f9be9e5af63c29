"""The coach's numbers against real play (issue 12): a check harness, not a timed test.

Seeded greedy-bot games of every game stop at each decision the coach annotates with a chance
number. Each number's exact value (the engine's own outcomes, :mod:`moneynb.core.outcomes`) is
compared with a seeded Monte Carlo of that very decision played through ``Game.copy()`` +
``apply`` with a fresh plain generator (:meth:`moneynb.coach.Check.sample`), the deciding
player's follow-ups taken as in the valuation.

Few samples are drawn per state, so the test pools them: for every (game, decision, shown
quantity) group (a heat map: per space), ``z = sum(x - mu) / sqrt(sum var)`` over all its samples, with the EXACT
variance of each number (from its exact distribution). Every pooled ``|z|`` must be below 4.
A sample outside a number's exact distribution (an outcome the enumeration missed) fails at
once, and so does a number with zero variance whose sample differs from it.

The figures (states, numbers checked, max |z|) are printed (``pytest -s``) and attached to the
test report (``record_property``). The issue asks for at least 200 states per game: that full
size runs under ``MONEYNB_LONG_RUNS=1`` (tests/long_runs.py); the README's test command (and
CI) checks the first 60 states of each game, the same states every run (the test is marked
``long``). ``MONEYNB_HARNESS_STATES`` sets the states per game outright.
"""

from __future__ import annotations

import math
import os
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from long_runs import size

import moneynb
from moneynb.coach import coach

GAMES = ["moolah", "easy_money", "money_card", "money_moves", "money_run"]
#: annotated states per game: all 200 the issue asks for under MONEYNB_LONG_RUNS=1, else the
#: first 60 (``MONEYNB_HARNESS_STATES`` overrides both)
STATES = int(os.environ.get("MONEYNB_HARNESS_STATES", "0")) or size(200, 60)
SAMPLES = 2  # Monte Carlo plays per check and state at the common decisions (pooled)
RARE_SAMPLES = 20  # at the rarer decisions (a Black Jack bet, Wall Street), so pools are big
COMMON = {"turn", "roll", "action", "bet", "color", "bid", "buy", "moolah", "move"}
Z_LIMIT = 4.0


def _quantities(check):
    """``[(label, exact p or mean, exact variance, f(sample) -> number)]`` the coach shows."""
    val = check.valuation
    out = []
    for shown in check.shows:
        if shown == "mean":
            out.append(("mean", val.mean, val.variance, lambda x: x))
        elif shown in ("p_loss", "p_gain"):
            pred = (lambda x: x < 0) if shown == "p_loss" else (lambda x: x > 0)
            p = val.probability(pred)
            out.append((shown, p, p * (1 - p), lambda x, pred=pred: 1 if pred(x) else 0))
        elif shown == "model_mean":  # a model's number: measured, pooled with sample variance
            continue
        elif shown == "each":
            for v, p in val.distribution.items():
                out.append((f"P={v!r}", p, p * (1 - p), lambda x, v=v: 1 if x == v else 0))
        else:  # pragma: no cover - a new kind of number must be taught to the harness
            raise AssertionError(f"the harness cannot check {shown!r}")
    return out


def _model_z(diffs: list) -> tuple[float, float]:
    """``(z, mean difference)`` of a model's numbers against real plays: the mean of
    ``x - model`` over its standard error (the sample variance: a model has no exact one)."""
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return (mean / math.sqrt(var / n) if var else (0.0 if mean == 0 else math.inf)), mean


def _annotated_states(name: str, n_states: int):
    """Yield ``(game, coaching)`` at the first ``n_states`` annotated decisions of seeded
    greedy-bot games of ``name`` (3 players; game seeds 0, 1, ...)."""
    found, seed = 0, 0
    while found < n_states:
        g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=100 * seed + i) for i in range(3)]
        while not g.over and found < n_states:
            c = coach(g)
            if c is not None and c.checks:
                found += 1
                yield g, c
            g.apply(bots[g.decision.player].choose(g))
        seed += 1
        assert seed < 200, f"{name}: fewer than {n_states} annotated states in 200 games"


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_coach_numbers_agree_with_real_play(name, record_property):
    pools: dict = defaultdict(lambda: [Fraction(0), Fraction(0), 0])  # sum(x-mu), sum var, n
    tags: Counter = Counter()
    numbers = 0
    models: dict = defaultdict(list)  # (tag, name kind) -> [(sample, model value)]
    for state_no, (g, c) in enumerate(_annotated_states(name, STATES)):
        before = g.to_json()
        tags[g.decision.tag] += 1
        for ci, check in enumerate(c.checks):
            qs = _quantities(check)
            numbers += len(qs)
            support = check.valuation.distribution
            n_samples = SAMPLES if g.decision.tag in COMMON else RARE_SAMPLES
            for k in range(n_samples):
                x = check.sample(g, seed=1_000_003 * state_no + 1_009 * ci + k)
                if check.model is not None and "model_mean" in check.shows:
                    numbers += k == 0
                    models[(g.decision.tag, check.name.split(" ")[0])].append(
                        (x, float(check.valuation.mean))
                    )
                    continue
                if "each" in check.shows or "mean" in check.shows:
                    assert x in support, (
                        f"{name} {g.decision.tag} {check.name}: a real play gave {x!r}, an "
                        f"outcome missing from the exact distribution {support}"
                    )
                for label, mu, var, f in qs:
                    fx = Fraction(f(x))
                    if var == 0:
                        assert fx == mu, f"{name} {check.name} {label}: {fx} != exact {mu}"
                        continue
                    pool = pools[(g.decision.tag, check.name.split(" ")[0], label)]
                    pool[0] += fx - mu
                    pool[1] += var
                    pool[2] += 1
        assert g.to_json() == before, "checking a number changed the game"
    zs = {key: float(s) / math.sqrt(float(v)) for key, (s, v, _) in pools.items() if v}
    worst = max(zs.items(), key=lambda kv: abs(kv[1]))
    figure = (
        f"{name}: {sum(tags.values())} states ({dict(tags)}), {numbers} numbers checked, "
        f"{sum(p[2] for p in pools.values())} samples in {len(pools)} pools, "
        f"max |z| {abs(worst[1]):.2f} at {worst[0]}"
    )
    by_kind: dict = defaultdict(list)  # the same model over every decision kind, pooled
    for (_, kind), pairs in models.items():
        by_kind[("all", kind)].extend(pairs)
    for key, pairs in sorted(models.items()) + sorted(by_kind.items()):
        z, diff = _model_z([x - mu for x, mu in pairs])
        measured = sum(x for x, _ in pairs) / len(pairs)
        modelled = sum(mu for _, mu in pairs) / len(pairs)
        figure += (
            f"; model {key}: {len(pairs)} plays, model mean {modelled:.3f} vs measured "
            f"{measured:.3f} (error {diff:+.3f}, z {z:+.2f})"
        )
        zs[("model",) + key] = z
    print(figure)
    record_property("harness", figure)
    assert sum(tags.values()) >= STATES
    bad = {k: round(z, 2) for k, z in zs.items() if abs(z) >= Z_LIMIT}
    assert not bad, f"{name}: coach numbers off by {Z_LIMIT}+ standard errors: {bad}"

"""Analysis of the games with numpy: exact probabilities and Monte Carlo.

* :mod:`.markov`: roll-and-move tracks as Markov chains (stationary distribution by a linear
  solve, n-step landing distributions, hitting times); Chutes and Ladders as a reference.
* :mod:`.tracks`: Moolah's and Easy Money's tracks built from the games' data files.
* :mod:`.montecarlo`: vectorised token simulation and :func:`simulate` (many seeded bot games,
  locally or on Dask) - also ``moneynb.simulate``.
* :mod:`.ev`: exact expected values and risks of the games' bets, loans and investments.
* :mod:`.stats`: confidence intervals, Gini coefficient, Lorenz curve.
* :mod:`.finance`: textbook finance (APR, effective annual rate, doubling time, rule of 72,
  amortised loans) and the games' credit terms and game lengths asked of the engine.

Importing this package imports numpy only; pandas, tqdm and dask are imported when used.
"""

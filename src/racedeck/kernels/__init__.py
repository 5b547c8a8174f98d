"""Compiled kernels of the games: the rules of each game again, in Numba, over arrays.

A kernel plays many games of one configuration in compiled loops, with the engine of its game
(:mod:`racedeck.games`) as its specification: seed *s* deals exactly as the engine's
``new_initial_state(s)``, every decision offers the engine's legal actions in the engine's order,
and the differential tests under ``tests/kernels`` replay games both ways, decision by decision.
When a rule or a ruling changes in the engine, those tests fail until the kernel follows.

Kernels sit beside the bots and the simulator (they depend on the games only), so that search,
simulation and the learning environments (:mod:`racedeck.rl`) can all use them.

Whole games, many at a time (simulation):

- :mod:`racedeck.kernels.why_first` — *Why First?*
  (:class:`~racedeck.kernels.why_first.WhyFirstBatch`).
- :mod:`racedeck.kernels.six_day_race` — *Six Day Race*
  (:class:`~racedeck.kernels.six_day_race.SixDayRaceBatch`, and the stepping functions).
- :mod:`racedeck.kernels.setback` — *Setback*, states as array rows with step functions
  (:class:`~racedeck.kernels.setback.SetbackBatch`).

One decision at a time (learning, search): a game's *step kernel*, one shape for every game
(:mod:`racedeck.kernels.batch`: :class:`~racedeck.kernels.batch.StepKernel`, stepped over a
batch by :class:`~racedeck.kernels.batch.StateBatch`), registered as the game's ``kernel``
plugin (:mod:`racedeck.kernels.registry`), with the game's observation encoding compiled:

- :mod:`racedeck.kernels.why_first_states` — *Why First?*;
- :mod:`racedeck.kernels.six_day_race_steps` — *Six Day Race*, over the stepping functions of
  :mod:`racedeck.kernels.six_day_race`;
- :mod:`racedeck.kernels.setback_steps` — *Setback*, over those of
  :mod:`racedeck.kernels.setback`.

Search (:mod:`racedeck.kernels.search`: the search bot's information-set MCTS, every iteration
compiled, driven by :class:`~racedeck.kernels.search.KernelSearch`) over a game's step kernel
and its :class:`~racedeck.kernels.search_kernel.SearchKernel` — a state loaded into a row, its
secrets dealt afresh as the game's sampler deals them, the concealed groups, the playout's
values — registered as the game's ``search_kernel`` plugin:

- :mod:`racedeck.kernels.why_first_search`, :mod:`racedeck.kernels.six_day_race_search`,
  :mod:`racedeck.kernels.setback_search`.

The tree lives in :mod:`racedeck.kernels.search_tree`; the iterations are the template
:mod:`racedeck.kernels.search_loop`, as the batch loops are :mod:`racedeck.kernels.batch_loops`:
:mod:`racedeck.kernels.loops` makes them for each game around its functions and caches them
on disk like the kernels. :mod:`racedeck.kernels.splitmix` draws from SplitMix64 streams kept
in arrays, as :class:`racedeck.core.rng.Rng` draws.
"""

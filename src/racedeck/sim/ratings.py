"""Skill ratings of bots from finishing orders, with OpenSkill's Plackett–Luce model."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["Rating", "rate_games"]


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` (what rankings sort by)."""
        return self.mu - 3 * self.sigma


def rate_games(
    bots: Sequence[str], games: Iterable[tuple[Sequence[str], Sequence[int]]]
) -> dict[str, Rating]:
    """Rate ``bots`` from games given in order as ``(bot by seat, rank by seat)``.

    Ranks are finishing positions, 1 = best, ties equal (as ``Outcome.ranks``; contestants that
    are not bots, such as Leo, left out). Each game updates every rating once, so the result
    depends on the order of the games: pass them in a fixed order (by game index).

    A bot may hold several seats of one game. Then every seat plays as its own team, all of
    them starting from the bot's rating before the game, and the bot's new rating is the mean
    of its seats' new ratings (mean of the changes). A bot finishing ahead of itself thus
    gains and loses about equally and learns little, which is right: such a pairing says
    nothing about its strength, only its placings against the other bots do.
    """
    model = PlackettLuce()
    ratings = {bot: model.rating(name=bot) for bot in bots}
    for lineup, ranks in games:
        if len(lineup) != len(ranks):
            raise ValueError(f"{len(lineup)} seats but {len(ranks)} ranks")
        if len(lineup) < 2:
            continue  # nothing to learn from a game without opponents
        # A fresh rating object per seat: the model copies its input teams as a whole, so one
        # object in two seats would come back as one object holding only the last seat's update.
        teams = [[model.rating(ratings[bot].mu, ratings[bot].sigma, bot)] for bot in lineup]
        updated = model.rate(teams, ranks=[float(r) for r in ranks])
        new: dict[str, list[tuple[float, float]]] = {}
        for bot, (rating,) in zip(lineup, updated, strict=True):
            new.setdefault(bot, []).append((rating.mu, rating.sigma))
        for bot, values in new.items():
            ratings[bot] = model.rating(
                mu=sum(mu for mu, _ in values) / len(values),
                sigma=sum(sigma for _, sigma in values) / len(values),
                name=bot,
            )
    return {bot: Rating(r.mu, r.sigma) for bot, r in ratings.items()}

"""Players: a bot receives only its seat's view and returns one of its legal actions."""

from racedeck.bots.base import Bot
from racedeck.bots.random_bot import RandomBot
from racedeck.bots.registry import available_bots, make_bot
from racedeck.bots.search import SearchBot, SearchBudget
from racedeck.bots.setback import SetbackHeuristicBot
from racedeck.bots.six_day_race import SixDayRaceHeuristicBot
from racedeck.bots.why_first import WhyFirstHeuristicBot

__all__ = [
    "Bot",
    "RandomBot",
    "SearchBot",
    "SearchBudget",
    "SetbackHeuristicBot",
    "SixDayRaceHeuristicBot",
    "WhyFirstHeuristicBot",
    "available_bots",
    "make_bot",
]

"""A simulated world around one referee: seeded people and bots, sockets, the table's timer
and a store in memory, all on simulated time.

Nothing here sleeps: time moves only when the next scheduled thing happens (a person's click
after their think time, a bot's answer, the table's timer). Every run repeats from its seed,
so a failing check names the seed that reproduces it. After every command the world checks
the invariants (:meth:`World.check`): every acknowledged action is stored; what is stored
replays to the referee's state; every frame a seat receives shows the stored game as that
seat may see it, and was sent only once stored; banks only go down within a game.
"""

from __future__ import annotations

import copy
import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.jsontypes import JSONObject
from racedeck.core.registry import get_spec
from racedeck.core.rng import Rng, derive_seed
from racedeck.core.table import Table
from racedeck.server.clocks import ClockOptions
from racedeck.server.live import views_json
from racedeck.server.referee import Referee, restore
from racedeck.server.referee.clock import TableClock
from racedeck.server.referee.messages import (
    Act,
    Append,
    AskBot,
    Automate,
    BotAnswer,
    CatchUp,
    Command,
    Commit,
    Connect,
    Disconnect,
    Effect,
    Everyone,
    NewGame,
    Presence,
    Reload,
    SaveClock,
    Send,
    SetTimer,
    TakeSeat,
    TimerFired,
    ToConn,
    ToSeat,
)
from racedeck.store.tables import SeatRow, StoredTable

SPECTATOR = 1000
"""The spectator's connection number."""

Policy = Callable[[int, Any, Rng], Any]
"""Chooses a seat's action from its view (an engine view object) with the world's chance."""


def random_policy(seat: int, view: Any, rng: Rng) -> Any:
    """Any legal action, uniformly."""
    legal = view.legal_actions
    return legal[rng.below(len(legal))]


@dataclass(frozen=True)
class Received:
    """One frame as a socket received it: when, which socket, whose, and the frame."""

    at: float
    conn: int
    seat: int | None
    frame: JSONObject


@dataclass
class _At:
    """A game at one of its states, as :func:`view_json` reads a table."""

    game: Any
    state: Any

    def view(self, seat: int | None) -> Any:
        return self.game.observe(self.state, seat)


class MemoryStore:
    """The table as the database would hold it: each :class:`Commit` applied in order."""

    def __init__(self, stored: StoredTable) -> None:
        self.stored = copy.deepcopy(stored)

    def apply(self, write: Any) -> None:
        s = self.stored
        if isinstance(write, TakeSeat):
            s.seats[write.seat] = write.row
            s.status, s.client_seeds, s.seed = write.status, list(write.client_seeds), write.seed
        elif isinstance(write, Append):
            assert write.game_no == s.game_no, "an action of another game"
            assert write.idx == len(s.actions), f"action {write.idx} stored after {len(s.actions)}"
            s.actions.append((write.seat, write.action))
            s.status, s.clock = write.status, write.clock
            if write.next_server_seed:
                s.next_server_seed = write.next_server_seed
        elif isinstance(write, SaveClock):
            assert write.game_no == s.game_no
            s.clock = write.clock
        elif isinstance(write, NewGame):
            s.game_no, s.seed, s.server_seed = write.game_no, write.seed, write.server_seed
            s.client_seeds, s.actions, s.status = list(write.client_seeds), [], "playing"
            s.clock, s.next_server_seed = write.clock, ""
        else:  # pragma: no cover - a new kind of write
            raise AssertionError(f"unknown write {write!r}")

    def load(self) -> StoredTable:
        return copy.deepcopy(self.stored)


@dataclass
class Person:
    """A person at a seat: ``silent`` people leave a forced window pass to the server."""

    seat: int
    conn: int
    think: tuple[float, float] = (0.5, 4.0)
    window_think: tuple[float, float] = (0.1, 2.5)
    silent: bool = False
    connected: bool = True
    plan: int = 0
    """Which decision the person is making (a reconnect forgets one in progress)."""
    planned: bool = False
    view: Any = None
    """The last view with a decision in it."""


@dataclass(order=True)
class _Due:
    at: float
    order: int
    what: tuple[Any, ...] = field(compare=False)


class World:
    """One table, its people, bots, store and timer, on simulated time (see the module
    docstring). ``seats``: ``"person"`` or a bot's name per seat."""

    def __init__(
        self,
        game_id: str,
        seats: list[str],
        *,
        seed: int,
        config: JSONObject | None = None,
        clock: ClockOptions | None = None,
        silent: bool = False,
        policy: Policy = random_policy,
        game_hook: Callable[[Any], Any] | None = None,
        bot_think: tuple[float, float] = (0.05, 0.8),
        think: tuple[float, float] = (0.5, 4.0),
        spectator: bool = True,
        start: float = 1_000_000.0,
        processes: int = 1,
        fair: bool = False,
    ) -> None:
        self.seed = seed
        self.rng = Rng(derive_seed(seed, 1))
        self.policy = policy
        self.game_hook = game_hook
        self.bot_think = bot_think
        spec = get_spec(game_id)
        options = dict(config or {})
        options["players"] = len(seats)
        cfg = spec.make_config(**options)
        rows = [
            SeatRow(kind="human", name=f"P{i + 1}", token_hash=f"h{i}")
            if kind == "person"
            else SeatRow(kind="bot", bot=kind)
            for i, kind in enumerate(seats)
        ]
        options_clock = clock or ClockOptions(profile="custom", move=20.0, bank=60.0, grace=30.0)
        stored = StoredTable(
            id="t1",
            game=spec.id,
            config=cfg.to_json(),
            status="playing",
            game_no=1,
            seed=derive_seed(seed, 2),
            seats=rows,
            clock=TableClock.fresh(options_clock, len(seats)).to_store(),
            # A fair deal publishes a commitment (a hash) for each face-down card: worlds
            # compared for noninterference go without, as their hashes differ by design.
            server_seed=f"{derive_seed(seed, 3):064x}" if fair else "",
        )
        self.store = MemoryStore(stored)
        self.now = start
        self._queue: list[_Due] = []
        self._order = itertools.count()
        self._timers: dict[int, int] = {}
        self.received: list[Received] = []
        self.people = {
            i: Person(i, i + 1, think=think, silent=silent)
            for i, kind in enumerate(seats)
            if kind == "person"
        }
        self.acked: list[tuple[int, int, int, JSONObject]] = []
        """(game number, seat, move answered, action) of every acknowledged action."""
        self._sent: dict[tuple[int, str], tuple[int, int, int, JSONObject]] = {}
        self._ids: dict[int, int] = {}
        self._banks: tuple[int, list[float]] | None = None
        self._views: dict[tuple[int, int, int | None], JSONObject] = {}
        self.procs: list[Referee] = [self._restore() for _ in range(processes)]
        """The processes serving the table from the one store; the first automates it."""
        self.home = {p.conn: p.seat % processes for p in self.people.values()}
        self.home[SPECTATOR] = 0
        self._clocks_seen: dict[int, Any] = {}
        self._shadow = self._replayed()
        self._states: list[Any] = [self._shadow.state.clone()]
        self.handle(Automate(True))
        for person in self.people.values():
            self.handle(Connect(person.conn, person.seat))
        if spectator:
            self.handle(Connect(SPECTATOR, None))

    @property
    def referee(self) -> Referee:
        """The process that automates the table."""
        return self.procs[0]

    # -- running ---------------------------------------------------------------------------------

    def _restore(self) -> Referee:
        counter = itertools.count()
        stored = self.store.load()
        ref = restore(stored, entropy=lambda: f"{self.seed:x}{next(counter):060x}")
        if self.game_hook is not None:
            # A copy: the hook changes its game, which restore shares with other tables.
            ref.game = self.game_hook(copy.copy(ref.game))
            ref.load_game(stored)
        return ref

    def at(self, when: float, *what: Any) -> None:
        heapq.heappush(self._queue, _Due(when, next(self._order), what))

    @property
    def over(self) -> bool:
        table = self.referee.table
        return table is not None and table.is_over

    def run(self, *, until: float | None = None, max_steps: int = 100_000) -> None:
        """Carry out what is due, in time order, until the game is over (or ``until``)."""
        for _ in range(max_steps):
            if self.over or not self._queue:
                return
            if until is not None and self._queue[0].at > until:
                self.now = until
                return
            due = heapq.heappop(self._queue)
            self.now = max(self.now, due.at)
            self._do(due.what)
        raise AssertionError(f"seed {self.seed}: no end within {max_steps} steps")

    def _do(self, what: tuple[Any, ...]) -> None:
        kind = what[0]
        if kind == "timer":
            if what[2] == self._timers.get(what[1]):
                self.handle(TimerFired(), proc=what[1])
        elif kind == "refresh":
            self._catch_up(what[1])
        elif kind == "bot":
            self.handle(BotAnswer(what[1], what[2]))
        elif kind == "act":
            _, seat, move, action, plan = what
            person = self.people[seat]
            if person.connected and person.plan == plan:
                person.planned = False
                # Each client numbers its own messages.
                self._ids[person.conn] = self._ids.get(person.conn, 0) + 1
                cid = str(self._ids[person.conn])
                self._sent[(person.conn, cid)] = (self.referee.game_no, seat, move, action)
                self.handle(Act(person.conn, move, action, cid))
        elif kind == "call":
            what[1]()

    def handle(self, command: Command, proc: int | None = None) -> list[Effect]:
        """Hand ``command`` to the process it reaches (a socket's own; else the one that
        automates the table), caught up with the store first, and carry out its effects."""
        if proc is None:
            conn = getattr(command, "conn", None)
            proc = self.home.get(conn, 0) if conn is not None else 0
        if len(self.procs) > 1:
            self._catch_up(proc)
        effects = self.procs[proc].handle(command, self.now)
        self._carry_all(effects, proc)
        self.check(proc)
        if len(self.procs) > 1 and isinstance(command, (Connect, Disconnect)) and proc != 0:
            elsewhere = frozenset(s for s in self.procs[proc].conns.values() if s is not None)
            self.handle(Presence(elsewhere), proc=0)
        return effects

    def _catch_up(self, proc: int) -> None:
        """What a process does under the table's row lock before a write, or on a notice:
        take what the other processes stored."""
        ref = self.procs[proc]
        stored = self.store.stored
        if (
            stored.game_no != ref.game_no
            or stored.seats != ref.seats
            or (ref.table is None) != (stored.status == "open")
        ):
            self._carry_all(ref.handle(Reload(self.store.load()), self.now), proc)
        elif ref.table is not None and (
            len(stored.actions) > ref.table.move or stored.clock != self._clocks_seen.get(proc)
        ):
            start = ref.table.move
            command = CatchUp(start, tuple(stored.actions[start:]), copy.deepcopy(stored.clock))
            self._carry_all(ref.handle(command, self.now), proc)
        self._clocks_seen[proc] = copy.deepcopy(stored.clock)

    def _carry_all(self, effects: list[Effect], proc: int) -> None:
        for effect in effects:
            self._carry_out(effect, proc)

    def _carry_out(self, effect: Effect, proc: int = 0) -> None:
        if isinstance(effect, Commit):
            self.store.apply(effect.write)
            if len(self.procs) > 1:  # what a process has seen of the clock (catching up)
                self._clocks_seen[proc] = copy.deepcopy(self.store.stored.clock)
            write = effect.write
            if isinstance(write, Append):
                self._shadow.submit_json(write.seat, write.action)
                self._states.append(self._shadow.state.clone())
            elif isinstance(write, NewGame):
                self._shadow = self._replayed()
                self._states = [self._shadow.state.clone()]
            for other in range(len(self.procs)):
                if other != proc:
                    self.at(self.now + 0.01, "refresh", other)  # the notice reaches it
        elif isinstance(effect, Send):
            ref = self.procs[proc]
            for conn in self._conns(effect.to, ref):
                frame = dict(effect.frame)
                if conn in effect.acks:
                    frame["ack"] = effect.acks[conn]
                seat = ref.conns.get(conn)
                self.received.append(Received(self.now, conn, seat, frame))
                self._check_frame(seat, frame)
                self._person_sees(conn, seat, frame)
        elif isinstance(effect, SetTimer):
            version = self._timers.get(proc, 0) + 1
            self._timers[proc] = version
            if effect.at is not None:
                self.at(effect.at, "timer", proc, version)
        elif isinstance(effect, AskBot):
            game = self.referee.game
            view = game.view_from_json(effect.view)
            action = self.policy(effect.seat, view, self.rng)
            think = self._think(self.bot_think, "bot", effect.seat, view.header.move)
            self.at(self.now + think, "bot", effect.ask, action.to_json())

    def _conns(self, to: Any, ref: Referee) -> list[int]:
        conns = ref.conns
        if isinstance(to, ToConn):
            return [to.conn] if to.conn in conns else []
        if isinstance(to, ToSeat):
            return [c for c, s in conns.items() if s == to.seat]
        assert isinstance(to, Everyone)
        return [c for c in conns if c != to.skip]

    def _person_sees(self, conn: int, seat: int | None, frame: JSONObject) -> None:
        if "ack" in frame:
            key = (conn, str(frame["ack"]))
            if key in self._sent:
                self.acked.append(self._sent[key])
                self._check_ack(*self._sent[key])
        if seat is None or seat not in self.people or self.people[seat].conn != conn:
            return
        person = self.people[seat]
        if frame.get("type") == "error" and frame.get("code") == "action/stale":
            person.planned = False  # look at the newer view and choose again
            if person.view is not None:
                self._decide(person, person.view)
            return
        view_obj = frame.get("view")
        if frame.get("type") not in ("update", "welcome") or not isinstance(view_obj, dict):
            return
        if not view_obj.get("legal_actions"):
            person.view = None  # nothing to decide: no need to read the view
            return
        view = self.referee.game.view_from_json(view_obj)
        person.view = view
        if "answer" in frame:
            return  # its window answer is in, sealed (SB-9): nothing to decide until it closes
        if view.legal_actions and not person.planned:
            self._decide(person, view)

    def _decide(self, person: Person, view: Any) -> None:
        """The person thinks, then acts: one decision at a time."""
        legal = view.legal_actions
        window = view.header.phase == "window"
        if window and person.silent and len(legal) == 1:
            return  # left to the server (SB-9: it answers a forced pass at once)
        move = int(view.header.move)
        think = self._think(
            person.window_think if window else person.think, "act", person.seat, move
        )
        action = self.policy(person.seat, view, self.rng)
        person.planned = True
        self.at(self.now + think, "act", person.seat, move, action.to_json(), person.plan)

    def _think(self, bounds: tuple[float, float], kind: str, seat: int, move: int) -> float:
        # Fixed by where the decision is, not by what came before: two worlds whose seats
        # decide at the same places decide at the same times.
        lo, hi = bounds
        path = (len(kind), seat, self.referee.game_no, move)
        draw = Rng(derive_seed(self.seed, *path)).below(1_000_000)
        return lo + (hi - lo) * draw / 1_000_000

    def _replayed(self) -> Table:
        table = Table(self.referee.game, self.store.stored.seed)
        for seat, action in self.store.stored.actions:
            table.submit_json(seat, action)
        return table

    # -- the world's own events --------------------------------------------------------------

    def disconnect(self, seat: int) -> None:
        person = self.people[seat]
        person.connected = False
        self.handle(Disconnect(person.conn))

    def reconnect(self, seat: int) -> None:
        person = self.people[seat]
        person.connected = True
        person.plan += 1
        person.planned = False
        self.handle(Connect(person.conn, seat))

    def restart(self, proc: int = 0) -> None:
        """Process ``proc`` dies and a new one starts from the store: its sockets reconnect."""
        old = self.procs[proc]
        if len(self.procs) > 1:
            self._catch_up(proc)
        before = old.table.state.to_json() if old.table else None
        self._timers[proc] = self._timers.get(proc, 0) + 1
        self.procs[proc] = self._restore()
        after = self.procs[proc].table.state.to_json() if self.procs[proc].table else None
        assert before == after, f"seed {self.seed}: the store lost an accepted move"
        for mine, theirs in zip(old.clock.seats, self.procs[proc].clock.seats, strict=True):
            # Every second is accounted for across a crash: the same time left, bot or not.
            assert (mine.bank, mine.since, mine.bot) == (theirs.bank, theirs.since, theirs.bot), (
                f"seed {self.seed}: a restart changed a clock: {mine} {theirs}"
            )
        if old.window is not None:
            window = self.procs[proc].window
            assert window is not None and window.sealed == old.window.sealed, "an answer was lost"
        mine = [p for p in self.people.values() if self.home[p.conn] == proc]
        for person in mine:
            person.plan += 1
            person.planned = False
        if proc == 0:
            self.handle(Automate(True))
        for person in mine:
            if person.connected:
                self.handle(Connect(person.conn, person.seat))
        if proc == 0:
            self.handle(Connect(SPECTATOR, None))
            if len(self.procs) > 1:
                elsewhere = frozenset(s for s in self.procs[1].conns.values() if s is not None)
                self._carry_all(self.procs[0].handle(Presence(elsewhere), self.now), 0)

    # -- invariants -----------------------------------------------------------------------------

    def check(self, proc: int = 0) -> None:
        """The invariants that hold after every command (see the module docstring)."""
        ref = self.procs[proc]
        table = ref.table
        if table is None:
            return
        stored = self.store.stored
        assert len(stored.actions) == table.move and (
            not stored.actions
            or tuple(stored.actions[-1]) == (table.last_action.seat, table.last_action.action)
        ), f"seed {self.seed}: the referee's game is not the stored one"
        banks = (ref.game_no, [s.bank for s in ref.clock.seats])
        if proc == 0 and self._banks is not None and self._banks[0] == banks[0]:
            for was, now in zip(self._banks[1], banks[1], strict=True):
                assert 0.0 <= now <= was + 1e-6, f"seed {self.seed}: a bank went {was} -> {now}"
        if proc == 0:
            self._banks = banks

    def _check_ack(self, game_no: int, seat: int, move: int, action: JSONObject) -> None:
        stored = self.store.stored
        if game_no != stored.game_no:
            return
        assert any(s == seat and a == action for s, a in stored.actions[move:]), (
            f"seed {self.seed}: seat {seat}'s {action} was acknowledged before it was stored"
        )

    def _check_frame(self, seat: int | None, frame: JSONObject) -> None:
        if frame.get("type") != "update":
            return
        shadow = self._shadow
        move = int(frame["move"])
        # A process shows a move the store holds: the last, or (catching up with another
        # process's moves) one before it.
        assert move == shadow.move or (len(self.procs) > 1 and move < shadow.move), (
            f"seed {self.seed}: an update shows move {move}, the store holds {shadow.move}"
        )
        key = (self.store.stored.game_no, move, seat)
        expected = self._views.get(key)
        if expected is None:
            # Every audience's view of this move at once (equal to each one's own view:
            # tests/core/test_views.py), as most of them will be asked for.
            at: Any = _At(shadow.game, self._states[move])
            audiences = [*range(len(self.referee.seats)), None]
            for audience, view in views_json(at, audiences, self.referee.names).items():
                self._views[(key[0], move, audience)] = view
            expected = self._views[key]
        assert frame["view"] == expected, f"seed {self.seed}: a view that is not the stored game's"

    # -- reading --------------------------------------------------------------------------------

    def frames_of(self, conn: int) -> list[Received]:
        """Everything socket ``conn`` received, in order."""
        return [r for r in self.received if r.conn == conn]

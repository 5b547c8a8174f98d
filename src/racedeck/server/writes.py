"""A referee's :class:`~racedeck.server.referee.messages.Commit` carried out on the store."""

from __future__ import annotations

from racedeck.server.referee import messages as m
from racedeck.store.tables import TableStore

__all__ = ["commit"]


def commit(store: TableStore, table_id: str, write: m.Write) -> None:
    """Store ``write`` for table ``table_id``: one transaction per write (a new game's deal
    and its clock are two), so a crash keeps it whole or not at all."""
    if isinstance(write, m.Append):
        store.append_action(
            table_id,
            write.game_no,
            write.idx,
            write.seat,
            write.action,
            write.status,
            write.finished,
            write.next_server_seed,
            clock=write.clock,
        )
    elif isinstance(write, m.SaveClock):
        store.save_clock(table_id, write.game_no, write.clock)
    elif isinstance(write, m.TakeSeat):
        store.take_seat(
            table_id, write.seat, write.row, write.status, write.client_seeds, write.seed
        )
    else:
        store.new_game(
            table_id, write.game_no, write.seed, "playing", write.server_seed, write.client_seeds
        )
        store.save_clock(table_id, write.game_no, write.clock)

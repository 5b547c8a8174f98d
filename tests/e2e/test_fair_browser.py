"""Provably fair deals in the browser: the creator's page sends a client seed and shows the
commitment before the deal; at the end the page checks the revealed server seed against it
and offers the record, which ``racedeck verify`` accepts."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import httpx
from helpers import create_table, shots_dir, snap_if_wanted
from playwright.sync_api import Browser, expect

from racedeck.core.fairness import verify
from racedeck.core.record import GameRecord


def test_the_commitment_is_shown_and_the_end_is_verified(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    page = browser.new_page()
    with page.expect_request(
        lambda r: r.method == "POST" and r.url.endswith("/api/tables")
    ) as sent:
        create_table(page, live_server, "why-first", ["random", "random"], stages="1")
    body = sent.value.post_data_json
    assert re.fullmatch(r"[0-9a-f]{32}", body["client_seed"])
    table_id = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{live_server}/api/tables/{table_id}", trust_env=False).json()
    committed = info["fair"]["commitment"]
    expect(page.get_by_test_id("commitment")).to_have_text(committed[:12])
    assert info["fair"]["server_seed"] is None

    # A table of bots plays to the end at once: watch it and see the check.
    bots = httpx.post(
        f"{live_server}/api/tables",
        json={
            "game": "why-first",
            "config": {"stages": 1},
            "seats": [{"kind": "bot", "bot": "random"}] * 3,
        },
        trust_env=False,
    ).json()
    watch = browser.new_page()
    watch.goto(f"{live_server}/t/{bots['table_id']}")
    expect(watch.get_by_test_id("fair-verified")).to_be_visible(timeout=30_000)
    snap_if_wanted(watch, shots_dir(tmp_path) / "fair-verified.png")
    record_url = watch.get_by_test_id("record-link").get_attribute("href")
    assert record_url is not None
    record = GameRecord.from_json(httpx.get(live_server + record_url, trust_env=False).json())
    fair = record.meta["fair"]
    assert hashlib.sha256(fair["server_seed"].encode()).hexdigest() == fair["commitment"]
    assert verify(record) == []

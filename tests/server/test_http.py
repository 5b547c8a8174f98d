"""The HTTP API: games, tables, seats, play again, and every refusal with its code."""

from __future__ import annotations

from typing import Any

import pytest

from racedeck.core.registry import available_games, get_spec
from server.live import LiveServer, validator

SHARED_SERVER = True
"""The tests share a server per database (:mod:`server.conftest`): each makes its own tables."""


def refused(res: Any, status: int, code: str) -> None:
    assert res.status_code == status, res.text
    body = res.json()
    validator("http-error").validate(body)
    assert body["error"]["code"] == code, body


def test_games_list_every_option_and_bot(server: LiveServer) -> None:
    games = server.http.get("/api/games").json()
    validator("games").validate(games)
    assert [g["id"] for g in games] == list(available_games())
    for g in games:
        spec = get_spec(g["id"])
        assert [o["name"] for o in g["options"]] == [o.name for o in spec.options()]
        assert {"random", "search"} <= {b["name"] for b in g["bots"]}
        assert [lv["id"] for lv in g["levels"]] == ["beginner", "casual", "strong", "expert"]
        assert g["stand_in"] == "casual"
    why_first = next(g for g in games if g["id"] == "why-first")
    assert why_first["levels"][0] == {"id": "beginner", "bot": "random"}
    assert why_first["win_rule"] == "the second-best total wins"


def test_create_join_and_public_info(own_server: LiveServer) -> None:
    server = own_server  # its lobby lists this test's table only
    created = server.create("why-first", ["human", "human", "search@50"])
    validator("create-table-response").validate(created)
    assert created["seat"] == 0 and len(created["token"]) >= 32
    assert created["invite_url"].endswith("/t/" + created["table_id"])
    info = server.http.get(f"/api/tables/{created['table_id']}").json()
    validator("table-info").validate(info)
    assert info["status"] == "open" and info["free"] == 1
    assert [s["name"] for s in info["seats"]] == ["Ann", None, "search@50 bot"]
    lobby = server.http.get("/api/tables").json()
    validator("lobby").validate(lobby)
    assert [t["id"] for t in lobby] == [created["table_id"]]
    joined = server.join(created["table_id"], "Bob")
    validator("join-response").validate(joined)
    assert joined["seat"] == 1 and joined["token"] != created["token"]
    info = server.http.get(f"/api/tables/{created['table_id']}").json()
    assert info["status"] == "playing" and info["move"] is not None
    # Nothing secret in what anyone may read: no token, no seed, and of the server seed only
    # its commitment while the game goes on (provably fair deals).
    text = server.http.get(f"/api/tables/{created['table_id']}").text
    room = server.service.rooms[created["table_id"]]
    assert created["token"] not in text and joined["token"] not in text
    assert '"seed"' not in text and str(room.seed) not in text and room.server_seed not in text
    assert info["fair"]["server_seed"] is None and info["fair"]["client_seeds"] is None


def test_a_bot_seat_takes_a_level_and_is_named_by_it(own_server: LiveServer) -> None:
    server = own_server  # its open table stays out of the other tests' lobby
    # A free seat keeps the table open: no bot moves while the test reads it.
    created = server.create("setback", ["human", "human", "Expert"], {"players": 3})
    info = server.http.get(f"/api/tables/{created['table_id']}").json()
    validator("table-info").validate(info)
    assert info["seats"][2]["bot"] == "expert" and info["seats"][2]["name"] == "expert bot"
    res = server.http.post(
        "/api/tables",
        json={"game": "setback", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "master"}]},
    )
    refused(res, 400, "config/invalid")
    message = res.json()["error"]["message"]
    assert "levels are beginner, casual, strong, expert; bots are fastsearch" in message
    res = server.http.post(
        "/api/tables",
        json={"game": "setback", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "expert@9"}]},
    )
    refused(res, 400, "config/invalid")
    assert "level 'expert' takes no budget" in res.json()["error"]["message"]


def test_all_bot_table_is_watched(server: LiveServer) -> None:
    # Two races, not the default six: the watcher still sees a series through the change
    # of races (SD-11) to its end, a third of the bots' play.
    config = {"players": 2, "races": 2}
    created = server.create("six-day-race", ["random", "random"], config, name=None)
    assert created["seat"] is None and created["token"] is None
    watcher = server.socket(created["table_id"])
    watcher.hello(None)
    watcher.until(lambda f: f.get("view") is not None and f["view"]["header"]["terminal"], 60)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "seats": [{"kind": "human"}]}, "config/invalid"),
        (
            {"game": "why-first", "config": {"stages": 2.5}, "seats": [{"kind": "human"}] * 3},
            "config/invalid",
        ),
        (
            {"game": "why-first", "config": {"stages": "3"}, "seats": [{"kind": "human"}] * 3},
            "config/invalid",
        ),
        (
            {"game": "why-first", "config": {"variant": "maybe"}, "seats": [{"kind": "human"}] * 3},
            "config/invalid",
        ),
        (
            {"game": "why-first", "config": {"colour": 1}, "seats": [{"kind": "human"}] * 3},
            "config/invalid",
        ),
        (
            {"game": "why-first", "config": {"players": 4}, "seats": [{"kind": "human"}] * 3},
            "config/invalid",
        ),
        ({"game": "why-first", "seats": [{"kind": "human"}]}, "config/invalid"),
        (
            {"game": "setback", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "genius"}]},
            "config/invalid",
        ),
        (
            {
                "game": "setback",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "search@5000"}],
            },
            "config/invalid",
        ),
        (
            {"game": "setback", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "search@1s"}]},
            "config/invalid",
        ),
        (
            {"game": "setback", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random@3"}]},
            "config/invalid",
        ),
        ({"game": "setback", "seats": [{"kind": "human"}, {"kind": "bot"}]}, "config/invalid"),
        ({"game": "setback", "seats": [{"kind": "alien"}] * 2}, "message/invalid"),
        ({"game": "setback", "seats": []}, "message/invalid"),
        ({"game": "setback", "seats": [{"kind": "human"}] * 2, "extra": 1}, "message/invalid"),
        (
            {"game": "setback", "seats": [{"kind": "human"}] * 2, "name": "x" * 40},
            "message/invalid",
        ),
        ({"seats": [{"kind": "human"}] * 2}, "message/invalid"),
    ],
)
def test_bad_tables_are_refused(server: LiveServer, body: dict[str, Any], code: str) -> None:
    lobby = server.http.get("/api/tables").json()
    refused(server.http.post("/api/tables", json=body), 400, code)
    assert server.http.get("/api/tables").json() == lobby, "a refused table was made"


def test_every_option_of_every_game_is_accepted_at_its_default(server: LiveServer) -> None:
    for game_id in available_games():
        spec = get_spec(game_id)
        defaults = spec.config_type().to_json()
        players = spec.min_players
        body = {
            "game": game_id,
            "config": {**defaults, "players": players},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1),
        }
        res = server.http.post("/api/tables", json=body)
        assert res.status_code == 201, res.text


def test_malformed_and_oversized_bodies(server: LiveServer) -> None:
    res = server.http.post(
        "/api/tables", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    refused(res, 400, "message/invalid")
    big = {"game": "why-first", "config": {"card_values": [1] * 5000}, "seats": []}
    refused(server.http.post("/api/tables", json=big), 413, "message/too-large")


def test_join_refusals(server: LiveServer) -> None:
    refused(server.http.post("/api/tables/nope/join", json={}), 404, "table/not-found")
    refused(server.http.get("/api/tables/nope"), 404, "table/not-found")
    created = server.create("why-first", ["human", "human", "human"])
    tid = created["table_id"]
    refused(server.http.post(f"/api/tables/{tid}/join", json={"seat": 0}), 409, "seat/taken")
    refused(server.http.post(f"/api/tables/{tid}/join", json={"seat": 7}), 400, "seat/invalid")
    refused(server.http.post(f"/api/tables/{tid}/join", json={"seat": "1"}), 400, "message/invalid")
    refused(
        server.http.post(f"/api/tables/{tid}/join", json={"name": "\u0000bad"}),
        400,
        "message/invalid",
    )
    server.join(tid, "Bob", seat=2)
    server.join(tid, "Cy")
    refused(server.http.post(f"/api/tables/{tid}/join", json={}), 409, "table/full")


def test_play_again_refusals(server: LiveServer) -> None:
    created = server.create("why-first", ["human", "random", "random"])
    tid = created["table_id"]
    refused(server.http.post(f"/api/tables/{tid}/again", json={"token": "x"}), 403, "auth/invalid")
    refused(server.http.post(f"/api/tables/{tid}/again", json={}), 400, "message/invalid")
    refused(
        server.http.post(f"/api/tables/{tid}/again", json={"token": created["token"]}),
        409,
        "game/not-over",
    )
    other = server.create("why-first", ["human", "random", "random"])
    refused(
        server.http.post(f"/api/tables/{tid}/again", json={"token": other["token"]}),
        403,
        "auth/invalid",
    )


def test_pages_and_static_files(server: LiveServer) -> None:
    for path in ("/", "/t/anything"):
        res = server.http.get(path)
        assert res.status_code == 200 and "app.js" in res.text
    for path in ("/static/app.js", "/static/dom.js", "/static/style.css"):
        assert server.http.get(path).status_code == 200
    for game_id in available_games():
        # A game's browser face is one folder (static/faces.js): its renderer, style, words.
        for part in ("board.js", "board.css", "words.js"):
            assert server.http.get(f"/static/games/{game_id}/{part}").status_code == 200


def test_the_site_has_an_icon_and_a_web_app_manifest(server: LiveServer) -> None:
    """A favicon where browsers look first, and a manifest so a phone can add the site to its
    home screen (every icon it names is served)."""
    ico = server.http.get("/favicon.ico")
    assert ico.status_code == 200 and ico.content[:4] == b"\x00\x00\x01\x00"  # an ICO file
    page = server.http.get("/").text
    assert 'rel="icon" href="/static/favicon.svg"' in page
    assert 'rel="manifest" href="/static/manifest.webmanifest"' in page
    res = server.http.get("/static/manifest.webmanifest")
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("application/manifest+json")
    manifest = res.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert server.http.get(icon["src"]).status_code == 200, icon

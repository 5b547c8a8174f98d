"""The online service: tables for strangers over HTTP and WebSocket, and the browser shell.

``racedeck serve`` runs :func:`racedeck.server.app.create_app` under uvicorn. The protocol is
in ``docs/protocol.md``.
"""

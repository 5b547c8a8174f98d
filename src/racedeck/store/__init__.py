"""Persistence in SQL (SQLite by default, any SQLAlchemy URL): ``tournaments`` keeps tournaments
and their games, ``tables`` the online service's tables, ``locations`` the default files.

The package imports nothing itself, so naming a default database does not load SQLAlchemy.
"""

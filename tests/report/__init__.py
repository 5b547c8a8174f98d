"""Tests of balance reports (a package, so that its module names do not clash)."""

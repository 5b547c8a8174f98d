"""Tests of *Setback* (a package, so that its module names do not clash with other games')."""

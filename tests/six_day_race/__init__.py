"""Tests of *Six Day Race* (a package, so that its module names do not clash with other games')."""

"""Rule tests of Why First?."""

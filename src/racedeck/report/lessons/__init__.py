"""What a learned policy teaches a designer: the report's section on it, from games where it
plays one seat against the field bot (:mod:`.play`), its generic parts (:mod:`.section`) and
a game's own lesson (``LESSON`` of the game's ``findings`` plugin, :mod:`.base`)."""

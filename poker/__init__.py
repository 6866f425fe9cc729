"""Cash tables: the game engine (``poker.engine``) and the Django app around it."""

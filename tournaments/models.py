"""Tournament models. None yet."""

"""The arena: bots anywhere dial in, and a ladder that never stops ranks them."""

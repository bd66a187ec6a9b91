"""A bot file that fails at import, as a bot with a typo would."""

raise ImportError("no module named 'my_secret_model'")

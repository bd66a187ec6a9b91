"""A bot for the one-seat toy game (tests/support/solo_toy.py): it always takes the highest
card, so on every deal it scores at least as much as any other bot."""

from admiralty_sdk import Bot, serve


class BestCardBot(Bot):
    name = "best"

    def decide(self, request) -> int:
        values = [int(option.key.split(":")[1]) for option in request.options]
        return values.index(max(values))


if __name__ == "__main__":
    serve(BestCardBot())

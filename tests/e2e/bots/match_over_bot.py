"""A bot whose MatchOver handler raises: the call fails, which the referee shrugs off in a
match, so only a conformance check sees it."""

import random

from admiralty_sdk import Bot, run


class MatchOverBot(Bot):
    name = "match-over-raises"
    games = ("jamaica",)

    def decide(self, request) -> int:
        rng = random.Random(f"{request.match_id}:{request.seat}:{request.request_id}")
        return rng.randrange(len(request.options))

    def on_match_over(self, message) -> None:
        raise RuntimeError("lost my notes of this match")


if __name__ == "__main__":
    run(MatchOverBot())

"""An SDK bot whose name is 3 MB: the referee must refuse it in one short line, and nothing
it prints (the SDK announces the name on stderr) may flood that line."""

from admiralty_sdk import Bot, serve


class BigName(Bot):
    name = "n" * 3_000_000

    def decide(self, request) -> int:
        return 0


if __name__ == "__main__":
    serve(BigName())

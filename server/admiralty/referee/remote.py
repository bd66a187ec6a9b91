"""A client of a served referee (`admiralty serve`): the operator's calls, with the token.

Every call but Watch carries the admin token as `authorization: Bearer <token>`; with
`tls_ca` (PEM root certificates) the channel is TLS.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import grpc
from google.protobuf import struct_pb2

from admiralty.referee import service
from admiralty.referee.policy import FailurePolicy
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

POLICIES = {
    policy: number
    for number, policy in service.POLICIES.items()
    if number != referee_pb2.FAILURE_POLICY_UNSPECIFIED
}
"""Each failure policy as the protocol numbers it (the service's table, inverted)."""
CALL_TIMEOUT = 30.0


def referee_channel(address: str, tls_ca: bytes | None = None) -> grpc.Channel:
    """A channel to the referee at `address` (`host:port` or `grpc://host:port`)."""
    target = address.removeprefix("grpc://")
    if tls_ca is None:
        return grpc.insecure_channel(target)
    return grpc.secure_channel(target, grpc.ssl_channel_credentials(tls_ca))


class RemoteReferee:
    """The operator's calls on one served referee."""

    def __init__(self, channel: grpc.Channel, token: str):
        self._stub = referee_pb2_grpc.RefereeServiceStub(channel)
        self._metadata = (("authorization", f"Bearer {token}"),)

    def create(
        self,
        game: str,
        bots: list[str],
        seed: int = 0,
        options: dict | None = None,
        deadline_ms: int = 0,
        time_bank_ms: int = 0,
        policy: FailurePolicy = FailurePolicy.DEFAULT,
    ) -> referee_pb2.CreateMatchResponse:
        message = struct_pb2.Struct()
        message.update(options or {})
        return self._stub.CreateMatch(
            referee_pb2.CreateMatchRequest(
                game=game,
                bots=bots,
                seed=seed,
                options=message,
                deadline_ms=deadline_ms,
                time_bank_ms=time_bank_ms,
                policy=POLICIES[policy],
            ),
            metadata=self._metadata,
            timeout=CALL_TIMEOUT,
        )

    def get(self, match_id: str) -> referee_pb2.MatchSummary:
        return self._stub.GetMatch(
            referee_pb2.GetMatchRequest(match_id=match_id),
            metadata=self._metadata,
            timeout=CALL_TIMEOUT,
        ).match

    def matches(self, page_size: int = 100) -> Iterator[referee_pb2.MatchSummary]:
        """Every match the referee remembers, oldest first, fetched a page at a time."""
        token = ""
        while True:
            page = self._stub.ListMatches(
                referee_pb2.ListMatchesRequest(page_size=page_size, page_token=token),
                metadata=self._metadata,
                timeout=CALL_TIMEOUT,
            )
            yield from page.matches
            token = page.next_page_token
            if not token:
                return


@contextlib.contextmanager
def remote_referee(
    address: str, token: str, tls_ca: bytes | None = None
) -> Iterator[RemoteReferee]:
    with referee_channel(address, tls_ca) as channel:
        yield RemoteReferee(channel, token)

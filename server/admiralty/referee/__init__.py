"""The referee: runs matches between remote bots, under its clock and failure policy."""

from admiralty.referee.clients import BotClient, InProcessSeat
from admiralty.referee.launcher import (
    BotLaunchError,
    LaunchedBot,
    check_plays,
    launch,
    launch_all,
    stop_all,
)
from admiralty.referee.match import Incident, Match, MatchReport, MatchSpec, run_match
from admiralty.referee.policy import FailurePolicy, IncidentKind
from admiralty.referee.record import ReplayReport, read_record, verify_record

__all__ = [
    "BotClient",
    "BotLaunchError",
    "FailurePolicy",
    "InProcessSeat",
    "Incident",
    "IncidentKind",
    "LaunchedBot",
    "Match",
    "MatchReport",
    "MatchSpec",
    "ReplayReport",
    "check_plays",
    "launch",
    "launch_all",
    "read_record",
    "run_match",
    "stop_all",
    "verify_record",
]

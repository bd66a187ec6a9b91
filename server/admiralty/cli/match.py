"""`admiralty match`: the operator's calls on a served referee: create, list, show."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from google.protobuf import json_format

from admiralty.cli.options import (
    DeadlineOption,
    GameArgument,
    GameOptionsOption,
    JsonOption,
    PolicyOption,
    SeedOption,
    TimeBankOption,
    parse_options,
)
from admiralty.cli.output import out, usage
from admiralty.cli.plain_help import Typer
from admiralty.cli.remote import (
    ServerOption,
    TlsCaOption,
    TokenFileOption,
    TokenOption,
    needed_token,
    served,
)
from admiralty.cli.watch import watch
from admiralty.console.served_matches import matches_list_table, print_match_summary
from admiralty.referee import FailurePolicy
from admiralty.referee.remote import remote_referee

match_app = Typer(
    help="The operator's calls on a served referee (`admiralty serve`): create, list, show.",
    no_args_is_help=True,
)


@match_app.command("create")
def match_create(
    game: GameArgument,
    bot: Annotated[
        list[str],
        typer.Option(
            "--bot",
            "-b",
            help="A running bot's address, host:port or "
            "grpc://host:port, as the referee reaches it. Repeat once per seat.",
        ),
    ],
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    seed: SeedOption = None,
    option: GameOptionsOption = [],  # noqa: B006
    policy: PolicyOption = FailurePolicy.DEFAULT,
    deadline: DeadlineOption = 2.0,
    time_bank: TimeBankOption = 60.0,
    tls_ca: TlsCaOption = None,
    as_json: JsonOption = False,
    follow: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Then follow it live, as `admiralty watch ID` "
            "does (with the admin token: every seat's cards).",
        ),
    ] = False,
) -> None:
    """Start a match on the referee; prints its id (follow it with `admiralty watch ID`)."""
    if seed is not None and not 0 < seed < 2**64:
        raise usage("a served match takes a --seed from 1 to 2**64 - 1 (omit it for a 128-bit one)")
    admin = needed_token(token, token_file)
    with served(server, tls_ca) as roots, remote_referee(server, admin, roots) as referee:
        created = referee.create(
            game,
            bot,
            seed or 0,
            parse_options(option),
            int(deadline * 1000),
            int(time_bank * 1000),
            policy,
        )
    if as_json:
        print(json.dumps({"match_id": created.match_id, "seed": created.master_seed}))
    else:
        out.print(f"match {created.match_id} (seed {created.master_seed})", highlight=False)
    if follow:
        watch(created.match_id, server, admin, tls_ca=tls_ca)


@match_app.command("list")
def match_list(
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    tls_ca: TlsCaOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the matches the referee remembers, oldest first."""
    admin = needed_token(token, token_file)
    with served(server, tls_ca) as roots, remote_referee(server, admin, roots) as referee:
        summaries = [_summary_json(summary) for summary in referee.matches()]
    if as_json:
        print(json.dumps(summaries))
    else:
        out.print(matches_list_table(summaries))


@match_app.command("show")
def match_show(
    match_id: Annotated[str, typer.Argument(help="The match, as `match list` shows it.")],
    server: ServerOption = "127.0.0.1:50051",
    token: TokenOption = None,
    token_file: TokenFileOption = None,
    tls_ca: TlsCaOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one match: status, bots, seed, steps, record and, once finished, the result."""
    admin = needed_token(token, token_file)
    with served(server, tls_ca) as roots, remote_referee(server, admin, roots) as referee:
        summary = _summary_json(referee.get(match_id))
    if as_json:
        print(json.dumps(summary))
    else:
        print_match_summary(out, summary)


def _summary_json(summary) -> dict:
    data = json_format.MessageToDict(
        summary, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    data["status"] = data["status"].removeprefix("MATCH_STATUS_").lower()
    for incident in data.get("result", {}).get("incidents", []):
        incident["kind"] = incident["kind"].removeprefix("INCIDENT_KIND_").lower()
    return data

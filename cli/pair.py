"""``arbiter pair``: pair the next round of a tournament file, as a drop-in for bbpPairings; or pair a
round of a running `fide-rapid` event on the arbiter's command.

    arbiter pair --dutch INPUT.trf -p [OUTPUT]
    arbiter pair TOURNAMENT --round N [--preview | --publish] [--roster-revision N] [--wait SECONDS]
    arbiter excuse TOURNAMENT PLAYER --round N [--reason R]

The offline output is bbpPairings' format: the number of lines that follow, then ``white black`` per
game in board order and ``X 0`` for the pairing-allocated bye; standard output when OUTPUT is
omitted. ``-`` as INPUT reads standard input. Exit codes: 0 paired; 1 no valid pairing exists
(as bbpPairings); 2 the input is wrong (unreadable file, a line that breaks the TRF layout,
unknown players, games whose two lines disagree) or the output cannot be written.

With ``--round`` the argument is a `fide-rapid` event's id and pairing's API does the work (an arbiter of
the whole event or its organiser; where the services are and who you are: ``cli/client.py``):
``--preview`` shows who is present, who asked for a bye, who is withdrawn or absent; without it the
round is paired (again, if it is not published yet) and its pairing list printed by board;
``--publish`` publishes it (pairing it first if nobody did): only then do the boards get their games.
``arbiter excuse`` excuses a player's absence from a round before the next pairing is published.

The preview and the pairing follow what registration answered this command line (docs/api.md, "Causal
commands"): they name the tournament's latest roster revision it holds (:mod:`cli.revisions`: a
withdrawal, a late entry, the start made with ``arbiter``), or ``--roster-revision N``, and while pairing
has not heard that far (409 ``not-yet-heard``) they wait as its ``Retry-After`` asks, up to ``--wait``
seconds (30), then fail saying so. ``--roster-revision 0``: the roster as pairing has heard it, no wait.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from time import monotonic, sleep
from typing import TYPE_CHECKING, Any

import click

from cli import revisions
from cli.client import Api, api_options, make_api, retry_after
from cli.errors import CliError, CommandFailed
from cli.pairing_list import pairing_lines, preview_lines
from cli.trf_files import read_trf

if TYPE_CHECKING:
    import httpx

WAIT_SECONDS = 30.0  # how long a pairing waits, at most, for pairing to hear the roster it names
NOT_YET_HEARD = "/problems/not-yet-heard"


def _offline(input_file: str, output: str | None, dutch: bool) -> None:
    # the engine (numpy, scipy, rustworkx) is imported when a round is paired, not at start-up
    from services.pairing.domain.dutch import InvalidInputError, NoValidPairingError, from_trf, pair_round

    if not dutch:
        raise click.UsageError("choose the pairing system: --dutch (or pair an event: TOURNAMENT --round N)")
    if output is None:
        raise click.UsageError("-p is required: arbiter pair --dutch INPUT.trf -p [OUTPUT]")
    doc = read_trf(input_file, need_players=False)
    name = "<stdin>" if input_file == "-" else input_file
    try:
        pairing = pair_round(from_trf(doc))
    except InvalidInputError as exc:
        raise CliError(f"{name}: {exc}") from None
    except NoValidPairingError as exc:
        raise CommandFailed(f"{name}: No valid pairing exists: {exc}") from None
    text = "\n".join(pairing.lines()) + "\n"
    if output == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="ascii")
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None


class Heard:
    """Pairing asked after a roster revision: while it has not heard that far (409 ``not-yet-heard``), the
    request is asked again as its ``Retry-After`` says, for ``wait`` seconds at most."""

    def __init__(self, api: Api, tournament: uuid.UUID, revision: int | None, wait: float) -> None:
        self.api, self.tournament, self.revision, self.wait = api, tournament, revision, wait

    def request(self, method: str, path: str, *, auth: bool = True) -> httpx.Response:
        if self.revision is None:
            return self.api.request("pairing", method, path, auth=auth)
        named = f"{path}?roster_revision={self.revision}"
        deadline = monotonic() + self.wait
        told = False
        while True:
            response = self.api.request("pairing", method, named, auth=auth)
            if response.status_code != 409 or _problem_type(response) != NOT_YET_HEARD:
                return response
            heard = response.json().get("heard_revision")
            left = deadline - monotonic()
            if left <= 0:
                raise CommandFailed(
                    f"pairing has not heard roster revision {self.revision} of {self.tournament} after"
                    f" {self.wait:g} s (it has heard up to {heard}): registration's news has not reached"
                    " it. Is pairing's consumer running? Try again later, or --roster-revision 0 for the"
                    " roster as pairing has heard it"
                )
            if not told:
                click.echo(
                    f"waiting for pairing to hear roster revision {self.revision} (it has heard {heard})",
                    err=True,
                )
                told = True
            sleep(min(retry_after(response), left))


def _problem_type(response: httpx.Response) -> str | None:
    try:
        found = response.json().get("type")
    except ValueError:
        return None
    return found if isinstance(found, str) else None


def _event(
    api: Api,
    tournament: str,
    number: int,
    preview: bool,
    publish: bool,
    as_json: bool,
    revision: int | None = None,
    wait: float = WAIT_SECONDS,
) -> None:
    """``revision``: the roster revision to pair after (None: the latest this command line holds; 0:
    none, the roster as pairing has heard it)."""
    try:
        tid = uuid.UUID(tournament)
    except ValueError:
        raise click.BadParameter(f"{tournament!r} is not a tournament id", param_hint="TOURNAMENT") from None
    if revision is None:
        revision = revisions.held(str(tid))
    heard = Heard(api, tid, revision or None, wait)
    base = f"/tournaments/{tid}/rounds/{number}"
    if preview:
        answer = api.answer("pairing", heard.request("GET", f"{base}/preview", auth=bool(api.token)))
        click.echo(json.dumps(answer, indent=2) if as_json else "\n".join(preview_lines(answer)))
        return
    if publish:
        response = api.request("pairing", "POST", f"{base}/publish")
        if response.status_code == 404 and response.json().get("type") == "/problems/round-not-paired":
            api.answer("pairing", heard.request("POST", f"{base}/pair"))
            response = api.request("pairing", "POST", f"{base}/publish")
        api.answer("pairing", response)
        answer = api.call("pairing", "GET", f"{base}/pairings")
    else:
        answer = api.answer("pairing", heard.request("POST", f"{base}/pair"))
    click.echo(json.dumps(answer, indent=2) if as_json else "\n".join(pairing_lines(answer)))


def register(group: click.Group) -> None:
    @group.command("pair")
    @click.option("--dutch", "dutch", is_flag=True, help="Pair with the FIDE Dutch system (C.04.3).")
    @click.argument("input_file", metavar="INPUT.trf|TOURNAMENT")
    @click.option(
        "-p",
        "output",
        is_flag=False,
        flag_value="-",
        default=None,
        metavar="[OUTPUT]",
        help="Write the pairing of the next round to OUTPUT (standard output when omitted).",
    )
    @click.option(
        "--round",
        "number",
        type=click.IntRange(min=1),
        default=None,
        help="a fide-rapid event's round to pair",
    )
    @click.option("--preview", is_flag=True, help="with --round: who the pairing takes and leaves out")
    @click.option("--publish", is_flag=True, help="with --round: publish the round (pairing it if needed)")
    @click.option(
        "--roster-revision",
        "revision",
        type=click.IntRange(min=0),
        default=None,
        help="with --round: pair after registration's roster revision N (default: the latest your commands"
        " were answered; 0: the roster as pairing has heard it)",
    )
    @click.option(
        "--wait",
        type=click.FloatRange(min=0),
        default=WAIT_SECONDS,
        show_default=True,
        help="with --round: seconds to wait, at most, for pairing to hear that roster revision",
    )
    @api_options
    def pair(
        dutch: bool,
        input_file: str,
        output: str | None,
        number: int | None,
        preview: bool,
        publish: bool,
        revision: int | None,
        wait: float,
        **kwargs: Any,
    ) -> None:
        """Pair the next round of the tournament in INPUT.trf (- for standard input); or, with --round,
        round N of the running fide-rapid event TOURNAMENT."""
        as_json = kwargs.pop("as_json")
        if number is None:
            if preview or publish or revision is not None:
                raise click.UsageError("--preview, --publish and --roster-revision go with --round N")
            _offline(input_file, output, dutch)
            return
        if dutch or output is not None:
            raise click.UsageError(
                "--dutch and -p pair a TRF file; a running event is paired by --round alone"
            )
        if preview and publish:
            raise click.UsageError("--preview or --publish, not both")
        _event(make_api(kwargs), input_file, number, preview, publish, as_json, revision, wait)

    @group.command("excuse")
    @click.argument("tournament", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @click.option("--round", "number", type=click.IntRange(min=1), required=True, help="the round missed")
    @click.option("--reason", default=None, help="why (kept with the decision)")
    @api_options
    def excuse(
        tournament: uuid.UUID, player: uuid.UUID, number: int, reason: str | None, **kwargs: Any
    ) -> None:
        """Excuse PLAYER's absence from a round of TOURNAMENT before the next pairing is published: they are
        paired again (an unpublished pairing of the next round is dropped: pair it again)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body: dict[str, Any] = {"round": number}
        if reason is not None:
            body["reason"] = reason
        answer = api.call("pairing", "POST", f"/tournaments/{tournament}/absences/{player}/excuse", body)
        message = f"the absence of {player} from round {number} is excused"
        if answer["pairing_dropped"]:
            message += f"; round {number + 1}'s pairing was dropped: pair it again"
        click.echo(json.dumps(answer, indent=2) if as_json else message)

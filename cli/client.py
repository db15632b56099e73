"""Commands that drive a running Arbiter over its HTTP APIs: create, join, report, token; and the
client (:class:`Api`) and options (:func:`api_options`) every such command shares.

Where the services are: ``--registration-url`` etc. or ``ARBITER_<SERVICE>_URL`` (defaults: the
`make dev` ports 8001–8004). Who you are: ``--token``, else ``ARBITER_TOKEN``, else the login that
``arbiter login`` saved (:mod:`cli.config`); ``arbiter token`` mints a bearer JWT from
``ARBITER_JWT_SECRET`` for local use.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
import uuid
from typing import TYPE_CHECKING, Any

import click

from cli import revisions
from cli.config import CONFIG_ENV, saved_token
from cli.text import plural, points
from shared.scoring import Outcome

if TYPE_CHECKING:
    import httpx

DEFAULT_URLS = {
    "registration": "http://127.0.0.1:8001",
    "pairing": "http://127.0.0.1:8002",
    "clocks": "http://127.0.0.1:8003",
    "standings": "http://127.0.0.1:8004",
}
OUTCOMES = tuple(o.value for o in Outcome if o is not Outcome.NOT_PLAYED)
_DURATION = re.compile(r"^(\d+)([smhd])$")
_TC = re.compile(r"^(\d+(?:\.\d+)?)\+(\d+)$")
_TOURNAMENT_PATH = re.compile(r"^/tournaments/([0-9a-fA-F-]{36})(?:/|$)")
ROSTER_REVISION = "Roster-Revision"  # registration's answer about a tournament: cli/revisions.py


NEEDS_TOKEN = (
    "this needs a token: `arbiter login ACCOUNT_ID` (see `arbiter account create`), --token or ARBITER_TOKEN"
)
# A forfeit (-/+, -/-) looks like an option to click: unknown "options" are taken as arguments.
FORFEITS_AS_ARGUMENTS = {"ignore_unknown_options": True}


RETRIES = 4  # a 503 (a database or Redis down for a moment) is asked again, after its Retry-After


def retry_after(response: httpx.Response) -> float:
    try:
        return min(max(float(response.headers.get("Retry-After", "1")), 0.1), 5.0)
    except ValueError:
        return 1.0


def _hold_revision(path: str, response: httpx.Response) -> None:
    """Keep the roster revision registration answered about a tournament (its path names it, or, for a
    new one, its ``Location``), for a later command to pairing to name (:mod:`cli.revisions`)."""
    given = response.headers.get(ROSTER_REVISION)
    if not given or not given.isdigit() or response.status_code >= 300:
        return
    found = _TOURNAMENT_PATH.match(path) or _TOURNAMENT_PATH.match(response.headers.get("Location", ""))
    if found is not None:
        revisions.remember(found.group(1), int(given))


class Api:
    def __init__(self, urls: dict[str, str], token: str | None) -> None:
        """``token``: from --token or ARBITER_TOKEN; None: the saved login's, if any, when one is needed."""
        self.urls = urls
        self._token = token
        self._looked = token is not None

    @property
    def token(self) -> str | None:
        if not self._looked:
            self._token, self._looked = saved_token(), True
        return self._token

    def call(self, service: str, method: str, path: str, body: Any = None, *, auth: bool = True) -> Any:
        return self.answer(service, self.request(service, method, path, json=body, auth=auth))

    def request(
        self,
        service: str,
        method: str,
        path: str,
        *,
        json: Any = None,
        content: bytes | None = None,
        content_type: str | None = None,
        auth: bool = True,
    ) -> httpx.Response:
        """The service's answer as it came (a problem too); a click error when it cannot be reached."""
        headers = {}
        if auth:
            if not self.token:
                raise click.UsageError(NEEDS_TOKEN)
            headers["Authorization"] = f"Bearer {self.token}"
        if content_type:
            headers["Content-Type"] = content_type
        if method == "POST":  # the same key on every attempt: a retried creation is made once
            headers["Idempotency-Key"] = uuid.uuid4().hex
        url = self.urls[service] + path
        import httpx  # 0.1 s: imported by the commands that talk to the stack, when they do

        for attempt in range(1, RETRIES + 1):
            try:
                response = httpx.request(method, url, json=json, content=content, headers=headers, timeout=30)
            except httpx.HTTPError as exc:
                raise click.ClickException(
                    f"cannot reach the {service} service at {self.urls[service]}: {exc}"
                ) from None
            if response.status_code != 503 or attempt == RETRIES:
                if service == "registration":
                    _hold_revision(path, response)
                return response
            time.sleep(retry_after(response))  # a dependency was down for a moment: as the answer asks
        raise AssertionError("unreachable")

    def answer(self, service: str, response: httpx.Response) -> Any:
        """The JSON of a successful answer; a problem as a click error with its title and detail."""
        if response.status_code >= 400:
            try:
                problem = response.json()
                message = (
                    f"{problem.get('title', response.reason_phrase)}: {problem.get('detail', '')}".rstrip(
                        ": "
                    )
                )
                for err in problem.get("errors", []):
                    message += f"\n  {'.'.join(err['loc'])}: {err['msg']}"
            except ValueError:
                message = response.text[:200]
            raise click.ClickException(f"{response.status_code} {message}")
        return response.json() if response.content else None


OPENING_OPTION = click.option(
    "--opening",
    default="free",
    show_default=True,
    help="free, random-1|2|3, table-1|2|3, table-all (english, italian) or thematic:CODE (docs/openings.md)",
)
"""A `platform` tournament's opening option, as `arbiter create` and `arbiter demo` take it."""


def _api(ctx: click.Context) -> Api:
    obj = ctx.find_object(Api)
    assert obj is not None
    return obj


def parse_duration(value: str) -> dt.timedelta:
    match = _DURATION.match(value.strip())
    if not match:
        raise click.BadParameter("use a number and a unit: 90s, 10m, 2h, 3d")
    n, unit = int(match.group(1)), match.group(2)
    return dt.timedelta(**{{"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[unit]: n})


def parse_time_control(value: str) -> dict[str, int]:
    """``3+2`` = 3 minutes and 2 seconds per move."""
    match = _TC.match(value.strip())
    if not match:
        raise click.BadParameter("use minutes+increment, e.g. 3+2 or 0.5+0")
    return {"base_seconds": round(float(match.group(1)) * 60), "increment_seconds": int(match.group(2))}


def _fide_rapid(options: dict[str, Any]) -> dict[str, Any]:
    """The body creating a fide-rapid event from ``arbiter create``'s options."""

    def day(value: dt.datetime | None) -> str | None:
        return None if value is None else value.date().isoformat()

    fide: dict[str, Any] = {
        "system": "round_robin" if options["round_robin"] else "swiss",
        "place": options["place"],
        "start_date": day(options["start_date"]),
        "end_date": day(options["end_date"]),
        "acceleration": options["acceleration"],
        "clocks": "server" if options["server_clocks"] else "board",
        "late_entry_bye": options["late_entry_bye"],
        "federation": options["federation"],
        "chief_arbiter": options["chief_arbiter"],
        "deputy_arbiters": list(options["deputy_arbiter"]),
    }
    if options["rounds"] is not None:
        fide["rounds"] = options["rounds"]
    return {
        "name": options["name"],
        "ruleset": "fide-rapid",
        "time_control": parse_time_control(options["time_control"]),
        "rated": not options["unrated"],
        "fide": fide,
    }


KNOCKOUTS = ("knockout", "double-knockout")
KNOCKOUT_OPTIONS = (
    "games_per_match",
    "tiebreaks",
    "sudden_death",
    "third_place",
    "no_second_final",
    "seeding",
)
# options of the tournaments with a start time and a field: a knockout draft has neither (docs/api.md)
NOT_FOR_KNOCKOUTS = (
    "minutes",
    "starts_in",
    "seats",
    "minimum",
    "threshold",
    "double_rounds",
    "extra_round",
    "password",
    "opening",
    "min_rating",
    "duration",
)
_STAGE = re.compile(r"^([12])x(.+)$")


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _check_knockout_options(options: dict[str, Any]) -> None:
    """The knockout's options go with a knockout, and the options of a scheduled tournament not with one."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    given = [n for n in options if ctx.get_parameter_source(n) is ParameterSource.COMMANDLINE]
    if options["ruleset"] in KNOCKOUTS:
        wrong = [n for n in given if n in NOT_FOR_KNOCKOUTS or n in _FIDE_ONLY]
        if wrong:
            raise click.UsageError(f"{_option(wrong[0])} does not go with --ruleset {options['ruleset']}")
        if options["third_place"] and options["ruleset"] == "double-knockout":
            raise click.UsageError("--third-place goes with --ruleset knockout (a double knockout has none)")
        if options["no_second_final"] and options["ruleset"] == "knockout":
            raise click.UsageError("--no-second-final goes with --ruleset double-knockout")
        return
    wrong = [n for n in given if n in KNOCKOUT_OPTIONS]
    if wrong:
        raise click.UsageError(f"{_option(wrong[0])} goes with --ruleset knockout or double-knockout")


_FIDE_ONLY = (
    "rounds",
    "round_robin",
    "place",
    "federation",
    "chief_arbiter",
    "deputy_arbiter",
    "start_date",
    "end_date",
    "acceleration",
    "server_clocks",
    "late_entry_bye",
)


def _stage(value: str) -> dict[str, Any]:
    """``2x15+10``: a tie-break stage of 2 games at 15+10."""
    match = _STAGE.match(value.strip())
    if not match:
        raise click.BadParameter(
            f"{value!r}: a stage is GAMESxTC, 1 or 2 games at minutes+increment, e.g. 2x15+10",
            param_hint="'--tiebreak'",
        )
    try:
        clock = parse_time_control(match.group(2))
    except click.BadParameter:
        raise click.BadParameter(
            f"{value!r}: the time control is minutes+increment, e.g. 2x15+10", param_hint="'--tiebreak'"
        ) from None
    return {"games": int(match.group(1)), "time_control": clock}


def _tiebreak_plan(tiebreaks: tuple[str, ...], sudden_death: str | None) -> dict[str, Any] | None:
    """The plan from ``--tiebreak`` and ``--sudden-death``; None: neither given, the service's default."""
    if not tiebreaks and sudden_death is None:
        return None
    from shared.time_control import DEFAULT_PLAN

    if tiebreaks == ("none",):
        stages: list[dict[str, Any]] = []
    elif tiebreaks:
        stages = [_stage(t) for t in tiebreaks]
    else:  # the default stages, another sudden-death game
        stages = [
            {
                "games": s.games,
                "time_control": _clock(s.time_control.base_seconds, s.time_control.increment_seconds),
            }
            for s in DEFAULT_PLAN.stages
        ]
    if sudden_death is None:
        last = DEFAULT_PLAN.sudden_death
        sudden = _clock(last.base_seconds, last.increment_seconds)
    else:
        try:
            sudden = parse_time_control(sudden_death)
        except click.BadParameter as exc:
            raise click.BadParameter(exc.message, param_hint="'--sudden-death'") from None
    return {"stages": stages, "sudden_death": sudden}


def _clock(base: int, increment: int) -> dict[str, int]:
    return {"base_seconds": base, "increment_seconds": increment}


def _knockout(options: dict[str, Any]) -> dict[str, Any]:
    """The body creating a knockout draft from ``arbiter create``'s options (docs/api.md)."""
    knockout: dict[str, Any] = {}
    if options["games_per_match"] is not None:
        knockout["games_per_match"] = int(options["games_per_match"])
    if options["seeding"] is not None:
        knockout["seeding"] = options["seeding"]
    if options["third_place"]:
        knockout["third_place"] = True
    if options["no_second_final"]:
        knockout["second_final"] = False
    plan = _tiebreak_plan(options["tiebreaks"], options["sudden_death"])
    if plan is not None:
        knockout["tiebreak_plan"] = plan
    return {
        "name": options["name"],
        "ruleset": options["ruleset"],
        "time_control": parse_time_control(options["time_control"]),
        "variant": options["variant"],
        "rated": not options["unrated"],
        "knockout": knockout,
    }


def _plan(t: dict[str, Any]) -> list[str]:
    """A knockout's format in words, a line each: the games, the tie-breaks, the seeding and the extras."""
    ko = t["knockout"]

    def tc(clock: dict[str, int]) -> str:
        return f"{points(clock['base_seconds'] / 60)}+{clock['increment_seconds']}"

    plan = ko["tiebreak_plan"]
    stages = ", ".join(f"{s['games']}x{tc(s['time_control'])}" for s in plan["stages"]) or "none"
    extras = [f"seeding by {ko['seeding']}"]
    if t["ruleset"] == "knockout" and ko["third_place"]:
        extras.append("a third-place match")
    if t["ruleset"] == "double-knockout":
        extras.append("a second final if needed" if ko["second_final"] else "no second final")
    return [
        f"{plural(ko['games_per_match'], 'game')} a match; tie-breaks {stages}, then sudden death "
        f"{tc(plan['sudden_death'])}",
        "; ".join(extras),
    ]


def _print(data: Any, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(data, indent=2))


def api_options(f: Any) -> Any:
    """The options of every command that talks to the stack: the services' URLs, the token, --json."""
    for service in reversed(tuple(DEFAULT_URLS)):
        f = click.option(
            f"--{service}-url",
            envvar=f"ARBITER_{service.upper()}_URL",
            default=DEFAULT_URLS[service],
            show_default=True,
            show_envvar=True,
            help=f"base URL of the {service} service",
        )(f)
    return token_option(json_option(f))


def token_option(f: Any) -> Any:
    return click.option(
        "--token",
        envvar="ARBITER_TOKEN",
        show_envvar=True,
        help=f"bearer token (JWT); default: the one `arbiter login` saved (file: {CONFIG_ENV})",
    )(f)


def json_option(f: Any) -> Any:
    return click.option("--json", "as_json", is_flag=True, help="print the service's answer as JSON")(f)


def quiet_option(f: Any) -> Any:
    return click.option("-q", "--quiet", is_flag=True, help="print only the new id (for scripts)")(f)


def make_api(kwargs: dict[str, Any]) -> Api:
    """The API client from :func:`api_options`' values (taken out of ``kwargs``)."""
    urls = {s: kwargs.pop(f"{s}_url").rstrip("/") for s in DEFAULT_URLS}
    return Api(urls, kwargs.pop("token"))


def register(group: click.Group) -> None:
    options = api_options

    @group.command()
    @click.option("--name", required=True, help="the tournament's name")
    @click.option(
        "--ruleset",
        type=click.Choice(["platform", "fide-rapid", "arena", *KNOCKOUTS]),
        default="platform",
        show_default=True,
        help="fide-rapid: an over-the-board event its arbiters start (`arbiter start`); arena: continuous"
        " pairing for --minutes; knockout, double-knockout: a draft whose roster you keep (`arbiter players"
        " enter`) until you start it",
    )
    @click.option("--minutes", type=int, help="arena: how long it runs (10–480)")
    @click.option("--starts-in", "starts_in", default="10m", show_default=True, help="e.g. 10m, 2h, 3d")
    @click.option("--tc", "time_control", default="3+2", show_default=True, help="minutes+increment")
    @click.option("--seats", type=int, default=200, show_default=True, help="most players (4–200)")
    @click.option(
        "--minimum",
        type=int,
        default=4,
        show_default=True,
        help="fewest players at the start, else cancelled",
    )
    @click.option(
        "--threshold", type=int, default=7, show_default=True, help="fewer players: a round robin, else Swiss"
    )
    @click.option("--double-rounds", is_flag=True, help="each pairing played twice, colours swapped")
    @click.option("--extra-round", is_flag=True, help="one more Swiss round where the field carries it")
    @click.option("--unrated", is_flag=True, help="the games change no rating")
    @click.option(
        "--password",
        help="players must give it to join (a private tournament; invite links: `arbiter invite`)",
    )
    @click.option(
        "--variant",
        type=click.Choice(["chess", "international", "english", "italian", "russian"]),
        default="chess",
        show_default=True,
        help="the board its games use",
    )
    @OPENING_OPTION
    @click.option("--min-rating", type=int, help="rated only: 1000–2000 in steps of 100")
    @click.option("--duration", help="the announced duration, e.g. 90m, 3h (10 minutes to 14 days)")
    @click.option("--rounds", type=int, help="fide-rapid Swiss: 1–30 rounds")
    @click.option("--round-robin", is_flag=True, help="fide-rapid: a round robin (rounds from the field)")
    @click.option("--place", default="", help="fide-rapid: where it is played (TRF 022)")
    @click.option(
        "--federation", default="", help="fide-rapid: the organising federation, e.g. SUI (TRF 032)"
    )
    @click.option("--chief-arbiter", default="", help="fide-rapid: TRF 102, e.g. 'IA Hans Muster 1300001'")
    @click.option(
        "--deputy-arbiter",
        multiple=True,
        help="fide-rapid: a deputy chief arbiter (TRF 112); repeat for each",
    )
    @click.option("--start-date", type=click.DateTime(["%Y-%m-%d"]), help="fide-rapid: YYYY-MM-DD")
    @click.option("--end-date", type=click.DateTime(["%Y-%m-%d"]), help="fide-rapid: YYYY-MM-DD")
    @click.option("--acceleration", is_flag=True, help="fide-rapid Swiss: Baku acceleration")
    @click.option("--server-clocks", is_flag=True, help="fide-rapid: the server keeps the clocks")
    @click.option(
        "--late-entry-bye",
        type=click.Choice(["zero", "half"]),
        default="zero",
        show_default=True,
        help="fide-rapid: what a late entry scores for the rounds missed",
    )
    @click.option(
        "--games-per-match",
        type=click.Choice(["1", "2", "4", "6"]),
        default=None,
        help="knockouts: regular games a match, colours alternating (default 2)",
    )
    @click.option(
        "--tiebreak",
        "tiebreaks",
        multiple=True,
        metavar="GAMESxTC",
        help="knockouts: a tie-break stage for a level match, e.g. 2x15+10 (1 or 2 games; repeat for the next,"
        " up to 5; 'none': straight to the sudden-death game). Default: 2x15+10, 2x5+3",
    )
    @click.option(
        "--sudden-death",
        "sudden_death",
        metavar="TC",
        help="knockouts: the sudden-death game's time control after the last stage (default 3+2)",
    )
    @click.option("--third-place", is_flag=True, help="knockout: the semi-final losers play for third place")
    @click.option(
        "--no-second-final",
        is_flag=True,
        help="double-knockout: no second final when the losers' bracket winner takes the first",
    )
    @click.option(
        "--seeding",
        type=click.Choice(["rating", "custom", "random"]),
        default=None,
        help="knockouts: by rating in the time control (default), your order (`arbiter seeding order`), or a"
        " random draw (`arbiter seeding draw`, else drawn at the start)",
    )
    @quiet_option
    @options
    def create(**kwargs: Any) -> None:
        """Create a `platform` tournament, or (--ruleset fide-rapid) an over-the-board rapid event open for
        entries until its arbiters start it, or (--ruleset knockout|double-knockout) a knockout draft with
        its plan, whose roster you keep until you start it (you become its organiser)."""
        as_json = kwargs.pop("as_json")
        quiet = kwargs.pop("quiet")
        api = make_api(kwargs)
        _check_knockout_options(kwargs)
        if kwargs["ruleset"] in KNOCKOUTS:
            t = api.call("registration", "POST", "/tournaments", _knockout(kwargs))
            if as_json:
                _print(t, True)
            elif quiet:
                click.echo(t["id"])
            else:
                click.echo(f"created {t['id']}: {t['name']}, a {t['ruleset']} draft")
                for line in [*_plan(t), "next: `arbiter players enter`, then `arbiter start`"]:
                    click.echo(f"  {line}")
            return
        if kwargs["ruleset"] == "fide-rapid":
            t = api.call("registration", "POST", "/tournaments", _fide_rapid(kwargs))
            if as_json:
                _print(t, True)
            elif quiet:
                click.echo(t["id"])
            else:
                click.echo(f"created {t['id']}: {t['name']}, open for entries until an arbiter starts it")
            return
        starts_at = dt.datetime.now(dt.UTC) + parse_duration(kwargs["starts_in"])
        body = {
            "name": kwargs["name"],
            "starts_at": starts_at.isoformat(),
            "time_control": parse_time_control(kwargs["time_control"]),
            "rated": not kwargs["unrated"],
            "password": kwargs["password"],
            "variant": kwargs["variant"],
            "opening": kwargs["opening"],
            "min_rating": kwargs["min_rating"],
            "duration_minutes": None
            if kwargs["duration"] is None
            else int(parse_duration(kwargs["duration"]).total_seconds() // 60),
        }
        if kwargs["ruleset"] == "arena":
            if kwargs["minutes"] is None:
                raise click.BadParameter("an arena needs its duration", param_hint="'--minutes'")
            body |= {"ruleset": "arena", "duration_minutes": kwargs["minutes"]}
        else:
            body |= {k: kwargs[k] for k in ("seats", "minimum", "threshold", "double_rounds", "extra_round")}
        t = api.call("registration", "POST", "/tournaments", body)
        if as_json:
            _print(t, True)
        elif quiet:
            click.echo(t["id"])
        elif t.get("ends_at"):
            click.echo(f"created {t['id']}: {t['name']}, an arena from {t['starts_at']} to {t['ends_at']}")
        else:
            kind = "rated" if t["rated"] else "friendly"
            click.echo(
                f"created {t['id']}: {t['name']}, {t['variant']}, openings {t['opening']}, {kind},"
                f" starts {t['starts_at']}"
            )
            if t.get("rated_reason"):
                click.echo(f"  {t['rated_reason']}")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.option("--password", help="the tournament's password, where it has one")
    @click.option("--invite", help="a private tournament's invite link (its token), instead of the password")
    @options
    def join(tournament: uuid.UUID, password: str | None, invite: str | None, **kwargs: Any) -> None:
        """Join a tournament before its start (an arena: until its end, also to come back from a pause)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body = {"password": password, "invite": invite}
        t = api.call("registration", "POST", f"/tournaments/{tournament}/entries", body)
        if as_json:
            _print(t, True)
        else:
            click.echo(f"joined {t['name']} ({plural(len(t['entries']), 'player')})")

    @group.group()
    def invite() -> None:
        """Invite links of a private tournament (its organiser)."""

    @invite.command("create")
    @click.argument("tournament", type=click.UUID)
    @click.option("--valid-for", "valid_for", help="e.g. 30m, 2h, 3d; unset: until revoked")
    @options
    def invite_create(tournament: uuid.UUID, valid_for: str | None, **kwargs: Any) -> None:
        """Create an invite link: its holder joins with `arbiter join TOURNAMENT --invite TOKEN`."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        minutes = None if valid_for is None else max(1, int(parse_duration(valid_for).total_seconds() // 60))
        link = api.call(
            "registration", "POST", f"/tournaments/{tournament}/invites", {"valid_for_minutes": minutes}
        )
        if as_json:
            _print(link, True)
        else:
            until = f", expires {link['expires_at']}" if link["expires_at"] else ""
            click.echo(f"invite {link['token']}{until}")

    @invite.command("revoke")
    @click.argument("tournament", type=click.UUID)
    @click.argument("link")
    @options
    def invite_revoke(tournament: uuid.UUID, link: str, **kwargs: Any) -> None:
        """Revoke the invite link LINK (its token): joining with it is refused from now on."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        revoked = api.call("registration", "DELETE", f"/tournaments/{tournament}/invites/{link}")
        if as_json:
            _print(revoked, True)
        else:
            click.echo(f"revoked {revoked['token']} at {revoked['revoked_at']}")

    @group.command(context_settings=FORFEITS_AS_ARGUMENTS)
    @click.argument("game", type=click.UUID)
    @click.argument("outcome", type=click.Choice(OUTCOMES))
    @click.option("--reason", default="reported", show_default=True, help="a short lowercase code")
    @options
    def report(game: uuid.UUID, outcome: str, reason: str, **kwargs: Any) -> None:
        """Report a game's result: 1-0, 1/2-1/2, 0-1, +/- or -/+ (forfeits), -/- (double forfeit)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        g = api.call("clocks", "POST", f"/games/{game}/result", {"outcome": outcome, "reason": reason})
        if as_json:
            _print(g, True)
        else:
            click.echo(f"game {game}: {outcome} ({reason})")

    @group.command()
    @click.option("--subject", type=click.UUID, default=None, help="the account id (default: a new one)")
    @token_claims
    @secret_option
    def token(subject: uuid.UUID | None, roles: tuple[str, ...], secret: str | None, hours: float) -> None:
        """Mint a bearer token for local use (signed with ARBITER_JWT_SECRET)."""
        click.echo(mint(secret, subject or uuid.uuid4(), roles, hours))


def token_claims(f: Any) -> Any:
    """The options of a token the command line signs: its roles and how long it is valid."""
    f = click.option(
        "--hours", type=float, default=12, show_default=True, help="how long the signed token is valid"
    )(f)
    return click.option(
        "--role",
        "roles",
        multiple=True,
        type=click.Choice(["player", "arbiter", "service"]),
        default=("player",),
        show_default=True,
        help="a role the signed token carries (repeat for more): service may register accounts",
    )(f)


def secret_option(f: Any) -> Any:
    return click.option(
        "--secret",
        envvar="ARBITER_JWT_SECRET",
        show_envvar=True,
        help="the stack's JWT secret, to sign tokens with (default: the local development secret)",
    )(f)


def mint(secret: str | None, subject: uuid.UUID, roles: tuple[str, ...], hours: float = 12) -> str:
    """A bearer token signed with the stack's secret, as the identity provider would issue it."""
    from shared.http.auth import issue_token
    from shared.settings import DEV_JWT_SECRET

    return issue_token(secret or DEV_JWT_SECRET, subject, set(roles), ttl=dt.timedelta(hours=hours))

"""``arbiter dlq list|show|replay``: the dead-letter queues, for operators.

Where RabbitMQ is: ``--amqp-url`` or ``ARBITER_AMQP_URL`` (the vhost in its path). Which queues: every
queue the services consume (``shared/messaging/queues.py``), or those named with ``--queue``.

- ``list``: how many messages each ``<queue>.dead`` holds;
- ``show``: the messages with their reason, event and ids, left in place;
- ``replay``: moves them back to their queue (``--id`` only some, ``--dry-run`` says what it would do).
  Redelivery is harmless: a handler's inbox ignores an event it already handled.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from shared.settings import LOCAL_AMQP


def register(group: click.Group) -> None:
    group.add_command(dlq)


def _queues(queue: tuple[str, ...]) -> tuple[str, ...]:
    from shared.messaging.queues import all_queues

    return tuple(q.removesuffix(".dead") for q in queue) or all_queues()


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


@contextmanager
def _dead_letters(url: str) -> Iterator[Any]:
    import pika.exceptions

    from shared.messaging.dead_letters import DeadLetters, NoSuchQueue

    try:
        letters = DeadLetters(url)
    except (pika.exceptions.AMQPError, OSError) as exc:
        raise click.ClickException(f"cannot reach RabbitMQ at {_safe(url)}: {exc!r}") from None
    try:
        yield letters
    except NoSuchQueue as exc:
        raise click.UsageError(f"RabbitMQ has no queue {exc} (is the queue name right?)") from None
    except pika.exceptions.UnroutableError:
        raise click.ClickException("the original queue no longer exists: nothing was moved from it") from None
    except (pika.exceptions.AMQPError, OSError) as exc:
        raise click.ClickException(f"RabbitMQ at {_safe(url)}: {exc!r}") from None
    finally:
        letters.close()


amqp_option = click.option(
    "--amqp-url",
    envvar="ARBITER_AMQP_URL",
    default=LOCAL_AMQP,
    show_default=True,
    show_envvar=True,
    help="RabbitMQ URL, the vhost in its path",
)
queue_option = click.option(
    "--queue",
    "-q",
    multiple=True,
    metavar="QUEUE",
    help="only this queue (e.g. standings.game_finished; repeatable); default: every queue",
)
json_option = click.option("--json", "as_json", is_flag=True, help="print JSON")


@click.group("dlq")
def dlq() -> None:
    """The dead-letter queues: list them, show their messages, replay them."""


@dlq.command("list")
@amqp_option
@queue_option
@json_option
def list_command(amqp_url: str, queue: tuple[str, ...], as_json: bool) -> None:
    """How many messages each dead-letter queue holds."""
    from shared.messaging.dead_letters import existing

    with _dead_letters(amqp_url) as letters:
        counts = existing(letters, _queues(queue))
    if queue and all(n is None for n in counts.values()):
        raise click.UsageError(f"RabbitMQ has no dead-letter queue for {', '.join(queue)}")
    if as_json:
        click.echo(json.dumps(counts, indent=2))
        return
    width = max(len(q) for q in counts) + len(".dead")
    for name, n in counts.items():
        click.echo(f"{name + '.dead':<{width}}  {'absent' if n is None else n:>6}")
    click.echo(f"{'total':<{width}}  {sum(n or 0 for n in counts.values()):>6}")


@dlq.command("show")
@amqp_option
@queue_option
@click.option(
    "--id", "ids", multiple=True, help="only the message with this message or event id (repeatable)"
)
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True, help="per queue")
@json_option
def show_command(
    amqp_url: str, queue: tuple[str, ...], ids: tuple[str, ...], limit: int, as_json: bool
) -> None:
    """The dead letters with their reasons; nothing is taken out of the queues."""
    found: list[dict[str, Any]] = []
    with _dead_letters(amqp_url) as letters:
        for name in _queues(queue):
            if not queue and not _exists(letters, name):
                continue
            found += [m.as_dict() for m in letters.peek(name, limit=limit) if m.matches(ids)]
    if as_json:
        click.echo(json.dumps(found, indent=2))
        return
    if not found:
        click.echo("no dead letters")
    for m in found:
        click.echo(
            f"{m['queue']}  {m['type'] or '?'}  event {m['event_id'] or '?'}  message {m['message_id'] or '?'}"
        )
        click.echo(f"  tournament {m['tournament_id'] or '-'}; replayed {m['replayed']} times")
        click.echo(f"  reason: {m['reason']}")


@dlq.command("replay")
@amqp_option
@queue_option
@click.option(
    "--id", "ids", multiple=True, help="only the message with this message or event id (repeatable)"
)
@click.option("--dry-run", is_flag=True, help="say what would be moved, move nothing")
@json_option
def replay_command(
    amqp_url: str, queue: tuple[str, ...], ids: tuple[str, ...], dry_run: bool, as_json: bool
) -> None:
    """Move dead letters back to the queue they were dead-lettered from."""
    moved: list[dict[str, Any]] = []
    with _dead_letters(amqp_url) as letters:
        for name in _queues(queue):
            if not queue and not _exists(letters, name):
                continue
            moved += [m.as_dict() for m in letters.replay(name, ids=ids, dry_run=dry_run)]
    if as_json:
        click.echo(json.dumps({"dry_run": dry_run, "replayed": moved}, indent=2))
        return
    verb = "would replay" if dry_run else "replayed"
    for m in moved:
        click.echo(f"{verb} {m['type'] or '?'} {m['event_id'] or m['message_id'] or '?'} to {m['queue']}")
    click.echo(f"{verb} {len(moved)} message{'s' if len(moved) != 1 else ''}")
    if ids and not moved:
        raise click.ClickException(f"no dead letter with id {', '.join(ids)}")


def _exists(letters: Any, queue: str) -> bool:
    from shared.messaging.dead_letters import NoSuchQueue

    try:
        letters.count(queue)
    except NoSuchQueue:
        return False
    return True

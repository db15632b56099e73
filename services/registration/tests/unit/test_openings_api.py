"""Variants and openings on POST /tournaments (RULES.md §2): the option is checked against the variant's
move generator and table (422 with the opening rules' slug), stored, published in the settings, and
decides whether the tournament is rated."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.registration.bootstrap import bootstrap
from services.registration.config import RegistrationSettings
from services.registration.entrypoints.app import create_app
from services.registration.tests.helpers import create, problem, published, register
from shared.messaging.inprocess import InProcessBroker

ITALIAN_SAMPLE = Path(__file__).parents[4] / "shared/tests/data/openings/italian-sample.csv"


@pytest.fixture
def italian_client(tmp_path, clock):
    settings = RegistrationSettings(
        ARBITER_REGISTRATION_DATABASE_URL=f"sqlite:///{tmp_path / 'reg.sqlite'}",
        italian_openings=str(ITALIAN_SAMPLE),
    )
    service = bootstrap(settings, broker=InProcessBroker(), clock=clock, migrate=True, relay_on_commit=True)
    yield create_app(service).test_client(), service
    service.engine.dispose()


def test_the_opening_is_stored_and_published_with_the_settings(client, svc):
    r = create(client, register(client, "Org"), variant="english", opening="table-all", double_rounds=True)
    assert r.status_code == 201, r.json
    assert (r.json["variant"], r.json["opening"], r.json["rated"]) == ("english", "table-all", True)
    assert "double rounds" in r.json["rated_reason"]
    [scheduled] = published(svc, "tournament.scheduled")
    assert scheduled.payload["settings"]["opening"] == "table-all"
    assert client.get(f"/tournaments/{r.json['id']}").json["opening"] == "table-all"


def test_free_is_the_default_and_random_moves_fit_every_variant(client):
    assert create(client, register(client, "Org")).json["opening"] == "free"
    for variant in ("chess", "international", "russian"):
        r = create(client, register(client, f"Org {variant}"), variant=variant, opening="random-3")
        assert (r.status_code, r.json["opening"], r.json["rated"]) == (201, "random-3", True)


def test_an_opening_beyond_two_n_b_makes_it_friendly_instead_of_refusing_it(client):
    r = create(client, register(client, "Org"), variant="english", opening="thematic:001", min_rating=1500)
    assert r.status_code == 201, r.json
    assert r.json["rated"] is False and r.json["min_rating"] is None
    assert "friendly" in r.json["rated_reason"] and "double rounds" in r.json["rated_reason"]


@pytest.mark.parametrize(
    ("variant", "opening", "slug", "says"),
    [
        ("chess", "random-4", "unknown-opening-option", "free, random-1, random-2, random-3, table-1"),
        ("chess", "table-all", "opening-not-for-variant", "English and Italian draughts"),
        ("english", "table-2", "balance-classes-missing", "balance"),
        ("english", "thematic:175", "thematic-opening-not-found", "175"),
        ("italian", "table-1", "opening-table-missing", "Italian"),
    ],
)
def test_an_opening_the_rules_refuse_is_a_422_saying_why(client, variant, opening, slug, says):
    body = problem(create(client, register(client, "Org"), variant=variant, opening=opening), 422, slug)
    assert says in body["detail"]


def test_an_unknown_variant_is_a_422_listing_the_variants(client):
    body = problem(create(client, register(client, "Org"), variant="shogi"), 422, "validation-error")
    assert all(v in str(body) for v in ("chess", "international", "english", "italian", "russian"))


def test_the_italian_table_comes_from_the_configured_file(italian_client):
    client, _ = italian_client
    r = create(client, register(client, "Org"), variant="italian", opening="table-2")
    assert (r.status_code, r.json["rated"]) == (201, True)
    r = create(client, register(client, "Org 2"), variant="italian", opening="table-3")
    assert (r.status_code, r.json["rated"]) == (201, False)  # 3N/3B in one game a pairing: friendly
    body = problem(
        create(client, register(client, "Org 3"), variant="italian", opening="thematic:X9"),
        422,
        "thematic-opening-not-found",
    )
    assert "X9" in body["detail"]


def test_a_knockout_draws_no_opening(client):
    r = create(client, register(client, "Org"), ruleset="knockout", starts_at=None, opening="random-1")
    problem(r, 422, "invalid-settings")


def test_the_announced_duration_is_stored_and_published(client, svc):
    r = create(client, register(client, "Org"), duration_minutes=90)
    assert r.status_code == 201 and r.json["duration_minutes"] == 90
    [scheduled] = published(svc, "tournament.scheduled")
    assert scheduled.payload["settings"]["duration_minutes"] == 90
    body = problem(create(client, register(client, "Org 2"), duration_minutes=5), 422, "invalid-settings")
    assert "10–20160 minutes" in body["detail"]

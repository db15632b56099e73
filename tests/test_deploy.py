"""docker-compose.yml, the Procfile and the Kubernetes manifests cannot run here (no Docker engine,
no cluster), so they are checked by parsing: every module and command they name exists, ports and
environment agree, and the scalable worker can scale."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("registration", "pairing", "clocks", "standings")
GUNICORN_APP = re.compile(r"^services\.(\w+)\.entrypoints\.app:create_app\(\)$")


def process_commands(service: str) -> tuple[str, ...]:
    module = importlib.import_module(f"services.{service}.__main__")
    return ("migrate", *module.PROCESSES)


def settings_fields(service: str) -> set[str]:
    """The environment variables a service reads: ARBITER_<FIELD> or the field's alias."""
    config = importlib.import_module(f"services.{service}.config")
    cls = next(v for k, v in vars(config).items() if k.endswith("Settings") and k != "CommonSettings")
    names = set()
    for name, field in cls.model_fields.items():
        alias = field.validation_alias
        choices = getattr(alias, "choices", None)
        if choices:
            names.update(str(c) for c in choices)
        names.add(f"ARBITER_{name.upper()}")
    return names


def check_command(argv: list[str]) -> tuple[str, int | None]:
    """Validate one process command; return (service, bound port or None)."""
    if argv[:2] == ["sh", "-c"]:
        for part in argv[2].split("&&"):
            check_command(shlex.split(part))
        return "migrate", None
    if argv[0] == "gunicorn":
        assert "-c" in argv and (ROOT / argv[argv.index("-c") + 1]).is_file()
        app = argv[-1]
        match = GUNICORN_APP.match(app)
        assert match, f"unexpected gunicorn app {app}"
        module = importlib.import_module(f"services.{match.group(1)}.entrypoints.app")
        assert callable(module.create_app)
        port = int(argv[argv.index("--bind") + 1].rsplit(":", 1)[1])
        return match.group(1), port
    assert argv[:2] == ["python", "-m"], f"unexpected command {argv}"
    assert len(argv) == 4, argv
    service = argv[2].removeprefix("services.")
    assert service in SERVICES, argv
    assert argv[3] in process_commands(service), f"{argv[2]} has no process {argv[3]!r}"
    return service, None


# -- docker compose ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_commands_exist_and_ports_agree(compose):
    for name, spec in compose["services"].items():
        if "command" not in spec or ("image" in spec and "build" not in spec):
            continue
        command = spec["command"]
        argv = command if isinstance(command, list) else shlex.split(command)
        service, port = check_command(argv)
        if port is not None:
            assert spec["ports"] == [f"{port}:{port}"], name
            probe = " ".join(spec["healthcheck"]["test"])
            assert f"127.0.0.1:{port}/readyz" in probe, name
            assert name == f"{service}-web"


def test_compose_has_every_process_of_every_service(compose):
    names = set(compose["services"])
    for service in SERVICES:
        assert f"{service}-web" in names
        for process in process_commands(service)[1:]:
            expected = f"{service}-{process}"
            assert expected in names, f"compose lacks {expected}"


def test_compose_environment_matches_the_settings(compose):
    init_sql = (ROOT / "deploy/postgres/init-databases.sql").read_text()
    known = set().union(*(settings_fields(s) for s in SERVICES))
    for name, spec in compose["services"].items():
        for key, value in (spec.get("environment") or {}).items():
            if not key.startswith("ARBITER_"):
                continue
            assert key in known, f"{name}: {key} is read by no service"
            if key.endswith("_DATABASE_URL"):
                database = value.rsplit("/", 1)[1]
                assert f"CREATE DATABASE {database};" in init_sql
                assert "@postgres:5432/" in value
            if key == "ARBITER_AMQP_URL":
                assert "@rabbitmq:5672/" in value
            if key == "ARBITER_REDIS_URL":
                assert value.startswith("redis://redis:6379/")


def test_compose_dependencies_and_health(compose):
    services = compose["services"]
    for name, spec in services.items():
        for dep, condition in (spec.get("depends_on") or {}).items():
            assert dep in services, f"{name} depends on unknown {dep}"
            if condition["condition"] == "service_healthy":
                assert "healthcheck" in services[dep], f"{dep} needs a healthcheck"
    for infra in ("postgres", "rabbitmq", "redis"):
        assert "healthcheck" in services[infra]
    worker = services["pairing-worker"]
    assert "container_name" not in worker and "ports" not in worker, "the pairing worker must scale"
    pg = services["postgres"]
    assert any("init-databases.sql" in v for v in pg["volumes"])


def test_dockerfile_copies_what_exists():
    text = (ROOT / "deploy/Dockerfile").read_text()
    for source in re.findall(r"^COPY (\S+)", text, flags=re.M):
        assert (ROOT / source).exists(), source


# -- Procfile (make dev) ----------------------------------------------------------------------------


def test_procfile_runs_every_process_on_distinct_ports():
    ports = []
    names = []
    for line in (ROOT / "deploy/Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        names.append(name)
        service, port = check_command(shlex.split(command))
        if port is not None:
            ports.append(port)
            assert name == f"{service}-web"
    assert len(ports) == len(set(ports)) == 4
    for service in SERVICES:
        for process in process_commands(service)[1:]:
            assert f"{service}-{process}" in names


# -- Kubernetes -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def manifests() -> list[dict[str, Any]]:
    kustomization = yaml.safe_load((ROOT / "deploy/k8s/kustomization.yaml").read_text())
    docs = []
    for resource in kustomization["resources"]:
        docs.extend(d for d in yaml.safe_load_all((ROOT / "deploy/k8s" / resource).read_text()) if d)
    return docs


def test_k8s_deployments_run_existing_commands(manifests):
    deployments = {d["metadata"]["name"]: d for d in manifests if d["kind"] == "Deployment"}
    for service in SERVICES:
        for process in ("web", *process_commands(service)[1:]):
            assert f"{service}-{process}" in deployments
    config = next(d for d in manifests if d["kind"] == "ConfigMap")
    secret = next(d for d in manifests if d["kind"] == "Secret")
    known = set().union(*(settings_fields(s) for s in SERVICES))
    assert set(config["data"]) | set(secret["stringData"]) <= known
    for dep in deployments.values():
        pod = dep["spec"]["template"]["spec"]
        assert (
            dep["spec"]["selector"]["matchLabels"].items()
            <= dep["spec"]["template"]["metadata"]["labels"].items()
        )
        for container in pod["containers"]:
            service, port = check_command(container["command"])
            refs = {next(iter(e.values()))["name"] for e in container["envFrom"]}
            assert refs == {config["metadata"]["name"], secret["metadata"]["name"]}
            if port is not None:
                assert [p["containerPort"] for p in container["ports"]] == [port]
                assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": port}


def test_k8s_services_target_their_web_pods(manifests):
    deployments = {d["metadata"]["name"]: d for d in manifests if d["kind"] == "Deployment"}
    for svc in (d for d in manifests if d["kind"] == "Service"):
        target = svc["spec"]["selector"]["app.kubernetes.io/name"]
        container = deployments[target]["spec"]["template"]["spec"]["containers"][0]
        assert svc["spec"]["ports"][0]["targetPort"] == container["ports"][0]["containerPort"]
    hpa = next(d for d in manifests if d["kind"] == "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"]["name"] == "pairing-worker"
    job = next(d for d in manifests if d["kind"] == "Job")
    check_command(job["spec"]["template"]["spec"]["containers"][0]["command"])

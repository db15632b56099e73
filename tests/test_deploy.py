"""docker-compose.yml, the Procfile, the Dockerfile and the Kubernetes manifests cannot run here (no
Docker engine, no cluster), so they are checked by parsing: every module and command they name exists,
ports and environment agree, every process has its probes, and the scalable worker can scale. The
Kubernetes overlays are rendered as ``kubectl apply -k`` would (tests/kustomize.py) and each resource
is validated against Kubernetes' own schema (kubernetes-validate, strict); KEDA's resources, which
are custom, are checked here field by field."""

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
            # reached from outside through the proxy only (below)
            assert "ports" not in spec and spec["expose"] == [str(port)], name
            probe = " ".join(spec["healthcheck"]["test"])
            assert f"127.0.0.1:{port}/readyz" in probe, name
            assert name == f"{service}-web"


def nginx_directives(text: str) -> list[list[str]]:
    """The simple directives of an nginx configuration, each split into its words (comments off)."""
    text = re.sub(r"#[^\n]*", "", text)
    text = re.sub(r"'[^']*'", "'…'", text)  # a returned body is one word
    return [part.split() for part in re.split(r"[;{}]", text) if part.strip()]


def nginx_seconds(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[unit]


def test_compose_puts_a_buffering_proxy_in_front_of_the_web_servers(compose):
    """Clients reach gunicorn through nginx only: it holds slow heads and bodies and forwards whole
    requests, caps the connections of one address, and bounds heads, bodies and sizes as the services
    do (shared/settings.py, deploy/gunicorn.conf.py)."""
    from shared.settings import CommonSettings

    edge = compose["services"]["edge"]
    assert edge["image"].startswith("nginx:")
    assert "./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro" in edge["volumes"]
    webs = {
        name.removesuffix("-web"): int(spec["expose"][0])
        for name, spec in compose["services"].items()
        if name.endswith("-web")
    }
    assert set(webs) == set(SERVICES)
    assert sorted(edge["ports"]) == sorted(f"{port}:{port}" for port in webs.values())
    assert {dep: c["condition"] for dep, c in edge["depends_on"].items()} == {
        f"{s}-web": "service_healthy" for s in SERVICES
    }
    directives = nginx_directives((ROOT / "deploy/nginx/nginx.conf").read_text())
    first = {d[0]: d[1:] for d in reversed(directives)}  # the first of each name
    listens = {int(d[1]) for d in directives if d[0] == "listen" and d[1].isdigit()}
    assert listens == set(webs.values())
    servers = {d[1] for d in directives if d[0] == "server" and len(d) > 1 and ":" in d[1]}
    assert servers == {f"{s}-web:{port}" for s, port in webs.items()}
    routes = dict(d for d in directives if len(d) == 2 and d[0].isdigit())  # the port → service map
    assert {int(k): v for k, v in routes.items()} == {port: s for s, port in webs.items()}
    settings = CommonSettings()
    assert first["proxy_request_buffering"] == ["on"]
    assert nginx_seconds(first["client_header_timeout"][0]) <= settings.head_timeout_seconds
    assert nginx_seconds(first["client_body_timeout"][0]) <= settings.body_timeout_seconds
    assert first["client_max_body_size"] == ["1m"] and settings.max_body_bytes == 2**20
    assert first["limit_conn_zone"][0] == "$binary_remote_addr"
    assert first["limit_conn"][0] == first["limit_conn_zone"][1].split("=")[1].split(":")[0]
    # nginx closes a kept-alive connection to gunicorn before gunicorn would (no request sent on a
    # connection being closed)
    gunicorn = (ROOT / "deploy/gunicorn.conf.py").read_text()
    keepalive = int(re.search(r"ARBITER_KEEPALIVE_SECONDS\", (\d+)", gunicorn).group(1))
    upstream_idle = [nginx_seconds(d[1]) for d in directives if d[0] == "keepalive_timeout"]
    assert upstream_idle and max(upstream_idle) < keepalive
    assert first["proxy_http_version"] == ["1.1"]


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


def test_every_compose_process_has_a_healthcheck(compose):
    port = compose["x-env"]["ARBITER_HEALTH_PORT"]
    for name, spec in compose["services"].items():
        if name == "migrate":  # runs once and exits
            continue
        assert "healthcheck" in spec, f"{name} has no healthcheck"
        probe = " ".join(spec["healthcheck"]["test"])
        if spec.get("command", [""])[0] == "python":
            assert f"127.0.0.1:{port}/readyz" in probe, name


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
    for source in re.findall(r"^COPY (?!--from)(\S+)", text, flags=re.M):
        assert (ROOT / source).exists(), source


def test_the_image_is_built_in_two_stages_runs_as_nobody_and_holds_no_tests():
    text = (ROOT / "deploy/Dockerfile").read_text()
    stages = re.split(r"^FROM ", text, flags=re.M)[1:]
    assert len(stages) == 2
    final = stages[-1]
    assert re.search(r"^COPY --from=build /opt/arbiter /opt/arbiter$", final, flags=re.M)
    assert "pip install" not in final and "[dev]" not in text
    user = re.findall(r"^USER (\S+)$", final, flags=re.M)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"**/tests", "tests", ".venv", ".git"} <= set(ignored)


def test_the_image_has_what_the_pdf_downloads_need():
    """WeasyPrint (the standings' PDF downloads) loads pango at run time: the final stage installs it,
    and fonts; .ci/run installs the same where they are missing."""
    final = re.split(r"^FROM ", (ROOT / "deploy/Dockerfile").read_text(), flags=re.M)[-1]
    ci = (ROOT / ".ci/run").read_text()
    for package in ("libpango-1.0-0", "libpangoft2-1.0-0", "fonts-dejavu-core"):
        assert package in final and package in ci, package


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

K8S = ROOT / "deploy/k8s"
OVERLAYS = ("dev", "prod")
KUBERNETES_VERSION = "1.37"  # the newest schema kubernetes-validate bundles (requirements/constraints.txt)
CUSTOM = {"keda.sh/v1alpha1"}  # KEDA's CRDs: no schema in kubernetes-validate, checked below
HEALTH_PORT = 9000
SECRETS = ("arbiter-shared", *(f"arbiter-{s}-database" for s in SERVICES))


def render(overlay: str) -> list[dict[str, Any]]:
    from tests.kustomize import build

    return build(K8S / "overlays" / overlay)


@pytest.fixture(scope="module", params=OVERLAYS)
def manifests(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    return render(request.param)


def of_kind(docs: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


def pods(docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: d["spec"]["template"]["spec"] for name, d in of_kind(docs, "Deployment").items()}


def known_variables() -> set[str]:
    import ast

    tree = ast.parse((ROOT / "deploy/gunicorn.conf.py").read_text())
    gunicorn = next(
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "ENVIRONMENT"
    )
    return set().union(*(settings_fields(s) for s in SERVICES)) | set(ast.literal_eval(gunicorn))


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_resource_validates_against_the_kubernetes_schema(overlay):
    import kubernetes_validate

    docs = render(overlay)
    checked = 0
    for doc in docs:
        if doc["apiVersion"] in CUSTOM:
            assert doc["kind"] in ("ScaledObject", "TriggerAuthentication")  # checked by hand below
            continue
        try:
            kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as exc:
            where = ".".join(str(p) for p in exc.path)
            pytest.fail(f"{overlay}: {doc['kind']}/{doc['metadata']['name']} at {where}: {exc.message}")
        checked += 1
    assert checked == 26 and len(docs) == checked + 2 * (overlay == "prod")


def test_the_schema_check_catches_a_misspelt_field():
    import kubernetes_validate

    deployment = of_kind(render("dev"), "Deployment")["clocks-web"]
    deployment["spec"]["template"]["spec"]["containers"][0]["securityContext"]["readOnlyRootFileSystem"] = (
        True
    )
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSION, strict=True)


def test_the_renderer_refuses_what_it_cannot_render(tmp_path):
    from tests.kustomize import Unsupported, build

    (tmp_path / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nconfigMapGenerator: []\n"
    )
    with pytest.raises(Unsupported):
        build(tmp_path)


def test_every_process_of_every_service_runs_with_its_migrations_first(manifests):
    deployments = of_kind(manifests, "Deployment")
    expected = {f"{s}-{p}" for s in SERVICES for p in ("web", *process_commands(s)[1:])}
    assert set(deployments) == expected
    for name, dep in deployments.items():
        assert (
            dep["spec"]["selector"]["matchLabels"].items()
            <= dep["spec"]["template"]["metadata"]["labels"].items()
        )
        pod = dep["spec"]["template"]["spec"]
        [container] = pod["containers"]
        service, port = check_command(container["command"])
        assert name.startswith(f"{service}-")
        [init] = pod["initContainers"]
        assert init["command"] == ["python", "-m", f"services.{service}", "migrate"]
        assert init["image"] == container["image"]
        assert init["envFrom"] == container["envFrom"]
        if port is not None:
            assert name == f"{service}-web"
            assert [p["containerPort"] for p in container["ports"]] == [port]
        else:
            assert [p["containerPort"] for p in container["ports"]] == [HEALTH_PORT]


def test_credentials_come_from_secrets_none_of_which_is_committed(manifests):
    assert not of_kind(manifests, "Secret"), "a Secret is committed: the operator creates them"
    [config] = of_kind(manifests, "ConfigMap").values()
    known = known_variables()
    assert set(config["data"]) <= known
    assert str(HEALTH_PORT) == config["data"]["ARBITER_HEALTH_PORT"]
    for key, value in config["data"].items():
        assert not re.search(r"://[^/@]*@", value) and "PASSWORD" not in key and "SECRET" not in key, key
    operations = (ROOT / "docs/operations.md").read_text()
    for name, pod in pods(manifests).items():
        service = name.split("-")[0]
        for container in [*pod["initContainers"], *pod["containers"]]:
            refs = [(kind, ref["name"]) for e in container["envFrom"] for kind, ref in e.items()]
            assert refs == [
                ("configMapRef", "arbiter-config"),
                ("secretRef", "arbiter-shared"),
                ("secretRef", f"arbiter-{service}-database"),
            ]
            for variable in container.get("env", []):
                assert variable["name"] in known | {"PROMETHEUS_MULTIPROC_DIR"}, variable["name"]
    for secret in SECRETS:  # the runbook says how to create each one, with the keys the services read
        assert f"`{secret}`" in operations, secret
    databases = [f"ARBITER_{s.upper()}_DATABASE_URL" for s in SERVICES]
    for key in ("ARBITER_AMQP_URL", "ARBITER_REDIS_URL", "ARBITER_JWT_SECRET", *databases):
        assert key in known and f"{key}=" in operations, key


def test_every_container_is_locked_down_and_sized(manifests):
    for name, pod in pods(manifests).items():
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] != 0
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        assert pod["automountServiceAccountToken"] is False
        volumes = {v["name"]: v for v in pod["volumes"]}
        assert "emptyDir" in volumes["tmp"]
        for container in [*pod["initContainers"], *pod["containers"]]:
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] is True, name
            assert security["allowPrivilegeEscalation"] is False, name
            assert security["capabilities"]["drop"] == ["ALL"], name
            mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
            assert mounts["/tmp"] == "tmp"
            assert set(mounts.values()) <= set(volumes)
            resources = container["resources"]
            assert {"cpu", "memory"} <= set(resources["requests"]) and "memory" in resources["limits"], name
            assert quantity(resources["requests"]["memory"]) <= quantity(resources["limits"]["memory"]), name


def quantity(text: str) -> float:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "m": 1e-3, "": 1}
    number, unit = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(text)).groups()
    return float(number) * units[unit]


def test_every_process_has_liveness_and_readiness_on_its_own_port(manifests):
    for name, pod in pods(manifests).items():
        [container] = pod["containers"]
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        for probe, path in (
            ("startupProbe", "/healthz"),
            ("livenessProbe", "/healthz"),
            ("readinessProbe", "/readyz"),
        ):
            action = container[probe]["httpGet"]
            assert action["path"] == path, (name, probe)
            assert action["port"] in ports, (name, probe)
        annotations = of_kind(manifests, "Deployment")[name]["spec"]["template"]["metadata"]["annotations"]
        assert annotations["prometheus.io/port"] == str(next(iter(ports.values())))
        assert annotations["prometheus.io/path"] == "/metrics"


def test_web_pods_size_gunicorn_from_their_limits(manifests):
    from shared.http import sizing

    for name, pod in pods(manifests).items():
        if not name.endswith("-web"):
            continue
        [container] = pod["containers"]
        env = {e["name"]: e for e in container["env"]}
        for variable, resource in (
            ("ARBITER_CPU_LIMIT_MILLICORES", "limits.cpu"),
            ("ARBITER_MEMORY_LIMIT_MIB", "limits.memory"),
        ):
            field = env[variable]["valueFrom"]["resourceFieldRef"]
            assert field["containerName"] == container["name"] and field["resource"] == resource
        limits = container["resources"]["limits"]
        workers = sizing.workers_for(quantity(limits["cpu"]), quantity(limits["memory"]) / 2**20)
        assert workers == max(1, round(quantity(limits["cpu"]))), (
            name
        )  # the CPU decides, the memory holds them
        assert sizing.memory_needed_mib(workers) <= quantity(limits["memory"]) / 2**20, name
        metrics_dir = env["PROMETHEUS_MULTIPROC_DIR"]["value"]
        mount = next(m for m in container["volumeMounts"] if m["mountPath"] == metrics_dir)
        assert "emptyDir" in next(v for v in pod["volumes"] if v["name"] == mount["name"])


def test_services_ingress_and_disruption_budgets_reach_the_web_pods(manifests):
    deployments = of_kind(manifests, "Deployment")
    services = of_kind(manifests, "Service")
    assert set(services) == set(SERVICES)
    for svc in services.values():
        target = deployments[svc["spec"]["selector"]["app.kubernetes.io/name"]]
        [container] = target["spec"]["template"]["spec"]["containers"]
        names = {p["name"] for p in container["ports"]}
        assert svc["spec"]["ports"][0]["targetPort"] in names
    budgets = of_kind(manifests, "PodDisruptionBudget")
    assert set(budgets) == {f"{s}-web" for s in SERVICES}
    for budget in budgets.values():
        selected = [
            d
            for d in deployments.values()
            if budget["spec"]["selector"]["matchLabels"].items()
            <= d["spec"]["template"]["metadata"]["labels"].items()
        ]
        assert [d["metadata"]["name"] for d in selected] == [budget["metadata"]["name"]]
        assert budget["spec"]["maxUnavailable"] == 1  # drains go on with a single replica too
    [ingress] = of_kind(manifests, "Ingress").values()
    routed: dict[str, set[str]] = {}
    for rule in ingress["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] in services and backend["port"]["name"] == "http"
            assert path["path"] not in ("/", "/metrics", "/healthz", "/readyz"), "only the API's own paths"
            routed.setdefault(backend["name"], set()).add(path["path"])
    assert set(routed) == set(SERVICES)
    assert "/t" in routed["standings"]  # the public pages


def test_the_ingress_buffers_requests_and_caps_connections_per_client(manifests):
    """ingress-nginx is the buffering proxy in Kubernetes: whole requests to the web pods, bodies
    bounded as the services bound them, and a cap on one client's connections."""
    [ingress] = of_kind(manifests, "Ingress").values()
    annotations = ingress["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert ingress["spec"]["ingressClassName"] == "nginx"
    assert annotations[prefix + "proxy-request-buffering"] == "on"
    assert annotations[prefix + "proxy-body-size"] == "1m"
    assert 1 <= int(annotations[prefix + "limit-connections"]) <= 100


def test_the_pairing_worker_scales_on_its_queue_in_production():
    from shared.messaging.queues import QUEUES

    docs = render("prod")
    assert not of_kind(docs, "HorizontalPodAutoscaler")
    [scaled] = of_kind(docs, "ScaledObject").values()
    worker = of_kind(docs, "Deployment")[scaled["spec"]["scaleTargetRef"]["name"]]
    assert worker["metadata"]["name"] == "pairing-worker"
    assert "replicas" not in worker["spec"], "an apply would fight the scaler"
    assert 1 <= scaled["spec"]["minReplicaCount"] <= scaled["spec"]["maxReplicaCount"]
    triggers = {t["type"]: t for t in scaled["spec"]["triggers"]}
    assert set(triggers) == {"rabbitmq", "cpu"}  # rounds wait in a queue; arenas are passes: CPU
    assert triggers["cpu"]["metricType"] == "Utilization" and int(triggers["cpu"]["metadata"]["value"]) <= 90
    trigger = triggers["rabbitmq"]
    assert trigger["metadata"]["protocol"] == "amqp" and trigger["metadata"]["mode"] == "QueueLength"
    assert trigger["metadata"]["queueName"] in QUEUES["pairing"]
    assert trigger["metadata"]["queueName"] in " ".join(
        worker["spec"]["template"]["spec"]["containers"][0]["command"]
    ) or (trigger["metadata"]["queueName"] == "pairing.round_due")
    assert int(trigger["metadata"]["value"]) >= 1
    auth = of_kind(docs, "TriggerAuthentication")[trigger["authenticationRef"]["name"]]
    [secret] = auth["spec"]["secretTargetRef"]
    assert secret == {"parameter": "host", "name": "arbiter-shared", "key": "ARBITER_AMQP_URL"}
    for doc in (scaled, auth):
        assert doc["apiVersion"] == "keda.sh/v1alpha1" and doc["metadata"]["namespace"] == "arbiter"
    dev = render("dev")
    assert not of_kind(dev, "ScaledObject")  # no KEDA needed in a development cluster


def test_overlays_pin_the_image_and_size_production(manifests):
    images = {
        c["image"] for pod in pods(manifests).values() for c in [*pod["initContainers"], *pod["containers"]]
    }
    assert len(images) == 1
    [image] = images
    assert ":" in image and not image.endswith(":latest")

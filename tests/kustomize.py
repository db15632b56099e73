"""``kustomize build`` for the tests, which have no kustomize binary: the features deploy/k8s uses and
nothing else. A kustomization that uses anything more is refused, so the two cannot drift apart
silently.

- ``resources``: YAML files and directories holding a kustomization, in order;
- ``patches``: RFC 6902 JSON patches given inline (``patch``), applied (with ``jsonpatch``) to every
  resource their ``target`` selects by ``kind``, ``name`` and an equality ``labelSelector``; a patch
  that selects nothing is an error (kustomize would apply it to nothing, silently);
- ``images``: ``name`` with ``newName`` and/or ``newTag``, for the containers and init containers
  of pod templates.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonpatch
import yaml

KEYS = {"apiVersion", "kind", "resources", "patches", "images"}
TARGET_KEYS = {"kind", "name", "labelSelector"}


class Unsupported(ValueError):
    """The kustomization uses a feature this renderer does not have."""


def build(directory: Path) -> list[dict[str, Any]]:
    path = directory / "kustomization.yaml"
    kustomization = yaml.safe_load(path.read_text())
    if kustomization.get("kind") != "Kustomization":
        raise Unsupported(f"{path}: not a Kustomization")
    unknown = set(kustomization) - KEYS
    if unknown:
        raise Unsupported(f"{path}: {sorted(unknown)}")
    docs: list[dict[str, Any]] = []
    for resource in kustomization.get("resources", []):
        source = (directory / resource).resolve()
        if source.is_dir():
            docs.extend(build(source))
        else:
            docs.extend(copy.deepcopy(d) for d in yaml.safe_load_all(source.read_text()) if d)
    for patch in kustomization.get("patches", []):
        docs = _patched(docs, patch, path)
    for image in kustomization.get("images", []):
        for doc in docs:
            _set_image(doc, image)
    seen: set[tuple[str, str, str]] = set()
    for doc in docs:
        key = (doc["kind"], doc["metadata"].get("namespace", ""), doc["metadata"]["name"])
        if key in seen:
            raise ValueError(f"{path}: {key} twice")
        seen.add(key)
    return docs


def _patched(docs: list[dict[str, Any]], patch: dict[str, Any], path: Path) -> list[dict[str, Any]]:
    if set(patch) != {"target", "patch"} or set(patch["target"]) - TARGET_KEYS:
        raise Unsupported(f"{path}: a patch other than an inline JSON patch with a kind/name/label target")
    operations = jsonpatch.JsonPatch(yaml.safe_load(patch["patch"]))
    target = patch["target"]
    out, matched = [], 0
    for doc in docs:
        if _selects(target, doc):
            matched += 1
            doc = operations.apply(doc)
        out.append(doc)
    if not matched:
        raise ValueError(f"{path}: the patch for {target} selects nothing")
    return out


def _selects(target: dict[str, str], doc: dict[str, Any]) -> bool:
    if "kind" in target and doc["kind"] != target["kind"]:
        return False
    if "name" in target and doc["metadata"]["name"] != target["name"]:
        return False
    labels = doc["metadata"].get("labels") or {}
    for term in filter(None, target.get("labelSelector", "").split(",")):
        key, sep, value = term.partition("=")
        if not sep or value.startswith("=") or key.endswith("!"):
            raise Unsupported(f"label selector {term!r}: only key=value")
        if labels.get(key.strip()) != value.strip():
            return False
    return True


def _set_image(doc: dict[str, Any], image: dict[str, str]) -> None:
    if set(image) - {"name", "newName", "newTag"}:
        raise Unsupported(f"image {image}")
    pod = doc.get("spec", {}).get("template", {}).get("spec", {})
    for container in [*pod.get("initContainers", []), *pod.get("containers", [])]:
        name, _, tag = container["image"].partition(":")
        if name == image["name"]:
            container["image"] = f"{image.get('newName', name)}:{image.get('newTag', tag)}"

"""A real-size run: Django 4.2.16's source, pinned by version from PyPI, indexed and queried."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

VERSION = "4.2.16"


@pytest.fixture(scope="module")
def django_src(tmp_path_factory) -> Path:
    """Django's files as the wheel ships them (a zip of its source tree), about 3,600 files."""
    if os.environ.get("IR_OFFLINE") == "1":
        pytest.skip("IR_OFFLINE=1: no package registry to download Django from")
    dl = tmp_path_factory.mktemp("dl")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
         f"django=={VERSION}", "-d", str(dl), "-q"],
        check=True, timeout=600,
    )
    wheel = next(dl.glob("*.whl"))
    root = tmp_path_factory.mktemp("django")
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(root)
    return root


def retrieve(root: Path, task: str, cache: Path) -> dict:
    p = subprocess.run(
        [sys.executable, "-m", "iterative_retrieval", "retrieve", task, "--root", str(root),
         "--json", "--cache-dir", str(cache), "-q"],
        capture_output=True, text=True, timeout=900,
    )
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize(
    "task, expected",
    [
        ("QuerySet.bulk_create() crashes when batch_size is larger than the number of objects",
         "django/db/models/query.py"),
        ("The admin changelist search should support lookups spanning relations in search_fields",
         "django/contrib/admin/options.py"),
        ("Custom template tags: simple_tag should accept keyword-only arguments with defaults",
         "django/template/library.py"),
    ],
)
def test_django_tasks(django_src, tmp_path_factory, task, expected):
    """On thousands of real files the file a Django developer would open is in the top 3."""
    cache = tmp_path_factory.getbasetemp() / "django-cache"
    out = retrieve(django_src, task, cache)
    assert out["stats"]["files_indexed"] > 2000
    paths = [f["path"] for f in out["files"]]
    assert expected in paths[:3], paths[:5]
    assert all(f["reason"] for f in out["files"])

"""The shipped JSON Schema of result documents, as the tests check every document with it.

A module of its own, not a conftest.py: `from conftest import ...` would find whichever
conftest.py (tests/dask has one) was imported first."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any


@cache
def result_validator() -> Any:
    """The shipped JSON Schema of result documents, as a draft 2020-12 validator."""
    import jsonschema

    from informed.report.result_schema import load_schema

    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check_result_document(document: Mapping[str, Any]) -> None:
    """Fail with the first errors when `document` is not valid under the shipped schema
    (a per-label entry made lazily is made here)."""
    plain = json.loads(json.dumps({k: v if isinstance(v, int | float | str | list | dict | None)
                                   else dict(v) for k, v in document.items()}))  # fmt: skip
    errors = sorted(result_validator().iter_errors(plain), key=lambda e: e.json_path)
    if errors:
        lines = [f"{e.json_path}: {e.message[:200]}" for e in errors[:5]]
        raise AssertionError("a result document breaks the schema:\n" + "\n".join(lines))

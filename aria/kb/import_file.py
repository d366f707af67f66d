"""Reading a KB export before anything trusts it: a size cap checked before parsing, YAML without
aliases or tags beyond the safe ones (and with bounded nesting), and a strict schema with a limit
on every field. Any problem is one :class:`KnowledgeBaseError` line; nothing here touches a database.

>>> read_export_text('{"version": 2, "documents": []}', "kb.json").documents
[]
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from aria.errors import KnowledgeBaseError

FORMAT_VERSION = 2  # 1 also carried revisions; they are read and ignored (history is never imported)
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 16  # nesting of the file (YAML and JSON) and of any JSON value in it
MAX_JSON_CHARS = 16_000  # a document's data, a query's params, a database's info
HINT = "Give a file `aria kb export` wrote (export it again with this version of Aria)."
_SURROGATE = re.compile("[\ud800-\udfff]")

_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _clean(text: str) -> str:
    if "\x00" in text:
        raise ValueError("contains a NUL character")
    if _SURROGATE.search(text):
        raise ValueError("contains invalid Unicode (a lone surrogate)")
    return text


def _depth(value: Any, depth: int = 0) -> int:
    if depth > MAX_DEPTH:
        return depth
    if isinstance(value, dict):
        return max([_depth(v, depth + 1) for v in value.values()] + [depth + 1])
    if isinstance(value, list):
        return max([_depth(v, depth + 1) for v in value] + [depth + 1])
    return depth


def _strings(value: Any) -> None:
    if isinstance(value, str):
        _clean(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _clean(str(key))
            _strings(item)
    elif isinstance(value, list):
        for item in value:
            _strings(item)


def _json_value(value: Any) -> Any:
    """A JSON object small, shallow and clean enough to store as jsonb."""
    if _depth(value) > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ValueError(f"is not plain JSON ({err})") from err
    if len(text) > MAX_JSON_CHARS:
        raise ValueError(f"is {len(text)} characters long (the limit is {MAX_JSON_CHARS})")
    _strings(value)
    return value


def _limited(low: int, high: int) -> StringConstraints:
    return StringConstraints(min_length=low, max_length=high)


Name = Annotated[str, _limited(0, 256), AfterValidator(_clean)]
Key = Annotated[str, _limited(1, 600), AfterValidator(_clean)]
Fingerprint = Annotated[str, _limited(0, 128), AfterValidator(_clean)]
DocText = Annotated[str, _limited(1, 4_000), AfterValidator(_clean)]
Lexical = Annotated[str, _limited(0, 8_000), AfterValidator(_clean)]
Vals = Annotated[str, _limited(0, 20_000), AfterValidator(_clean)]
Question = Annotated[str, _limited(1, 1_000), AfterValidator(_clean)]
SqlText = Annotated[str, _limited(1, 10_000), AfterValidator(_clean)]
JsonObject = Annotated[dict[str, Any], AfterValidator(_json_value)]
Kind = Literal["table", "column", "glossary", "example", "relation", "metric"]
Source = Literal["schema", "sample", "descriptions", "example", "enrichment"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class DatabaseIn(_Strict):
    db_name: Name
    fingerprint: Fingerprint
    model: Name
    info: JsonObject = Field(default_factory=dict)


class DocumentIn(_Strict):
    db_name: Name
    doc_key: Key
    kind: Kind
    source: Source
    table_name: Name | None = None
    column_name: Name | None = None
    text: DocText
    lexical: Lexical = ""
    vals: Vals = ""
    data: JsonObject = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> DocumentIn:
        """The key names its kind, and what retrieval reads from ``data`` is there."""
        if not self.doc_key.startswith(f"{self.kind}:"):
            raise ValueError(f"the key {self.doc_key!r} does not start with {self.kind + ':'!r}")
        if self.kind in ("table", "column") and not self.table_name:
            raise ValueError(f"a {self.kind} document needs a table_name")
        if self.kind == "column" and not self.column_name:
            raise ValueError("a column document needs a column_name")
        if self.kind == "relation":
            for field, kind in (("table", str), ("columns", list), ("ref_table", str), ("ref_columns", list)):
                if not isinstance(self.data.get(field), kind):
                    raise ValueError(f"a relation document needs data.{field}")
        return self


class VerifiedQueryIn(_Strict):
    db_name: Name
    question: Question
    sql: SqlText
    params: JsonObject = Field(default_factory=dict)
    source: Literal["golden", "confirmed", "workbench"] = "confirmed"
    ext_id: Name | None = None


class ExportFile(_Strict):
    version: Literal[1, 2]
    databases: Annotated[list[DatabaseIn], Field(max_length=1_000)] = Field(default_factory=list)
    documents: Annotated[list[DocumentIn], Field(max_length=50_000)] = Field(default_factory=list)
    verified_queries: Annotated[list[VerifiedQueryIn], Field(max_length=5_000)] = Field(default_factory=list)
    revisions: Annotated[list[Any], Field(max_length=100_000)] = Field(default_factory=list)  # ignored

    @model_validator(mode="after")
    def _revisions_only_in_version_1(self) -> ExportFile:
        if self.revisions and self.version != 1:
            raise ValueError("revisions are not part of a version 2 export")
        return self


@dataclass(frozen=True)
class ImportLimits:
    """How large a file may be before it is even read."""

    max_file_bytes: int = MAX_FILE_BYTES


def read_export(path: Path, limits: ImportLimits = ImportLimits()) -> ExportFile:
    """The validated content of ``path`` (.yaml/.yml: YAML, else JSON), or one KnowledgeBaseError."""
    if not path.is_file():
        raise KnowledgeBaseError(f"No KB export at {path} (not a regular file).", hint=HINT)
    try:
        size = path.stat().st_size
        if size > limits.max_file_bytes:
            raise _bad(path, f"it is {size:,} bytes; the limit is {limits.max_file_bytes:,}")
        with path.open("rb") as handle:  # never more than the cap, and no buffer larger than the file
            raw = handle.read(min(size, limits.max_file_bytes) + 1)
    except OSError as err:
        raise KnowledgeBaseError(f"Cannot read {path}: {err.strerror or err}.", hint="Check the path and its permissions.") from err
    if len(raw) > limits.max_file_bytes:  # it grew while being read
        raise _bad(path, f"it is over {limits.max_file_bytes:,} bytes")
    if b"\x00" in raw:
        raise _bad(path, "it contains NUL bytes (a binary file?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _bad(path, f"it is not UTF-8 text (byte {err.start})") from err
    return read_export_text(text, str(path))


def read_export_text(text: str, name: str) -> ExportFile:
    """Parse and validate an export's text (YAML when ``name`` ends in .yaml/.yml, else JSON)."""
    data = _parse_yaml(text, name) if name.endswith((".yaml", ".yml")) else _parse_json(text, name)
    if not isinstance(data, dict):
        raise _bad(name, f"its top level is {type(data).__name__}, not a mapping")
    if data.get("version") not in (1, 2):
        raise _bad(name, f"version {data.get('version')!r} is not a KB export version (1 or 2)")
    try:
        return ExportFile.model_validate(data)
    except ValidationError as err:
        raise _bad(name, _first_error(err)) from None


def _parse_json(text: str, name: str) -> Any:
    def no_constant(value: str) -> Any:
        raise ValueError(f"{value} is not allowed")

    try:
        return json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as err:
        raise _bad(name, f"it is not JSON ({err.msg} at line {err.lineno}, column {err.colno})") from None
    except (ValueError, RecursionError) as err:
        raise _bad(name, f"it is not usable JSON ({type(err).__name__}: {str(err)[:120]})") from None


def _parse_yaml(text: str, name: str) -> Any:
    """``yaml.safe_load`` after one streaming pass that refuses aliases and deep nesting, so the
    loaded data is never larger than the text (no "billion laughs")."""
    try:
        depth = 0
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                raise _bad(name, f"it uses a YAML alias (*{event.anchor}); a KB export never does")
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _bad(name, f"it is nested deeper than {MAX_DEPTH} levels")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader (C or Python SafeLoader)
    except yaml.YAMLError as err:
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise _bad(name, f"it is not a plain YAML KB export ({problem}{where})") from None
    except (ValueError, RecursionError, OverflowError) as err:
        raise _bad(name, f"it is not usable YAML ({type(err).__name__})") from None


def _first_error(err: ValidationError) -> str:
    errors = err.errors(include_url=False, include_input=False)
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "the file"
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"


def _bad(name: Path | str, reason: str) -> KnowledgeBaseError:
    return KnowledgeBaseError(f"{name} is not a usable KB export: {reason}; nothing was imported.", hint=HINT)

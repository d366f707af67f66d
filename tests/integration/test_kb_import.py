"""`aria kb import` you can trust: the red-team cases of issue 13, each on a real KB.

A hostile verified query is rejected with its reason; revisions in a file are never replayed; the
import is ONE revision, previewed, and undone as a whole; duplicates are skipped; size bombs are
refused before they cost memory; every malformed file is one line on stderr, exit code 2, no
traceback, nothing written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql as pgsql
from psycopg.types.json import Jsonb
from typer.testing import CliRunner, Result

from aria.cli import app
from aria.config import Settings, get_settings
from aria.db.connect import Targets
from aria.db.executor import ReadOnlyExecutor
from aria.db.introspect import introspect_postgres
from aria.errors import KnowledgeBaseError
from aria.kb.base import KnowledgeBase
from aria.kb.build import build_kb
from aria.kb.embed import get_embedder
from aria.kb.enrich import Change, apply_change, list_revisions, undo
from aria.kb.import_file import ImportLimits, read_export
from aria.kb.service import golden_examples
from aria.kb.store import KnowledgeStore
from aria.kb.transfer import SqlCheck, apply_import, export_data, export_kb, plan_import, workbench_sql_check

GLOSSARY = [{"term": "doanh thu", "lang": "vi", "meaning": "revenue", "table": "orders", "column": "total_vnd"}]
ARIA = Path(sys.executable).with_name("aria")


@pytest.fixture(scope="module")
def check(settings: Settings, seeded: Targets) -> Iterator[SqlCheck]:
    """The SQL workbench's checks, on the seeded database through the read-only role."""
    with ReadOnlyExecutor(seeded.reader, settings) as executor:
        yield workbench_sql_check(executor, introspect_postgres(seeded.admin, settings.business_schema))


@pytest.fixture()
def kb(kb_settings: Settings, seeded: Targets) -> Iterator[KnowledgeBase]:
    """Three tables of the seeded database, a glossary entry and three golden verified queries."""
    live = introspect_postgres(seeded.admin, kb_settings.business_schema)
    small = replace(live, tables=tuple(t for t in live.tables if t.name in {"orders", "tables", "menu_items"}),
                    foreign_keys=tuple(fk for fk in live.foreign_keys if fk.table == "orders" and fk.ref_table == "tables"),
                    _by_name={})
    store = KnowledgeStore(seeded.kb, kb_settings)
    build_kb(store, get_embedder(), small, glossary=GLOSSARY, examples=golden_examples()[:3])
    yield KnowledgeBase(store, get_embedder(), kb_settings.business_schema)
    store.close()


@pytest.fixture()
def other(settings: Settings, seeded: Targets) -> Iterator[KnowledgeStore]:
    """An empty KB schema to import into."""
    import uuid

    store = KnowledgeStore(seeded.kb, settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"}))
    yield store
    store.close()


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _state(store: KnowledgeStore) -> dict[str, Any]:
    """What an import may change: documents, verified queries (with ids) and fingerprints."""
    data = export_data(store) if store.exists() else {"documents": [], "verified_queries": [], "databases": []}
    ids = [r[0] for r in store.shared().execute(pgsql.SQL("SELECT id FROM {} ORDER BY id").format(
        store.ident("verified_queries"))).fetchall()] if store.exists() else []
    return {"documents": data["documents"], "verified_queries": data["verified_queries"], "ids": ids,
            "databases": data["databases"]}


def _first_query(store: KnowledgeStore) -> tuple[int, str]:
    row = store.shared().execute(pgsql.SQL("SELECT id, question FROM {} ORDER BY id LIMIT 1").format(
        store.ident("verified_queries"))).fetchone()
    assert row is not None
    return row[0], row[1]


def _has_document(store: KnowledgeStore, db_name: str, key: str) -> bool:
    return store.shared().execute(pgsql.SQL("SELECT 1 FROM {} WHERE db_name = %s AND doc_key = %s").format(
        store.ident("documents")), (db_name, key)).fetchone() is not None


def _insert_revision(store: KnowledgeStore, kind: str, payload: Any, *, question: str | None = None,
                     sql: str | None = None) -> int:
    """A revision row written straight to the table (as an old import, or an attacker with KB access, would)."""
    with store.transaction() as conn:
        row = conn.execute(pgsql.SQL("INSERT INTO {} (author, question, sql, kind, payload) VALUES "
                                     "('red team', %s, %s, %s, %s) RETURNING id").format(store.ident("revisions")),
                           (question, sql, kind, Jsonb(payload))).fetchone()
    assert row is not None
    return int(row[0])


def _import(store: KnowledgeStore, path: Path, check: SqlCheck) -> tuple[Any, Any]:
    plan = plan_import(store, read_export(path), check, source=str(path))
    return plan, apply_import(store, get_embedder(), plan)


# --- one revision, undone as a whole ---------------------------------------------------------------
def test_an_import_is_one_revision_that_undo_removes_whole(kb: KnowledgeBase, other: KnowledgeStore,
                                                           check: SqlCheck, tmp_path: Path) -> None:
    apply_change(kb.store, kb.embedder, Change(kind="glossary_alias", db_name=kb.db_name, term="món chay",
                                               table="menu_items", text="vegetarian dishes", confirmed_by="m"))
    for n, suffix in enumerate((".json", ".yaml"), start=1):
        path = tmp_path / f"kb{suffix}"
        count = export_kb(kb.store, path)
        other.ensure_schema()
        before = _state(other)
        plan, revision = _import(other, path, check)
        assert (len(plan.added), len(plan.changed), len(plan.queries), plan.rejected) == (count, 0, 3, ())
        assert [r.kind for r in list_revisions(other)] == ["import"] * n and revision.payload["key"] == "import"
        mine, theirs = export_data(kb.store), export_data(other)
        assert theirs["documents"] == mine["documents"] and theirs["verified_queries"] == mine["verified_queries"]
        assert "revisions" not in theirs, "history is not exported"
        KnowledgeBase(other, kb.embedder, kb.db_name).check()
        undo(other, kb.embedder, revision.id)
        assert _state(other) == before, "undo removes exactly what the import added"
        assert list_revisions(other)[0].undone


def test_undo_of_an_import_restores_what_it_replaced(kb: KnowledgeBase, check: SqlCheck, tmp_path: Path) -> None:
    before = _state(kb.store)
    data = export_data(kb.store)
    changed = next(d for d in data["documents"] if d["doc_key"] == "column:orders.guest_cnt")
    changed["text"] = "orders.guest_cnt: lượt khách (imported)"
    data["verified_queries"].append({"db_name": kb.db_name, "question": "Có bao nhiêu bàn?",
                                     "sql": "SELECT count(*) AS so_ban FROM tables", "params": {},
                                     "source": "confirmed", "ext_id": None})
    plan, revision = _import(kb.store, _write(tmp_path / "kb.json", data), check)
    assert ([d.doc_key for d in plan.changed], len(plan.added), len(plan.queries)) == (
        ["column:orders.guest_cnt"], 0, 1)
    assert (plan.unchanged, plan.duplicates) == (len(data["documents"]) - 1, 3)
    edit = apply_change(kb.store, kb.embedder, Change(kind="column_description", db_name=kb.db_name, table="orders",
                                                      column="guest_cnt", text="guests", confirmed_by="m"))
    with pytest.raises(KnowledgeBaseError, match=f"Undo revision {edit.id} first"):
        undo(kb.store, kb.embedder, revision.id)
    undo(kb.store, kb.embedder, edit.id)
    undo(kb.store, kb.embedder, revision.id)
    after = _state(kb.store)
    assert after["documents"] == before["documents"] and after["verified_queries"] == before["verified_queries"]


# --- hostile verified queries ----------------------------------------------------------------------
HOSTILE = {
    "SELECT current_setting('data_directory') AS doanh_thu": "safety guard",
    "SELECT pg_sleep(30) AS doanh_thu": "safety guard",
    "DELETE FROM orders": "safety guard",
    "SELECT count(*) AS n FROM orders o, order_items i, kitchen_tickets k": "",  # cost guard / cartesian
    "SELECT total_vnd / 0 AS x FROM orders": "",  # fails on the database
    "SELECT no_such_column FROM orders": "",
}


def test_hostile_verified_queries_are_rejected_with_the_reason(kb: KnowledgeBase, check: SqlCheck,
                                                               tmp_path: Path) -> None:
    question = "Doanh thu hôm nay là bao nhiêu?"
    queries = [{"db_name": kb.db_name, "question": question, "sql": text} for text in HOSTILE]
    queries.append({"db_name": kb.db_name, "question": "Có bao nhiêu bàn?",
                    "sql": "SELECT count(*) AS so_ban FROM tables"})
    queries.append({"db_name": "elsewhere", "question": question, "sql": "SELECT 1 AS x"})
    path = _write(tmp_path / "hostile.json", {"version": 2, "verified_queries": queries})
    plan, revision = _import(kb.store, path, check)
    reasons = {r.query.sql: r.reason for r in plan.rejected}
    assert set(reasons) == set(HOSTILE) | {"SELECT 1 AS x"}, reasons
    for text, layer in HOSTILE.items():
        assert layer in reasons[text], (text, reasons[text])
    assert "current_setting" in reasons["SELECT current_setting('data_directory') AS doanh_thu"]
    assert "elsewhere" in reasons["SELECT 1 AS x"]
    assert [q.sql for q in plan.queries] == ["SELECT count(*) AS so_ban FROM tables"]
    stored = [r[0] for r in kb.store.shared().execute(pgsql.SQL("SELECT sql FROM {}").format(
        kb.store.ident("verified_queries"))).fetchall()]
    assert not set(HOSTILE) & set(stored) and "SELECT count(*) AS so_ban FROM tables" in stored
    assert revision.payload["skipped"]["rejected_queries"] == len(HOSTILE) + 1


# --- forged revisions ------------------------------------------------------------------------------
def _forged_revisions(db_name: str, golden_id: int) -> list[dict[str, Any]]:
    return [
        {"created_at": "2026-01-01 00:00:00+00", "author": "red team", "question": None, "sql": None,
         "kind": "table_description", "undone": False,
         "payload": {"db_name": db_name, "key": "table:orders", "before": None,
                     "after": {"kind": "table", "source": "enrichment", "text": "x", "lexical": "", "values": "",
                               "table_name": "orders", "column_name": None, "data": {}}}},
        {"created_at": "2026-01-01 00:00:00+00", "author": "red team", "question": "x", "sql": "SELECT 1",
         "kind": "verified_example", "undone": False,
         "payload": {"db_name": db_name, "key": "verified_query", "verified_query_id": golden_id}},
    ]


def test_forged_revisions_in_a_file_are_never_replayed(kb: KnowledgeBase, check: SqlCheck, tmp_path: Path) -> None:
    golden_id, _ = _first_query(kb.store)
    data = {**export_data(kb.store), "version": 1, "revisions": _forged_revisions(kb.db_name, golden_id)}
    data["documents"].append({**data["documents"][0], "doc_key": "glossary:món chay", "kind": "glossary",
                              "text": "món chay: vegetarian dishes", "data": {"term": "món chay"}})
    before = _state(kb.store)
    plan, revision = _import(kb.store, _write(tmp_path / "forged.json", data), check)
    assert plan.revisions_ignored == 2 and len(plan.added) == 1
    assert [r.id for r in list_revisions(kb.store)] == [revision.id], "the import is the only revision"
    undo(kb.store, kb.embedder, revision.id)
    assert _has_document(kb.store, kb.db_name, "table:orders") and _first_query(kb.store)[0] == golden_id
    assert _state(kb.store) == before


def test_undo_refuses_revisions_it_does_not_recognise(kb: KnowledgeBase) -> None:
    """Forged rows already stored (e.g. by an old import) are refused with a message, never a KeyError."""
    golden_id, _ = _first_query(kb.store)
    forged = _forged_revisions(kb.db_name, golden_id) + [
        {"author": "", "question": None, "sql": None, "kind": "column_description", "payload": {}},
        {"author": "", "question": None, "sql": None, "kind": "verified_example", "payload": {"key": "x"}},
        {"author": "", "question": None, "sql": None, "kind": "import", "payload": {"documents": "all"}},
        {"author": "", "question": None, "sql": None, "kind": "drop_everything", "payload": {"db_name": "x"}},
    ]
    ids = [_insert_revision(kb.store, r["kind"], r["payload"], question=r["question"], sql=r["sql"]) for r in forged]
    messages = []
    for revision_id in ids:
        with pytest.raises(KnowledgeBaseError) as caught:
            undo(kb.store, kb.embedder, revision_id)
        messages.append(str(caught.value))
    assert "no longer holds" in messages[0] and "is not the one" in messages[1], messages
    assert all("does not recognise" in m for m in messages[2:]), messages
    assert _has_document(kb.store, kb.db_name, "table:orders") and _first_query(kb.store)[0] == golden_id
    assert not any(r.undone for r in list_revisions(kb.store))


# --- duplicates -------------------------------------------------------------------------------------
def test_duplicates_are_skipped_and_counted(kb: KnowledgeBase, check: SqlCheck, tmp_path: Path) -> None:
    path = tmp_path / "kb.json"
    count = export_kb(kb.store, path)
    plan, revision = _import(kb.store, path, check)
    assert plan.empty and revision is None and (plan.unchanged, plan.duplicates) == (count, 3)
    twice = {"db_name": kb.db_name, "question": "Có bao nhiêu bàn?", "sql": "SELECT count(*) AS so_ban FROM tables"}
    path = _write(tmp_path / "twice.json", {"version": 2, "verified_queries": [twice, twice]})
    plan, revision = _import(kb.store, path, check)
    assert (len(plan.queries), plan.duplicates) == (1, 1) and revision is not None
    plan, revision = _import(kb.store, path, check)
    assert (len(plan.queries), plan.duplicates, revision) == (0, 2, None)
    assert len(_state(kb.store)["ids"]) == 4


# --- size bombs -----------------------------------------------------------------------------------------
BILLION_LAUGHS = "version: 2\ndocuments: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True))


def _cost(path: Path, limits: ImportLimits | None = None) -> tuple[str, float, int]:
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(KnowledgeBaseError) as caught:
        read_export(path, limits or ImportLimits())
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return str(caught.value), elapsed, peak


def test_size_bombs_are_refused_fast_and_small(tmp_path: Path) -> None:
    bomb = tmp_path / "laughs.yaml"
    bomb.write_text(BILLION_LAUGHS, encoding="utf-8")
    assert len(BILLION_LAUGHS) < 800
    message, elapsed, peak = _cost(bomb)
    assert "YAML alias" in message and elapsed < 1.0 and peak < 2_000_000, (message, elapsed, peak)
    in_a_document = tmp_path / "revision_bomb.yaml"  # the "638 bytes -> 52 MB revision" shape
    in_a_document.write_text("version: 2\nx: &t \"" + "laugh " * 60 + "\"\ndocuments:\n"
                             "- {db_name: restaurant, doc_key: 'table:orders', kind: table, source: schema, "
                             "table_name: orders, text: *t}\n", encoding="utf-8")
    assert "YAML alias" in _cost(in_a_document)[0]
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(9 * 1024 * 1024)  # sparse: the size is refused before a byte is read
    message, elapsed, peak = _cost(huge)
    assert "9,437,184 bytes" in message and elapsed < 0.1 and peak < 100_000, (message, elapsed, peak)
    megabyte = _write(tmp_path / "big.json", {"version": 2, "documents": [], "pad": "x" * 1_100_000})
    message, elapsed, _ = _cost(megabyte, ImportLimits(max_file_bytes=1_000_000))
    assert "the limit is 1,000,000" in message and elapsed < 0.1
    long_text = {"db_name": "restaurant", "doc_key": "table:orders", "kind": "table", "source": "schema",
                 "table_name": "orders", "text": "x" * 5_000}
    message, _, _ = _cost(_write(tmp_path / "long.json", {"version": 2, "documents": [long_text]}))
    assert "documents.0.text" in message and "4000" in message


# --- the CLI: preview, confirm, one-line errors ---------------------------------------------------------------
def _env(home: Path, settings: Settings) -> dict[str, str | None]:
    return {"ARIA_HOME": str(home), "ARIA_DATABASE_URL": None, "ARIA_KB_URL": None, "ARIA_READER_URL": None,
            "ARIA_BUSINESS_SCHEMA": None, "ARIA_CONFIG": "/nonexistent/aria.toml", "ARIA_KB_SCHEMA": settings.kb_schema}


def _run(args: list[str], env: dict[str, str | None], given: str | None = None) -> Result:
    get_settings.cache_clear()
    try:
        return CliRunner().invoke(app, args, env=env, input=given)
    finally:
        get_settings.cache_clear()


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    return lines[0]


def test_cli_import_previews_asks_and_undoes(kb: KnowledgeBase, kb_settings: Settings, aria_home: Path,
                                             tmp_path: Path) -> None:
    env = _env(aria_home, kb_settings)
    data = export_data(kb.store)
    data["verified_queries"].append({"db_name": kb.db_name, "question": "Có bao nhiêu bàn?",
                                     "sql": "SELECT count(*) AS so_ban FROM tables"})
    data["verified_queries"].append({"db_name": kb.db_name, "question": "Doanh thu hôm nay là bao nhiêu?",
                                     "sql": "SELECT current_setting('data_directory') AS doanh_thu"})
    path = _write(tmp_path / "kb.json", data)
    before = _state(kb.store)
    declined = _run(["kb", "import", str(path)], env, given="n\n")
    assert declined.exit_code == 1, declined.output
    assert "verified queries: 1 added, 3 duplicates skipped, 1 rejected" in declined.stdout, declined.stdout
    assert "rejected 'Doanh thu hôm nay là bao nhiêu?'" in declined.stdout
    assert _state(kb.store) == before and not list_revisions(kb.store), "declining writes nothing"
    accepted = _run(["kb", "import", str(path)], env, given="y\n")
    assert accepted.exit_code == 0, accepted.output
    [revision] = list_revisions(kb.store)
    assert f"undo it with `aria kb undo {revision.id}`" in accepted.stdout
    assert "Nothing to import." in _run(["kb", "import", str(path), "--yes"], env).stdout
    undone = _run(["kb", "undo", str(revision.id)], env)
    assert undone.exit_code == 0 and "import" in undone.stdout, undone.output
    assert _state(kb.store) == before
    line = _one_line_error(_run(["kb", "undo", str(revision.id)], env))
    assert "already undone" in line


def _malformed(tmp_path: Path, good: dict[str, Any]) -> dict[str, Path]:
    files = {
        "wrong type": _write(tmp_path / "wrong.json", {**good, "documents": "all of them"}),
        "wrong field type": _write(tmp_path / "field.json", {**good, "verified_queries": [{"db_name": 1}]}),
        "unknown field": _write(tmp_path / "extra.json", {**good, "run_this": "DROP TABLE orders"}),
        "no version": _write(tmp_path / "nover.json", {"documents": []}),
        "a list": _write(tmp_path / "list.json", [1, 2, 3]),
        "NUL escape": _write(tmp_path / "nulesc.json", {"version": 2, "verified_queries": [
            {"db_name": "restaurant", "question": "a\x00b", "sql": "SELECT 1"}]}),
        "lone surrogate": tmp_path / "surrogate.json",
        "NaN": tmp_path / "nan.json",
        "truncated": tmp_path / "truncated.json",
        "not JSON": tmp_path / "notjson.json",
        "NUL bytes": tmp_path / "nul.json",
        "not UTF-8": tmp_path / "latin1.json",
        "python tag": tmp_path / "tag.yaml",
        "alias bomb": tmp_path / "bomb.yaml",
        "a directory": tmp_path,
        "missing": tmp_path / "missing.json",
        "/etc/passwd": Path("/etc/passwd"),
    }
    text = json.dumps(good, ensure_ascii=False)
    files["lone surrogate"].write_text('{"version": 2, "documents": [{"db_name": "\\ud800"}]}', encoding="utf-8")
    files["NaN"].write_text('{"version": 2, "databases": [{"db_name": "r", "fingerprint": "f", "model": "m", '
                            '"info": {"x": NaN}}]}', encoding="utf-8")
    files["truncated"].write_text(text[: len(text) // 2], encoding="utf-8")
    files["not JSON"].write_text("version = 2\n[documents]\n", encoding="utf-8")
    files["NUL bytes"].write_bytes(text.encode()[:50] + b"\x00" + text.encode()[50:])
    files["not UTF-8"].write_bytes('{"version": 2, "documents": [], "x": "Phở"}'.encode("latin-1", "replace")
                                   + b"\xff")
    files["python tag"].write_text("version: 2\ndocuments: !!python/object/apply:os.system ['touch /tmp/pwned']\n",
                                   encoding="utf-8")
    files["alias bomb"].write_text(BILLION_LAUGHS, encoding="utf-8")
    return files


def test_cli_malformed_files_are_one_line_errors(kb: KnowledgeBase, kb_settings: Settings, aria_home: Path,
                                                 tmp_path: Path) -> None:
    env = _env(aria_home, kb_settings)
    before = _state(kb.store)
    for name, path in _malformed(tmp_path, export_data(kb.store)).items():
        line = _one_line_error(_run(["kb", "import", str(path), "--yes"], env))
        assert line.startswith("aria: ") and ("not a usable KB export" in line or "No KB export" in line), (name, line)
    assert _state(kb.store) == before and not list_revisions(kb.store), "nothing was written"
    assert not Path("/tmp/pwned").exists()


def test_cli_undo_of_a_forged_revision_is_one_line(kb: KnowledgeBase, kb_settings: Settings,
                                                   aria_home: Path) -> None:
    revision_id = _insert_revision(kb.store, "verified_example", {"db_name": kb.db_name})
    line = _one_line_error(_run(["kb", "undo", str(revision_id)], _env(aria_home, kb_settings)))
    assert "does not recognise" in line and "KeyError" not in line
    line = _one_line_error(_run(["kb", "undo", "999999"], _env(aria_home, kb_settings)))
    assert "No revision 999999" in line


@pytest.mark.parametrize("name", ["/etc/passwd", "alias bomb", "python tag", "NUL bytes"])
def test_the_real_command_prints_no_traceback(name: str, tmp_path: Path) -> None:
    path = _malformed(tmp_path, {"version": 2, "documents": []})[name]
    env = {**os.environ, "ARIA_HOME": str(tmp_path / "home"), "ARIA_CONFIG": "/nonexistent/aria.toml"}
    done = subprocess.run([str(ARIA), "kb", "import", str(path), "--yes"], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "home").exists(), "nothing started, nothing written"


def test_an_import_with_a_failing_database_write_leaves_nothing(kb: KnowledgeBase, check: SqlCheck,
                                                               tmp_path: Path) -> None:
    """A write the database refuses mid-import (here: a document kind the table's CHECK forbids after
    a schema change) rolls the whole import back and is one KnowledgeBaseError."""
    with psycopg.connect(kb.store.conninfo, autocommit=True) as conn:
        conn.execute(pgsql.SQL("ALTER TABLE {} ADD CONSTRAINT no_glossary CHECK (kind <> 'glossary') NOT VALID").format(
            kb.store.ident("documents")))
    before = _state(kb.store)
    data = {"version": 2, "documents": [
        {"db_name": kb.db_name, "doc_key": "table:extra", "kind": "table", "source": "schema", "table_name": "extra",
         "text": "Table extra"},
        {"db_name": kb.db_name, "doc_key": "glossary:khách quen", "kind": "glossary", "source": "descriptions",
         "text": "khách quen: regulars"}]}
    with pytest.raises(KnowledgeBaseError, match="nothing was imported"):
        _import(kb.store, _write(tmp_path / "kb.json", data), check)
    assert _state(kb.store) == before and not list_revisions(kb.store)

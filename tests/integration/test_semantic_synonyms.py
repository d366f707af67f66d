"""Learning synonyms (issue 12, "Learning") on the real seeded database: a phrase taught through the CLI
makes the semantic layer answer with no model, undo takes it back; a confirmed answer's preview proposes
the phrase its unknown words stand for, and applying it works; forged and stale synonym revisions are
refused on undo; stopwords, numbers and time phrases are never learned."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from psycopg import sql
from psycopg.types.json import Jsonb
from typer.testing import CliRunner, Result

from aria.cli import app
from aria.config import Settings, get_settings
from aria.db.connect import Targets
from aria.errors import KnowledgeBaseError
from aria.kb.enrich import list_revisions, undo
from aria.reflect.answer import Answer
from aria.reflect.engine import Engine
from aria.reflect.enrichment import apply_enrichment, propose_enrichment
from aria.reflect.synonyms import SynonymProposal, propose_synonym, teach_synonym
from aria.semantic.learn import SynonymError, check_learnable
from aria.semantic.query import SemanticQuery, TimeRange
from tests.integration.engine_support import build_kb_settings, engine_with

QUESTION = "Tháng này có bao nhiêu khách ruột?"  # "khách quen" is the YAML's; "khách ruột" is not


@pytest.fixture(scope="module")
def kb_settings(seeded: Targets, settings: Settings) -> Settings:  # one KB for the module
    return build_kb_settings(settings, seeded)


@pytest.fixture(scope="module")
def engine(kb_settings: Settings, seeded: Targets) -> Iterator[Engine]:
    built = engine_with(kb_settings, seeded, None, semantic=True)
    assert built.deps.semantic is not None
    yield built
    built.close()


@pytest.fixture(autouse=True)
def _no_learned_phrases(engine: Engine) -> Iterator[None]:
    """Each test starts and ends with no active synonym revision."""
    yield
    store = engine.deps.kb.store
    for revision in list_revisions(store):
        if revision.kind == "synonym" and not revision.undone:
            try:
                undo(store, engine.deps.kb.embedder, revision.id)
            except KnowledgeBaseError:
                with store.transaction() as conn:
                    conn.execute(sql.SQL("DELETE FROM {}").format(store.ident("semantic_synonyms")))


def _env(home: Path, settings: Settings) -> dict[str, str | None]:
    return {"ARIA_HOME": str(home), "ARIA_DATABASE_URL": None, "ARIA_KB_URL": None, "ARIA_READER_URL": None,
            "ARIA_BUSINESS_SCHEMA": None, "ARIA_CONFIG": "/nonexistent/aria.toml", "ARIA_KB_SCHEMA": settings.kb_schema}


def _run(args: list[str], env: dict[str, str | None]) -> Result:
    get_settings.cache_clear()
    try:
        return CliRunner().invoke(app, args, env=env)
    finally:
        get_settings.cache_clear()


def _now(engine: Engine) -> dt.datetime:
    from aria.reflect.deps import business_now

    return business_now(engine.deps.executor, engine.deps.settings.timezone)


def _returning_this_month(engine: Engine) -> tuple[str, list[str], list[list[object]]]:
    """The repeat customers of this month as the semantic layer computes them: SQL, columns, rows."""
    layer, today = engine.deps.semantic, _now(engine).date()
    assert layer is not None
    query = SemanticQuery(metrics=["returning_customers"], time=TimeRange(start=today.replace(day=1), end=today))
    compiled = layer.compile(query)
    result = engine.deps.executor.run(compiled.sql)
    return compiled.sql, result.columns, [list(r) for r in result.rows]


def test_a_taught_phrase_is_answered_with_no_model_and_undo_takes_it_back(engine: Engine, kb_settings: Settings,
                                                                         aria_home: Path) -> None:
    before = engine.ask(QUESTION)
    assert before.status == "no_model" and "ruot" in before.answer_text, before.answer_text
    env = _env(aria_home, kb_settings)
    added = _run(["kb", "synonym", "add", "khách ruột", "--metric", "returning_customers"], env)
    assert added.exit_code == 0, added.output
    [revision] = [r for r in list_revisions(engine.deps.kb.store) if r.kind == "synonym"]
    assert f"aria kb undo {revision.id}" in added.stdout
    listed = _run(["kb", "synonym", "list"], env)
    assert "'khách ruột' = metric returning_customers [vi]" in listed.stdout, listed.output

    after = engine.ask(QUESTION)  # the engine's layer notices the new phrase (another process taught it)
    _, _, expected = _returning_this_month(engine)
    assert after.status == "answered" and after.llm_calls == 0, after.answer_text
    assert after.semantic_query and after.semantic_query.startswith("Khách quen"), after.semantic_query
    assert after.rows == expected

    undone = _run(["kb", "undo", str(revision.id)], env)
    assert undone.exit_code == 0, undone.output
    assert engine.ask(QUESTION).status == "no_model"
    assert "No learned phrases yet." in _run(["kb", "synonym", "list"], env).stdout


def test_the_cli_refuses_time_phrases_stopwords_and_known_phrases(engine: Engine, kb_settings: Settings,
                                                                  aria_home: Path) -> None:
    env = _env(aria_home, kb_settings)
    for args, why in ((["tháng này", "--metric", "revenue"], "it names a time"),
                      (["của", "--metric", "revenue"], "function word"),
                      (["doanh thu", "--metric", "guests"], "already knows"),
                      (["khách ruột", "--metric", "no_such_metric"], "not in the semantic model"),
                      (["khách ruột", "--metric", "revenue", "--concept", "dish"], "exactly one")):
        result = _run(["kb", "synonym", "add", *args], env)
        assert result.exit_code == 2 and why in result.stderr, (args, result.output)
        assert "Traceback" not in result.output
    assert not [r for r in list_revisions(engine.deps.kb.store) if r.kind == "synonym" and not r.undone]


def test_a_value_and_a_concept_can_be_taught(engine: Engine) -> None:
    layer, kb, now = engine.deps.semantic, engine.deps.kb, _now(engine)
    assert layer is not None
    rev = teach_synonym(layer, kb, "ca khuya", "value", "shift=ca tối", language="vi", author="test", now=now)
    assert rev.payload["target"] == "shifts.shift_code=D", rev.payload
    parsed = layer.parse("Doanh thu ca khuya hôm qua", language="vi", now=now)
    assert parsed.query is not None and parsed.query.filters[0].values == ("D",), parsed
    teach_synonym(layer, kb, "quầy chế biến", "concept", "station", language="vi", author="test", now=now)
    assert layer.parse("Doanh số món theo quầy chế biến tuần này", language="vi", now=now).ok


def test_a_confirmed_answer_proposes_the_synonym_and_applying_it_works(engine: Engine) -> None:
    sql_text, columns, rows = _returning_this_month(engine)
    answer = Answer(question=QUESTION, status="answered", answer_text="…", sql=sql_text, columns=columns, rows=rows)
    preview = propose_enrichment(answer, engine.deps)
    assert preview.synonyms == [SynonymProposal(phrase="khách ruột", kind="metric", target="returning_customers",
                                                language="vi", label="Khách quen")], preview.synonyms
    revision_ids = apply_enrichment(preview, engine.deps, confirmed_by="manager")
    synonym = [r for r in list_revisions(engine.deps.kb.store) if r.id in revision_ids and r.kind == "synonym"]
    assert len(synonym) == 1 and synonym[0].author == "manager"
    reasked = engine.ask(QUESTION)
    assert reasked.status in ("answered", "reused") and reasked.llm_calls == 0
    assert propose_synonym(answer, engine.deps) is None, "a known phrase is not proposed again"


def test_nothing_is_proposed_when_it_is_not_unambiguous(engine: Engine) -> None:
    sql_text, columns, rows = _returning_this_month(engine)

    def proposed(question: str, answer_rows: list[list[object]] = rows) -> SynonymProposal | None:
        answer = Answer(question=question, status="answered", answer_text="…", sql=sql_text, columns=columns,
                        rows=answer_rows)
        return propose_synonym(answer, engine.deps)

    assert proposed("Tháng này có bao nhiêu khách ruột ở chi nhánh mới?") is None  # two runs of unknown words
    edge = proposed("Tháng này có bao nhiêu khách ruột nha?")  # a particle at the edge is never learned with it
    assert edge is not None and edge.phrase == "khách ruột", edge
    assert proposed("Có bao nhiêu khách ruột tháng trước nữa?") is None  # 'nữa' next to a time phrase
    assert proposed(QUESTION, [[-1]]) is None  # the phrase does not give the confirmed rows


def test_undo_refuses_forged_and_stale_synonym_revisions(engine: Engine) -> None:
    layer, kb, now = engine.deps.semantic, engine.deps.kb, _now(engine)
    assert layer is not None
    store = kb.store
    forged = teach_synonym(layer, kb, "khách ruột", "metric", "returning_customers", language="vi", author="t",
                           now=now)
    with store.transaction() as conn:
        conn.execute(sql.SQL("UPDATE {} SET payload = %s WHERE id = %s").format(store.ident("revisions")),
                     (Jsonb({**forged.payload, "extra": "DROP"}), forged.id))
    with pytest.raises(KnowledgeBaseError, match="shape Aria does not recognise"):
        undo(store, kb.embedder, forged.id)
    with store.transaction() as conn:  # the forged payload pointing at another row
        conn.execute(sql.SQL("UPDATE {} SET payload = %s WHERE id = %s").format(store.ident("revisions")),
                     (Jsonb({**forged.payload, "synonym_id": forged.payload["synonym_id"] + 1000}), forged.id))
    with pytest.raises(KnowledgeBaseError, match="not the one revision"):
        undo(store, kb.embedder, forged.id)
    assert layer.parse(QUESTION, language="vi", now=now).ok, "nothing was undone"
    with store.transaction() as conn:  # stale: the row was changed since the revision wrote it
        conn.execute(sql.SQL("UPDATE {} SET payload = %s WHERE id = %s").format(store.ident("revisions")),
                     (Jsonb(forged.payload), forged.id))
        conn.execute(sql.SQL("UPDATE {} SET target = 'customers_served' WHERE id = %s").format(
            store.ident("semantic_synonyms")), (forged.payload["synonym_id"],))
    with pytest.raises(KnowledgeBaseError, match="not the one revision"):
        undo(store, kb.embedder, forged.id)
    with store.transaction() as conn:
        conn.execute(sql.SQL("UPDATE {} SET target = 'returning_customers' WHERE id = %s").format(
            store.ident("semantic_synonyms")), (forged.payload["synonym_id"],))
    undo(store, kb.embedder, forged.id)
    layer.refresh_synonyms()
    assert not layer.parse(QUESTION, language="vi", now=now).ok


@pytest.mark.parametrize(("phrase", "why"), [
    ("tuần này", "time"), ("hôm qua", "time"), ("last week", "time"), ("5 món", "number"), ("của", "function word"),
    ("bao nhiêu", "function word"), ("khách hàng thân thiết lâu năm nhất", "longer than 5"),
    ("doanh thu", "already knows"), ("khách", "already knows"),
])
def test_stopwords_numbers_time_and_known_phrases_are_never_learned(engine: Engine, phrase: str, why: str) -> None:
    layer = engine.deps.semantic
    assert layer is not None
    with pytest.raises(SynonymError, match=why):
        check_learnable(phrase, "metric", "revenue", catalog=layer.catalog, lexicon=layer.parser.lexicon,
                        now=_now(engine))

"""``aria kb build|retrieve|examples|revisions|undo|synonym|export|import``: the knowledge base."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from aria.cli.common import one_line_errors
from aria.errors import AriaError

if TYPE_CHECKING:
    from aria.config import Settings
    from aria.db.connect import Targets
    from aria.kb.import_file import ExportFile
    from aria.kb.store import KnowledgeStore
    from aria.kb.transfer import ImportPlan

app = typer.Typer(help="The knowledge base: build it, query it, see and undo its revisions.", no_args_is_help=True)


@app.command("build")
def build(
    source: str = typer.Option("postgres", help="postgres (the live database), sqlite:PATH, spider:TABLES_JSON or "
                               "bird:DEV_TABLES_JSON[,DEV_METADATA_JSON]."),
    enriched: bool = typer.Option(False, help="BIRD: also index the LLM-written ai_description fields."),
) -> None:
    """Build the KB (incremental: unchanged documents are not re-embedded)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from aria.cli.common import settings, targets
    from aria.kb.service import build_from_source

    cfg, tgt = settings(), targets()
    with Progress(TextColumn("Embedding"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        task = bar.add_task("embed", total=None)
        reports = build_from_source(source, tgt.admin, tgt.kb, cfg, enriched=enriched,
                                    progress=lambda n: bar.advance(task, n))
    for r in reports:
        typer.echo(f"{r.db_name}: {r.documents} documents ({r.added} added, {r.updated} updated, {r.unchanged} "
                   f"unchanged, {r.deleted} deleted; {r.embedded} embedded), {r.examples} verified examples, "
                   f"fingerprint {r.fingerprint}")


@app.command("retrieve")
def retrieve(
    question: str = typer.Argument(..., help="The question."),
    evidence: str = typer.Option("", help="Extra knowledge (BIRD evidence)."),
    db: str | None = typer.Option(None, help="The KB database name (default: the business schema)."),
    k: int | None = typer.Option(None, help="Tables (default: top_k_tables)."),
    m: int | None = typer.Option(None, help="Most columns per table (default: top_m_columns)."),
    budget: int | None = typer.Option(None, help="Tokens of retrieved columns (default: column_token_budget)."),
) -> None:
    """Show the schema context retrieval gives for a question."""
    from aria.cli.common import settings, targets
    from aria.kb.service import open_kb

    cfg = settings()
    kb = open_kb(cfg, targets().kb, db_name=db)
    ctx = kb.retrieve(question, evidence=evidence, k=k or cfg.top_k_tables, m=m or cfg.top_m_columns,
                      budget=cfg.column_token_budget if budget is None else budget, full_schema_budget=cfg.full_schema_token_budget)
    typer.echo(ctx.render())
    typer.echo(f"\n-- {ctx.token_count} tokens; full schema: {ctx.full_schema}")


@app.command("examples")
def examples(question: str = typer.Argument(...), n: int = typer.Option(3)) -> None:
    """The verified queries nearest to a question."""
    from aria.cli.common import settings, targets
    from aria.kb.service import open_kb

    for ex in open_kb(settings(), targets().kb).nearest_examples(question, n):
        typer.echo(f"[{ex.similarity:.2f}] #{ex.id} {ex.question}\n    {ex.sql}")


@app.command("revisions")
def revisions(db: str | None = typer.Option(None, help="Only this KB database.")) -> None:
    """Every enrichment revision, newest first."""
    from aria.cli.common import settings, targets
    from aria.kb.enrich import list_revisions
    from aria.kb.store import KnowledgeStore

    with one_line_errors():
        found = list_revisions(KnowledgeStore(targets().kb, settings()), db)
    for rev in found:
        state = (f"undone by {rev.undone_by}" if rev.undone_by else "undone") if rev.undone else "active"
        typer.echo(f"#{rev.id} {rev.created_at:%Y-%m-%d %H:%M} {rev.kind} {rev.payload.get('key')} by "
                   f"{rev.author or '?'} [{state}]")


@app.command("undo")
def undo(revision_id: int = typer.Argument(..., help="The revision to undo.")) -> None:
    """Undo one revision (the previous text comes back exactly; an import is undone as a whole)."""
    from aria.cli.common import settings, targets
    from aria.kb.enrich import undo_revision

    with one_line_errors():
        rev = undo_revision(settings(), targets(), revision_id, by="cli")
    typer.echo(f"Undid revision #{rev.id} ({rev.kind} {rev.payload.get('key')}).")


synonym_app = typer.Typer(help="Phrases managers taught the semantic layer (each a revision `aria kb undo` reverts).",
                          no_args_is_help=True)
app.add_typer(synonym_app, name="synonym")


@synonym_app.command("add")
def synonym_add(
    phrase: str = typer.Argument(..., help="The words managers use, e.g. \"khách ruột\"."),
    metric: str | None = typer.Option(None, "--metric", help="A metric name (see `aria semantic list`)."),
    concept: str | None = typer.Option(None, "--concept", help="A dimension concept, e.g. dish, shift."),
    value: str | None = typer.Option(None, "--value", help="DIMENSION=VALUE, e.g. shift=D or category=Lẩu."),
    lang: str = typer.Option("vi", "--lang", help="vi or en."),
    author: str = typer.Option("cli", help="Recorded as the revision's author."),
) -> None:
    """Teach the semantic layer a phrase for a metric, a concept or a value (checked first)."""
    from aria.cli.common import settings, targets
    from aria.reflect.synonyms import teach_from_settings

    chosen = [(k, v) for k, v in (("metric", metric), ("concept", concept), ("value", value)) if v]
    with one_line_errors():
        if len(chosen) != 1 or lang not in ("vi", "en"):
            raise AriaError("Give exactly one of --metric, --concept or --value, and --lang vi or en.",
                            hint='E.g. aria kb synonym add "khách ruột" --metric returning_customers')
        rev = teach_from_settings(settings(), targets(), phrase, chosen[0][0], chosen[0][1], language=lang,
                                  author=author)
    typer.echo(f"Learned '{phrase}' = {rev.payload['kind']} {rev.payload['target']} as revision #{rev.id}; "
               f"undo it with `aria kb undo {rev.id}`.")


@synonym_app.command("list")
def synonym_list(db: str | None = typer.Option(None, help="Only this KB database.")) -> None:
    """The learned phrases, oldest first."""
    from aria.cli.common import settings, targets
    from aria.kb.store import KnowledgeStore

    with one_line_errors():
        found = KnowledgeStore(targets().kb, settings()).learned_synonyms(db)
    if not found:
        typer.echo("No learned phrases yet.")
    for s in found:
        typer.echo(f"{s.phrase!r} = {s.kind} {s.target} [{s.language}] revision #{s.revision_id} by "
                   f"{s.created_by or '?'} {s.created_at:%Y-%m-%d %H:%M}")


@app.command("export")
def export(path: str = typer.Argument(..., help=".json or .yaml file to write."),
           db: str | None = typer.Option(None, help="Only this KB database.")) -> None:
    """Export the KB (documents, verified queries, fingerprints) to a file."""
    from aria.cli.common import settings, targets
    from aria.kb.store import KnowledgeStore
    from aria.kb.transfer import export_kb

    with one_line_errors():
        count = export_kb(KnowledgeStore(targets().kb, settings()), Path(path), db)
    typer.echo(f"Wrote {count} documents to {path}")


@app.command("import")
def import_(path: str = typer.Argument(..., help="A file `aria kb export` wrote."),
            yes: bool = typer.Option(False, "--yes", "-y", help="Apply without asking."),
            author: str = typer.Option("import", help="Recorded as the revision's author.")) -> None:
    """Import a KB export as ONE revision: shows what would change, asks, then applies (undo: `aria kb undo`)."""
    from aria.cli.common import settings, targets
    from aria.kb.embed import embedder_for
    from aria.kb.import_file import read_export
    from aria.kb.store import KnowledgeStore
    from aria.kb.transfer import apply_import

    with one_line_errors():
        content = read_export(Path(path))  # a bad file stops here, before any connection
        cfg, tgt = settings(), targets()
        store = KnowledgeStore(tgt.kb, cfg)
        try:
            plan = _plan(cfg, tgt, store, content, path)
            typer.echo("\n".join(plan.summary()))
            if plan.empty:
                typer.echo("Nothing to import.")
                return
            if not yes:
                typer.confirm("Apply this import as one revision?", abort=True)
            revision = apply_import(store, embedder_for(cfg), plan, author=author)
        finally:
            store.close()
    if revision is not None:
        typer.echo(f"Imported as revision #{revision.id}; undo it with `aria kb undo {revision.id}`.")


def _plan(cfg: Settings, tgt: Targets, store: KnowledgeStore, export: ExportFile, path: str) -> ImportPlan:
    """The import plan, its verified queries put through the SQL workbench's checks on the live database."""
    from aria.db.executor import ReadOnlyExecutor
    from aria.db.introspect import introspect_postgres
    from aria.kb.transfer import plan_import, workbench_sql_check

    if not export.verified_queries:
        return plan_import(store, export, lambda db_name, sql: None, source=path)
    with ReadOnlyExecutor(tgt.reader, cfg) as executor:
        check = workbench_sql_check(executor, introspect_postgres(tgt.admin, cfg.business_schema))
        return plan_import(store, export, check, source=path)

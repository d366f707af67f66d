"""``aria kb build|retrieve|examples|revisions|undo|export|import``: the knowledge base."""

from __future__ import annotations

from pathlib import Path

import typer

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
    m: int | None = typer.Option(None, help="Columns per table (default: top_m_columns)."),
) -> None:
    """Show the schema context retrieval gives for a question."""
    from aria.cli.common import settings, targets
    from aria.kb.service import open_kb

    cfg = settings()
    kb = open_kb(cfg, targets().kb, db_name=db)
    ctx = kb.retrieve(question, evidence=evidence, k=k or cfg.top_k_tables, m=m or cfg.top_m_columns,
                      full_schema_budget=cfg.full_schema_token_budget)
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

    for rev in list_revisions(KnowledgeStore(targets().kb, settings()), db):
        state = "undone" if rev.undone else "active"
        typer.echo(f"#{rev.id} {rev.created_at:%Y-%m-%d %H:%M} {rev.kind} {rev.payload.get('key')} by "
                   f"{rev.author or '?'} [{state}]")


@app.command("undo")
def undo(revision_id: int = typer.Argument(..., help="The revision to undo.")) -> None:
    """Undo one revision (the previous text comes back exactly)."""
    from aria.cli.common import settings, targets
    from aria.kb.enrich import undo_revision

    rev = undo_revision(settings(), targets(), revision_id)
    typer.echo(f"Undid revision #{rev.id} ({rev.kind} {rev.payload.get('key')}).")


@app.command("export")
def export(path: str = typer.Argument(..., help=".json or .yaml file to write."),
           db: str | None = typer.Option(None, help="Only this KB database.")) -> None:
    """Export the KB (documents, verified queries, revisions) to a file."""
    from aria.cli.common import settings, targets
    from aria.kb.store import KnowledgeStore
    from aria.kb.transfer import export_kb

    count = export_kb(KnowledgeStore(targets().kb, settings()), Path(path), db)
    typer.echo(f"Wrote {count} documents to {path}")


@app.command("import")
def import_(path: str = typer.Argument(..., help="A file `aria kb export` wrote.")) -> None:
    """Import a KB export (documents replaced by key; verified queries and revisions added)."""
    from aria.cli.common import settings, targets
    from aria.kb.embed import get_embedder
    from aria.kb.store import KnowledgeStore
    from aria.kb.transfer import import_kb

    cfg = settings()
    count = import_kb(KnowledgeStore(targets().kb, cfg), get_embedder(cfg.embedding_model), Path(path))
    typer.echo(f"Imported {count} documents from {path}")

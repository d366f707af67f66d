"""Enrichment (§3.2), only after every check passed AND the manager confirmed.

:func:`propose_enrichment` asks the kb_enricher what the knowledge base should learn (refined
column descriptions, glossary aliases) and adds the verified example and, when the semantic parser
could not read the question but the answer proves what its unknown words mean, a synonym
(:mod:`aria.reflect.synonyms`); nothing is written.
:func:`apply_enrichment` writes exactly that preview as KB revisions with provenance.
A rejected answer is stored as negative feedback, never as knowledge.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from aria.db.executor import QueryResult
from aria.errors import AriaError, KnowledgeBaseError
from aria.llm.schemas import ColumnDescription, EnrichmentProposal, TermAlias
from aria.reflect.answer import Answer
from aria.reflect.deps import EngineDeps, business_now
from aria.reflect.entailment_loop import result_preview
from aria.reflect.synonyms import SynonymProposal, propose_synonym
from aria.semantic.learn import check_learnable
from aria.sql.schema import Schema

if TYPE_CHECKING:
    from aria.kb.enrich import Change

log = logging.getLogger(__name__)

LEARNABLE = ("answered", "reused")


class EnrichmentPreview(BaseModel):
    """Exactly what a confirmation would add to the knowledge base."""

    question: str
    sql: str
    descriptions: list[ColumnDescription] = Field(default_factory=list)
    aliases: list[TermAlias] = Field(default_factory=list)
    dropped: list[str] = Field(default_factory=list)  # proposals that named unknown tables/columns
    synonyms: list[SynonymProposal] = Field(default_factory=list)  # phrases the semantic parser would learn
    log_id: int | None = None
    proposed_by: str = "none"  # the model label, or "none" when only the example is learnt


def _known(schema: Schema, table: str, column: str | None) -> bool:
    found = schema.table(table)
    return found is not None and (column is None or found.column(column) is not None)


def _validated(proposal: EnrichmentProposal, schema: Schema) -> tuple[list[ColumnDescription], list[TermAlias], list[str]]:
    """Keep only what names real tables and columns; say what was dropped."""
    descriptions = [d for d in proposal.descriptions if _known(schema, d.table, d.column)]
    aliases = [a for a in proposal.aliases if _known(schema, a.table, a.column)]
    dropped = [f"description of {d.table}.{d.column}" for d in proposal.descriptions if d not in descriptions]
    dropped += [f"alias {a.term!r} -> {a.table}.{a.column}" for a in proposal.aliases if a not in aliases]
    return descriptions, aliases, dropped


def propose_enrichment(answer: Answer, deps: EngineDeps) -> EnrichmentPreview:
    if answer.status not in LEARNABLE or not answer.sql:
        raise KnowledgeBaseError(
            "Only an answer that passed every check can be confirmed.",
            hint="Ask again, or fix the SQL in the workbench and save it as a verified query.",
        )
    preview = EnrichmentPreview(question=answer.question, sql=answer.sql, log_id=answer.log_id,
                                synonyms=_synonyms(answer, deps))
    if deps.models is None:
        return preview
    context = deps.kb.retrieve(answer.question, k=deps.settings.top_k_tables, m=deps.settings.top_m_columns,
                               budget=deps.settings.column_token_budget,
                               full_schema_budget=deps.settings.full_schema_token_budget)
    result = QueryResult(answer.columns, answer.rows, len(answer.rows), answer.truncated, 0.0)
    proposal = deps.models.for_session().call_structured(
        "kb_enricher",
        {"question": answer.question, "sql": answer.sql, "schema_context": context.render(),
         "result_preview": result_preview(result)},
        EnrichmentProposal,
    )
    descriptions, aliases, dropped = _validated(proposal, deps.schema)
    return preview.model_copy(update={"descriptions": descriptions, "aliases": aliases, "dropped": dropped,
                                      "proposed_by": deps.models.label})


def _synonyms(answer: Answer, deps: EngineDeps) -> list[SynonymProposal]:
    try:
        found = propose_synonym(answer, deps)
    except AriaError as err:  # the preview still offers the rest
        log.warning("no synonym proposed: %s", err)
        return []
    return [found] if found is not None else []


def apply_enrichment(preview: EnrichmentPreview, deps: EngineDeps, *, confirmed_by: str) -> list[int]:
    """Write the preview as KB revisions (one transaction); returns the revision ids."""
    from aria.kb.enrich import Provenance, apply_changes, changes_from

    provenance = Provenance(question=preview.question, sql=preview.sql, confirmed_by=confirmed_by or "manager",
                            query_log_id=preview.log_id)
    changes = changes_from(descriptions=preview.descriptions, aliases=preview.aliases,
                           example=(preview.question, preview.sql))
    changes += [_synonym_change(s, deps) for s in preview.synonyms]
    revision_ids = apply_changes(deps.kb, changes, provenance)
    deps.kb.refresh()
    if deps.semantic is not None and preview.synonyms:
        deps.semantic.refresh_synonyms()
    return revision_ids


def _synonym_change(proposal: SynonymProposal, deps: EngineDeps) -> Change:
    """The synonym as a KB change, checked again (the preview may be old): the target still exists and the
    phrase is still unknown."""
    from aria.kb.enrich import Change

    if deps.semantic is None:
        raise KnowledgeBaseError("The semantic layer is off, so it cannot learn phrases.",
                                 hint="Fix the semantic model's files, then confirm again.")
    layer = deps.semantic
    layer.refresh_synonyms()
    check_learnable(proposal.phrase, proposal.kind, proposal.target, catalog=layer.catalog,
                    lexicon=layer.parser.lexicon, now=business_now(deps.executor, deps.settings.timezone))
    return Change(kind="synonym", term=proposal.phrase, synonym_kind=proposal.kind, target=proposal.target,
                  lang=proposal.language)


def record_rejection(answer: Answer, deps: EngineDeps, *, reason: str, rejected_by: str) -> int:
    return deps.kb.store.add_feedback(answer.question, answer.sql, reason, query_id=answer.log_id,
                                      author=rejected_by)

"""Questions the semantic layer can answer right now: for the empty chat (first contact) and for
the honest "no" (nearby questions built from what was recognised). Every suggestion is checked
by parsing it: Aria never offers a question it would refuse."""

from __future__ import annotations

import datetime as dt

from aria.semantic.layer import SemanticLayer
from aria.semantic.parse import Parsed

_TEMPLATES = {
    "vi": ("{metric} hôm qua là bao nhiêu?", "{metric} tháng này theo {concept}?", "{metric} tuần trước theo ngày?",
           "{concept} nào có {metric_lower} cao nhất tháng này?"),
    "en": ("What was {metric_lower} yesterday?", "{metric} by {concept} this month", "{metric} by day last week",
           "Which {concept} had the highest {metric_lower} this month?"),
}
STARTER_METRICS = ("revenue", "portions_sold", "completed_orders", "avg_prep_time", "cancelled_orders",
                   "tax_collected", "guests")
STARTER_CONCEPTS = ("category", "dish", "station", "shift", "payment_method", "server")


def _concepts_for(layer: SemanticLayer, metric: str) -> list[str]:
    try:
        names = layer.compiler.group_bys([metric])
    except Exception:
        return []
    concepts = []
    for name in names:
        dim = layer.catalog.dimension_of(name)
        if dim is not None and dim.concept in STARTER_CONCEPTS and dim.concept not in concepts:
            concepts.append(dim.concept)
    return sorted(concepts, key=STARTER_CONCEPTS.index)


def _candidates(layer: SemanticLayer, language: str, metrics: list[str]) -> list[str]:
    out = []
    for metric in metrics:
        info = layer.catalog.metrics.get(metric)
        if info is None:
            continue
        label = info.labels.label(language)
        concepts = _concepts_for(layer, metric) or [""]
        for template in _TEMPLATES[language]:
            for concept in concepts[:2]:
                if "{concept}" in template and not concept:
                    continue
                concept_label = layer.catalog.concepts[concept].label(language).lower() if concept else ""
                out.append(template.format(metric=label, metric_lower=label.lower(), concept=concept_label)
                           .replace("  ", " ").strip())
                if "{concept}" not in template:
                    break
    return out


def _answerable(layer: SemanticLayer, question: str, language: str) -> bool:
    now = dt.datetime(2026, 1, 15, 12, 0)  # any day: only whether it parses matters here
    try:
        return layer.parse(question, language=language, now=now).ok
    except Exception:
        return False


def nearby_questions(layer: SemanticLayer, language: str, parsed: Parsed | None, *, limit: int = 3) -> list[str]:
    """Two or three answerable questions about the metrics the question mentioned (or the common ones)."""
    mentioned = [item.meaning for item in parsed.recognised if item.kind == "metric"] if parsed else []
    metrics = list(dict.fromkeys(mentioned)) or [m for m in STARTER_METRICS if m in layer.catalog.metrics]
    found: list[str] = []
    for question in _candidates(layer, language, metrics):
        if question not in found and _answerable(layer, question, language):
            found.append(question)
        if len(found) >= limit:
            break
    return found


def starter_questions(layer: SemanticLayer, language: str, *, limit: int = 5) -> list[str]:
    """A handful of questions for the empty chat, one per common metric."""
    found: list[str] = []
    for metric in STARTER_METRICS:
        for question in _candidates(layer, language, [metric]):
            if _answerable(layer, question, language):
                found.append(question)
                break
        if len(found) >= limit:
            break
    return found

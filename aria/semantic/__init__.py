"""Aria's semantic layer: governed restaurant metrics in MetricFlow's YAML, compiled by MetricFlow,
reached from a question by a deterministic parser (no model needed)."""

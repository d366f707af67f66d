"""Databases: connections, the embedded PostgreSQL, the read-only executor, introspection."""

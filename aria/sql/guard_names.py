"""Names the safety guard needs to know about PostgreSQL: data, no logic.

``ROW_FUNCTIONS`` is every function of PostgreSQL 18 (with pgvector) that PostgreSQL's attribute
notation can call on a table row: ``o.row_to_json`` is ``row_to_json(o)`` when ``orders`` has no
column of that name. They are the functions whose only required argument accepts a row (``record``,
``"any"``, ``anyelement``, ``anycompatible``, ``anynonarray``, ``anycompatiblenonarray``), listed by::

    SELECT DISTINCT p.proname FROM pg_proc p
    WHERE p.pronargs >= 1 AND p.pronargs - p.pronargdefaults <= 1
      AND p.proargtypes[0] IN ('record'::regtype, '"any"'::regtype, 'anyelement'::regtype,
                               'anycompatible'::regtype, 'anynonarray'::regtype,
                               'anycompatiblenonarray'::regtype)

``tests/integration/test_hostile_db.py`` runs that query on the test server and fails when the server
knows a name this list lacks (a newer PostgreSQL, another extension).
"""

from __future__ import annotations


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


ROW_FUNCTIONS = _names("""
    any_out any_value anycompatible_out anycompatiblenonarray_out anyelement_out anynonarray_out
    array_agg concat count cume_dist dense_rank first_value hash_record json_agg json_agg_strict
    json_build_array json_build_object jsonb_agg jsonb_agg_strict jsonb_build_array jsonb_build_object
    lag last_value lead max min mode num_nonnulls num_nulls percent_rank pg_collation_for
    pg_column_compression pg_column_size pg_column_toast_chunk_id pg_restore_attribute_stats
    pg_restore_relation_stats pg_typeof quote_literal quote_nullable rank record_out record_send
    row_to_json to_json to_jsonb
""")

# Name prefixes of PostgreSQL's own machinery: a column reference with such a name is never business
# data, and extensions add functions with these prefixes that no list can keep up with.
CATALOG_PREFIXES = ("pg_", "lo_", "dblink", "binary_upgrade", "txid_", "xpath", "query_to_", "table_to_")

# System columns every PostgreSQL table has: row versions, physical location, the table's oid.
SYSTEM_COLUMNS = _names("xmin xmax cmin cmax ctid tableoid")

# SQL keywords PostgreSQL evaluates as functions although they are written without parentheses
# (sqlglot parses some of them as plain column names).
SESSION_KEYWORDS = _names("""
    user current_user current_role session_user system_user current_schema current_catalog
""")

# Functions that report on the server or the session rather than compute from their arguments.
# They are not on the allow-list anyway; listing them gives the rejection a precise reason.
SERVER_INFO_FUNCTIONS = _names("""
    current_setting current_database current_schema current_schemas current_user current_role
    session_user system_user user version inet_server_addr inet_server_port inet_client_addr
    inet_client_port pg_backend_pid pg_postmaster_start_time pg_conf_load_time current_query
    pg_current_xact_id txid_current pg_is_in_recovery pg_my_temp_schema pg_listening_channels
    pg_trigger_depth pg_jit_available pg_current_logfile pg_get_keywords pg_settings_get_flags
    has_database_privilege has_schema_privilege has_table_privilege has_column_privilege
    has_function_privilege pg_has_role row_security_active
""")

# sqlglot's typed nodes for the same keywords and functions.
SERVER_INFO_CLASSES = _names("""
    CurrentUser CurrentRole CurrentSchema CurrentSchemas CurrentCatalog CurrentDatabase CurrentVersion
    SessionUser CurrentUserId CurrentSession CurrentRoleType CurrentAvailableRoles CurrentAccount
    CurrentAccountName CurrentClient CurrentIpAddress CurrentRegion CurrentStatement CurrentTransaction
    CurrentWarehouse CurrentOrganizationName CurrentOrganizationUser CurrentSecondaryRoles SessionParameter
    Version
""")


def looks_like_catalog_function(name: str) -> bool:
    """True for a name attribute notation could turn into a call of a PostgreSQL function on a row.

    >>> looks_like_catalog_function("row_to_json"), looks_like_catalog_function("status")
    (True, False)
    """
    lowered = name.lower()
    return lowered in ROW_FUNCTIONS or lowered.startswith(CATALOG_PREFIXES)

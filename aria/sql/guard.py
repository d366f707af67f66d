"""The safety guard: decide, without a database, whether a SQL text may run against the business data.

Aria runs SQL that a model wrote or a person edited against the restaurant's production database,
so the guard fails closed: anything it cannot parse, does not recognise or is unsure about is
rejected with a one-line reason (fit to show and to feed back to the SQL-writing model).

Rules, applied in order to the sqlglot tree (one small function each, see ``RULES``):

1. exactly one statement, at most ``MAX_SQL_CHARS`` characters, no NUL bytes;
2. the root is a query: SELECT, a set operation (UNION/INTERSECT/EXCEPT), or a WITH-query;
3. every node of the tree is of an ALLOWED kind (``_ALLOWED_NODES``): write statements, DDL,
   data-modifying CTEs, SELECT INTO, FOR UPDATE/SHARE, COPY, SET, LOCK, CALL, DO, PREPARE, EXPLAIN,
   transaction control and sqlglot's ``Command`` fallback are simply not on the list;
4. every function is on an ALLOW-list (sqlglot's typed functions by class, unknown
   "anonymous" functions by name, per dialect). An allow-list, not a deny-list: PostgreSQL has
   hundreds of functions that read files, run SQL from text or change state (pg_read_file,
   lo_import, dblink, set_config, query_to_xml, pg_notify, nextval, pg_logical_emit_message, ...)
   and extensions add more; a deny-list misses the one nobody thought of, an allow-list only
   costs a repair round when a harmless function is missing (add it via
   ``allowed_functions_extra``);
   Functions that report on the server or the session (``current_setting``, ``version()``,
   ``current_database()``, ``pg_backend_pid()``, ``CURRENT_USER``, ...) are not on it, and are
   rejected with that reason;
5. tables and table functions are unqualified (resolved through the reader role's search_path) or
   qualified with an allowed schema; system catalogs (``pg_*``, ``sqlite_*``), information_schema,
   the knowledge base schema and any other schema are rejected (``pg_catalog.generate_series(...)``
   too), and so are casts to ``reg*`` object-identifier types;
6. (PostgreSQL) column references are columns, not function calls in disguise
   (:mod:`aria.sql.guard_columns`): ``o.row_to_json`` calls ``row_to_json(o)`` when ``o`` has no
   such column, so a qualified reference must resolve to a column of its FROM item (the business
   tables' columns when the caller passes ``columns``, see :func:`schema_columns`); system columns
   (``xmin``, ``ctid``, ...) and keywords such as ``user`` / ``current_role`` are rejected; field
   selection ``(expr).name`` is rejected (PostgreSQL reads it as ``name(expr)`` for any type).

The verdict's ``sql`` is sqlglot's regeneration of the tree without comments, and that text is
checked again from scratch: what the executor sends to the database is exactly what passed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp

from aria.errors import GuardRejection
from aria.sql.guard_columns import TableColumns, column_problem
from aria.sql.guard_columns import ident_name as _ident_name
from aria.sql.guard_names import SERVER_INFO_CLASSES, SERVER_INFO_FUNCTIONS

if TYPE_CHECKING:
    from aria.sql.schema import Schema

log = logging.getLogger(__name__)

MAX_SQL_CHARS = 20_000
DIALECTS = frozenset({"postgres", "sqlite"})


@dataclass(frozen=True)
class GuardVerdict:
    """The guard's decision. ``sql`` is the normalized single statement (no trailing semicolon)."""

    allowed: bool
    reason: str
    sql: str


@dataclass(frozen=True)
class _Policy:
    dialect: str
    allowed_schemas: frozenset[str]
    allowed_functions: frozenset[str]
    columns: TableColumns | None = field(default=None, compare=False)


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Structural node kinds a read-only query is made of. Anything else is rejected.
_ALLOWED_NODES = _names("""
    Select Union Intersect Except With CTE Subquery From Join Where Group Having Qualify Order Ordered
    Limit Offset Fetch Distinct Table TableAlias Column Identifier Star Literal Alias Aliases Paren Null
    Boolean Tuple Values Var DataType DataTypeParam Interval IntervalSpan Between In Not Neg BitwiseNot
    Window WindowSpec Filter WithinGroup Lateral Bracket Slice ColumnDef Cube Rollup GroupingSets
    RawString ByteString UnicodeString National HexString BitString Any All Array Struct
    AtTimeZone Kwarg Semicolon PivotAlias TableSample LimitOptions
    Add And BitwiseAnd BitwiseOr BitwiseXor BitwiseLeftShift BitwiseRightShift Collate DPipe Div EQ
    Escape GT GTE Glob ILike IntDiv Is LT LTE Like Mod Mul NEQ NullSafeEQ NullSafeNEQ Or Overlaps Pow
    SimilarTo Sub Xor RegexpLike RegexpILike RegexpFullMatch ArrayContains ArrayContainedBy ArrayOverlaps
    JSONExtract JSONExtractScalar JSONBExtract JSONBExtractScalar JSONBContains JSONPath JSONPathRoot
    JSONPathKey JSONPathSubscript
""")

# sqlglot's typed functions (by class name) that only compute a value from their arguments.
_ALLOWED_FUNC_CLASSES = _names("""
    Count Sum Avg Min Max ArrayAgg GroupConcat Stddev StddevPop StddevSamp Variance VariancePop
    PercentileCont PercentileDisc Corr CovarPop CovarSamp LogicalAnd LogicalOr CountIf Median Mode
    ApproxDistinct AnyValue First Last
    RowNumber Rank DenseRank Ntile Lag Lead FirstValue LastValue NthValue PercentRank CumeDist
    Abs Ceil Floor Round Trunc Sqrt Cbrt Ln Log Exp Sign Greatest Least SafeDivide Radians Degrees Pi
    Lower Upper Length Substring Trim Concat ConcatWs Left Right Pad StrPosition Initcap Split
    SplitPart RegexpReplace RegexpExtract RegexpSplit Reverse Translate Replace Chr Ascii Unicode Format
    MD5 Hex ToChar ToNumber Levenshtein Space Contains StartsWith EndsWith ArrayToString
    CurrentDate CurrentTimestamp CurrentTime Localtimestamp Localtime DateTrunc TimestampTrunc
    TimeTrunc Extract TimeToStr StrToTime StrToDate TsOrDsToDate Date DateAdd DateSub DateDiff
    TimestampAdd TimestampSub TimestampDiff DatetimeAdd DatetimeSub DatetimeDiff DateFromParts
    MakeInterval Age DayOfWeek DayOfMonth DayOfYear WeekOfYear Month Year Quarter Day Week Hour Minute
    Second LastDay UnixToTime TimeToUnix TimeStrToTime TimeStrToDate DateStrToDate DateToDateStr
    ToDays Timestamp TsOrDsToTimestamp TsOrDsToTime TsOrDsToDatetime TsOrDsAdd TsOrDsDiff Typeof UnixSeconds
    Case If Coalesce Nullif Cast TryCast Exists Array ArraySize ArrayLength Unnest Explode GenerateSeries
    ExplodingGenerateSeries GenerateDateArray JSONObject JSONArrayAgg JSONObjectAgg JSONFormat ParseJSON
    JSONBObjectAgg JSONExtractArray ToJson Rand Anonymous AnonymousAggFunc Columns
""") - {"Anonymous", "AnonymousAggFunc"}

# Functions sqlglot does not know ("anonymous"), allowed by name.
_POSTGRES_FUNCTIONS = _names("""
    business_now now current_date localtimestamp date_trunc date_part extract to_char to_date
    to_timestamp to_number age make_date make_time make_interval make_timestamp make_timestamptz
    date_bin justify_days justify_hours justify_interval isfinite timezone
    coalesce nullif greatest least round trunc floor ceil ceiling abs sign mod power pow sqrt cbrt ln log
    log10 exp div width_bucket random
    lower upper initcap length char_length character_length octet_length substr substring left right lpad
    rpad btrim ltrim rtrim trim replace split_part strpos position concat concat_ws format reverse
    translate regexp_replace regexp_match regexp_like regexp_count regexp_substr starts_with md5 chr ascii
    quote_ident quote_literal string_agg array_agg array_length array_to_string array_position
    cardinality unnest generate_series count sum avg min max stddev stddev_pop stddev_samp variance
    var_pop var_samp bool_and bool_or every percentile_cont percentile_disc mode corr covar_pop
    covar_samp regr_slope regr_intercept regr_r2 row_number rank dense_rank ntile lag lead first_value
    last_value nth_value percent_rank cume_dist num_nulls num_nonnulls
    json_build_object jsonb_build_object json_agg jsonb_agg json_object_agg jsonb_object_agg to_json
    to_jsonb json_build_array jsonb_build_array
""")

_SQLITE_FUNCTIONS = _names("""
    abs coalesce ifnull iif instr length lower upper ltrim rtrim trim max min nullif printf format replace
    round substr substring typeof date time datetime julianday strftime unixepoch avg count group_concat
    sum total char unicode hex sign row_number rank dense_rank ntile lag lead first_value last_value
    nth_value percent_rank cume_dist like glob quote ceil ceiling floor trunc sqrt power pow ln log log10
    exp mod string_agg random
""")

# Casts to these types reveal or probe database objects rather than compute a value.
_DENIED_TYPE_PREFIXES = ("reg", "pg_", "txid", "xid", "oid", "tid", "cid")
_SYSTEM_TABLE_PREFIXES = {"postgres": ("pg_",), "sqlite": ("sqlite_", "pragma_")}


def check_sql(
    sql: str,
    *,
    dialect: str = "postgres",
    allowed_schemas: frozenset[str] = frozenset({"restaurant"}),
    allowed_functions_extra: frozenset[str] = frozenset(),
    columns: Mapping[str, Iterable[str]] | None = None,
) -> GuardVerdict:
    """Decide whether ``sql`` may run. Never raises: any failure is a rejection.

    ``columns`` (table name -> column names, e.g. :func:`schema_columns`) are the business tables'
    real columns: given, a qualified column of one of those tables must be one of them. Without
    them, only names that PostgreSQL could turn into a function call on the row are rejected.

    >>> check_sql("SELECT count(*) FROM orders").allowed
    True
    >>> check_sql("SELECT 1; DROP TABLE orders").reason
    'only one statement is allowed (found 2)'
    """
    if dialect not in DIALECTS:
        return GuardVerdict(False, f"unsupported dialect {dialect!r} (use postgres or sqlite)", "")
    base = _SQLITE_FUNCTIONS if dialect == "sqlite" else _POSTGRES_FUNCTIONS
    extra = frozenset(name.lower() for name in allowed_functions_extra)
    known = None if columns is None else {name: frozenset(cols) for name, cols in columns.items()}
    policy = _Policy(dialect, frozenset(allowed_schemas), base | extra, known)
    try:
        first = _check_text(sql, policy)
        if not first.allowed:
            return first
        second = _check_text(first.sql, policy)  # what runs is exactly what passed
        if not second.allowed:
            return GuardVerdict(False, f"the normalized SQL does not pass the guard: {second.reason}", "")
        return second
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError) as err:
        line = str(err).strip().splitlines()[0][:160] if str(err).strip() else type(err).__name__
        return GuardVerdict(False, f"the SQL could not be parsed: {line}", "")
    except Exception as err:  # fail closed: RecursionError, sqlglot internals, anything
        log.info("guard rejected SQL after %s", type(err).__name__)
        return GuardVerdict(False, f"the SQL could not be analysed ({type(err).__name__}); rewrite it simply", "")


def guard_sql(
    sql: str,
    *,
    dialect: str = "postgres",
    allowed_schemas: frozenset[str] = frozenset({"restaurant"}),
    allowed_functions_extra: frozenset[str] = frozenset(),
    columns: Mapping[str, Iterable[str]] | None = None,
) -> str:
    """The normalized SQL when allowed; raises :class:`GuardRejection` with the reason otherwise."""
    verdict = check_sql(
        sql, dialect=dialect, allowed_schemas=allowed_schemas, allowed_functions_extra=allowed_functions_extra,
        columns=columns,
    )
    if not verdict.allowed:
        raise GuardRejection(f"SQL rejected by the safety guard: {verdict.reason}")
    return verdict.sql


def schema_columns(schema: Schema) -> dict[str, frozenset[str]]:
    """The ``columns`` argument of :func:`check_sql` for a schema: table name -> its column names."""
    return {table.name: frozenset(column.name for column in table.columns) for table in schema.tables}


def _check_text(sql: str, policy: _Policy) -> GuardVerdict:
    reason = _check_raw(sql)
    if reason:
        return GuardVerdict(False, reason, "")
    statements = [s for s in sqlglot.parse(sql, read=policy.dialect) if not _is_empty(s)]
    if len(statements) != 1:
        return GuardVerdict(False, f"only one statement is allowed (found {len(statements)})", "")
    tree = statements[0]
    assert tree is not None  # _is_empty filtered None
    for rule in RULES:
        reason = rule(tree, policy)
        if reason:
            return GuardVerdict(False, reason, "")
    return GuardVerdict(True, "allowed", tree.sql(dialect=policy.dialect, comments=False))


def _check_raw(sql: str) -> str:
    if not isinstance(sql, str):
        return "the SQL must be text"
    if len(sql) > MAX_SQL_CHARS:
        return f"the SQL is too long ({len(sql)} > {MAX_SQL_CHARS} characters)"
    if "\x00" in sql:
        return "the SQL contains a NUL byte"
    if not sql.strip():
        return "the SQL is empty"
    return ""


def _is_empty(statement: exp.Expr | None) -> bool:
    """``None`` and comment-only statements (``;`` followed by a comment) count as nothing."""
    return statement is None or (isinstance(statement, exp.Semicolon) and not statement.args)


def _rule_root(tree: exp.Expr, policy: _Policy) -> str:
    if isinstance(tree, exp.Select | exp.Union | exp.Intersect | exp.Except):
        return ""
    return f"only a read-only query (SELECT / UNION / WITH ... SELECT) is allowed, not {_kind(tree)}"


def _rule_nodes(tree: exp.Expr, policy: _Policy) -> str:
    for node in tree.walk():
        if isinstance(node, exp.Func | exp.Dot):
            continue  # checked by _rule_functions
        if type(node).__name__ not in _ALLOWED_NODES:
            return f"{_kind(node)} is not allowed in a read-only query"
    return ""


def _rule_functions(tree: exp.Expr, policy: _Policy) -> str:
    for node in tree.walk():
        if isinstance(node, exp.Dot):
            reason = _check_dot(node, policy)
        elif isinstance(node, exp.Anonymous | exp.AnonymousAggFunc):
            name = str(node.name).lower()
            reason = "" if name in policy.allowed_functions else _unlisted(name, server_info=name in SERVER_INFO_FUNCTIONS)
        elif isinstance(node, exp.Func):
            cls = type(node).__name__
            known = cls in _ALLOWED_FUNC_CLASSES or cls in _ALLOWED_NODES
            reason = "" if known else _unlisted(_call_name(node, policy), server_info=cls in SERVER_INFO_CLASSES)
        else:
            reason = ""
        if reason:
            return reason
    return ""


def _call_name(node: exp.Func, policy: _Policy) -> str:
    """The function's name as the regenerated SQL writes it (``version()`` is sqlglot's CurrentVersion)."""
    head = node.sql(dialect=policy.dialect).split("(", 1)[0].strip()
    return head if head and len(head) <= 40 and " " not in head else node.sql_name()


def _unlisted(name: str, *, server_info: bool) -> str:
    if server_info:
        return (f"{name} reveals details of the database server or session (settings, version, users); "
                "it is not allowed: ask about the restaurant's data")
    return f"function {name}() is not on the allow-list"


def _check_dot(node: exp.Dot, policy: _Policy) -> str:
    """``schema.function()`` is allowed for an allowed schema only; other dotted access is rejected."""
    left, right = node.this, node.expression
    if isinstance(right, exp.Func) and isinstance(left, exp.Identifier | exp.Column | exp.Var):
        schema = _ident_name(left)
        if schema in policy.allowed_schemas and policy.dialect == "postgres":
            return ""
        return f"functions of schema {schema!r} may not be called"
    if isinstance(right, exp.Identifier) and policy.dialect == "postgres":
        field_name = _ident_name(right)
        return (f"field selection (...).{field_name} is not allowed: PostgreSQL reads it as the function call "
                f"{field_name}(...); write alias.{field_name} for a column")
    if isinstance(right, exp.Identifier) and isinstance(left, exp.Paren | exp.Column | exp.Dot):
        return ""  # field access on a composite value: (row).field
    return f"the expression {node.sql(dialect=policy.dialect)[:60]!r} is not allowed"


def _rule_tables(tree: exp.Expr, policy: _Policy) -> str:
    prefixes = _SYSTEM_TABLE_PREFIXES[policy.dialect]
    for node in tree.find_all(exp.CTE):
        alias = node.alias_or_name.lower()
        if alias.startswith(prefixes):
            return f"the CTE name {alias!r} looks like a system catalog; choose another name"
    for table in tree.find_all(exp.Table):
        check = _check_table_function if isinstance(table.this, exp.Func) else _check_table
        reason = check(table, policy, prefixes)
        if reason:
            return reason
    return ""


def _check_table(table: exp.Table, policy: _Policy, prefixes: tuple[str, ...]) -> str:
    name = table.name.lower()
    if table.args.get("catalog") is not None:
        return f"table {table.sql(dialect=policy.dialect)!r}: another database may not be referenced"
    schema_node = table.args.get("db")
    if schema_node is not None:
        schema = _ident_name(schema_node)
        allowed = policy.allowed_schemas if policy.dialect == "postgres" else frozenset({"main"})
        if schema not in allowed or schema.lower().startswith(("pg_", "information_schema")):
            return f"table {schema}.{name}: only the business tables may be read (schema {schema!r} is not allowed)"
    if name.startswith(prefixes) or name in {"information_schema"}:
        return f"table {name!r} is a system catalog; only the business tables may be read"
    return ""


def _check_table_function(table: exp.Table, policy: _Policy, prefixes: tuple[str, ...]) -> str:
    """A table function (its name is checked by _rule_functions) follows the tables' schema rule."""
    name = table.this.sql(dialect=policy.dialect).split("(", 1)[0]
    if table.args.get("catalog") is not None:
        return f"table function {name}(): another database may not be referenced"
    schema_node = table.args.get("db")
    if schema_node is None:
        return ""
    schema = _ident_name(schema_node)
    allowed = policy.allowed_schemas if policy.dialect == "postgres" else frozenset({"main"})
    if schema not in allowed or schema.lower().startswith(("pg_", "information_schema")):
        return (f"table function {schema}.{name}(): only functions of the business schema may be called "
                f"by schema (schema {schema!r} is not allowed); write it without the schema")
    return ""


def _rule_columns(tree: exp.Expr, policy: _Policy) -> str:
    if policy.dialect != "postgres":
        return ""  # SQLite has neither attribute notation nor PostgreSQL's system columns
    return column_problem(tree, policy.columns)


def _rule_types(tree: exp.Expr, policy: _Policy) -> str:
    for node in tree.find_all(exp.DataType):
        text = node.sql(dialect=policy.dialect).lower()
        if text.startswith(_DENIED_TYPE_PREFIXES):
            return f"casting to {text} is not allowed (it inspects database objects)"
    return ""


def _kind(node: exp.Expr) -> str:
    if isinstance(node, exp.Command):
        return f"the command {str(node.this).upper()}"
    names = {
        "Into": "SELECT INTO",
        "Lock": "FOR UPDATE/SHARE",
        "Semicolon": "an empty statement",
        "ObjectIdentifier": "a cast to an object identifier type (regclass, oid, ...)",
    }
    return names.get(
        type(node).__name__, type(node).__name__.upper()
    )


Rule = Callable[[exp.Expr, _Policy], str]
RULES: tuple[Rule, ...] = (_rule_root, _rule_nodes, _rule_functions, _rule_tables, _rule_columns, _rule_types)

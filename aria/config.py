"""Aria's settings: one typed object, read from ``ARIA_*`` environment variables and an optional
``aria.toml``. Nothing else in Aria reads the environment.

Every setting has a default and a help text; the README's settings table is generated from this
class (``aria config docs``) and a test fails when the two drift apart.
"""

from __future__ import annotations

import difflib
import os
import tomllib
import typing
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

import annotated_types
import platformdirs
from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from aria.errors import ConfigError

CONFIG_FILE_ENV = "ARIA_CONFIG"
DEFAULT_CONFIG_FILE = "aria.toml"
DEBUG_ENV = "ARIA_DEBUG"
WEIGHTS = ("w_c", "w_g", "w_j", "w_q")
# Never echoed in an error message: URLs carry passwords.
SECRET_FIELDS = frozenset({"database_url", "reader_url", "kb_url", "anthropic_api_key", "openai_api_key",
                           "oidc_client_secret"})


def is_utf8(text: str) -> bool:
    """False when ``text`` holds lone surrogates (how Python keeps bytes that were not UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _default_home() -> Path:
    return Path(platformdirs.user_data_dir("aria", appauthor=False))


def _default_bench_dir() -> Path:
    return Path("../shared/bench")


def config_file_path() -> Path:
    """The TOML file settings are read from and the Settings page writes to."""
    value = os.environ.get(CONFIG_FILE_ENV, DEFAULT_CONFIG_FILE)
    if not value.strip():
        raise ConfigError(f"{CONFIG_FILE_ENV} is empty.", hint=f"Unset it (./{DEFAULT_CONFIG_FILE}) or name a file.")
    return Path(value)


def debug_requested() -> bool:
    """``ARIA_DEBUG=1``: the CLI shows the traceback of an unexpected error instead of one line."""
    return os.environ.get(DEBUG_ENV, "").strip().lower() in ("1", "true", "yes", "on")


class _TomlSource(TomlConfigSettingsSource):
    """The TOML source, with a broken file reported as one line naming the file (a ConfigError)."""

    def _read_file(self, file_path: Any) -> dict[str, Any]:
        try:
            return super()._read_file(file_path)
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{file_path} is not valid TOML: {err}.", hint="Fix or delete the file.") from None
        except UnicodeDecodeError as err:
            raise ConfigError(
                f"{file_path} is not UTF-8 text (byte {err.object[err.start]:#04x} at offset {err.start}).",
                hint="Fix or delete the file.",
            ) from None
        except OSError as err:
            raise ConfigError(f"Cannot read {file_path}: {err.strerror}.", hint=f"Fix {CONFIG_FILE_ENV}.") from None


class Settings(BaseSettings):
    """All of Aria's knobs. Environment variable = ``ARIA_`` + the field name in upper case."""

    model_config = SettingsConfigDict(
        env_prefix="ARIA_", extra="forbid", validate_default=True, validate_by_name=True, allow_inf_nan=False
    )

    # --- where things live -------------------------------------------------------------------
    home: Path = Field(
        default_factory=_default_home,
        description="Aria's data dir: the embedded PostgreSQL, caches, logs. Keep it short "
        "(the server's socket path must stay under ~100 characters).",
    )
    database_url: str | None = Field(
        default=None,
        description="PostgreSQL URL of the restaurant's database (admin rights for seeding and role set-up). "
        "Unset: the embedded server in ARIA_HOME.",
    )
    reader_url: str | None = Field(
        default=None,
        description="PostgreSQL URL that generated SQL runs under (a read-only role, or a read replica). "
        "Unset: the database URL, logged in as the read-only role `reader_role`.",
    )
    kb_url: str | None = Field(
        default=None,
        description="PostgreSQL URL (with pgvector) of the knowledge base. Unset: the database URL.",
    )
    business_schema: str = Field(
        default="restaurant", min_length=1, max_length=63, description="Schema holding the business tables."
    )
    kb_schema: str = Field(
        default="aria_kb", min_length=1, max_length=63,
        description="Schema holding the knowledge base and query log.",
    )
    semantic_schema: str = Field(
        default="aria_semantic", min_length=1, max_length=63,
        description="Schema holding the semantic layer's time spine.",
    )
    reader_role: str = Field(
        default="aria_reader", min_length=1, max_length=63,
        description="Read-only role created for generated SQL (SELECT on business tables).",
    )
    timezone: str = Field(default="Asia/Ho_Chi_Minh", min_length=1, description="The restaurant's time zone.")
    bench_dir: Path = Field(
        default_factory=_default_bench_dir, description="Folder of the public benchmark data (Spider, BIRD)."
    )

    # --- models --------------------------------------------------------------------------------
    llm: str | None = Field(
        default=None,
        description="Generator model spec: anthropic:<model>, openai:<model>, ollama:<model>, "
        "openai-compatible:<model>@<base_url>, or scripted:<file.json> (tests/demos). Unset: no model.",
    )
    judge_llm: str | None = Field(
        default=None, description="Judge model spec (same forms as ARIA_LLM). Unset: the generator's spec."
    )
    llm_timeout_s: float = Field(default=60.0, gt=0, le=3600, description="Per-call model timeout, seconds.")
    llm_max_retries: int = Field(
        default=3, ge=0, le=10, description="Retries on model timeouts, 429 and 5xx (with backoff)."
    )
    llm_backoff_s: float = Field(
        default=0.5, ge=0, le=60,
        description="First retry delay, seconds; doubles on each retry (plus jitter).",
    )
    llm_backoff_max_s: float = Field(
        default=8.0, ge=0, le=600, description="Longest delay between model retries, seconds."
    )
    anthropic_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("ARIA_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"),
        description="API key for anthropic:<model> specs (also read from ANTHROPIC_API_KEY).",
    )
    openai_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("ARIA_OPENAI_API_KEY", "OPENAI_API_KEY"),
        description="API key for openai:<model> specs, and for openai-compatible servers that need one "
        "(also read from OPENAI_API_KEY).",
    )
    embedding_model: str = Field(
        default="all-MiniLM-L6-v2", min_length=1,
        description="Embedding model of the knowledge base: all-MiniLM-L6-v2 (bundled, offline), a local "
        "sentence-transformers folder, or a LangChain embedding as provider:model "
        "(openai:text-embedding-3-small, ollama:nomic-embed-text). A KB embedded by another model is "
        "re-embedded when it is next opened or built.",
    )

    # --- Reflect-SQL hyperparameters (paper defaults) -------------------------------------------
    theta_r: float = Field(default=4.0, ge=0, le=10, description="Retrieval threshold θ_r on Score_r (0-10).")
    theta_s: float = Field(default=5.0, ge=0, le=10, description="SQL threshold θ_s on S (0-10).")
    theta_e: float = Field(default=3.0, ge=0, le=5, description="Entailment threshold θ_e on E (0-5).")
    alpha: float = Field(
        default=0.6, ge=0, le=1, description="α: weight of relevance R in Score_r = αR + (1−α)C."
    )
    beta: float = Field(
        default=0.2, ge=0, le=1, description="β: weight of E_schema in E = βE_schema + (1−β)E_data."
    )
    w_c: float = Field(default=0.1, ge=0, le=1, description="w_c: weight of column consistency in S.")
    w_g: float = Field(default=0.3, ge=0, le=1, description="w_g: weight of granularity consistency in S.")
    w_j: float = Field(default=0.4, ge=0, le=1, description="w_j: weight of join consistency in S.")
    w_q: float = Field(default=0.2, ge=0, le=1, description="w_q: weight of logic (query) consistency in S.")

    # --- loop limits and retrieval sizes ------------------------------------------------------------
    max_retrieval_iterations: int = Field(default=3, ge=1, le=10, description="Loop 1 iteration limit.")
    max_synthesis_iterations: int = Field(
        default=3, ge=1, le=10, description="Loop 2 limit on semantic regenerations."
    )
    max_syntax_repairs: int = Field(
        default=3, ge=0, le=10, description="Loop 2 limit on syntax repairs per SQL."
    )
    max_entailment_iterations: int = Field(
        default=2, ge=1, le=10, description="Loop 3 limit: how often a failed entailment returns to Loop 1."
    )
    top_k_tables: int = Field(
        default=3, ge=1, le=100, description="k: tables retrieved by the first retrieval step."
    )
    top_m_columns: int = Field(
        default=16, ge=1, le=500,
        description="m: most columns the second step retrieves from one table (the column token budget decides how "
                    "many; with the budget at 0, exactly m per table).",
    )
    k_step: int = Field(default=2, ge=0, le=100, description="How much a retrieval rewrite raises k.")
    m_step: int = Field(default=4, ge=0, le=500, description="How much a retrieval rewrite raises m.")
    column_token_budget: int = Field(
        default=200, ge=0, le=100_000,
        description="Tokens (cl100k) the retrieved columns of a question may fill, best-scored first across the "
                    "chosen tables (at most m per table; beyond each table's best one as name and type only); "
                    "named, matched, glossary and key columns come on top, in full. 0: m columns per table.",
    )
    budget_step: int = Field(default=200, ge=0, le=100_000,
                             description="How much a retrieval rewrite raises the column token budget.")
    full_schema_token_budget: int = Field(
        default=2500, ge=0, le=1_000_000,
        description="Pass the whole schema when it fits in this many tokens (cl100k).",
    )
    reuse_min_similarity: float = Field(
        default=0.50, ge=0, le=1,
        description="Cosine similarity a verified question needs to be a reuse candidate "
        "(it is reused only if the new question fills exactly its template).",
    )

    # --- execution limits -------------------------------------------------------------------------
    statement_timeout_ms: int = Field(
        default=15000, ge=1, le=3_600_000,
        description="Server-side statement timeout of the read-only role, ms.",
    )
    client_deadline_s: float = Field(
        default=20.0, gt=0, le=3600,
        description="Client-side deadline after which a query is cancelled, seconds.",
    )
    row_cap: int = Field(
        default=1000, ge=1, le=1_000_000, description="Most rows a query returns (applied by wrapping it)."
    )
    max_result_bytes: int = Field(
        default=10_000_000, ge=1000, le=1_000_000_000,
        description="Most bytes of values read back from one query; reading stops there and the result is marked "
        "truncated.",
    )
    max_value_chars: int = Field(
        default=2000, ge=10, le=1_000_000,
        description="Longest value (characters) read back, shown or sent to a model; longer values are cut on the "
        "server and marked.",
    )
    work_mem_mb: int = Field(
        default=32, ge=1, le=4096,
        description="Memory each sort or hash of a query may use before spilling to disk, MB (SET LOCAL work_mem, "
        "and the read-only role's default).",
    )
    temp_file_limit_mb: int = Field(
        default=1024, ge=1, le=1_000_000,
        description="Most temporary disk one query may use, MB (the read-only role's temp_file_limit, set by the "
        "admin; the executor refuses to run where it is missing or higher).",
    )
    max_plan_cost: float = Field(
        default=5e6, gt=0, le=1e12, description="Cost guard: largest EXPLAIN total cost allowed."
    )
    max_plan_rows: float = Field(
        default=5e7, gt=0, le=1e12, description="Cost guard: largest EXPLAIN row estimate allowed."
    )
    pool_max_size: int = Field(
        default=10, ge=1, le=100, description="Largest number of pooled database connections."
    )
    connect_timeout_s: int = Field(
        default=5, ge=1, le=300, description="Seconds to wait when connecting to a database."
    )
    eval_timeout_s: float = Field(
        default=30.0, gt=0, le=3600,
        description="Evaluation: deadline of each predicted or gold query, seconds (BIRD uses 30).",
    )

    # --- user interface ---------------------------------------------------------------------------
    ui_language: Literal["vi", "en"] = Field(default="vi", description="Language of the UI: vi or en.")
    reports_dir: Path = Field(
        default=Path("out"),
        description="Folder the Evaluation page reads: evaluation runs (`aria eval --out` folders with "
        "summary.json) and retrieval reports (*retrieval*.json) anywhere beneath it.",
    )

    # --- sign-in (``aria users``; README "Sharing Aria on your network") -----------------------------
    auth: Literal["none", "local", "oidc", "both"] = Field(
        default="none",
        description="How people sign in: none (loopback only), local (accounts made with `aria users add`), "
        "oidc (an OpenID Connect provider through Streamlit's st.login), or both.",
    )
    oidc_server_metadata_url: str | None = Field(
        default=None,
        description="OpenID Connect discovery URL of the provider "
        "(https://accounts.google.com/.well-known/openid-configuration, a Keycloak or Auth0 realm's ...).",
    )
    oidc_client_id: str | None = Field(default=None, description="OpenID Connect client id Aria is registered as.")
    oidc_client_secret: SecretStr | None = Field(
        default=None,
        description="OpenID Connect client secret (written only to ARIA_HOME/streamlit/secrets.toml, mode 600).",
    )
    oidc_redirect_uri: str | None = Field(
        default=None,
        description="Where the provider sends people back (ends in /oauth2callback; register it with the "
        "provider). Unset: http://localhost:{port}/oauth2callback.",
    )
    oidc_default_role: Literal["none", "viewer", "manager", "admin"] = Field(
        default="none",
        description="Role of a provider identity that `aria users add EMAIL --oidc` did not name; none refuses it.",
    )
    session_ttl_minutes: int = Field(
        default=480, ge=1, le=10_080, description="A sign-in lasts this many minutes; then sign in again."
    )
    sign_in_max_failures: int = Field(
        default=5, ge=1, le=100,
        description="Wrong passwords for one name, within the lockout time, before its sign-in is locked.",
    )
    sign_in_lockout_s: int = Field(
        default=300, ge=1, le=86_400,
        description="Seconds a name stays locked after too many wrong passwords (also the window they count in).",
    )

    @field_validator("*", mode="before")
    @classmethod
    def _text_is_utf8(cls, value: Any) -> Any:
        """Refuse text with lone surrogates (bytes that were not UTF-8 in the environment or a file)."""
        if isinstance(value, str) and not is_utf8(value):
            raise ValueError("is not valid UTF-8")
        return value

    @field_validator("home", mode="before")
    @classmethod
    def _home_not_empty(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise ValueError("is empty; unset it for the per-user data dir, or name a folder")
        return value

    @field_validator("home")
    @classmethod
    def _home_absolute(cls, value: Path) -> Path:
        return value.expanduser().absolute()

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ValueError, KeyError, OSError) as err:  # ZoneInfoNotFoundError is a KeyError
            raise ValueError("is not a time zone; use an IANA name like Asia/Ho_Chi_Minh") from err
        return value

    @model_validator(mode="after")
    def _weights_sum_to_one(self) -> Settings:
        total = self.w_c + self.w_g + self.w_j + self.w_q
        if abs(total - 1.0) > 1e-6:
            terms = " + ".join(f"{getattr(self, n):g}" for n in WEIGHTS)
            raise ValueError(
                f"{' + '.join(map(env_name, WEIGHTS))} (aria.toml keys {', '.join(WEIGHTS)}) must sum to 1; "
                f"they sum to {total:.4g} ({terms})"
            )
        return self

    @property
    def judge_spec(self) -> str | None:
        return self.judge_llm or self.llm

    @property
    def pg_dir(self) -> Path:
        """The embedded PostgreSQL data dir."""
        return self.home / "pg"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = _TomlSource(settings_cls, toml_file=config_file_path())
        return init_settings, env_settings, toml


def env_name(field: str) -> str:
    return f"ARIA_{field.upper()}"


def set_by_environment(names: list[str]) -> list[str]:
    """Which of these settings an ``ARIA_*`` environment variable sets (it wins over aria.toml)."""
    return [name for name in names if env_name(name) in os.environ]


def settings_table_markdown() -> str:
    """The README's settings table, one row per setting."""
    rows = ["| Variable | Default | What it does |", "|---|---|---|"]
    for name, field in Settings.model_fields.items():
        default: Any = field.default
        if field.default_factory is not None:
            default = {"home": "per-user data dir", "bench_dir": "../shared/bench"}.get(name, "")
        shown = "unset" if default is None else f"`{default}`"
        rows.append(f"| `{env_name(name)}` | {shown} | {field.description} |")
    return "\n".join(rows)


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def allowed_values(name: str) -> str:
    """What a setting accepts, in words: ``allowed_values("row_cap") == "a whole number from 1 to 1000000"``."""
    field = Settings.model_fields[name]
    args = [a for a in typing.get_args(field.annotation) if a is not type(None)] or [field.annotation]
    if typing.get_origin(field.annotation) is Literal:
        return "one of " + ", ".join(map(str, args))
    kind = {int: "a whole number", float: "a number", Path: "a path"}.get(args[0], "text")
    if any(isinstance(m, annotated_types.MinLen) for m in field.metadata):
        kind = f"non-empty {kind}"
    ge = next((m.ge for m in field.metadata if isinstance(m, annotated_types.Ge)), None)
    le = next((m.le for m in field.metadata if isinstance(m, annotated_types.Le)), None)
    if ge is not None and le is not None:
        return f"{kind} from {_number(ge)} to {_number(le)}"  # type: ignore[arg-type]
    parts = [_BOUND_WORDS[type(m)].format(_number(getattr(m, _BOUND_ATTR[type(m)])))
             for m in field.metadata if type(m) in _BOUND_WORDS]
    return " and ".join([f"{kind} {parts[0]}", *parts[1:]]) if parts else kind


_BOUND_WORDS: dict[type, str] = {
    annotated_types.Ge: "at least {}", annotated_types.Gt: "above {}", annotated_types.Le: "at most {}",
    annotated_types.Lt: "below {}", annotated_types.MaxLen: "of at most {} characters",
}
_BOUND_ATTR: dict[type, str] = {
    annotated_types.Ge: "ge", annotated_types.Gt: "gt", annotated_types.Le: "le", annotated_types.Lt: "lt",
    annotated_types.MaxLen: "max_length",
}


def _shown(value: Any) -> str:
    """A setting's value, printable (bytes that were not UTF-8 as \\xNN) and short."""
    text = value if isinstance(value, str) else repr(value)
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    text = text if len(text) <= 60 else text[:57] + "..."
    return text if text.strip() else f'"{text}"'


def _where(name: str, value: Any) -> tuple[str, str]:
    """Where a bad value came from (``ARIA_ROW_CAP=-1``) and the other place it could be set."""
    names = [env_name(name)] + (["ANTHROPIC_API_KEY"] if name == "anthropic_api_key" else []) + (
        ["OPENAI_API_KEY"] if name == "openai_api_key" else [])
    var = next((v for v in names if v in os.environ), None)
    shown = "=..." if name in SECRET_FIELDS else f"={_shown(value)}"
    if var is not None:
        return f"{var}{shown}", f"aria.toml key {name}"
    return f"{name}{shown.replace('=', ' = ', 1)} in {_config_file_name()}", f"or {env_name(name)}"


def _config_file_name() -> str:
    return os.environ.get(CONFIG_FILE_ENV) or DEFAULT_CONFIG_FILE


def settings_error_lines(err: ValidationError) -> list[str]:
    """One line per problem of a Settings ValidationError, naming the variable and what it accepts.

    e.g. ``ARIA_ROW_CAP=-1: must be a whole number from 1 to 1000000 (aria.toml key row_cap)``.
    """
    lines = []
    for problem in err.errors(include_url=False):
        loc = [str(part) for part in problem["loc"]]
        name = next((n for n in Settings.model_fields if loc and loc[0] in (n, env_name(n))), None)
        message = str(problem.get("ctx", {}).get("error", problem["msg"]))
        if problem["type"] == "extra_forbidden":
            key = loc[0] if loc else "?"
            close = difflib.get_close_matches(key.lower().removeprefix("aria_"), list(Settings.model_fields), n=1)
            hint = f"; did you mean {close[0]}?" if close else "; `aria config docs` lists the settings"
            lines.append(f"unknown setting {_shown(key)} in {_config_file_name()}{hint}")
        elif name is None:
            lines.append(message)
        else:
            where, other = _where(name, problem.get("input"))
            what = message if problem["type"] == "value_error" else f"must be {allowed_values(name)}"
            lines.append(f"{where}: {what} ({other})")
    return lines


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings. Tests build their own ``Settings(...)`` instead."""
    return Settings()

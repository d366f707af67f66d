"""Roles and local accounts: who may do what, argon2 password hashes, and the wrong-password throttle.

Roles are ordered: ``viewer`` (ask, see answers and traces, their own history) < ``manager`` (also
confirm and reject answers, the SQL workbench, everyone's history, the KB and evaluation pages) <
``admin`` (also KB edits and undo, settings, users). A password is only ever kept as its argon2 hash;
it is never logged, and no message repeats it.

>>> allows("manager", "confirm"), allows("viewer", "confirm")
(True, False)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from aria.errors import AriaError
from aria.kb.users import Account, UserStore

log = logging.getLogger(__name__)

Role = Literal["viewer", "manager", "admin"]
ROLES: tuple[Role, ...] = ("viewer", "manager", "admin")
# The least role each action needs. Pages are actions too ("page:<file stem>").
ACTIONS: dict[str, Role] = {
    "ask": "viewer",
    "page:chat": "viewer",
    "page:history": "viewer",
    "confirm": "manager",
    "reject": "manager",
    "run_sql": "manager",
    "save_verified_query": "manager",
    "history_everyone": "manager",
    "page:sql_workbench": "manager",
    "page:knowledge_base": "manager",
    "page:evaluation": "manager",
    "kb_edit": "admin",
    "kb_undo": "admin",
    "page:settings": "admin",
    "users": "admin",
}
MIN_PASSWORD_CHARS = 8
_HASHER = PasswordHasher()
# A real hash, checked against when the name is unknown, so both cases take the same time.
_DUMMY_HASH = _HASHER.hash("aria: not a password")


class SignInRefused(AriaError):
    """A sign-in failed: wrong name or password, a disabled account, or too many wrong passwords."""


class Forbidden(AriaError):
    """The signed-in person's role does not allow this action."""


@dataclass(frozen=True)
class User:
    """The person a request acts for. ``method``: local, oidc, or loopback (no sign-in configured)."""

    name: str
    role: Role
    method: Literal["local", "oidc", "loopback"] = "local"


LOCAL_OPERATOR = User(name="local", role="admin", method="loopback")


def allows(role: str, action: str) -> bool:
    """True when ``role`` may do ``action`` (an unknown action or role is refused)."""
    need = ACTIONS.get(action)
    return need is not None and role in ROLES and ROLES.index(role) >= ROLES.index(need)  # type: ignore[arg-type]


def require(user: User | None, action: str) -> User:
    """``user`` when their role allows ``action``; raises :class:`Forbidden` otherwise (or when nobody is signed in)."""
    if user is None:
        raise Forbidden("Sign in first.")
    if not allows(user.role, action):
        need = ACTIONS.get(action, "admin")
        raise Forbidden(f"{user.name} ({user.role}) may not do this: it needs the {need} role.",
                        hint="Ask an admin to change your role with `aria users role`.")
    return user


def hash_password(password: str) -> str:
    if len(password) < MIN_PASSWORD_CHARS:
        raise AriaError(f"A password needs at least {MIN_PASSWORD_CHARS} characters.", hint="Choose a longer one.")
    return _HASHER.hash(password)


def check_role(role: str) -> Role:
    if role not in ROLES:
        raise AriaError(f"Unknown role {role!r}.", hint="Use one of: " + ", ".join(ROLES) + ".")
    return role  # type: ignore[return-value]


def check_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > 200 or any(ch.isspace() and ch != " " for ch in name):
        raise AriaError("A name is 1 to 200 characters, with no tabs or line breaks.", hint="Choose another name.")
    return name


def add_user(store: UserStore, name: str, role: str, password: str | None) -> Account:
    """A new account; ``password`` None makes an identity that signs in only through the OIDC provider."""
    name, checked = check_name(name), check_role(role)
    store.ensure_schema()
    store.add(name, checked, hash_password(password) if password is not None else None)
    log.info("account %s added with role %s", name, checked)
    return store.get(name)  # type: ignore[return-value]


def set_password(store: UserStore, name: str, password: str) -> None:
    if not store.set_password_hash(name, hash_password(password)):
        raise AriaError(f"No account named {name!r}.", hint="List them with `aria users list`.")
    store.clear_failures(name)
    log.info("password of %s changed", name)


def sign_in(store: UserStore, name: str, password: str, *, max_failures: int, lockout_s: int,
            now: datetime | None = None) -> User:
    """The user for a right name and password. Raises :class:`SignInRefused` for a wrong one (counted), an
    account with no password or disabled, and while the name is locked after ``max_failures`` wrong ones."""
    now = now or datetime.now(UTC)
    failures, latest = store.recent_failures(name, lockout_s)
    if failures >= max_failures and latest is not None:
        wait = max(1, int((latest + timedelta(seconds=lockout_s) - now).total_seconds()))
        raise SignInRefused(f"Too many wrong passwords for {name!r}.", hint=f"Try again in {_duration(wait)}.")
    account = store.get(name)
    stored = store.password_hash(name) if account is not None else None
    if not _verify(stored or _DUMMY_HASH, password) or account is None or stored is None:
        store.record_failure(name)
        log.warning("wrong name or password for %r", name)
        raise SignInRefused("Wrong name or password.", hint="Check both and try again.")
    if account.disabled:
        log.warning("sign-in refused: %r is disabled", name)
        raise SignInRefused(f"The account {name!r} is disabled.", hint="Ask an admin.")
    store.clear_failures(name)
    if _HASHER.check_needs_rehash(stored):
        store.set_password_hash(name, _HASHER.hash(password))
    return User(name=account.name, role=check_role(account.role), method="local")


def active_user(store: UserStore, user: User) -> User | None:
    """``user`` as the store has them now (role changes take effect), or None once disabled or removed.

    An OIDC identity with no account keeps its default role (it was checked at sign-in)."""
    account = store.get(user.name)
    if account is None:
        return user if user.method == "oidc" else None
    if account.disabled:
        return None
    return User(name=account.name, role=check_role(account.role), method=user.method)


def oidc_user(store: UserStore, identity: str, default_role: str) -> User:
    """The user for an identity the provider vouched for: their account's role, else ``default_role``."""
    account = store.get(identity)
    if account is not None and account.disabled:
        raise SignInRefused(f"The account {identity!r} is disabled.", hint="Ask an admin.")
    if account is not None:
        return User(name=account.name, role=check_role(account.role), method="oidc")
    if default_role == "none":
        raise SignInRefused(f"{identity} has no Aria account.",
                            hint=f"Ask an admin to run `aria users add {identity} --role viewer --oidc`.")
    return User(name=identity, role=check_role(default_role), method="oidc")


def _verify(stored: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def _duration(seconds: int) -> str:
    return f"{seconds} s" if seconds < 120 else f"{round(seconds / 60)} minutes"

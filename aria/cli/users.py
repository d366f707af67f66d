"""``aria users add|list|passwd|disable|enable|role``: local accounts (the CLI acts as the local operator).

Passwords are prompted (twice, not echoed) and stored only as argon2 hashes.
"""

from __future__ import annotations

import typer

from aria.errors import AriaError

app = typer.Typer(help="Accounts that sign in to the shared app, and their roles.", no_args_is_help=True)


def _store():  # type: ignore[no-untyped-def]
    from aria.cli.common import settings, targets
    from aria.kb.users import UserStore

    return UserStore(targets().kb, settings())


def _password(prompt: str) -> str:
    return str(typer.prompt(prompt, hide_input=True, confirmation_prompt=True))


@app.command("add")
def add(
    name: str = typer.Argument(..., help="The name to sign in with (an e-mail address for --oidc)."),
    role: str = typer.Option(..., help="viewer, manager or admin."),
    oidc: bool = typer.Option(False, "--oidc", help="Signs in through the OpenID Connect provider: no password."),
) -> None:
    """Add an account (the password is prompted)."""
    from aria.kb.accounts import add_user, check_name, check_role

    check_name(name), check_role(role)  # before asking for a password
    password = None if oidc else _password(f"Password for {name}")
    account = add_user(_store(), name, role, password)
    how = "through the provider" if oidc else "with its password"
    typer.echo(f"Added {account.name} ({account.role}); it signs in {how}.")


@app.command("list")
def list_users() -> None:
    """Every account: name, role, how it signs in, and whether it is disabled."""
    accounts = _store().all()
    if not accounts:
        typer.echo("No accounts yet; add the first admin with `aria users add NAME --role admin`.")
    for account in accounts:
        how = "password" if account.has_password else "provider"
        state = "disabled" if account.disabled else "active"
        typer.echo(f"{account.name}\t{account.role}\t{how}\t{state}")


@app.command("passwd")
def passwd(name: str = typer.Argument(..., help="The account.")) -> None:
    """Set a new password (prompted); wrong-password counts for the name are cleared."""
    from aria.kb.accounts import set_password

    store = _store()
    if store.get(name) is None:
        raise AriaError(f"No account named {name!r}.", hint="List them with `aria users list`.")
    set_password(store, name, _password(f"New password for {name}"))
    typer.echo(f"Password of {name} changed.")


def _set_disabled(name: str, disabled: bool) -> None:
    if not _store().set_disabled(name, disabled):
        raise AriaError(f"No account named {name!r}.", hint="List them with `aria users list`.")
    typer.echo(f"{name} {'disabled: it can no longer sign in' if disabled else 'enabled'}.")


@app.command("disable")
def disable(name: str = typer.Argument(..., help="The account.")) -> None:
    """Stop an account from signing in (its open sessions end on their next click)."""
    _set_disabled(name, True)


@app.command("enable")
def enable(name: str = typer.Argument(..., help="The account.")) -> None:
    """Let a disabled account sign in again."""
    _set_disabled(name, False)


@app.command("role")
def role(name: str = typer.Argument(..., help="The account."),
         new_role: str = typer.Argument(..., help="viewer, manager or admin.")) -> None:
    """Change an account's role (it takes effect on the person's next click)."""
    from aria.kb.accounts import check_role

    if not _store().set_role(name, check_role(new_role)):
        raise AriaError(f"No account named {name!r}.", hint="List them with `aria users list`.")
    typer.echo(f"{name} is now {new_role}.")

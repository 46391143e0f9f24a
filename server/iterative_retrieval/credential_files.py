"""Credential files recognised by their content, whatever their name.

`workspace.is_secret` knows credential files by name (`.env`, `id_rsa`, `.kube/config`); the
same files turn up under other names (`deploy/k3s.yaml`, `registry.json`, `settings.xml` out of
`.m2/`, `terraform.tfstate.backup`). A data or text file whose content has the shape of one of
the formats below is secret too: the index skips it (reason `secret`) and the engine never
hands it out. Program source is not judged here: a key pasted into code is redacted
(`redact.py`), and a client library that parses kubeconfigs is code a task may need.

Each rule names the format it recognises, cheap literal needles that every such file contains
(most files are rejected by a substring test), and a check that confirms the shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

DATA_SUFFIXES = frozenset("""
    .json .yaml .yml .toml .ini .cfg .conf .config .xml .txt .properties .env .rc .csv
    .backup .bak .old .orig .save .tfstate .kubeconfig .netrc .cred .creds .credentials .secret
    .secrets .key .pem .token .auth .dockercfg
""".split())
"""Suffixes of data, configuration and text files (and their backups): what credential files
are written as. A name without a suffix (`config`, `.yarnrc`, `credentials/token`) is data too;
anything else is taken for program source or documentation. (Not the language tables: the
command line's warm path does not import them.)"""

SNIFF_CHARS = 262_144
"""Characters of a file the checks read: every format below states itself near its start."""


@dataclass(frozen=True)
class CredentialFormat:
    """One kind of credential file, as its tool writes it."""

    name: str
    needles: tuple[str, ...]
    """Literal strings every such file holds (all of them)."""
    confirm: Callable[[str], bool]
    """The shape, checked once every needle is there."""


def _rx(pattern: str, flags: int = re.M) -> Callable[[str], bool]:
    compiled = re.compile(pattern, flags)
    return lambda text: compiled.search(text) is not None


def _kubernetes_secret(text: str) -> bool:
    """`kind: Secret` with a `data:` (base64) or `stringData:` block holding a literal value."""
    lines = text.splitlines()
    if not any(re.fullmatch(r"kind:\s*Secret\s*", line) for line in lines):
        return False
    in_data = False
    for line in lines:
        if re.fullmatch(r"(?:data|stringData):\s*", line):
            in_data = True
        elif in_data and line[:1] not in (" ", "\t"):
            in_data = False
        elif in_data and re.fullmatch(r"\s+[\w.-]+:\s*['\"]?[^\s'\"{$<]{8,}['\"]?\s*", line):
            return True
    return False


FORMATS: tuple[CredentialFormat, ...] = (
    # kubectl's kubeconfig: clusters, users and a client key, token or password for a user
    CredentialFormat("kubeconfig", ("clusters:", "users:"), _rx(
        r"^\s*(?:client-key-data|token|password|id-token|refresh-token)\s*:\s*['\"]?[^\s'\"{$]{8,}")),
    # Docker's client config (~/.docker/config.json): registry logins under "auths"
    CredentialFormat("docker-config", ('"auths"',), _rx(
        r'"(?:auth|identitytoken|registrytoken)"\s*:\s*"[A-Za-z0-9+/=._-]{8,}"')),
    # Maven's settings.xml: <servers> with a literal <password> (not a ${property})
    CredentialFormat("maven-settings", ("<settings", "<password>"), _rx(
        r"<password>\s*[^<\s$][^<]{3,}</password>")),
    # Terraform state (and its .backup): every resource attribute, passwords included, in clear
    CredentialFormat("terraform-state", ('"terraform_version"', '"lineage"'), lambda text: True),
    # npm and Yarn rc files (.npmrc, .yarnrc, .yarnrc.yml): registry auth tokens and passwords
    CredentialFormat("npm-yarn-auth", ("_auth",), _rx(
        r"(?:^|[:\s\"'])_(?:authToken|auth|password)[\"']?\s*[=: ]\s*[\"']?[^\s\"'$]{8,}")),
    CredentialFormat("yarn-berry-auth", ("npmAuth",), _rx(
        r"^\s*npmAuth(?:Token|Ident)\s*:\s*[\"']?[^\s\"'$]{8,}")),
    # the AWS CLI's shared credentials file (~/.aws/credentials)
    CredentialFormat("aws-credentials", ("aws_secret_access_key",), _rx(
        r"^\s*aws_secret_access_key\s*=\s*\S{16,}")),
    # a Google Cloud service-account key (JSON)
    CredentialFormat("gcp-service-account", ('"service_account"', '"private_key"'), _rx(
        r'"private_key"\s*:\s*"-----BEGIN')),
    # a private key file (PEM: OpenSSL, OpenSSH, PKCS#8) under any name
    CredentialFormat("private-key", ("PRIVATE KEY-----",), _rx(
        r"\A\s*-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----", 0)),
    CredentialFormat("putty-private-key", ("PuTTY-User-Key-File-",), _rx(
        r"\APuTTY-User-Key-File-\d", 0)),
    # .netrc: machine, login and password tokens (whitespace or newlines between them)
    CredentialFormat("netrc", ("machine", "password"), _rx(
        r"(?:^|\s)machine\s+\S+\s+(?:login\s+\S+\s+)?password\s+\S", 0)),
    # a Kubernetes Secret manifest with literal values
    CredentialFormat("kubernetes-secret", ("kind:", "Secret"), _kubernetes_secret),
)


def is_data(name: str) -> bool:
    """Whether a file name is data or text (judged by content), not program source."""
    dot = name.rfind(".")
    return dot <= 0 or name[dot:].lower() in DATA_SUFFIXES


def credential_format(rel: str, text: str) -> str | None:
    """The credential-file format a data or text file's content has, or None."""
    if not is_data(rel.rpartition("/")[2]):
        return None
    head = text[:SNIFF_CHARS]
    for fmt in FORMATS:
        if all(n in head for n in fmt.needles) and fmt.confirm(head):
            return fmt.name
    return None

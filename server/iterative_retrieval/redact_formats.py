"""The credential formats redaction writes itself, as data: each names the format it covers.

Two tables. `TOKENS`: credentials whose own shape says what they are (a vendor prefix and a
fixed alphabet), masked wherever they occur. `CONTEXTS`: secrets that only their surroundings
give away (a connection string's `Password=`, curl's `-u user:pw`, an XML `<password>`), masked
when the value passes the rule's value check (`redact.value_ok`).

Formats that Yelp's detect-secrets recognises and these tables do not (Twilio, Discord,
Telegram, Square, IBM Cloud, Cloudant, SoftLayer, Artifactory, Azure storage account keys) are
left to it: it runs as a second stage on the lines that still hold a random-looking
token (`detectsecrets.py`). The rules here are written from the vendors' documented token
formats; none is copied from another project's rule file.

Every pattern is linear in the length of a line: bounded repetitions, no nested quantifiers
over the same characters, and a literal needle (lower-case) that every match contains, so a
rule runs only on the lines around its needles (`redact._sub_near`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TokenFormat:
    """A credential recognised by its own shape."""

    kind: str
    """What the mark says: `«redacted: KIND»`."""
    source: str
    """The format, as its vendor documents it."""
    needles: tuple[str, ...]
    """Literal strings, one of which every match contains (case as written)."""
    prefix: str
    """A regex of fixed width `width` that starts every match (the engine skips to it)."""
    width: int
    rest: str
    """The regex of the rest of the token."""

    def compile(self) -> re.Pattern[str]:
        # A prefix in the middle of a longer word is no start: look behind the prefix for a word
        # character, so that the long tail is not scanned for nothing (`eyJeyJeyJ…` stays linear).
        return re.compile(f"{self.prefix}(?<![A-Za-z0-9_]{'.' * self.width}){self.rest}")


TOKENS: tuple[TokenFormat, ...] = (
    TokenFormat("aws-access-key", "AWS access key id (AKIA/ASIA… + 16)",
                ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"),
                "A(?:KIA|SIA|BIA|CCA|GPA|IDA|ROA|NPA|NVA|IPA)", 4, r"[0-9A-Z]{16}\b"),
    TokenFormat("github-token", "GitHub classic, OAuth, user-to-server, server and refresh tokens",
                ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), "gh[pousr]_", 4,
                r"[A-Za-z0-9]{36,255}\b"),
    TokenFormat("github-token", "GitHub fine-grained personal access token", ("github_pat_",),
                "github_pat_", 11, r"[A-Za-z0-9_]{22,255}\b"),
    TokenFormat("gitlab-token", "GitLab personal, project and group access token", ("glpat-",),
                "glpat-", 6, r"[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])"),
    TokenFormat("slack-token", "Slack bot, user, app and refresh tokens (xoxb-, xoxp-…)",
                ("xox",), "xox[abposre]-", 5, r"[A-Za-z0-9-]{10,255}(?![A-Za-z0-9_-])"),
    TokenFormat("slack-webhook", "Slack incoming webhook URL", ("hooks.slack.com",),
                "https://hooks\\.slack\\.com/services/", 33, r"[A-Za-z0-9/_-]{20,128}"),
    TokenFormat("google-api-key", "Google API key (AIza + 35)", ("AIza",), "AIza", 4,
                r"[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
    TokenFormat("google-oauth-token", "Google OAuth 2.0 access token (ya29.)", ("ya29.",),
                "ya29\\.", 5, r"[0-9A-Za-z_-]{20,2048}"),
    TokenFormat("stripe-key", "Stripe secret and restricted keys (sk_/rk_, live and test)",
                ("sk_live_", "sk_test_", "rk_live_", "rk_test_"), "[sr]k_(?:live|test)_", 8,
                r"[0-9A-Za-z]{16,255}\b"),
    TokenFormat("openai-key", "OpenAI API key (sk-…T3BlbkFJ…)", ("T3BlbkFJ",), "sk-", 3,
                r"(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}"),
    TokenFormat("anthropic-key", "Anthropic API key (sk-ant-)", ("sk-ant-",), "sk-ant-", 7,
                r"[A-Za-z0-9_-]{32,255}"),
    TokenFormat("npm-token", "npm access token (npm_ + 36)", ("npm_",), "npm_", 4,
                r"[A-Za-z0-9]{36}\b"),
    TokenFormat("pypi-token", "PyPI API token (a macaroon for pypi.org)",
                ("pypi-AgEIcHlwaS5vcmc",), "pypi-AgEIcHlwaS5vcmc", 20, r"[A-Za-z0-9_-]{50,512}"),
    TokenFormat("sendgrid-key", "SendGrid API key (SG.22.43)", ("SG.",), "SG\\.", 3,
                r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"),
    TokenFormat("jwt", "JSON Web Token (three base64url parts, JSON header and payload)",
                ("eyJ",), "eyJ", 3,
                r"[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}"),
    TokenFormat("huggingface-token", "Hugging Face user access token (hf_ + 34)", ("hf_",),
                "hf_", 3, r"[A-Za-z0-9]{30,40}\b"),
    TokenFormat("digitalocean-token", "DigitalOcean personal, OAuth and refresh token",
                ("_v1_",), "do[por]_v1_", 7, r"[a-f0-9]{64}\b"),
    TokenFormat("doppler-token", "Doppler service, CLI, SCIM and audit tokens (dp.pt.…)",
                ("dp.",), "dp\\.", 3, r"(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b"),
    TokenFormat("postman-key", "Postman API key (PMAK-24-34)", ("PMAK-",), "PMAK-", 5,
                r"[a-f0-9]{24}-[a-f0-9]{34}\b"),
    TokenFormat("linear-key", "Linear personal API key (lin_api_ + 40)", ("lin_api_",),
                "lin_api_", 8, r"[A-Za-z0-9]{40}\b"),
    TokenFormat("grafana-token", "Grafana service account token (glsa_)", ("glsa_",),
                "glsa_", 5, r"[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b"),
    TokenFormat("grafana-token", "Grafana Cloud access policy token (glc_)", ("glc_",),
                "glc_", 4, r"[A-Za-z0-9+/]{32,400}={0,2}"),
    TokenFormat("dockerhub-token", "Docker Hub personal access token (dckr_pat_)",
                ("dckr_pat_",), "dckr_pat_", 9, r"[A-Za-z0-9_-]{27}(?![A-Za-z0-9_-])"),
    TokenFormat("newrelic-key", "New Relic user API key (NRAK-)", ("NRAK-",), "NRAK-", 5,
                r"[A-Z0-9]{27}\b"),
    TokenFormat("shopify-token", "Shopify access tokens (shpat_, shpca_, shppa_, shpss_)",
                ("shpat_", "shpca_", "shppa_", "shpss_"), "shp(?:at|ca|pa|ss)_", 6,
                r"[a-fA-F0-9]{32}\b"),
    TokenFormat("databricks-token", "Databricks personal access token (dapi + 32 hex)",
                ("dapi",), "dapi", 4, r"[a-f0-9]{32}(?:-\d)?\b"),
    TokenFormat("vault-token", "HashiCorp Vault service and batch tokens (hvs., hvb.)",
                ("hvs.", "hvb."), "hv[sb]\\.", 4, r"[A-Za-z0-9_-]{24,512}"),
    TokenFormat("age-key", "age secret key (AGE-SECRET-KEY-1, Bech32)", ("AGE-SECRET-KEY-1",),
                "AGE-SECRET-KEY-1", 16, r"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b"),
    TokenFormat("mailgun-key", "Mailgun private API key (key- + 32 hex)", ("key-",), "key-", 4,
                r"[a-f0-9]{32}\b"),
    # detect-secrets knows this one, but its second stage skips pure hex (hashes are everywhere)
    TokenFormat("mailchimp-key", "Mailchimp API key (32 hex + -usNN, the data centre)", ("-us",),
                "[0-9a-f]", 1, r"[0-9a-f]{31}-us[0-9]{1,2}\b"),
)


@dataclass(frozen=True)
class ContextRule:
    """A secret that its surroundings give away: the `value` groups of `pattern` are masked."""

    kind: str
    source: str
    """The syntax, named."""
    needles: tuple[str, ...]
    """Lower-case literal strings, one of which every match contains."""
    pattern: re.Pattern[str]
    check: str
    """How the value is judged (`redact.value_ok`): `password` — any value but placeholders,
    templates and short plain words; `random` — it must look random (a quoted literal);
    `bare` — random, and longer (an unquoted value)."""
    lines: int = 0
    """How many lines after a needle's line a match may reach (wrapped assignments)."""


# The value of a connection-string or query parameter: up to the next separator or quote.
_PARAM_VALUE = r"(?P<value>[^\s;&'\"<>]{3,256})"
# A name that says password, secret, token or key (as `redact._SECRET_WORD`, for the rules here).
_NAMEY = (r"[A-Za-z0-9_.-]{0,40}?(?:passw(?:or)?d|passphrase|pwd|secret|token|credentials?"
          r"|api[_-]?key|apikey|(?:access|account|auth|private|signing|encryption|master|client"
          r"|session)[_-]?key)[A-Za-z0-9_-]{0,40}")

CONTEXTS: tuple[ContextRule, ...] = (
    ContextRule("password", "JDBC and other URL query parameters (?user=…&password=…)",
                ("password=", "passwd=", "pwd="),
                re.compile(r"[?&;](?i:password|passwd|pwd)=" + _PARAM_VALUE), "password"),
    # ADO.NET, ODBC and OLE DB connection strings: `Password=` after a `;`, or first and
    # followed by one (a plain `password = x` in code is neither)
    ContextRule("password", "connection strings (ADO.NET, ODBC, OLE DB): …;Password=…",
                ("password", "pwd"), re.compile(
                    r";[ \t]{0,4}(?i:password|pwd)[ \t]{0,4}=[ \t]{0,4}"
                    r"(?P<value>[^;'\"\s]{3,256})"),
                "password"),
    ContextRule("password", "connection strings (ADO.NET, ODBC, OLE DB): Password=…;…",
                ("password", "pwd"), re.compile(
                    r"(?:^|['\"])[ \t]{0,4}(?i:password|pwd)[ \t]{0,4}=[ \t]{0,4}"
                    r"(?P<value>[^;'\"\s]{3,256});"),
                "password"),
    ContextRule("basic-auth", "HTTP Basic authentication (RFC 7617: Basic base64(user:password))",
                ("basic",),
                re.compile(r"\b[Bb]asic[ \t]{1,8}(?P<value>[A-Za-z0-9+/]{8,4096}={0,2})"),
                "basic"),
    ContextRule("password", "PHP define() of a password, key or salt (wp-config.php)",
                ("define",), re.compile(
                    r"\bdefine\(\s{0,8}['\"][A-Z0-9_]{0,40}(?:PASSWORD|PASS|SECRET|KEY|SALT|TOKEN)"
                    r"[A-Z0-9_]{0,40}['\"]\s{0,8},\s{0,8}['\"](?P<value>[^'\"\n]{4,256})['\"]"),
                "password"),
    ContextRule("password", "MySQL and MariaDB clients' -pPASSWORD option (no space)",
                ("mysql", "mariadb"), re.compile(
                    r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb)\b[^\n]{0,200}?\s-p"
                    r"(?P<q>['\"]?)(?P<value>[^\s'\"]{3,256})(?P=q)"),
                "password"),
    ContextRule("password", "command-line password options (--password=…, --password …)",
                ("--pass",), re.compile(
                    r"--(?:password|passwd)(?:=|[ \t]{1,4})(?P<q>['\"]?)(?P<value>[^\s'\"]{3,256})"
                    r"(?P=q)"),
                "password"),
    ContextRule("password", "curl's --user/-u USER:PASSWORD (and wget --http-password)",
                ("curl",), re.compile(
                    r"\bcurl\b[^\n]{0,200}?\s(?:-u|--user)[ \t]{1,4}(?P<q>['\"]?)[^\s:'\"]{1,128}:"
                    r"(?P<value>[^\s'\"]{3,256})(?P=q)"),
                "password"),
    ContextRule("password", "XML elements holding a password, secret or token (Maven, Tomcat)",
                ("pass", "secret", "token", "key>"), re.compile(
                    r"<(?P<tag>[A-Za-z_.-]{0,30}(?i:password|passwd|secret|token|apikey|api-key"
                    r"|privatekey))>\s{0,4}(?P<value>[^<\s][^<\n]{2,255})</(?P=tag)>"),
                "password"),
    ContextRule("password", "Python requests/httpx basic auth: auth=(user, password)",
                ("auth",), re.compile(
                    r"\bauth\s{0,4}=\s{0,4}\(\s{0,4}(?P<q1>['\"])[^'\"\n]{0,128}(?P=q1)\s{0,4},"
                    r"\s{0,4}(?P<q>['\"])(?P<value>[^'\"\n]{3,256})(?P=q)\s{0,4}\)"),
                "password"),
    ContextRule("password", "HTTP basic auth objects: HTTPBasicAuth('user', 'password')",
                ("basicauth",), re.compile(
                    r"BasicAuth\(\s{0,4}(?P<q1>['\"])[^'\"\n]{0,128}(?P=q1)\s{0,4},"
                    r"\s{0,4}(?P<q>['\"])(?P<value>[^'\"\n]{3,256})(?P=q)"),
                "password"),
    ContextRule("password", "netrc entries: machine … login … password …",
                ("password",), re.compile(
                    r"\bmachine[ \t]+\S{1,256}[ \t]+login[ \t]+\S{1,256}[ \t]+password[ \t]+"
                    r"(?P<value>[^\s'\"]{3,256})"),
                "password"),
    ContextRule("key", "HTTP headers that carry a key or token (X-API-Key:, Private-Token:)",
                ("key", "token"), re.compile(
                    r"\b(?i:x-)?(?i:api|auth|access|private|secret|session)-?(?i:key|token)"
                    r"\s{0,4}:\s{0,4}(?P<value>[A-Za-z0-9._~+/=-]{16,1024})"),
                "random"),
    ContextRule("signature", "Azure Storage shared access signature (sig= of a SAS URL)",
                ("sig=",), re.compile(r"[?&]sig=(?P<value>[A-Za-z0-9%+/=]{30,512})"), "random"),
    # Values on the line after their name (the `lines` field lets a match cross one line end).
    ContextRule("secret", "an assignment wrapped over two lines (Python parentheses, a backslash)",
                ("pass", "pwd", "secret", "token", "credential", "key"), re.compile(
                    rf"(?im)^[ \t]{{0,32}}(?:self\.)?{_NAMEY}[ \t]{{0,8}}[:=][ \t]{{0,8}}"
                    r"[(\\][ \t]*\n"
                    r"[ \t]{0,64}[rbuf]?(?P<q>['\"])(?P<value>[^'\"\\\s]{8,1024})(?P=q)[ \t]*[),]?"
                    r"[ \t]*$"),
                "random", lines=1),
    ContextRule("secret", "a YAML block scalar (folded > or literal |) under a secret-sounding key",
                ("pass", "pwd", "secret", "token", "credential", "key"), re.compile(
                    rf"(?im)^(?P<i>[ \t]{{0,32}}){_NAMEY}:[ \t]{{0,8}}[>|][-+]?[0-9]?[ \t]*\n"
                    r"(?P=i)[ \t]{1,16}(?P<value>\S{8,1024})[ \t]*$"),
                "bare", lines=1),
    ContextRule("secret", "an environment entry as a name/value pair (Kubernetes, Compose, ECS)",
                ("name:",), re.compile(
                    rf"(?im)^[ \t]{{0,32}}-[ \t]{{1,4}}name:[ \t]{{0,4}}['\"]?{_NAMEY}"
                    r"['\"]?[ \t]*\n"
                    r"[ \t]{0,36}value:[ \t]{0,4}(?P<q>['\"]?)(?P<value>[^\s'\"]{8,1024})(?P=q)"
                    r"[ \t]*$"),
                "bare", lines=1),
)

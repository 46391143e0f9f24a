"""A credential corpus, generated: planted secrets in many formats and look-alikes that are not.

Every value is drawn at run time from a seeded random generator, so no credential is stored in
the repository and the same seed always gives the same corpus. Each planted credential sits in a
file of its own, in the syntax where such a credential is found in real repositories (a settings
module, a shell script, a CI file, a connection string, a Kubernetes manifest...); some are whole
credential files under names no list knows, or reached through a symlink. The look-alikes are
the strings a redactor must leave alone: hashes as lock files and checksum lists hold them,
UUIDs, git SHAs, test vectors, base64 images, public keys, placeholders and long identifiers.

Every file is about a made-up topic word of its own (`zorvanel`), so one task ("… zorvanel …")
finds exactly that file, as a task about a settings module finds it in a real project.

tests/secrets_measure.py runs the retrieval for each file and checks every output.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import string
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
LETTERS = string.ascii_letters
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"



@dataclass
class Plant:
    """One planted credential: the file it is in and the secret parts that must never come out."""

    fmt: str
    rel: str
    text: str
    secrets: tuple[str, ...]
    task: str
    link: str | None = None
    """For a symlink plant: the target the link at `rel` points to (relative to the root)."""
    target_text: str = ""

    def __post_init__(self) -> None:
        if not self.secret_file:  # a secret file's path must not come out, not even as the task
            self.task = _naming(self.task, self.rel)

    @property
    def secret_file(self) -> bool:
        """A whole credential file (by link, folder or content): never handed out at all."""
        return self.fmt in FILE_FORMATS


@dataclass
class LookAlike:
    """A file of strings that look like credentials and are not: each must come out as it is."""

    category: str
    rel: str
    text: str
    values: tuple[str, ...]
    task: str

    def __post_init__(self) -> None:
        self.task = _naming(self.task, self.rel)


def _naming(task: str, rel: str) -> str:
    """The task names the file's path too: a file named in a task is handed out whole, so each
    value's line is in the regions (what the measure needs), whatever the file's kind."""
    return task if rel in task else f"{task} in {rel}"


@dataclass
class Corpus:
    plants: list[Plant] = field(default_factory=list)
    lookalikes: list[LookAlike] = field(default_factory=list)

    @property
    def formats(self) -> set[str]:
        return {p.fmt for p in self.plants}


# -- values ------------------------------------------------------------------------------------


def rand(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def mixed(r: random.Random, n: int, extra: str = "") -> str:
    """A random value with lower- and upper-case letters and digits spread through it."""
    while True:
        v = rand(r, ALNUM + extra, n)
        if (any(c.islower() for c in v) and any(c.isupper() for c in v)
                and sum(c.isdigit() for c in v[: n // 2]) >= 1
                and sum(c.isdigit() for c in v) >= 2):
            return v


def password(r: random.Random) -> str:
    """A password as a generator or a careful person makes one: 12-24 characters, mixed."""
    return mixed(r, r.randint(12, 24), extra="!#%*-_" if r.random() < 0.4 else "")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


SYLLABLES = ("zor", "va", "nel", "qui", "tra", "mo", "bex", "lin", "dra", "ku", "fen", "sal",
             "rho", "vik", "tam", "oru", "pex", "yul", "gan", "shi", "bro", "ceth", "ix", "wen")


def topics(r: random.Random, n: int) -> list[str]:
    """n distinct made-up words, one per file: a task naming one finds only its file."""
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        w = "".join(r.choice(SYLLABLES) for _ in range(3))
        if w not in seen and len(w) >= 7:
            seen.add(w)
            out.append(w)
    return out


# -- file wrappers: a credential line inside a small, ordinary file -------------------------


def wrap(rel: str, topic: str, line: str) -> str:  # noqa: C901 - one case per file kind
    """A small file of the kind `rel` names around `line` (which may span several lines)."""
    T = topic.capitalize()
    ext = os.path.splitext(rel)[1] or os.path.basename(rel)
    if ext == ".py":
        return (f'"""{T} service settings and client."""\n\nimport os\n\nimport requests\n\n'
                f"{line}\n\n\ndef {topic}_client(timeout=10):\n"
                f'    """Return a session for the {topic} service."""\n'
                f"    session = requests.Session()\n    session.headers['User-Agent'] = '{topic}'\n"
                f"    return session\n")
    if ext in (".sh", ".bash"):
        return (f"#!/usr/bin/env bash\n# Deploy the {topic} service.\nset -euo pipefail\n\n"
                f"{line}\n\necho \"deploying {topic}\"\n./scripts/{topic}-deploy --env prod\n")
    if ext in (".yaml", ".yml"):
        return (f"# {topic} service configuration\nname: {topic}\nreplicas: 2\n{line}\n"
                "log_level: info\n")
    if ext in (".js", ".ts"):
        return (f"// {T} API client.\nimport axios from 'axios';\n\n{line}\n\n"
                f"export function {topic}Client() {{\n  return axios.create({{ baseURL: "
                f"'https://{topic}.internal' }});\n}}\n")
    if ext == ".go":
        return (f"// Package {topic} talks to the {topic} service.\npackage {topic}\n\n"
                f"import \"net/http\"\n\n{line}\n\n"
                f"// NewClient returns an HTTP client for {topic}.\n"
                f"func NewClient() *http.Client {{\n\treturn &http.Client{{}}\n}}\n")
    if ext == ".json":
        return line + "\n"
    if ext in (".toml", ".ini", ".cfg", ".conf", ".properties", ".env"):
        return f"# {topic} settings\n{line}\n"
    if ext == ".xml":
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<!-- {topic} settings -->\n{line}\n'
    if ext == ".php":
        return f"<?php\n// {T} site configuration.\n{line}\n$table_prefix = '{topic}_';\n"
    if ext in (".java", ".kt"):
        return (f"package com.example.{topic};\n\n/** {T} client configuration. */\n"
                f"public class {T}Config {{\n{line}\n}}\n")
    if ext == ".cs":
        return (f"namespace Example.{T}\n{{\n    /// <summary>{T} settings.</summary>\n"
                f"    public static class {T}Settings\n    {{\n{line}\n    }}\n}}\n")
    if ext == ".rs":
        return f"//! {T} client.\n\n{line}\n\npub fn {topic}_client() -> u32 {{\n    42\n}}\n"
    if ext == ".rb":
        return f"# {T} client configuration.\n{T}.configure do |config|\n{line}\nend\n"
    if ext == ".tf":
        return f"# {topic} database\n{line}\n"
    if ext == ".md":
        return f"# {T}\n\nHow to reach the {topic} service.\n\n{line}\n"
    if os.path.basename(rel) == "Dockerfile":
        return (f"# {topic} image\nFROM python:3.12-slim\n{line}\n"
                f"CMD [\"python\", \"-m\", \"{topic}\"]\n")
    return f"{topic}\n{line}\n"


# -- the formats -------------------------------------------------------------------------------
# A format: (name, words a task about it uses, maker of (value, secret parts), contexts). A
# context is (path template, line template); {v} is the value, {s} its secret part, {t} the topic.

Maker = Callable[[random.Random], tuple[str, tuple[str, ...]]]


def _token(prefix: str, alphabet: str, n: int, suffix: str = "") -> Maker:
    def make(r: random.Random) -> tuple[str, tuple[str, ...]]:
        s = rand(r, alphabet, n)
        return prefix + s + suffix, (s,)
    return make


def _pw(r: random.Random) -> tuple[str, tuple[str, ...]]:
    p = password(r)
    return p, (p,)


def _mixed(n: int) -> Maker:
    def make(r: random.Random) -> tuple[str, tuple[str, ...]]:
        v = mixed(r, n)
        return v, (v,)
    return make


def _slack(r):
    s = mixed(r, 24)
    return f"xoxb-{rand(r, string.digits, 12)}-{rand(r, string.digits, 13)}-{s}", (s,)


def _slack_hook(r):
    s = mixed(r, 24)
    return f"https://hooks.slack.com/services/T{rand(r, UPPER, 8)}/B{rand(r, UPPER, 10)}/{s}", (s,)


def _openai(r):
    a, b = mixed(r, 40), mixed(r, 40)
    return f"sk-proj-{a}T3BlbkFJ{b}", (a, b)


def _anthropic(r):
    s = rand(r, B64URL, 93)
    return f"sk-ant-api03-{s}AA", (s,)


def _sendgrid(r):
    a, b = rand(r, B64URL, 22), rand(r, B64URL, 43)
    return f"SG.{a}.{b}", (a, b)


def _jwt(r):
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps({"sub": str(r.randint(10**8, 10**9)), "name": "svc",
                                 "iat": r.randint(1_600_000_000, 1_800_000_000)}).encode())
    sig = b64url(r.randbytes(32))
    return f"{header}.{payload}.{sig}", (payload[12:], sig)


def _discord(r):
    ident = b64url(str(r.randint(10**17, 10**18)).encode())
    a, b = rand(r, B64URL, 6), rand(r, B64URL, 38)
    return f"{ident}.{a}.{b}", (b,)


def _telegram(r):
    s = rand(r, B64URL, 33)
    return f"{r.randint(10**8, 10**10)}:AA{s}", (s,)


def _postman(r):
    a, b = rand(r, HEX, 24), rand(r, HEX, 34)
    return f"PMAK-{a}-{b}", (a, b)


def _grafana(r):
    a = mixed(r, 32)
    return f"glsa_{a}_{rand(r, HEX, 8)}", (a,)


def _mailchimp(r):
    s = rand(r, HEX, 32)
    return f"{s}-us{r.randint(2, 21)}", (s,)


def _azure_key(r):
    s = b64(r.randbytes(64))
    return s, (s[:-2],)


def _azure_sas(r):
    sig = b64(r.randbytes(32))
    enc = sig.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    return enc, (sig[:-1].replace("+", "%2B").replace("/", "%2F")[:30],)


def _uuid(r):
    v = str(uuid.UUID(int=r.getrandbits(128), version=4))
    return v, (v,)


def _basic(r):
    pw = password(r)
    token = b64(f"deploy:{pw}".encode())
    return token, (token[8:],)


def _k8s_data(r):
    pw = password(r)
    v = b64(pw.encode())
    return v, (v, pw)


def _wg(r):
    v = b64(r.randbytes(32))
    return v, (v[:-1],)


def _pem_body(r, n_bytes: int) -> list[str]:
    body = b64(r.randbytes(n_bytes))
    return [body[i:i + 64] for i in range(0, len(body), 64)]


def _pem(label: str, n_bytes: int, lead: bytes = b"") -> Maker:
    def make(r):
        lines = _pem_body(r, n_bytes)
        if lead:
            head = b64(lead + r.randbytes(48 - len(lead)))
            lines[0] = head[:64]
        text = "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"])
        # every body line but the last (which may be short) is a secret part
        return text, tuple(line for line in lines[:-1] if len(line) >= 16)
    return make


def _pem_escaped(r):
    lines = _pem_body(r, 600)
    text = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(lines) + "\\n-----END PRIVATE KEY-----\\n"
    return text, tuple(lines[:-1])


def _age(r):
    s = rand(r, BECH32, 58)
    return f"AGE-SECRET-KEY-1{s}", (s,)


FORMATS: list[tuple[str, str, Maker, list[tuple[str, str]]]] = [
    ("aws-access-key-id", "aws access key", _token("AKIA", UPPER, 16), [
        ("src/{t}/settings.py", 'AWS_ACCESS_KEY_ID = "{v}"'),
        ("deploy/{t}.sh", "export AWS_ACCESS_KEY_ID={v}"),
        ("config/{t}.yaml", "aws:\n  access_key_id: {v}\n  region: eu-west-1"),
    ]),
    ("aws-secret-access-key", "aws secret access key", lambda r: (lambda v: (v, (v,)))(
        b64(r.randbytes(30))), [
        ("src/{t}/storage.py", 's3 = boto3.client(\n    "s3",\n    aws_access_key_id=KEY_ID,\n'
                               '    aws_secret_access_key="{v}",\n)'),
        ("config/{t}.yaml", "aws:\n  secret_access_key: {v}"),
        ("infra/{t}.tf", 'provider "aws" {{\n  region     = "eu-west-1"\n  secret_key = "{v}"\n}}'),
    ]),
    ("github-classic-pat", "github token", _token("ghp_", ALNUM, 36), [
        (".github/workflows/{t}.yml", "jobs:\n  release:\n    env:\n      GITHUB_TOKEN: {v}"),
        ("tools/{t}_release.py", 'gh = Github("{v}")'),
        ("scripts/{t}-mirror.sh", "git clone https://{v}@github.com/acme/{t}.git"),
    ]),
    ("github-fine-grained-pat", "github token", lambda r: (lambda a, b: (
        f"github_pat_{a}_{b}", (a, b)))(rand(r, ALNUM, 22), rand(r, ALNUM, 59)), [
        ("tools/{t}_sync.py", 'TOKEN = "{v}"'),
        ("scripts/{t}.sh", 'curl -H "Authorization: token {v}" https://api.github.com/user'),
    ]),
    ("github-oauth-token", "github oauth token", _token("gho_", ALNUM, 36), [
        ("src/{t}/oauth.js", "const session = {{ provider: 'github', accessToken: '{v}' }};"),
        ("config/{t}.json", '{{"github": {{"oauth_token": "{v}"}}}}'),
    ]),
    ("gitlab-pat", "gitlab token", _token("glpat-", B64URL, 20), [
        (".gitlab/{t}.yml", "variables:\n  GITLAB_TOKEN: {v}"),
        ("tools/{t}_mr.py", 'gl = gitlab.Gitlab("https://gitlab.com", private_token="{v}")'),
    ]),
    ("slack-bot-token", "slack bot token", _slack, [
        ("src/{t}/notify.py", 'client = WebClient(token="{v}")'),
        ("config/{t}.yaml", "slack:\n  bot_token: {v}"),
        ("src/{t}/alerts.js", "const slack = new WebClient('{v}');"),
    ]),
    ("slack-webhook", "slack webhook", _slack_hook, [
        ("src/{t}/notify.py", 'WEBHOOK = "{v}"'),
        ("deploy/{t}.sh", 'curl -X POST -d "{{\\"text\\": \\"deployed\\"}}" {v}'),
    ]),
    ("google-api-key", "google maps api key", _token("AIza", B64URL, 35), [
        ("web/{t}/maps.js", "const map = loadMaps({{ key: '{v}' }});"),
        ("web/{t}/index.md", '<script src="https://maps.googleapis.com/maps/api/js?key={v}"></script>'),
    ]),
    ("google-oauth-access-token", "google access token", _token("ya29.", B64URL, 120), [
        ("tools/{t}_drive.py", 'creds = Credentials("{v}")'),
        ("scripts/{t}.sh", 'curl -H "Authorization: Bearer {v}" https://www.googleapis.com/drive/v3/files'),
    ]),
    ("stripe-secret-key", "stripe secret key", _token("sk_live_", ALNUM, 99), [
        ("src/{t}/billing.py", "stripe.api_key = '{v}'"),
        ("deploy/{t}-env.sh", "STRIPE_SECRET_KEY={v}"),
        ("src/{t}/charge.rb", "  config.stripe_key = '{v}'"),
    ]),
    ("stripe-restricted-key", "stripe restricted key", _token("rk_live_", ALNUM, 99), [
        ("src/{t}/billing.go", 'var stripeKey = "{v}"'),
        ("src/{t}/refunds.ts", "stripe.setApiKey('{v}');"),
    ]),
    ("openai-api-key", "openai api key", _openai, [
        ("src/{t}/llm.py", 'client = OpenAI(api_key="{v}")'),
        ("src/{t}/chat.ts", "const openai = new OpenAI({{ apiKey: '{v}' }});"),
    ]),
    ("anthropic-api-key", "anthropic api key", _anthropic, [
        ("src/{t}/assistant.py", 'client = anthropic.Anthropic(api_key="{v}")'),
        ("deploy/{t}.sh", "export ANTHROPIC_API_KEY={v}"),
    ]),
    ("npm-token", "npm publish token", _token("npm_", ALNUM, 36), [
        (".github/workflows/{t}-publish.yml", "env:\n  NODE_AUTH_TOKEN: {v}"),
        ("scripts/{t}-publish.sh", 'npm config set //registry.npmjs.org/:_authToken "{v}"'),
    ]),
    ("pypi-token", "pypi upload token", _token("pypi-AgEIcHlwaS5vcmc", B64URL, 80), [
        ("scripts/{t}-upload.sh", "twine upload -u __token__ -p {v} dist/*"),
        (".github/workflows/{t}-pypi.yml", "env:\n  TWINE_PASSWORD: {v}"),
    ]),
    ("sendgrid-key", "sendgrid mail key", _sendgrid, [
        ("src/{t}/mailer.py", 'sg = SendGridAPIClient("{v}")'),
        ("config/{t}.yaml", "mail:\n  sendgrid_api_key: {v}"),
    ]),
    ("jwt", "jwt session token", _jwt, [
        ("tests_data/{t}_session.py", 'SESSION = "{v}"'),
        ("scripts/{t}.sh", 'curl -H "Authorization: Bearer {v}" https://{t}.internal/api'),
        ("docs/{t}.md", "Call it with the service token:\n\n    X-Auth: {v}"),
    ]),
    ("huggingface-token", "hugging face token", _token("hf_", LETTERS, 34), [
        ("src/{t}/models.py", 'login("{v}")'),
        ("src/{t}/hub.py", 'api = HfApi(endpoint, "{v}")'),
        ("scripts/{t}.sh", "huggingface-cli login --token {v}"),
    ]),
    ("twilio-api-key", "twilio api key", _token("SK", HEX, 32), [
        ("src/{t}/sms.py", 'client = Client("{v}", api_secret, account_sid)'),
        ("config/{t}.yaml", "twilio:\n  api_key_sid: {v}"),
    ]),
    ("twilio-auth-token", "twilio auth token", lambda r: (lambda v: (v, (v,)))(rand(r, HEX, 32)), [
        ("src/{t}/sms.py", 'TWILIO_AUTH_TOKEN = "{v}"'),
        ("deploy/{t}-env.sh", "TWILIO_AUTH_TOKEN={v}"),
    ]),
    ("mailgun-key", "mailgun api key", _token("key-", HEX, 32), [
        ("src/{t}/mail.py", 'requests.post(url, auth=("api", "{v}"), data=msg)'),
        ("src/{t}/mail.js", "const mg = mailgun.client({{ username: 'api', key: '{v}' }});"),
    ]),
    ("mailchimp-key", "mailchimp api key", _mailchimp, [
        ("src/{t}/newsletter.py", 'mailchimp.set_config({{"api_key": "{v}", "server": "us6"}})'),
        ("config/{t}.ini", "[mailchimp]\napikey = {v}"),
    ]),
    ("discord-bot-token", "discord bot token", _discord, [
        ("src/{t}/bot.py", 'bot.run("{v}")'),
        ("config/{t}.json", '{{"discord": {{"token": "{v}"}}}}'),
    ]),
    ("telegram-bot-token", "telegram bot token", _telegram, [
        ("src/{t}/bot.py", 'app = ApplicationBuilder().token("{v}").build()'),
        ("scripts/{t}.sh", 'curl "https://api.telegram.org/bot{v}/getMe"'),
    ]),
    ("square-access-token", "square access token", _token("EAAA", B64URL, 60), [
        ("src/{t}/payments.py", 'client = Client(access_token="{v}", environment="production")'),
        ("config/{t}.yaml", "square:\n  access_token: {v}"),
    ]),
    ("shopify-token", "shopify admin token", _token("shpat_", HEX, 32), [
        ("src/{t}/shop.py", 'session = shopify.Session(shop_url, "2024-01", "{v}")'),
        ("deploy/{t}-env.sh", "SHOPIFY_ADMIN_TOKEN={v}"),
    ]),
    ("digitalocean-token", "digitalocean token", _token("dop_v1_", HEX, 64), [
        ("infra/{t}.tf", 'provider "digitalocean" {{\n  token = "{v}"\n}}'),
        ("scripts/{t}.sh", "doctl auth init --access-token {v}"),
    ]),
    ("databricks-token", "databricks token", _token("dapi", HEX, 32), [
        ("src/{t}/jobs.py", 'w = WorkspaceClient(host=HOST, token="{v}")'),
        ("config/{t}.cfg", "[DEFAULT]\nhost = https://adb-1.azuredatabricks.net\ntoken = {v}"),
    ]),
    ("vault-token", "vault token", _token("hvs.", B64URL, 90), [
        ("deploy/{t}.sh", "export VAULT_TOKEN={v}"),
        ("src/{t}/vault.py", 'client = hvac.Client(url=VAULT_URL, token="{v}")'),
    ]),
    ("doppler-token", "doppler token", _token("dp.pt.", ALNUM, 43), [
        ("deploy/{t}.sh", "doppler run --token {v} -- ./server"),
        ("config/{t}.yaml", "doppler:\n  service_token: {v}"),
    ]),
    ("postman-api-key", "postman api key", _postman, [
        ("scripts/{t}.sh", 'newman run collection.json --env-var "apiKey={v}"'),
        ("tools/{t}_collections.py", 'HEADERS = {{"X-Api-Key": "{v}"}}'),
    ]),
    ("linear-api-key", "linear api key", _token("lin_api_", ALNUM, 40), [
        ("tools/{t}_issues.py", 'client = LinearClient("{v}")'),
        ("config/{t}.json", '{{"linear": {{"apiKey": "{v}"}}}}'),
    ]),
    ("grafana-service-token", "grafana token", _grafana, [
        ("deploy/{t}.sh", 'curl -H "Authorization: Bearer {v}" https://grafana.internal/api/dashboards'),
        ("config/{t}.yaml", "grafana:\n  token: {v}"),
    ]),
    ("dockerhub-pat", "docker hub token", _token("dckr_pat_", B64URL, 27), [
        ("scripts/{t}-push.sh", 'echo "{v}" | docker login -u acme --password-stdin'),
        (".github/workflows/{t}-docker.yml", "env:\n  DOCKERHUB_TOKEN: {v}"),
    ]),
    ("newrelic-user-key", "new relic key", _token("NRAK-", UPPER, 27), [
        ("config/{t}.yaml", "newrelic:\n  api_key: {v}"),
        ("src/{t}/metrics.py", 'nerdgraph = NerdGraph("{v}")'),
    ]),
    ("azure-storage-account-key", "azure storage connection string", _azure_key, [
        ("src/{t}/blobs.py", 'CONN = "DefaultEndpointsProtocol=https;AccountName={t};'
                             'AccountKey={v};EndpointSuffix=core.windows.net"'),
        ("config/{t}.json", '{{"storage": "DefaultEndpointsProtocol=https;AccountName={t};'
                            'AccountKey={v};EndpointSuffix=core.windows.net"}}'),
    ]),
    ("azure-sas-signature", "azure sas url", _azure_sas, [
        ("src/{t}/export.py", 'SAS_URL = "https://{t}.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co'
                              '&sp=rl&se=2030-01-01T00:00:00Z&spr=https&sig={v}"'),
        ("scripts/{t}.sh",
         'azcopy copy "https://{t}.blob.core.windows.net/c?sp=r&se=2030-01-01&sig={v}" .'),
    ]),
    ("rsa-private-key", "rsa private key", _pem("RSA PRIVATE KEY", 900), [
        ("src/{t}/signing.py", 'SIGNING_KEY = """{v}"""'),
        ("config/{t}.yaml", "tls:\n  key: |\n{vi}"),
    ]),
    ("openssh-private-key", "ssh deploy key", _pem("OPENSSH PRIVATE KEY", 400,
                                                    lead=b"openssh-key-v1\0"), [
        ("deploy/{t}.sh", "cat > ~/.ssh/id_ed25519 <<'EOF'\n{v}\nEOF"),
        ("src/{t}/ssh.py", 'DEPLOY_KEY = """\n{v}\n"""'),
    ]),
    ("ec-private-key", "ec private key", _pem("EC PRIVATE KEY", 121), [
        ("src/{t}/tokens.go", "const signingKey = `{v}`"),
        ("config/{t}.yaml", "jwt:\n  private_key: |\n{vi}"),
    ]),
    ("pkcs8-private-key-escaped", "service account private key", _pem_escaped, [
        ("src/{t}/gcp.py", 'SERVICE_ACCOUNT = {{\n    "type": "service_account",\n'
                           '    "private_key": "{v}",\n'
                           '    "client_email": "svc@{t}.iam.gserviceaccount.com",\n}}'),
        ("src/{t}/firebase.js", "const serviceAccount = {{ privateKey: '{v}' }};"),
    ]),
    ("age-secret-key", "age encryption key", _age, [
        ("deploy/{t}.sh", "export SOPS_AGE_KEY={v}"),
        ("config/{t}.yaml", "sops:\n  age_key: {v}"),
    ]),
    ("heroku-api-key", "heroku api key", _uuid, [
        ("deploy/{t}.sh", "export HEROKU_API_KEY={v}"),
        ("config/{t}.yaml", "heroku:\n  api_key: {v}"),
    ]),
    ("url-password", "database url", _pw, [
        ("src/{t}/db.py", 'DATABASE_URL = "postgres://app:{v}@db.{t}.internal:5432/app"'),
        ("config/{t}.yaml", "broker_url: amqp://worker:{v}@rabbit.{t}.internal:5672/"),
        ("src/{t}/mongo.js", "const uri = 'mongodb+srv://reader:{v}@cluster0.{t}.mongodb.net/app';"),
    ]),
    ("url-password-empty-user", "redis url", _pw, [
        ("src/{t}/cache.py", 'REDIS_URL = "redis://:{v}@cache.{t}.internal:6379/0"'),
        ("config/{t}.yaml", "cache:\n  url: redis://:{v}@redis:6379/1"),
    ]),
    ("php-define-password", "wordpress database password", _pw, [
        ("site/{t}-config.php", "define('DB_PASSWORD', '{v}');"),
        ("site/{t}-settings.php", 'define("AUTH_KEY", "{v}");'),
    ]),
    ("jdbc-url-password", "jdbc connection url", _pw, [
        ("src/main/resources/{t}.properties",
         "datasource.url=jdbc:mysql://db:3306/{t}?user=app&password={v}&useSSL=true"),
        ("src/main/java/{t}/Db.java",
         '    static final String URL = "jdbc:postgresql://db/{t}?user=app&password={v}";'),
    ]),
    ("adonet-connection-password", "sql server connection string", _pw, [
        ("src/{t}/Settings.cs",
         '        public const string Db = "Server=tcp:{t}.database.windows.net,1433;Database={t};'
         'User ID=app;Password={v};Encrypt=True;";'),
        ("config/{t}.json", '{{"ConnectionStrings": {{"Default": "Server=db;Database={t};'
                            'User Id=sa;Password={v};TrustServerCertificate=True"}}}}'),
    ]),
    ("basic-auth-header", "basic auth header", _basic, [
        ("scripts/{t}.sh", 'curl -H "Authorization: Basic {v}" https://{t}.internal/api'),
        ("src/{t}/client.py", 'HEADERS = {{"Authorization": "Basic {v}"}}'),
    ]),
    ("bearer-token", "bearer token", _mixed(40), [
        ("src/{t}/api.py", 'headers = {{"Authorization": "Bearer {v}"}}'),
        ("docs/{t}.md", "```\nAuthorization: Bearer {v}\n```"),
    ]),
    ("mysql-cli-password", "mysql dump", _pw, [
        ("scripts/{t}-backup.sh", "mysqldump -u root -p{v} -h db.{t}.internal {t} > dump.sql"),
        ("scripts/{t}-restore.sh", "mysql -h db -u admin -p'{v}' {t} < dump.sql"),
    ]),
    ("curl-user-password", "curl basic auth", _pw, [
        ("scripts/{t}-upload.sh", "curl -u deploy:{v} -T build.zip https://nexus.{t}.internal/upload"),
        ("docs/{t}.md", "    curl --user 'ci:{v}' https://{t}.internal/health"),
    ]),
    ("xml-password-element", "xml password", _pw, [
        ("config/{t}-deploy.xml", "<server>\n  <id>{t}</id>\n  <username>deploy</username>\n"
                                  "  <password>{v}</password>\n</server>"),
        ("config/{t}-ds.xml", '<datasource jndi-name="java:/{t}">\n  <user-name>app</user-name>\n'
                              "  <password>{v}</password>\n</datasource>"),
    ]),
    ("requests-auth-tuple", "http basic auth", _pw, [
        ("src/{t}/export.py", 'resp = requests.get(EXPORT_URL, auth=("exporter", "{v}"))'),
        ("src/{t}/sync.py", "session.auth = ('sync', '{v}')"),
    ]),
    ("python-wrapped-assignment", "database password", _pw, [
        ("src/{t}/settings.py", 'DATABASE_PASSWORD = (\n    "{v}"\n)'),
        ("src/{t}/conf.py", "API_SECRET = \\\n    '{v}'"),
    ]),
    ("yaml-block-scalar", "yaml password", _pw, [
        ("config/{t}.yaml", "database:\n  password: >-\n    {v}\n  user: app"),
        ("deploy/{t}-values.yaml", "auth:\n  apiToken: |\n    {v}"),
    ]),
    ("shell-export-password", "shell password", _pw, [
        ("deploy/{t}.sh", "export DB_PASSWORD={v}"),
        ("deploy/{t}-env.sh", "PGPASSWORD='{v}' psql -h db -U app {t}"),
    ]),
    ("json-client-secret", "oauth client secret", _mixed(32), [
        ("config/{t}.json", '{{"web": {{"client_id": "{t}.apps", "client_secret": "{v}"}}}}'),
        ("src/{t}/oauth.py", 'OAUTH = {{"client_secret": "{v}", "scope": "read"}}'),
    ]),
    ("yaml-secret-key", "yaml api key", _mixed(36), [
        ("config/{t}.yaml", "service:\n  api_key: {v}"),
        ("deploy/{t}-app.yml", "env:\n  - name: APP_SECRET\n    value: {v}"),
    ]),
    ("java-properties-password", "spring datasource password", _pw, [
        ("src/main/resources/application-{t}.properties", "spring.datasource.password={v}"),
        ("src/main/resources/{t}.properties", "mail.smtp.password = {v}"),
    ]),
    ("go-constant-key", "go api key", _mixed(32), [
        ("src/{t}/client.go", 'const apiKey = "{v}"'),
        ("src/{t}/auth.go", 'var clientSecret string = "{v}"'),
    ]),
    ("js-object-secret", "javascript client secret", _mixed(32), [
        ("src/{t}/auth.js", "const config = {{ clientSecret: '{v}' }};"),
        ("src/{t}/firebase.ts", "export const firebase = {{ apiKey: \"{v}\" }};"),
    ]),
    ("toml-token", "toml token", _mixed(40), [
        ("config/{t}.toml", '[registry]\ntoken = "{v}"'),
        ("config/{t}-deploy.toml", '[deploy]\napi_token = "{v}"'),
    ]),
    ("ini-password", "ini database password", _pw, [
        ("config/{t}.ini", "[database]\nhost = db\npassword = {v}"),
        ("config/{t}.cfg", "[smtp]\nuser = mailer\npasswd = {v}"),
    ]),
    ("terraform-password", "terraform database password", _pw, [
        ("infra/{t}-db.tf", 'resource "aws_db_instance" "{t}" {{\n  username = "app"\n'
                            '  password = "{v}"\n}}'),
        ("infra/{t}-cache.tf", 'resource "aws_elasticache_replication_group" "{t}" {{\n'
                               '  auth_token = "{v}"\n}}'),
    ]),
    ("dockerfile-env-secret", "docker image token", _mixed(32), [
        ("docker/{t}/Dockerfile", "ENV API_TOKEN={v}"),
        ("docker/{t}-worker/Dockerfile", "ARG NPM_TOKEN={v}"),
    ]),
    ("kubernetes-secret-data", "kubernetes secret", _k8s_data, [
        ("k8s/{t}-secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {t}\n"
                                "type: Opaque\ndata:\n  password: {v}"),
        ("k8s/{t}-db.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {t}-db\ndata:\n"
                            "  DB_PASS: {v}"),
    ]),
    ("netrc-line", "netrc login", _pw, [
        ("scripts/{t}-ci.sh",
         "cat > ~/.netrc <<EOF\nmachine api.{t}.com login ci password {v}\nEOF"),
        ("docs/{t}.md", "    machine git.{t}.internal login bot password {v}"),
    ]),
    ("ruby-config-key", "ruby api key", _mixed(32), [
        ("src/{t}/client.rb", "  config.api_key = '{v}'"),
        ("src/{t}/mailer.rb", "  config.smtp_password = \"{v}\""),
    ]),
    ("csharp-constant-key", "c# api key", _mixed(32), [
        ("src/{t}/Keys.cs", '        private const string ApiKey = "{v}";'),
        ("src/{t}/Auth.cs", '        public static readonly string ClientSecret = "{v}";'),
    ]),
    ("rust-constant-token", "rust token", _mixed(40), [
        ("src/{t}/client.rs", 'const API_TOKEN: &str = "{v}";'),
        ("src/{t}/auth.rs", 'static SECRET_KEY: &str = "{v}";'),
    ]),
    ("java-field-secret", "java secret key", _mixed(32), [
        ("src/main/java/{t}/Keys.java", '    private static final String SECRET_KEY = "{v}";'),
        ("src/main/java/{t}/Client.java", '    private String apiKey = "{v}";'),
    ]),
    ("wireguard-private-key", "wireguard private key", _wg, [
        ("deploy/{t}-wg0.conf",
         "[Interface]\nAddress = 10.0.0.2/24\nPrivateKey = {v}\nListenPort = 51820"),
        ("docs/{t}.md", "```ini\n[Interface]\nPrivateKey = {v}\n```"),
    ]),
    ("x-api-key-header", "api key header", _mixed(40), [
        ("src/{t}/client.py", 'HEADERS = {{"x-api-key": "{v}", "Accept": "application/json"}}'),
        ("scripts/{t}.sh", "curl -H 'X-API-Key: {v}' https://{t}.internal/v1/items"),
    ]),
    ("commented-out-credential", "old password", _pw, [
        ("src/{t}/legacy.py", '# DB_PASSWORD = "{v}"  # rotated'),
        ("src/{t}/old.js", "// const secret = '{v}';"),
    ]),
]


def _indent(v: str, n: int = 4) -> str:
    return "\n".join(" " * n + line for line in v.splitlines())


# Whole credential files under names no list knows, and links to secret files (items 2 and 3 of
# issue 17): each must stay out of every output entirely.
FILE_FORMATS = frozenset({
    "symlinked-env", "symlinked-ssh-key", "terraform-state-backup", "kubeconfig-other-name",
    "yarnrc", "docker-config-other-name", "maven-settings", "secrets-folder",
    "aws-credentials-other-name", "gcp-service-account-other-name",
    "private-key-file-other-name", "netrc-other-name",
    "kubernetes-secret-data",  # a Secret manifest with literal values is a secret file too
})


# C901: one case per credential file format of the corpus.
def _file_plants(r: random.Random, topic: Callable[[], str]) -> list[Plant]:  # noqa: C901
    out: list[Plant] = []

    def plant(fmt: str, rel: str, text: str, secrets: tuple[str, ...], task: str,
              link: str | None = None, target_text: str = "") -> None:
        out.append(Plant(fmt, rel, text, secrets, task, link, target_text))

    for _ in range(2):
        t = topic()
        pw, key = password(r), mixed(r, 32)
        env = (f"# {t} service environment\n{t.upper()}_DB_PASSWORD={pw}\n"
               f"{t.upper()}_API_KEY={key}\n")
        plant("symlinked-env", f"src/{t}/settings.py", "", (pw, key),
              f"{t} service settings", link=f".env.{t}" if _ else ".env", target_text=env)
    t = topic()
    k = _pem("OPENSSH PRIVATE KEY", 400, lead=b"openssh-key-v1\0")(r)
    plant("symlinked-ssh-key", f"config/{t}_identity", "", k[1], f"{t} identity",
          link=f".ssh/id_{t}", target_text=k[0] + "\n")
    for name in ("terraform.tfstate.backup", "prod.tfstate.backup"):
        t = topic()
        pw = password(r)
        state = {"version": 4, "terraform_version": "1.7.5", "serial": 12,
                 "lineage": str(uuid.UUID(int=r.getrandbits(128))), "outputs": {},
                 "resources": [{"mode": "managed", "type": "aws_db_instance", "name": t,
                                "instances": [{"attributes": {"username": "app", "password": pw,
                                                              "identifier": f"{t}-db"}}]}]}
        plant("terraform-state-backup", f"infra/{t}/{name}", json.dumps(state, indent=2), (pw,),
              f"{t} terraform db instance")
    for rel in ("deploy/{t}/k3s.yaml", "clusters/{t}-admin.conf"):
        t = topic()
        ck = b64(r.randbytes(600))
        tok = mixed(r, 40)
        text = (f"apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://{t}:6443\n"
                f"  name: {t}\ncontexts:\n- context:\n    cluster: {t}\n    user: admin\n"
                f"  name: {t}\n"
                f"current-context: {t}\nusers:\n- name: admin\n  user:\n"
                f"    client-certificate-data: {b64(r.randbytes(300))}\n"
                f"    client-key-data: {ck}\n    token: {tok}\n")
        plant("kubeconfig-other-name", rel.format(t=t), text, (ck[:64], ck[400:464], tok),
              f"{t} cluster admin context")
    for rel, line in ((".yarnrc", 'npmAuthToken "{v}"'), ("web/{t}/.yarnrc", "_authToken={v}")):
        t = topic()
        v = mixed(r, 36)
        plant("yarnrc", rel.format(t=t), f"# {t} registry\nregistry \"https://npm.{t}.internal\"\n"
              + line.format(v=v) + "\n", (v,), f"{t} registry yarn")
    for rel in ("deploy/{t}-registry.json", "ci/{t}/docker-auth.json"):
        t = topic()
        auth = b64(f"ci:{password(r)}".encode())
        text = json.dumps({"auths": {f"registry.{t}.io": {"auth": auth}}}, indent=2)
        plant("docker-config-other-name", rel.format(t=t), text, (auth[4:],), f"{t} registry auth")
    for rel in (".m2/settings.xml", "ci/{t}-maven-settings.xml"):
        t = topic()
        pw = password(r)
        text = (f'<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">\n  <servers>\n'
                f"    <server>\n      <id>{t}-releases</id>\n      <username>deploy</username>\n"
                f"      <password>{pw}</password>\n    </server>\n  </servers>\n</settings>\n")
        plant("maven-settings", rel.format(t=t), text, (pw,), f"{t} releases maven server")
    for rel in ("secrets/{t}_db_password.txt", "deploy/secrets/{t}.txt", "credentials/{t}_token"):
        t = topic()
        pw = password(r)
        plant("secrets-folder", rel.format(t=t), f"{pw}\n", (pw,), f"{t} password")
    for rel in ("backup/{t}_aws.ini", "ops/{t}-creds"):
        t = topic()
        sk = b64(r.randbytes(30))
        text = (f"[{t}]\naws_access_key_id = AKIA{rand(r, UPPER, 16)}\n"
                f"aws_secret_access_key = {sk}\n")
        plant("aws-credentials-other-name", rel.format(t=t), text, (sk,), f"{t} aws profile")
    for rel in ("deploy/{t}.json", "ops/{t}-sa.json"):
        t = topic()
        k = _pem_escaped(r)
        text = json.dumps({"type": "service_account", "project_id": t,
                           "private_key_id": rand(r, HEX, 40), "private_key": "@@KEY@@",
                           "client_email": f"svc@{t}.iam.gserviceaccount.com"}, indent=2)
        plant("gcp-service-account-other-name", rel.format(t=t), text.replace("@@KEY@@", k[0]),
              k[1], f"{t} service account project")
    for rel in ("deploy/{t}_deploy_key", "ops/{t}-key.txt"):
        t = topic()
        k = _pem("RSA PRIVATE KEY", 900)(r)
        plant("private-key-file-other-name", rel.format(t=t), k[0] + "\n", k[1], f"{t} deploy key")
    for rel in ("ci/{t}-netrc.txt", "ops/{t}.netrc.bak"):
        t = topic()
        pw = password(r)
        plant("netrc-other-name", rel.format(t=t),
              f"machine git.{t}.internal\n  login ci\n  password {pw}\n", (pw,),
              f"{t} git machine login")
    return out


# -- look-alikes -------------------------------------------------------------------------------


def _png(r: random.Random) -> str:
    raw = b"\x00" + r.randbytes(24)
    ihdr = b"IHDR" + (8).to_bytes(4, "big") + (1).to_bytes(4, "big") + b"\x08\x06\x00\x00\x00"
    data = (b"\x89PNG\r\n\x1a\n" + len(ihdr[4:]).to_bytes(4, "big") + ihdr
            + zlib.crc32(ihdr).to_bytes(4, "big") + b"IDAT" + zlib.compress(raw))
    return b64(data)


def _sha(r: random.Random, name: str = "sha256") -> str:
    return hashlib.new(name, r.randbytes(16)).hexdigest()


def _sentence(r: random.Random) -> str:
    words = ("the", "quick", "report", "renders", "every", "invoice", "with", "totals", "and",
             "dates", "for", "each", "customer", "account", "in", "order")
    return " ".join(r.choice(words) for _ in range(r.randint(8, 14)))


LOOKALIKES: list[tuple[str, str, Callable[[random.Random, str], tuple[str, list[str]]]]] = []
"""(category, path template, maker(r, topic) -> (file text, values that must stay))."""


def lookalike(category: str, rel: str):
    def register(fn):
        LOOKALIKES.append((category, rel, fn))
        return fn
    return register


@lookalike("npm-integrity-hash", "web/{t}/vendor-manifest.json")
def _la_integrity(r, t):
    vals = ["sha512-" + b64(hashlib.sha512(r.randbytes(8)).digest()) for _ in range(3)]
    deps = {f"{t}-{i}": {"version": f"1.{i}.0", "resolved": f"https://registry.npmjs.org/{t}-{i}",
                         "integrity": v} for i, v in enumerate(vals)}
    return json.dumps({"name": t, "dependencies": deps}, indent=2), vals


@lookalike("pip-hash", "requirements/{t}.in")
def _la_pip(r, t):
    vals = [_sha(r) for _ in range(3)]
    lines = [f"{t}-lib{i}==2.{i}.1 \\\n    --hash=sha256:{v}" for i, v in enumerate(vals)]
    return f"# {t} pinned requirements\n" + "\n".join(lines) + "\n", vals


@lookalike("go-sum-hash", "tools/{t}/go.sum.pinned")
def _la_gosum(r, t):
    vals = ["h1:" + b64(r.randbytes(32)) for _ in range(3)]
    lines = [f"github.com/acme/{t}{i} v1.{i}.0 {v}" for i, v in enumerate(vals)]
    return f"# {t} module checksums\n" + "\n".join(lines) + "\n", vals


@lookalike("terraform-lock-hash", "infra/{t}/.terraform.lock.hcl")
def _la_tflock(r, t):
    vals = ["h1:" + b64(r.randbytes(32)), "zh:" + _sha(r), "zh:" + _sha(r)]
    body = "\n".join(f'    "{v}",' for v in vals)
    return (f'# {t} provider lock\nprovider "registry.terraform.io/hashicorp/{t}" {{\n'
            f'  version = "5.31.0"\n  hashes = [\n{body}\n  ]\n}}\n'), vals


@lookalike("cargo-checksum", "vendor-info/{t}-checksums.toml")
def _la_cargo(r, t):
    vals = [_sha(r) for _ in range(3)]
    body = "\n".join(f'[[package]]\nname = "{t}{i}"\nversion = "0.{i}.3"\nchecksum = "{v}"\n'
                     for i, v in enumerate(vals))
    return f"# {t} packages\n{body}", vals


@lookalike("uuid", "src/{t}/fixtures.py")
def _la_uuid(r, t):
    vals = [str(uuid.UUID(int=r.getrandbits(128), version=4)) for _ in range(3)]
    return (f'"""{t} test fixtures."""\n\nREQUEST_ID = "{vals[0]}"\nTENANT_ID = "{vals[1]}"\n'
            f'ORDER = {{"id": "{vals[2]}", "total": 42}}\n'), vals


@lookalike("uuid-json", "config/{t}-tenants.json")
def _la_uuid_json(r, t):
    vals = [str(uuid.UUID(int=r.getrandbits(128), version=4)) for _ in range(3)]
    return json.dumps({"tenants": [{"name": f"{t}{i}", "id": v, "client_id": v}
                                   for i, v in enumerate(vals)]}, indent=2), vals


@lookalike("git-sha", "src/{t}/version.py")
def _la_sha(r, t):
    vals = [_sha(r, "sha1") for _ in range(3)]
    return (f'"""{t} build information."""\n\nCOMMIT = "{vals[0]}"\nBASE_COMMIT = "{vals[1]}"\n'
            f'RELEASES = {{"1.4.0": "{vals[2]}"}}\n'), vals


@lookalike("git-sha-config", "tools/{t}-pre-commit.yaml")
def _la_sha_yaml(r, t):
    vals = [_sha(r, "sha1") for _ in range(3)]
    repos = "\n".join(f"  - repo: https://github.com/acme/{t}{i}\n    rev: {v}\n    hooks:\n"
                      f"      - id: {t}{i}" for i, v in enumerate(vals))
    return f"# {t} hooks\nrepos:\n{repos}\n", vals


@lookalike("git-sha-script", "scripts/{t}-pin.sh")
def _la_sha_sh(r, t):
    vals = [_sha(r, "sha1") for _ in range(3)]
    return (f"#!/bin/sh\n# pin {t} to known commits\ngit checkout {vals[0]}\n"
            f"git cherry-pick {vals[1]}\ngit diff {vals[2]}..HEAD\n"), vals


@lookalike("test-vector-digest", "tests_data/{t}_vectors.py")
def _la_vectors(r, t):
    msgs = [r.randbytes(8).hex() for _ in range(3)]
    vals = [hashlib.sha256(m.encode()).hexdigest() for m in msgs[:2]]
    vals.append(hashlib.md5(msgs[2].encode()).hexdigest())
    return (f'"""{t} digest test vectors."""\n\nimport hashlib\n\n'
            f'def test_{t}_sha256():\n'
            f'    assert hashlib.sha256(b"{msgs[0]}").hexdigest() == "{vals[0]}"\n'
            f'    assert hashlib.sha256(b"{msgs[1]}").hexdigest() == (\n'
            f'        "{vals[1]}"\n    )\n\n'
            f'EXPECTED_MD5 = "{vals[2]}"\n'), vals


@lookalike("test-vector-hmac", "tests_data/{t}_hmac.py")
def _la_hmac(r, t):
    nonce, iv = r.randbytes(12).hex(), r.randbytes(16).hex()
    mac = hashlib.sha256(r.randbytes(8)).hexdigest()
    return (f'"""{t} HMAC and cipher vectors (RFC style)."""\n\nNONCE = bytes.fromhex("{nonce}")\n'
            f'IV = "{iv}"\nEXPECTED_MAC = "{mac}"\n'), [nonce, iv, mac]


@lookalike("base64-image", "web/{t}/icons.css")
def _la_png_css(r, t):
    vals = [_png(r) for _ in range(3)]
    rules = "\n".join(f".{t}-icon-{i} {{ background: url(data:image/png;base64,{v}); }}"
                      for i, v in enumerate(vals))
    return f"/* {t} icons */\n{rules}\n", [v[:60] for v in vals]


@lookalike("base64-image-js", "web/{t}/logo.js")
def _la_png_js(r, t):
    vals = [_png(r) for _ in range(3)]
    body = "\n".join(f"export const {t}Icon{i} = 'data:image/png;base64,{v}';"
                     for i, v in enumerate(vals))
    return f"// {t} logos\n{body}\n", [v[:60] for v in vals]


@lookalike("long-identifier", "src/{t}/flows.py")
def _la_idents(r, t):
    vals = [f"{t.capitalize()}PasswordResetTokenExpiredErrorV2", f"test_{t}_secret_key_rotation_v3",
            f"{t.upper()}_PASSWORD_RESET_TOKEN_TTL_SECONDS"]
    return (f'"""{t} account flows."""\n\n{vals[2]} = 3600\n\n\nclass {vals[0]}(Exception):\n'
            f'    """The reset token expired."""\n\n\ndef {vals[1]}():\n'
            f'    assert {vals[2]} > 0\n'), vals


@lookalike("long-identifier-js", "src/{t}/tokens.ts")
def _la_idents_js(r, t):
    vals = [f"acquire{t.capitalize()}TokenSilentlyWithRefreshV2", f"{t}ApiKeyHeaderName",
            f"use{t.capitalize()}SecretKeyRotationPolicy2024"]
    return (f"// {t} token helpers\nexport const {vals[1]} = 'X-{t}-Key';\n"
            f"export async function {vals[0]}() {{ return null; }}\n"
            f"export function {vals[2]}() {{ return {{ days: 90 }}; }}\n"), vals


@lookalike("public-key", "deploy/{t}_authorized_keys")
def _la_pub(r, t):
    vals = ["AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(r.randbytes(32))[:43],
            "AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + b64(r.randbytes(256))[:60],
            "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(r.randbytes(32))[:43]]
    return (f"# {t} deploy users\nssh-ed25519 {vals[0]} ci@{t}\nssh-rsa {vals[1]} ops@{t}\n"
            f"ssh-ed25519 {vals[2]} dev@{t}\n"), vals


@lookalike("certificate", "src/{t}/ca.py")
def _la_cert(r, t):
    lines = _pem_body(r, 700)
    return (f'"""{t} pinned CA certificate (public)."""\n\n'
            'CA_CERT = """-----BEGIN CERTIFICATE-----\n'
            + "\n".join(lines) + '\n-----END CERTIFICATE-----"""\n'), lines[:3]


@lookalike("publishable-key", "web/{t}/checkout.js")
def _la_pk(r, t):
    vals = ["pk_live_" + rand(r, ALNUM, 99), "pk_test_" + rand(r, ALNUM, 99)]
    gid = f"{r.randint(10**11, 10**12)}-{rand(r, string.ascii_lowercase + string.digits, 32)}"
    vals.append(gid + ".apps.googleusercontent.com")
    return (f"// {t} checkout\nconst stripe = Stripe('{vals[0]}');\n"
            f"const stripeTest = Stripe('{vals[1]}');\n"
            f"const googleClientId = '{vals[2]}';\n"), vals


@lookalike("placeholder", "config/{t}.example.yaml")
def _la_placeholder(r, t):
    vals = ["changeme", "<your-api-key>", "${GITHUB_TOKEN}", "your-secret-here"]
    return (f"# {t} example configuration: copy and fill in\ndatabase:\n  password: {vals[0]}\n"
            f"api_key: \"{vals[1]}\"\ngithub_token: {vals[2]}\nsecret_key: {vals[3]}\n"), vals


@lookalike("placeholder-code", "src/{t}/defaults.py")
def _la_placeholder_py(r, t):
    vals = ["xxxxxxxxxxxxxxxxxxxx", "REPLACE_ME", "${DB_PASSWORD}"]
    return (f'"""{t} defaults."""\n\nAPI_TOKEN = "{vals[0]}"\nCLIENT_SECRET = "{vals[1]}"\n'
            f'DB_PASSWORD = "{vals[2]}"\n'), vals


@lookalike("docker-digest", "deploy/{t}-compose.yaml")
def _la_digest(r, t):
    vals = ["sha256:" + _sha(r) for _ in range(3)]
    svcs = "\n".join(f"  {t}{i}:\n    image: ghcr.io/acme/{t}{i}@{v}" for i, v in enumerate(vals))
    return f"# {t} services\nservices:\n{svcs}\n", vals


@lookalike("asset-hash", "web/{t}/index.html")
def _la_assets(r, t):
    vals = [f"{t}.{rand(r, HEX, 20)}.js", f"vendor.{rand(r, HEX, 20)}.css",
            f"{t}.{rand(r, HEX, 8)}.chunk.js"]
    return (f"<!doctype html>\n<title>{t}</title>\n<script src=\"/static/{vals[0]}\"></script>\n"
            f"<link rel=\"stylesheet\" href=\"/static/{vals[1]}\">\n"
            f"<script src=\"/static/{vals[2]}\"></script>\n"), vals


@lookalike("alphabet-constant", "src/{t}/encoding.py")
def _la_alphabet(r, t):
    vals = [string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/",
            "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", BECH32.lower()]
    return (f'"""{t} encodings."""\n\nB64_ALPHABET = "{vals[0]}"\nBASE58_ALPHABET = "{vals[1]}"\n'
            f'BECH32_CHARSET = "{vals[2]}"\n'), vals


@lookalike("base64-text", "tests_data/{t}_encoded.py")
def _la_b64text(r, t):
    vals = [b64(_sentence(r).encode()) for _ in range(3)]
    return (f'"""{t} encoded fixtures."""\n\nENCODED = "{vals[0]}"\nPAYLOAD = "{vals[1]}"\n'
            f'EXPECTED_BODY = "{vals[2]}"\n'), vals


@lookalike("version-string", "src/{t}/about.py")
def _la_versions(r, t):
    vals = [f"2024.{r.randint(1, 12)}.{r.randint(1, 28)}+g{rand(r, HEX, 7)}",
            f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}rc{r.randint(1, 4)}",
            f"build-{r.randint(1000, 9999)}-{rand(r, HEX, 12)}"]
    return (f'"""{t} version."""\n\nBUILD = "{vals[0]}"\n__version__ = "{vals[1]}"\n'
            f'BUILD_ID = "{vals[2]}"\n'), vals


@lookalike("credential-handling-code", "src/{t}/login.py")
def _la_code(r, t):
    vals = ['request.form["password"]', "get_token(user)", 'os.environ["APP_SECRET"]',
            "settings.API_KEY", "Field(..., min_length=12)"]
    return (f'"""{t} login view."""\n\n\ndef login_{t}(request, settings, user):\n'
            f"    password = {vals[0]}\n    token = {vals[1]}\n    secret = {vals[2]}\n"
            f"    api_key = {vals[3]}\n    return password, token, secret, api_key\n\n\n"
            f"class {t.capitalize()}Form:\n    password: str = {vals[4]}\n"), vals


@lookalike("jwks-public", "config/{t}-jwks.json")
def _la_jwks(r, t):
    n = b64url(r.randbytes(256))
    kid = rand(r, ALNUM, 20)
    vals = [n[:80], kid, "AQAB"]
    return json.dumps({"keys": [{"kty": "RSA", "kid": kid, "use": "sig", "n": n, "e": "AQAB"}]},
                      indent=2), vals


@lookalike("cache-and-sort-keys", "src/{t}/cache.py")
def _la_keys(r, t):
    vals = [f"v1-deps-{_sha(r, 'sha1')}", f"{t}:user:{r.randint(10**5, 10**6)}:profile",
            f"idx_{t}_{rand(r, HEX, 8)}"]
    return (f'"""{t} cache keys."""\n\nCACHE_KEY = "{vals[0]}"\nprofile_key = "{vals[1]}"\n'
            f'PRIMARY_KEY_NAME = "{vals[2]}"\n'), vals


@lookalike("key-paths-and-urls", "src/{t}/tls.py")
def _la_paths(r, t):
    vals = [f"/etc/ssl/private/{t}.key", f"https://oauth2.{t}.com/token",
            f"arn:aws:iam::{r.randint(10**11, 10**12)}:role/{t}-deploy"]
    return (f'"""{t} TLS settings."""\n\nprivate_key_path = "{vals[0]}"\ntoken_url = "{vals[1]}"\n'
            f'DEPLOY_ROLE = "{vals[2]}"\n'), vals


@lookalike("lfs-pointer", "assets/{t}-model.lfs")
def _la_lfs(r, t):
    v = _sha(r)
    return (f"version https://git-lfs.github.com/spec/v1\noid sha256:{v}\n"
            f"size {r.randint(10**5, 10**8)}\n"), [v]


@lookalike("i18n-keys", "web/{t}/messages.json")
def _la_i18n(r, t):
    vals = [f"{t}.auth.password.reset.title", f"{t}.auth.token.expired",
            f"{t}.settings.api_key.label"]
    return json.dumps({v: f"Message {i}" for i, v in enumerate(vals)}, indent=2), vals


@lookalike("object-ids", "tests_data/{t}_records.json")
def _la_objectids(r, t):
    vals = [rand(r, HEX, 24) for _ in range(2)] + [rand(r, B64URL, 11)]
    return json.dumps({"records": [{"_id": vals[0], "owner": vals[1], "video": vals[2],
                                    "kind": t}]}, indent=2), vals


# -- the corpus --------------------------------------------------------------------------------


def build(seed: int = 17, lookalike_copies: int = 2) -> Corpus:
    """The corpus for a seed: every format in each of its contexts, the credential files, and
    `lookalike_copies` files of each look-alike category."""
    r = random.Random(seed)
    names = iter(topics(r, 2000))
    corpus = Corpus()
    for fmt, words, make, contexts in FORMATS:
        for rel_t, line_t in contexts:
            t = next(names)
            value, secrets = make(r)
            line = line_t.format(v=value, t=t, vi=_indent(value))
            rel = rel_t.format(t=t)
            corpus.plants.append(Plant(fmt, rel, wrap(rel, t, line), secrets, f"{t} {words}"))
    corpus.plants += _file_plants(r, lambda: next(names))
    for category, rel_t, make in LOOKALIKES:
        for _ in range(lookalike_copies):
            t = next(names)
            text, values = make(r, t)
            rel = rel_t.format(t=t)
            corpus.lookalikes.append(LookAlike(category, rel, text, tuple(values),
                                               f"{t} {category.replace('-', ' ')}"))
    return corpus


def write(corpus: Corpus, root: Path) -> None:
    """The corpus as files under root (a fresh folder), with a few ordinary files around it."""
    for p in corpus.plants:
        path = root / p.rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if p.link is not None:
            target = root / p.link
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(p.target_text, encoding="utf-8")
            os.symlink(os.path.relpath(target, path.parent), path)
        else:
            path.write_text(p.text, encoding="utf-8")
    for la in corpus.lookalikes:
        path = root / la.rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(la.text, encoding="utf-8")
    (root / "README.md").write_text("# Services\n\nSettings and clients of our services.\n")

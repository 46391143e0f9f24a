"""Secrets, end to end: secret files are never read, and planted credentials never reach a chat.

One workspace holds a secret file of every kind the tool knows (each with a unique marker and the
task's own words, so it would rank first if it were ever indexed) and a source file with
credentials pasted into it. Every surface that hands regions out is checked: the command line
(text, JSON, Markdown), the language server (`retrieve`, `renderContext`, open buffers) and the
MCP server; each with redaction on (the default) and switched off by the user.
"""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from anyio.from_thread import start_blocking_portal
from lsprotocol import types
from mcp import Client, StdioServerParameters
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine
from iterative_retrieval.workspace import Scope, check_root, is_secret

from . import secrets_corpus, secrets_measure
from .conftest import git, make_repo, write_files
from .test_lsp_server import SERVER, command, start, wait_ready

TASK = "Configure the payment gateway secret key and database password for the billing service"

# Every kind of secret file: home-folder credentials (a dotfiles or home backup repository),
# keys, certificates, cloud and cluster configuration.
SECRET_FILES = [
    ".env", ".env.production", "services/billing/.env.local", ".envrc", "id_rsa", "id_ed25519",
    "deploy/id_rsa_deploy", "keys/server.pem", "certs/client.key", "certs/client.p12",
    "certs/store.pfx", "certs/keystore.jks", ".aws/credentials", ".aws/config", ".npmrc",
    ".yarnrc.yml", ".pypirc", ".netrc", ".pgpass", ".my.cnf", ".git-credentials",
    ".docker/config.json", ".dockercfg", ".config/gcloud/application_default_credentials.json",
    ".config/gcloud/credentials.db", "gcp-service-account.json", "firebase-adminsdk-abc12.json",
    ".kube/config", "kubeconfig", "clusters/prod.kubeconfig", "infra/terraform.tfvars",
    "infra/terraform.tfstate", ".vault-token", ".azure/accessTokens.json", ".config/gh/hosts.yml",
    "config/credentials.yml", "config/secrets.yaml", "client_secret.json", "token.json", ".boto",
    ".s3cfg", ".htpasswd", "secrets.toml",
]


def _rand(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def planted_workspace(root: Path, git: bool = True) -> dict[str, str]:
    """Write the workspace; return marker → where it was planted."""
    r = random.Random(8)
    markers: dict[str, str] = {}
    files: dict[str, str] = {}
    for rel in SECRET_FILES:
        marker = "PLANTED" + _rand(r, string.ascii_uppercase, 12)
        markers[marker] = rel
        files[rel] = (f"# payment gateway secret key and database password for billing\n"
                      f"PAYMENT_GATEWAY_SECRET_KEY={marker}\nDATABASE_PASSWORD={marker}\n")
    aws = "AKIA" + _rand(r, string.ascii_uppercase + string.digits, 16)
    stripe = "sk_live_" + _rand(r, string.ascii_letters + string.digits, 24)
    password = "Pw" + _rand(r, string.ascii_letters + string.digits, 18) + "7q"
    key_body = [_rand(r, string.ascii_letters + string.digits + "+/", 64) for _ in range(4)]
    inline = {"aws-access-key": aws, "stripe-key": stripe, "password": password,
              "private-key": key_body[1]}
    files["src/billing/gateway.py"] = "\n".join([
        '"""The payment gateway client of the billing service."""',
        "",
        f'GATEWAY_SECRET_KEY = "{stripe}"',
        f'AWS_ACCESS_KEY_ID = "{aws}"',
        "",
        "class PaymentGateway:",
        '    """Talks to the payment gateway with the secret key."""',
        "",
        "    def __init__(self, database_password=None):",
        f'        self.database_password = database_password or "{password}"',
        "        self.secret_key = GATEWAY_SECRET_KEY",
        "",
        "    def configure(self, password):",
        '        """Configure the gateway secret key and the database password."""',
        "        self.database_password = password",
        "",
        'SIGNING_KEY = """-----BEGIN RSA PRIVATE KEY-----',
        *key_body,
        '-----END RSA PRIVATE KEY-----"""',
        "",
    ])
    files["src/billing/service.py"] = (
        "from .gateway import PaymentGateway\n\n"
        "def configure_billing(secret_key, password):\n"
        "    gateway = PaymentGateway(password)\n"
        "    gateway.configure(password)\n"
        "    return gateway\n"
    )
    files["README.md"] = "# Billing\n\nThe billing service talks to the payment gateway.\n"
    (make_repo if git else write_files)(root, files)
    return {"markers": markers, "inline": inline}  # type: ignore[return-value]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted") / "billing"
    info = planted_workspace(root)
    return root.resolve(), info


def assert_no_secret(text: str, info, redacted: bool = True) -> None:
    """No secret file's content; with redaction, none of the credentials pasted into code."""
    for marker, rel in info["markers"].items():
        assert marker not in text, f"the content of secret file {rel} was handed out"
    if redacted:
        for kind, value in info["inline"].items():
            assert value not in text, f"a planted {kind} was handed out"


def result_paths(result: dict) -> set[str]:
    return {f["path"] for f in result["files"]}


# -- which files are read ----------------------------------------------------------------------


@pytest.mark.parametrize("git", [True, False], ids=["git", "walk"])
def test_secret_files_are_never_in_scope_or_index(tmp_path, git):
    """Every secret file kind is out of scope (git listing or walk), absent from the index, and
    unreadable through the engine even when asked by name."""
    root = tmp_path / "ws"
    planted_workspace(root, git=git)
    real = check_root(root)
    listed = {f.rel for f in Scope(real).files()}
    assert "src/billing/gateway.py" in listed
    for rel in SECRET_FILES:
        assert is_secret(rel), rel
        assert rel not in listed, rel
    engine = Engine([root])
    engine.refresh()
    idx = engine.index(real)
    for rel in SECRET_FILES:
        assert idx.file_id(rel) is None, rel
        assert engine.read_text(real, rel) is None, rel
    assert not engine.set_document(str(real / ".env"), "PAYMENT_GATEWAY_SECRET_KEY=x")
    engine.close()


# -- the command line --------------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iterative_retrieval", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("fmt", [["--json"], ["--markdown"], ["--regions"]])
def test_cli_outputs_hold_no_secret(planted, tmp_path, fmt):
    """JSON, Markdown and the text view with regions: the gateway file is found, its planted
    credentials are masked, and no secret file is named or quoted."""
    root, info = planted
    p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", str(tmp_path / "c"), *fmt)
    assert p.returncode == 0, p.stderr
    assert "gateway.py" in p.stdout
    assert_no_secret(p.stdout, info)
    assert "«redacted: aws-access-key»" in p.stdout and "«redacted: stripe-key»" in p.stdout
    assert "«redacted: private-key»" in p.stdout
    if fmt == ["--json"]:
        result = json.loads(p.stdout)
        assert not result_paths(result) & set(SECRET_FILES)
        gateway = next(f for f in result["files"] if f["path"] == "src/billing/gateway.py")
        text = "\n".join(r["text"] for r in gateway["regions"])
        # line numbers stay right: the region's lines match the file's lines one for one
        lines = (root / "src/billing/gateway.py").read_text().splitlines()
        for r in gateway["regions"]:
            assert len(r["text"].splitlines()) == r["end_line"] - r["start_line"] + 1
            for n, got in enumerate(r["text"].splitlines(), r["start_line"]):
                assert got == lines[n - 1] or "«redacted: " in got
        assert "class PaymentGateway:" in text


def test_cli_no_redact_shows_pasted_credentials_but_never_secret_files(planted, tmp_path):
    """`--no-redact` hands the pasted credentials out as they are; secret files stay unread."""
    root, info = planted
    p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", str(tmp_path / "c"), "--json",
            "--no-redact")
    assert p.returncode == 0, p.stderr
    assert_no_secret(p.stdout, info, redacted=False)
    assert info["inline"]["aws-access-key"] in p.stdout
    assert "«redacted" not in p.stdout


# -- the language server -----------------------------------------------------------------------


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def lsp(lsp_client: LanguageClient, planted, tmp_path_factory):
    root, info = planted
    tmp_path = tmp_path_factory.mktemp("lsp")
    lsp_client.info = info
    lsp_client.root = root
    lsp_client.cache = tmp_path / "cache"
    await start(lsp_client, tmp_path, [root])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_retrieve_and_render_hold_no_secret(lsp: LanguageClient):
    """retrieve and renderContext (with a task, and with a result sent back) mask the pasted
    credentials; open buffers of secret files (.env, a key, cloud credentials) are ignored."""
    info = lsp.info
    env_text = f"PAYMENT_GATEWAY_SECRET_KEY={next(iter(info['markers']))}\n"
    lsp.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=(lsp.root / ".env").as_uri(), language_id="dotenv", version=1, text=env_text)))
    result = await command(lsp, "iterativeRetrieval.retrieve", {"task": TASK})
    dumped = json.dumps(result, ensure_ascii=False)
    assert "src/billing/gateway.py" in result_paths(result)
    assert not result_paths(result) & set(SECRET_FILES)
    assert_no_secret(dumped, info)
    md = await command(lsp, "iterativeRetrieval.renderContext", {"task": TASK})
    assert_no_secret(md["text"], info)
    for rel in (".env.production", "certs/client.key", ".aws/credentials"):
        lsp.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=(lsp.root / rel).as_uri(),
                                                 language_id="plaintext", version=1,
                                                 text="PAYMENT_GATEWAY_SECRET_KEY=abc\n")))
    st = await command(lsp, "iterativeRetrieval.status")  # counts every buffer sent before
    assert st["open_buffers"] == 0 and st["settings"]["redactSecrets"] is True
    # A result that comes back from the client is masked again before it is rendered.
    gateway = next(f for f in result["files"] if f["path"] == "src/billing/gateway.py")
    gateway["regions"][0]["text"] += f'\nleaked = "{info["inline"]["aws-access-key"]}"'
    again = await command(lsp, "iterativeRetrieval.renderContext", {"result": result})
    assert info["inline"]["aws-access-key"] not in again["text"]


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_redaction_can_be_switched_off(lsp: LanguageClient):
    """With `redactSecrets: false` (pushed as a configuration change) the pasted credentials
    come through; secret files never do. Switched on again, they are masked again."""
    info = lsp.info

    def configure(redact: bool) -> None:
        lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"iterativeRetrieval": {"cacheDir": str(lsp.cache), "redactSecrets": redact}}))

    configure(False)
    st = await command(lsp, "iterativeRetrieval.status")
    assert st["settings"]["redactSecrets"] is False
    result = await command(lsp, "iterativeRetrieval.retrieve", {"task": TASK})
    dumped = json.dumps(result, ensure_ascii=False)
    assert info["inline"]["stripe-key"] in dumped
    assert_no_secret(dumped, info, redacted=False)
    configure(True)
    result = await command(lsp, "iterativeRetrieval.retrieve", {"task": TASK})
    assert_no_secret(json.dumps(result, ensure_ascii=False), info)


# -- the MCP server ----------------------------------------------------------------------------


def mcp_calls(root: Path, cache: Path, calls: list[tuple[str, dict]], *flags: str) -> list:
    """Start `iterative-retrieval mcp` once and make the tool calls in order."""
    # The SDK passes only a few variables to the server by default; PYTHONPATH must go along
    # so that the server is the code under test.
    params = StdioServerParameters(command=sys.executable, env=dict(os.environ), args=[
        "-m", "iterative_retrieval", "mcp", "--root", str(root), "--cache-dir", str(cache), *flags])
    with start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(Client(params, read_timeout_seconds=60)) as client:
        return [portal.call(lambda t=tool, a=args: client.call_tool(t, a))
                for tool, args in calls]


def test_mcp_tools_hold_no_secret(planted, tmp_path):
    """retrieve_context (Markdown and structured JSON) masks pasted credentials; explain_file
    never reads a secret file; `mcp --no-redact` (the user's choice) hands them out as they are."""
    root, info = planted
    res, explained = mcp_calls(root, tmp_path / "c", [
        ("retrieve_context", {"task": TASK}), ("explain_file", {"path": ".env", "task": TASK}),
    ])
    assert not res.is_error
    text = res.content[0].text + json.dumps(res.structured_content, ensure_ascii=False)
    assert "gateway.py" in text
    assert_no_secret(text, info)
    assert "never read" in explained.content[0].text
    assert_no_secret(explained.content[0].text, info)
    # The flag, as the command line parses it, down to the engine the tools use.
    from iterative_retrieval.cli import build_parser
    from iterative_retrieval.mcp_server import Workspace

    args = build_parser().parse_args(["mcp", "--root", str(root), "--no-redact"])
    engine = Workspace(args.root, str(tmp_path / "c"), redact=args.redact).engine
    try:
        result = engine.retrieve(TASK)
        text = json.dumps(result.to_dict(), ensure_ascii=False)
        assert info["inline"]["aws-access-key"] in text
        assert_no_secret(text, info, redacted=False)
    finally:
        engine.close()


# -- the trace, the reasons and every other word of a result (issue 17, item 1) ------------------

# The four credentials the issue saw in the trace, each in a file of its own (from the corpus
# generator): before, `learned:` printed the AWS key id, the URL's password, a line of the RSA
# key and the Slack token's tail in full, while the regions masked them.
TRACE_PLANTS = {"aws-access-key-id": "settings.py", "url-password": "db.py",
                "rsa-private-key": "signing.py", "slack-bot-token": "notify.py"}


@pytest.fixture(scope="module")
def trace_ws(tmp_path_factory):
    corpus = secrets_corpus.build()
    plants = [next(p for p in corpus.plants if p.fmt == fmt and p.rel.endswith(name))
              for fmt, name in TRACE_PLANTS.items()]
    files = {p.rel: p.text for p in plants}
    files.update({f"src/util/m{i}.py": f"def helper_{i}():\n    return {i}\n" for i in range(8)})
    root = tmp_path_factory.mktemp("trace") / "ws"
    make_repo(root, files)
    return root.resolve(), plants


def assert_no_fragment(text: str, plants) -> None:
    """No 8 characters in a row of any planted secret, case ignored (a stemmed term too)."""
    low = text.lower()
    for p in plants:
        for s in p.secrets:
            assert not secrets_measure.leaked(s, low), f"a piece of the {p.fmt} in {p.rel} came out"


@pytest.mark.parametrize("fmt", [[], ["--json"], ["--markdown"]], ids=["text", "json", "markdown"])
def test_cli_trace_holds_no_credential(trace_ws, tmp_path, fmt):
    """Each planted file is found and its credential masked in the regions; nothing of it is in
    the learned terms, keywords, focus, gaps or reasons (the text view prints the trace too)."""
    root, plants = trace_ws
    for p in plants:
        out = cli("retrieve", p.task, "--root", str(root), "--cache-dir", str(tmp_path / "c"),
                  *(fmt or ["--regions"]))
        assert out.returncode == 0, out.stderr
        assert p.rel in out.stdout and "«redacted: " in out.stdout
        assert_no_fragment(out.stdout, [p])
        if fmt == ["--json"]:
            trace = json.loads(out.stdout)["trace"]
            assert any(t["learned"] for t in trace)  # the loop did learn: the check has teeth


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def trace_lsp(lsp_client: LanguageClient, trace_ws, tmp_path_factory):
    root, plants = trace_ws
    lsp_client.plants = plants
    await start(lsp_client, tmp_path_factory.mktemp("trace-lsp"), [root])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_trace_holds_no_credential(trace_lsp: LanguageClient):
    """`retrieve` and `renderContext` over the language server: the same, in the wire JSON."""
    for p in trace_lsp.plants:
        result = await command(trace_lsp, "iterativeRetrieval.retrieve", {"task": p.task})
        assert p.rel in result_paths(result)
        assert_no_fragment(json.dumps(result, ensure_ascii=False), [p])
        md = await command(trace_lsp, "iterativeRetrieval.renderContext", {"task": p.task})
        assert_no_fragment(md["text"], [p])


def test_mcp_trace_holds_no_credential(trace_ws, tmp_path):
    """`retrieve_context` over MCP: neither the Markdown nor the structured result."""
    root, plants = trace_ws
    answers = mcp_calls(root, tmp_path / "c", [("retrieve_context", {"task": p.task})
                                               for p in plants])
    for p, res in zip(plants, answers, strict=False):
        assert not res.is_error
        text = res.content[0].text + json.dumps(res.structured_content, ensure_ascii=False)
        assert p.rel in text
        assert_no_fragment(text, [p])


def test_a_result_sent_back_is_masked_in_every_word(trace_ws):
    """`redact_result` (renderContext with a result from the client) masks the trace and the
    reasons too, not only the regions: a learned term that is a credential is masked."""
    from iterative_retrieval.models import Concept, CycleTrace, FileResult, Query, RetrievalResult
    from iterative_retrieval.redact import redact_result

    _, plants = trace_ws
    key = "AKIA" + plants[0].secrets[0]
    q = Query(keywords=(Concept("aws", "word", 1.0), Concept(key, "learned", 0.6)),
              focus_areas=(key,))
    result = RetrievalResult(
        f"rotate {key}", [FileResult("a.py", 0.9, f"has `{key}`", [key], 1, [])],
        [CycleTrace(1, q, 1, 1, [], [key, "session"], gaps=[key])], {})
    out = json.dumps(redact_result(result).to_dict(), ensure_ascii=False)
    assert key not in out and "session" in out and out.count("«redacted: ") >= 6


def test_the_tasks_words_inside_a_secret_stay_readable(tmp_path):
    """A credential whose value holds the task's words (`Expiry9TokenXk2…`) is masked in the
    regions, and no 8 characters of it come out; the task's own words, `token` and `expiry`,
    stay in the task line, the reasons and the trace (they were all masked as its pieces)."""
    secret = "Expiry9TokenXk2Lq8Zp4Wm7Rt3Yv6Nb"
    root = tmp_path / "ws"
    make_repo(root, {
        "src/auth.py": "from src.token import token_expired\n\n\ndef authenticate(token):\n"
                       "    if token_expired(token):\n        raise PermissionError\n",
        "src/token.py": "EXPIRY_SECONDS = 3600\n\n\ndef token_expired(token):\n"
                        "    return token.age > EXPIRY_SECONDS\n",
        "src/settings.py": f"# token expiry of the auth service\nJWT_SECRET = \"{secret}\"\n"
                           "TOKEN_EXPIRY = 3600\n",
    })
    task = "fix the auth token expiry bug"
    for fmt in (["--regions"], ["--json"]):
        out = cli("retrieve", task, "--root", str(root), "--cache-dir", str(tmp_path / "c"), *fmt)
        assert out.returncode == 0, out.stderr
        assert not secrets_measure.leaked(secret, out.stdout.lower())
        assert "«redacted: secret»" in out.stdout  # settings.py was handed out, masked
        assert "«redacted: credential»" not in out.stdout
    result = json.loads(out.stdout)
    assert result["task"] == task
    assert {"src/auth.py", "src/token.py"} <= result_paths(result)
    auth = next(f for f in result["files"] if f["path"] == "src/auth.py")
    assert "token" in auth["reason"] and "expiry" in auth["reason"]
    assert {"token", "expiry"} <= set(result["trace"][0]["query"]["keywords"])


# -- secret files under harmless names, behind links, in secrets/ folders (items 2 and 3) --------


@pytest.fixture(scope="module", params=[True, False], ids=["git", "walk"])
def disguised(request, tmp_path_factory):
    """The corpus's credential files that no name rule knows: reached through a symlink with a
    harmless name (`settings.py -> .env`), recognised by content (a kubeconfig, a Docker
    config, Maven settings, Terraform state, .yarnrc...), or kept in `secrets/`/`credentials/`;
    and a Go package named `credentials/`, which is code and stays."""
    corpus = secrets_corpus.build()
    plants = [p for p in corpus.plants if p.secret_file]
    root = tmp_path_factory.mktemp("disguised") / "ws"
    root.mkdir()
    secrets_corpus.write(secrets_corpus.Corpus(plants=plants), root)
    (root / "pkg/credentials").mkdir(parents=True)
    (root / "pkg/credentials/provider.go").write_text(
        "package credentials\n\n// Provider retrieves credentials for the registry client.\n"
        "type Provider interface {\n\tRetrieve() (string, error)\n}\n")
    if request.param:
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "init")
    return root.resolve(), plants


def test_disguised_secret_files_are_counted_never_indexed_or_read(disguised, tmp_path):
    """None is listed as readable, indexed or readable through the engine; each is counted
    as skipped `secret` by `iterative-retrieval index`; the Go package is indexed."""
    root, plants = disguised
    listed = {f.rel: f.secret for f in Scope(root).files(with_secrets=True)}
    p = cli("index", "--root", str(root), "--cache-dir", str(tmp_path / "c"), "--json")
    assert p.returncode == 0, p.stderr
    # read once, to be recognised (the walk does not enter .ssh/, .m2/...: those are not seen)
    by_content = [q for q in plants if listed.get(q.rel) is False]
    assert by_content and len(by_content) < len(plants)
    # counted: the disguised ones and the named secret files the links point to
    assert json.loads(p.stdout)[0]["skipped"].get("secret") == sum(listed.values()) + len(
        by_content)
    engine = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    try:
        engine.refresh()
        idx = engine.index(root)
        for plant in plants:
            assert idx.file_id(plant.rel) is None, plant.rel
            if plant.rel in listed:
                assert idx.skip_reason(plant.rel) == "secret", plant.rel
            assert engine.read_text(root, plant.rel) is None, plant.rel
            assert engine.is_secret(root, plant.rel), plant.rel
            if plant.link is not None:  # judged by the target without reading it
                assert listed[plant.rel] is True
        assert idx.file_id("pkg/credentials/provider.go") is not None
        assert "pkg/credentials/provider.go" in engine.retrieve(
            "the registry credentials provider").to_dict()["files"][0]["path"]
    finally:
        engine.close()


def test_disguised_secret_files_never_reach_an_answer(disguised, tmp_path):
    """A task about each file (its own words) never hands out a piece of its secret, on the
    engine for all of them and through the command line for a few."""
    root, plants = disguised
    engine = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    try:
        for plant in plants:
            out = secrets_measure.outputs_of(engine.retrieve(plant.task), [root])
            assert_no_fragment("\n".join(out.values()), [plant])
    finally:
        engine.close()
    for plant in plants[:: max(1, len(plants) // 4)]:
        p = cli("retrieve", plant.task, "--root", str(root), "--cache-dir", str(tmp_path / "c"),
                "--json")
        assert p.returncode == 0, p.stderr
        assert_no_fragment(p.stdout, [plant])


def test_a_buffer_with_credential_content_is_refused(tmp_path):
    """An open buffer whose text is a kubeconfig is not indexed or kept, under any name; an
    open buffer through a link to `.env` is refused; the disk's files stay as they were."""
    corpus = secrets_corpus.build()
    kube = next(p for p in corpus.plants if p.fmt == "kubeconfig-other-name")
    root = write_files(tmp_path / "ws", {"deploy/notes.yaml": "replicas: 2\n", ".env": "A=1\n"})
    os.symlink(".env", root / "settings.py")
    engine = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    try:
        real = check_root(root)
        assert engine.set_document(str(real / "deploy/notes.yaml"), "replicas: 3\n")
        assert not engine.set_document(str(real / "deploy/notes.yaml"), kube.text)
        assert engine.read_text(real, "deploy/notes.yaml") == "replicas: 2\n"
        assert engine.index(real).skip_reason("deploy/notes.yaml") == "secret"
        assert not engine.set_document(str(real / "settings.py"), "A=2\n")
    finally:
        engine.close()


def test_mcp_explains_a_disguised_secret_file_as_never_handed_out(disguised, tmp_path):
    """explain_file on `settings.py -> .env` and on a kubeconfig under another name says it is
    a secret file, and quotes nothing of it."""
    root, plants = disguised
    link = next(p for p in plants if p.fmt == "symlinked-env")
    kube = next(p for p in plants if p.fmt == "kubeconfig-other-name")
    answers = mcp_calls(root, tmp_path / "c", [
        ("explain_file", {"path": p.rel, "task": p.task}) for p in (link, kube)])
    for p, res in zip((link, kube), answers, strict=False):
        text = res.content[0].text
        assert "secret file" in text, text
        assert_no_fragment(text, [p])


def test_a_credential_pasted_into_the_task_is_no_word_of_the_search(tmp_path):
    """A task that pastes a token (`ghp_…`) and a password (`password=…`, unquoted, mid-line)
    searches for the task's words only: no piece of either (`c838347`, `xk9`) is a keyword of
    the trace, a learned term or a word of the output, masked or not; the task line masks both."""
    token = "ghp_c838347Ab12Xyz98QwErTy65UiOp43AsDf21"
    password = "Xk9vQ2mLp7Rt4Wz8"
    root = tmp_path / "ws"
    make_repo(root, {
        "src/auth.py": "from src.token import token_expired\n\n\ndef login(token):\n"
                       "    if token_expired(token):\n        raise PermissionError\n",
        "src/token.py": "EXPIRY_SECONDS = 3600\n\n\ndef token_expired(token):\n"
                        "    return token.age > EXPIRY_SECONDS\n",
    })
    task = f"login fails with token {token} after expiry; my password={password} is right"
    out = cli("retrieve", task, "--root", str(root), "--cache-dir", str(tmp_path / "c"), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert token not in out.stdout and password not in out.stdout
    assert result["task"] == ("login fails with token «redacted: github-token» after expiry; "
                              "my password=«redacted: password» is right")
    words = {w for t in result["trace"] for w in t["query"]["keywords"] + t["learned"]}
    assert {"login", "token", "expiry", "password"} <= words, words
    pieces = [w for w in words if len(w) >= 3 and (w.lower() in token.lower()
                                                   or w.lower() in password.lower())]
    assert pieces in ([], ["token"]), pieces  # `token`: a word of the task, not of the token
    assert "redacted" not in words and "github" not in words
    assert {"src/auth.py", "src/token.py"} <= result_paths(result)

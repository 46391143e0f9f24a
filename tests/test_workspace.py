"""Which files are in scope: git's view, .gitignore, default and secret excludes, symlinks."""

import os
from pathlib import Path

import pytest

from iterative_retrieval.workspace import (
    Scope,
    WorkspaceError,
    check_root,
    is_secret,
    secret_target,
)

from .conftest import make_repo, write_files

FILES = {
    "src/app.py": "print('x')\n",
    "src/util.ts": "export const a = 1\n",
    "node_modules/lib/index.js": "x",
    "build/out.js": "x",
    "dist/bundle.min.js": "x",
    "package-lock.json": "{}",
    ".env": "SECRET=1",
    ".env.example": "SECRET=",
    "keys/server.pem": "-----BEGIN",
    "home/.ssh/id_rsa": "x",
    "ignored/thing.py": "x",
    "sub/.gitignore": "local.txt\n",
    "sub/local.txt": "x",
    "sub/kept.txt": "x",
    ".gitignore": "ignored/\n",
}


def rels(root):
    return sorted(f.rel for f in Scope(check_root(root)).files())


@pytest.mark.parametrize("use_git", [True, False])
def test_scope_excludes(tmp_path, use_git):
    """Default, secret and (nested) .gitignore excludes apply with and without git."""
    if use_git:
        make_repo(tmp_path, FILES)
    else:
        write_files(tmp_path, FILES)
    got = rels(tmp_path)
    assert "src/app.py" in got and "src/util.ts" in got and "sub/kept.txt" in got
    assert ".env.example" in got
    for bad in ["node_modules/lib/index.js", "build/out.js", "dist/bundle.min.js",
                "package-lock.json", ".env", "keys/server.pem", "home/.ssh/id_rsa",
                "ignored/thing.py", "sub/local.txt"]:
        assert bad not in got, bad


def test_a_copy_of_a_library_s_release_is_no_project_file(tmp_path):
    """A script or style sheet whose name or folder carries a release's version is a vendored
    third-party copy (Sphinx ships `jquery-3.5.1.js`, matplotlib `jquery-ui-1.12.1/`); the
    project's own scripts, versioned Python modules and two-part names stay."""
    files = {
        "pkg/static/jquery-3.5.1.js": "x", "pkg/static/underscore-1.13.1.min.js": "x",
        "pkg/static/bootstrap.4.6.2.css": "x", "web/jquery-ui-1.12.1/jquery-ui.js": "x",
        "web/jquery-ui-1.12.1/jquery-ui.css": "x",
        "pkg/static/doctools.js": "x", "pkg/static/searchtools-v2.js": "x",
        "web/js/es2015.js": "x", "web/js/jquery.dataTables-1.10.js": "x",
        "migrations/v1.2.3.py": "x", "pkg/compat_3.8.1.py": "x",
        "web/jquery-ui-1.12.1/README.md": "x",
    }
    make_repo(tmp_path, files)
    got = rels(tmp_path)
    assert {p for p in files if p not in got} == {
        "pkg/static/jquery-3.5.1.js", "pkg/static/underscore-1.13.1.min.js",
        "pkg/static/bootstrap.4.6.2.css", "web/jquery-ui-1.12.1/jquery-ui.js",
        "web/jquery-ui-1.12.1/jquery-ui.css"}, got
    assert not Scope(check_root(tmp_path)).admits("pkg/static/jquery-3.5.1.js")


def test_xcode_s_project_files_are_no_project_text(tmp_path):
    """Xcode writes `project.pbxproj` (every file of the project by name), schemes and each
    user's state: none is indexed. The project's Swift sources, its `Package.swift` and an
    `Info.plist` are."""
    files = {
        "Alamofire.xcodeproj/project.pbxproj": "/* Response.swift in Sources */",
        "Alamofire.xcodeproj/xcshareddata/xcschemes/Alamofire iOS.xcscheme": "<Scheme/>",
        "Alamofire.xcworkspace/contents.xcworkspacedata": "<Workspace/>",
        "Alamofire.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/xcschememanagement.plist": "x",
        "Alamofire.xcworkspace/xcuserdata/me.xcuserdatad/UserInterfaceState.xcuserstate": "x",
        "Source/Response.swift": "public struct Response {}", "Package.swift": "// swift",
        "Source/Info.plist": "<plist/>",
    }
    make_repo(tmp_path, files)
    got = rels(tmp_path)
    assert set(got) == {"Source/Response.swift", "Package.swift", "Source/Info.plist"}, got


def test_git_untracked_files_count(tmp_path):
    """In a git repo, untracked files that are not ignored are in scope."""
    make_repo(tmp_path, {"a.py": "x"})
    (tmp_path / "new.py").write_text("y")
    assert "new.py" in rels(tmp_path)


def test_project_ignore_file_and_settings(tmp_path):
    """The project ignore file and include/exclude settings narrow the scope."""
    write_files(tmp_path, {"a.py": "", "gen/b.py": "", "c.go": "",
                           ".iterative-retrieval-ignore": "gen/\n"})
    root = check_root(tmp_path)
    assert sorted(f.rel for f in Scope(root).files()) == [".iterative-retrieval-ignore", "a.py", "c.go"]
    assert [f.rel for f in Scope(root, include=["*.go"]).files()] == ["c.go"]
    assert "a.py" not in [f.rel for f in Scope(root, exclude=["a.py"]).files()]


def test_symlinks_out_of_root_and_loops(tmp_path):
    """A symlink out of the root is not followed; a symlink loop is harmless."""
    outside = tmp_path / "outside"
    write_files(outside, {"secret.py": "x"})
    root = tmp_path / "root"
    write_files(root, {"a.py": "x"})
    os.symlink(outside / "secret.py", root / "link.py")
    os.symlink(outside, root / "linkdir")
    os.symlink(root, root / "loop")
    got = rels(root)
    assert got == ["a.py"]


@pytest.mark.parametrize("name", [".env", ".env.production", "id_rsa", "id_ed25519.pub", "x.pem",
                                  "credentials.json", ".aws/credentials", "prod.key"])
def test_secret_names(name):
    """Files that hold secrets are recognised by name."""
    assert is_secret(name)


def test_check_root_errors(tmp_path):
    """A missing root or a file as root is a clear error."""
    with pytest.raises(WorkspaceError, match="does not exist"):
        check_root(tmp_path / "nope")
    f = tmp_path / "f.txt"
    f.write_text("x")
    with pytest.raises(WorkspaceError, match="not a folder"):
        check_root(f)


def test_a_virtualenv_folder_is_not_walked(tmp_path):
    """A folder holding pyvenv.cfg is a virtualenv, whatever its name; the root itself is not
    judged (a project may keep one at its top)."""
    root = write_files(tmp_path / "ws", {
        "pyvenv.cfg": "home = /usr\n", "app.py": "x = 1\n",
        "env-3.11/pyvenv.cfg": "home = /usr\n", "env-3.11/lib/site.py": "y = 2\n",
        "tools/gen.py": "z = 3\n",
    })
    rels = sorted(f.rel for f in Scope(check_root(root)).files())
    assert rels == ["app.py", "pyvenv.cfg", "tools/gen.py"]


@pytest.mark.parametrize("use_git", [True, False], ids=["git", "walk"])
def test_a_symlink_is_judged_by_its_target(tmp_path, use_git):
    """`settings.py -> .env` and `conf/identity -> ../.ssh/id_ed25519` are secret, though their
    names are harmless; a link to an ordinary file stays; a link out of the root stays out."""
    files = {".env": "DB_PASSWORD=x\n", ".ssh/id_ed25519": "key\n", "app.py": "x = 1\n",
             "conf/readme.txt": "notes\n"}
    root = (make_repo if use_git else write_files)(tmp_path / "ws", files)
    outside = write_files(tmp_path / "out", {"lib.py": "y = 2\n"})
    os.symlink(".env", root / "settings.py")
    os.symlink("../.ssh/id_ed25519", root / "conf/identity")
    os.symlink("app.py", root / "alias.py")
    os.symlink(outside / "lib.py", root / "lib.py")
    real = check_root(root)
    assert rels(root) == ["alias.py", "app.py", "conf/readme.txt"]
    every = {f.rel: f.secret for f in Scope(real).files(with_secrets=True)}
    assert every["settings.py"] and every["conf/identity"] and not every["alias.py"]
    assert "lib.py" not in every
    scope = Scope(real)
    assert not scope.admits("settings.py") and not scope.admits("conf/identity")
    assert scope.admits("alias.py")
    assert secret_target(real, real / "settings.py") and not secret_target(real, real / "app.py")


@pytest.mark.parametrize("rel,secret", [
    ("secrets/db_password.txt", True), ("deploy/secrets/api.json", True),
    ("credentials/token", True), ("Secrets/prod.yaml", True),
    ("pkg/credentials/provider.go", False), ("app/secrets/__init__.py", False),
    ("terraform.tfstate.backup", True), (".yarnrc", True), (".m2/settings.xml", True),
])
def test_secret_folders_and_names(rel, secret):
    """Data files in `secrets/` and `credentials/` folders are secret, program source in them is
    not (an SDK's credential providers); Terraform state backups, .yarnrc and .m2/ too."""
    assert is_secret(rel) is secret


def test_each_folder_s_own_include_and_exclude(tmp_path):
    """A root's own include/exclude (a workspace folder's settings) apply to that root only;
    a run's extra exclude adds to them, its own include narrows them."""
    from iterative_retrieval.config import Settings
    from iterative_retrieval.engine import Engine

    files = {"src/throttle.py": "def throttle(requests):\n    return requests\n",
             "gen/throttle_table.py": "THROTTLE = {'throttle': 1}\n",
             "tools/throttle_cli.py": "from src.throttle import throttle\n"}
    one, two = tmp_path / "one", tmp_path / "two"
    write_files(one, files)
    write_files(two, files)
    base = Settings(cache_dir=str(tmp_path / "cache"), exclude=("tools/**",))
    engine = Engine([one, two], base, folders={one: Settings(exclude=("gen/**",))})

    def found(settings=None):
        result = engine.retrieve("throttle requests", settings)
        return {(Path(f.root).name, f.path) for f in result.files}

    got = found()
    assert ("one", "gen/throttle_table.py") not in got and ("one", "tools/throttle_cli.py") in got
    assert ("two", "gen/throttle_table.py") in got and ("two", "tools/throttle_cli.py") not in got
    got = found(base.merged(exclude=("tools/**", "src/**")))
    assert not {p for r, p in got if p.startswith("src/")}
    assert ("one", "tools/throttle_cli.py") in got and ("one", "gen/throttle_table.py") not in got
    got = found(base.merged(include=("src/**",)))
    assert {p for _, p in got} == {"src/throttle.py"}
    # a run's own include narrows a folder that includes more; it does not widen it
    engine = Engine([one, two], base, folders={one: Settings(include=("src/**", "gen/**"))})
    assert {p for r, p in found() if r == "one"} == {"src/throttle.py", "gen/throttle_table.py"}
    assert {p for r, p in found(base.merged(include=("src/**",))) if r == "one"} \
        == {"src/throttle.py"}


def test_a_task_word_s_rarity_is_the_whole_workspace_s(tmp_path):
    """Two roots: the auth service says `token` and `expiry` everywhere, the API only in its
    token bucket. Alone, the bucket is the API's best match for "token expiry" and implements
    it; beside the auth service, whose words they are, it is no more than related."""
    from iterative_retrieval.config import Settings
    from iterative_retrieval.engine import Engine

    write_files(tmp_path / "auth", {
        "src/tokens.py": "def refresh_token(token):\n    if token.expiry < now():\n"
                         "        raise TokenExpired(token)\n    return issue_token(token.user)\n",
        "src/session.py": "from .tokens import refresh_token\n\ndef session_expiry(session):\n"
                          "    return session.token.expiry\n",
        "src/jwt_claims.py": "def read_expiry(claims):\n    return claims['exp']  # token expiry\n",
        "src/users.py": "def find_user(name):\n    return name\n"})
    write_files(tmp_path / "api", {
        "src/throttle.py": "class TokenBucket:\n    def take_token(self, request):\n"
                           "        # each request takes a token from the bucket\n        self.tokens -= 1\n",
        "src/routes.py": "def mount(app):\n    app.route('/orders')\n",
        "src/orders.py": "def list_orders(db):\n    return db.orders\n"})
    settings = Settings(cache_dir=str(tmp_path / "cache"))

    def ranked(*roots):
        result = Engine([tmp_path / r for r in roots], settings).retrieve("Fix the token expiry bug")
        return [(Path(f.root).name, f.path, f.relevance) for f in result.files]

    alone = ranked("api")
    assert alone[0][:2] == ("api", "src/throttle.py") and alone[0][2] >= 0.8, alone
    both = ranked("auth", "api")
    bucket = next(i for i, f in enumerate(both) if f[1] == "src/throttle.py")
    assert both[bucket][2] < 0.8, both
    assert {f[1] for f in both[:bucket]} == {"src/tokens.py", "src/session.py", "src/jwt_claims.py"}


def test_a_word_another_root_says_gets_no_stand_in(tmp_path):
    """Beside a web framework that says `blueprints`, a command-line library that does not
    learns no synonym for it (its `app` helpers are not "blueprints" there): alone it does, as
    a codebase that says a task's word in other words."""
    from iterative_retrieval.config import Settings
    from iterative_retrieval.engine import Engine

    write_files(tmp_path / "web", {
        "src/blueprints.py": "class Blueprint:\n    def __init__(self, name):\n"
                             "        self.name = name\n\n"
                             "def register_blueprint(app, blueprint):\n"
                             "    app.blueprints[blueprint.name] = blueprint\n",
        "src/routing.py": "def add_url_rule(rule, endpoint):\n    return (rule, endpoint)\n",
        "src/config.py": "DEFAULTS = {'DEBUG': False}\n"})
    write_files(tmp_path / "cli", {
        "cli/utils.py": "def get_app_dir(app_name):\n    if not app_name:\n"
                        "        raise ValueError('the name must not be empty')\n"
                        "    return '~/.' + app_name\n",
        "cli/parser.py": "def parse_args(args):\n    return list(args)\n",
        "cli/types.py": "class Choice:\n    def convert(self, value):\n        return value\n",
        "cli/termui.py": "def echo(message):\n    print(message)\n"})
    settings = Settings(cache_dir=str(tmp_path / "cache"))
    task = "Require a non-empty name for blueprints"

    def learned(*roots):
        result = Engine([tmp_path / r for r in roots], settings).retrieve(task)
        return result, {w for cycle in result.trace for w in cycle.learned}

    _, alone = learned("cli")
    assert "app" in alone, alone
    both, beside = learned("web", "cli")
    assert not beside & {"app", "application", "module"}, beside
    ranked = [(Path(f.root).name, f.path) for f in both.files]
    assert ranked[0] == ("web", "src/blueprints.py"), ranked

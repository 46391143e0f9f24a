"""Commit scopes against paths: names, parts of names, folders and folder words."""

from iterative_retrieval.scope import FOLDER, FOLDER_WORD, IN_NAME, NAME, path_keys, scope_matches

FILES = [
    "lib/adapters/http.js",
    "lib/adapters/xhr.js",
    "packages/runtime-core/src/rendererTemplateRef.ts",
    "packages/runtime-core/src/renderer.ts",
    "packages/compiler-core/src/transforms/vOn.ts",
    "packages/plugin-legacy/src/index.ts",
    "src/types.ts",
    "README.md",
]
KEYS = path_keys(list(enumerate(FILES)))


def matched(scope):
    return {FILES[fid]: m for fid, m in scope_matches(scope, KEYS).items()}


def test_a_file_name_beats_a_name_part_beats_a_folder():
    assert matched("http") == {"lib/adapters/http.js": NAME}
    assert matched("templateRef") == {"packages/runtime-core/src/rendererTemplateRef.ts": IN_NAME}
    assert matched("v-on") == {"packages/compiler-core/src/transforms/vOn.ts": NAME}
    core = matched("runtime-core")
    assert set(core) == {"packages/runtime-core/src/rendererTemplateRef.ts",
                         "packages/runtime-core/src/renderer.ts"}
    assert set(core.values()) == {FOLDER}
    assert matched("legacy") == {"packages/plugin-legacy/src/index.ts": FOLDER_WORD}


def test_plurals_meet_and_short_scopes_must_be_whole_names():
    assert matched("type") == {"src/types.ts": NAME}
    assert matched("ts") == {}  # not inside every *.ts name: only a file called ts would do
    assert matched("x") == {}
    assert matched("nothing-like-it") == {}


PACKAGES = [
    "Cargo.toml",
    "src/derive.rs",
    "src/_derive/mod.rs",
    "src/builder/command.rs",
    "clap_derive/Cargo.toml",
    "clap_derive/src/derives/args.rs",
    "clap_derive/src/lib.rs",
    "clap_complete/Cargo.toml",
    "clap_complete/src/engine/complete.rs",
    "clap_complete_fig/Cargo.toml",
    "clap_complete_fig/src/fig.rs",
    "packages/vite/package.json",
    "packages/vite/src/node/plugins/css.ts",
    "playground/css/package.json",
    "playground/css/main.js",
]
PKG_KEYS = path_keys(list(enumerate(PACKAGES)))


def in_packages(scope):
    return {PACKAGES[fid]: m for fid, m in scope_matches(scope, PKG_KEYS).items()}


def test_a_scope_that_names_a_package_is_that_package():
    # `fix(derive)` in a workspace of crates is the clap_derive crate: its files are in the
    # scope as a folder's are, and a file or folder called derive elsewhere only as a word is
    derive = in_packages("derive")
    assert derive["clap_derive/src/derives/args.rs"] == FOLDER
    assert derive["clap_derive/src/lib.rs"] == FOLDER
    assert derive["src/derive.rs"] == FOLDER_WORD
    assert derive["src/_derive/mod.rs"] == FOLDER_WORD
    assert "src/builder/command.rs" not in derive
    # the last word names the package, not any word: clap_complete_fig is another crate, in
    # the scope only by a word of its folder
    complete = in_packages("complete")
    assert complete["clap_complete/src/engine/complete.rs"] == NAME
    assert complete["clap_complete/Cargo.toml"] == FOLDER
    assert complete["clap_complete_fig/src/fig.rs"] == FOLDER_WORD
    assert in_packages("clap_complete")["clap_complete/src/engine/complete.rs"] == FOLDER


def test_a_scope_meets_its_package_by_the_stems_of_its_words():
    # Vue's history titles commits `fix(compile-sfc)` for packages/compiler-sfc
    files = ["packages/compiler-sfc/package.json", "packages/compiler-sfc/src/compileScript.ts",
             "packages/runtime-core/package.json", "packages/runtime-core/src/component.ts"]
    keys = path_keys(list(enumerate(files)))
    got = {files[fid]: m for fid, m in scope_matches("compile-sfc", keys).items()}
    assert got["packages/compiler-sfc/src/compileScript.ts"] == FOLDER
    assert "packages/runtime-core/src/component.ts" not in got
    # a scope that names a package as written is that package only
    assert set(scope_matches("runtime-core", keys)) == {2, 3}


def test_a_fixture_package_claims_no_scope():
    # vite's playground/css is a test fixture with a package.json: `fix(css)` stays css.ts
    css = in_packages("css")
    assert css["packages/vite/src/node/plugins/css.ts"] == NAME
    assert css["playground/css/main.js"] == FOLDER


def test_a_scope_written_as_a_path_holds_the_files_under_that_folder():
    """`router/trie-router` is every file under a folder whose path holds those segments (as
    squashed as scopes are), nested ones too; a single segment is no path."""
    from iterative_retrieval.scope import UNDER_PATH, under_path

    keys = path_keys(list(enumerate([
        "src/router/trie-router/node.ts", "src/router/trie-router/sub/x.ts",
        "src/router/reg-exp-router/node.ts", "src/trie-router/node.ts", "src/router/router.ts"])))
    assert under_path("router/trie-router", keys) == {0: UNDER_PATH, 1: UNDER_PATH}
    assert under_path("Router/TrieRouter", keys) == {0: UNDER_PATH, 1: UNDER_PATH}
    assert under_path("router", keys) == {} and under_path("router/nothing", keys) == {}

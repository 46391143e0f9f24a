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

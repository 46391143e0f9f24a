"""Outlines per language: definitions with exact spans and kinds, imports, and robustness."""

from __future__ import annotations

import random
import time

import pytest

from iterative_retrieval.languages import LANGUAGES, extract_outline, language_for
from iterative_retrieval.models import Outline


def spans(outline: Outline) -> list[tuple[str, str, int, int]]:
    return [(s.kind, s.name, s.start_line, s.end_line) for s in outline.symbols]


# Each case: language, source (line 1 is the first line), expected (kind, name, start, end)
# in order of appearance, expected imports in order.

PYTHON = '''\
import os
import a.b as ab, c
from . import views
from ..pkg.mod import (
    first,
    second as other,
)

MAX_RETRIES = 3
T: TypeAlias = dict[str, int]


@dataclass
class TokenStore(Base):
    """Stores tokens.

Text at column 0 inside a docstring does not end the class.
"""

    def get(self, key):
# a comment at column 0 does not end the method
        return self.data[key]

    @property
    async def refresh(
        self,
        force=False,
    ):
        def inner():
            return 1
        return inner()


def helper(): return 1
'''

TYPESCRIPT = """\
import { sign } from './jwt-utils';
import type { Token } from "../types";
import {
  a,
  b,
} from '@scope/pkg';
const fs = require('fs');
export * from './reexport';

export const TOKEN_TTL = 3600;
const MAX_RETRIES = 3;
let counter = 0;

export interface TokenStore {
  get(id: string): Promise<Token>;
  ttl: number;
}

export type Claims = { sub: string };

export enum Role { Admin, User }

export const refreshToken = async (token: string): Promise<string> => {
  const inner = () => 1;
  return sign(token);
};

export function verify(token: string) {
  const s = "{ not a brace";
  // } not a brace
  return true;
}

export class AuthService extends Base {
  private cache = new Map<string, string>();
  constructor(private store: TokenStore) {
    super();
  }

  async refresh(id: string): Promise<void> {
    if (id) {
      await this.store.get(id);
    }
  }

  handle = (e: Event) => {
    console.log(e);
  };
}
"""

JAVASCRIPT = """\
const express = require('express');
import('./lazy');

module.exports = function handler(req, res) {
  res.send('ok');
};

function* ids(token) {
  yield token;
}

class Store {
  static create() {
    return new Store();
  }
  get size() { return 0; }
  #secret() {}
}

const cb = function () {};
export const twice = x => x * 2;
"""

GO = """\
package auth

import "fmt"
import (
\t"context"
\tjwt "github.com/golang-jwt/jwt/v5"
)

const DefaultTTL = 3600

var (
\tErrExpired = fmt.Errorf("expired")
\tErrBad     = fmt.Errorf("bad {")
)

type Store interface {
\tGet(ctx context.Context, id string) (string, error)
}

type TokenService struct {
\tstore Store
}

type ID string

func NewService(s Store) *TokenService {
\treturn &TokenService{store: s}
}

func (t *TokenService) Refresh(ctx context.Context, id string) (string, error) {
\tif id == "" {
\t\treturn "", ErrBad
\t}
\treturn jwt.New(), nil
}
"""

JAVA = """\
package com.example.auth;

import java.util.Map;
import static java.util.Objects.requireNonNull;
import java.io.*;

@Service
public class TokenService implements Refresher {
    private static final int MAX_RETRIES = 3;
    private final Map<String, String> cache;

    public TokenService(Map<String, String> cache) {
        this.cache = cache;
    }

    @Override
    public String refresh(String id) throws IOException {
        if (id == null) {
            throw new IllegalArgumentException("{");
        }
        return cache.get(id);
    }

    interface Listener {
        void onRefresh(String id);
    }
}
"""

RUST = """\
use std::collections::HashMap;
use crate::auth::{Token, refresh as r, jwt::{sign, verify}};
mod store;

pub const MAX_TTL: u64 = 3600;

#[derive(Debug, Clone)]
pub struct Session<'a> {
    id: &'a str,
}

pub enum Role { Admin, User }

pub trait Store {
    fn get(&self, id: &str) -> Option<String>;
}

impl<'a> Session<'a> {
    pub fn new(id: &'a str) -> Self {
        let c = '{';
        Session { id }
    }

    pub fn refresh<T>(&self, t: T) -> String
    where
        T: Into<String>,
    {
        format!("{}", "}")
    }
}

fn helper() {}
"""

C = """\
#include <stdio.h>
#include "auth.h"

#define MAX_LEN 64
#define SQUARE(x) ((x) * (x))
#define SWAP(a, b) \\
    do { int t = a; a = b; b = t; } while (0)

typedef struct token {
    char data[MAX_LEN];
} token_t;

struct session {
    int id;
    void (*cb)(int);
};

static int counter = 0;

int refresh_token(token_t *t, const char *src);

static int
parse_header(const char *s)
{
    if (s[0] == '{') {
        return 1;
    }
    return 0;
}

int refresh_token(token_t *t, const char *src) {
    /* { not a brace */
    return strlen(src) > 0;
}
"""

CPP = """\
#include <string>
#include <vector>

namespace auth {

template <typename T>
class TokenStore : public Base {
public:
    TokenStore(int n) : n_(n) {}
    ~TokenStore();
    std::string refresh(const std::string &id) const {
        return id + "}";
    }
    virtual void clear() = 0;
private:
    int n_;
};

TokenStore::~TokenStore() {
}

std::vector<int> TokenStore::ids() {
    return {};
}

enum class Color : int { Red, Green };

using Id = std::string;

}  // namespace auth
"""

CSHARP = """\
using System;
using System.Collections.Generic;
using static System.Math;

namespace Auth.Tokens
{
    [Serializable]
    public class TokenService : ITokenService
    {
        private const int MaxRetries = 3;
        public string Name { get; set; }

        public TokenService(IStore store)
        {
            _store = store;
        }

        public async Task<string> RefreshAsync(string id)
        {
            var s = @"{ verbatim";
            return await _store.GetAsync(id);
        }
    }

    public interface IStore
    {
        Task<string> GetAsync(string id);
    }

    public enum Role { Admin, User }

    public record Token(string Value);
}
"""

RUBY = """\
require 'json'
require_relative "lib/auth"

module Auth
  MAX_RETRIES = 3

  class TokenService < Base
    attr_reader :store

    def initialize(store)
      @store = store
    end

    def refresh(id)
      if id.nil?
        raise ArgumentError, "end"
      end
      items.each do |x|
        puts x
      end
      store.get(id)
    end

    def self.build = new(Store.new)

    private

    def valid?(t) = t.size > 0
  end
end

def helper
  1
end
"""

PHP = """\
<?php
namespace App\\Auth;

use App\\Models\\User;
use App\\Support\\{Str, Arr};
require_once __DIR__ . '/helpers.php';

const MAX_RETRIES = 3;

interface TokenStore {
    public function get(string $id): ?string;
}

final class TokenService implements TokenStore
{
    const TTL = 3600;

    public function __construct(private TokenStore $store) {}

    public function get(string $id): ?string
    {
        // { comment
        return $this->store->get($id) . "}";
    }
}

function helper($x) {
    return $x;
}
"""

KOTLIN = """\
package auth

import kotlinx.coroutines.flow.Flow
import java.util.*

const val MAX_RETRIES = 3

typealias TokenMap = Map<String, String>

data class Token(val value: String, val ttl: Long)

interface Store {
    suspend fun get(id: String): String?
}

class TokenService(private val store: Store) : Store {
    override suspend fun get(id: String): String? {
        return store.get(id)
    }

    fun refresh(id: String) = "x"

    companion object {
        private const val TTL = 3600
        fun create(): TokenService = TokenService(InMemory())
    }
}

fun String.isToken(): Boolean {
    return startsWith("t")
}

object Registry {
    val ALL = mutableListOf<Token>()
}
"""

SWIFT = """\
import Foundation
@testable import AuthKit

let maxRetries = 3

protocol TokenStore {
    func get(_ id: String) -> String?
}

struct Token: Codable {
    let value: String
    static let empty = Token(value: "")
}

final class TokenService: TokenStore {
    private let store: [String: String]

    init(store: [String: String]) {
        self.store = store
    }

    func get(_ id: String) -> String? {
        return store[id]
    }

    class func shared() -> TokenService { TokenService(store: [:]) }
}

extension TokenService {
    func refresh() {}
}

enum Role { case admin, user }

typealias Claims = [String: Any]
"""

SCALA = """\
package auth

import scala.collection.mutable
import akka.actor.{Actor, Props => P}

object TokenService {
  val MaxRetries = 3

  def apply(store: Store): TokenService = new TokenService(store)
}

trait Store {
  def get(id: String): Option[String]
}

case class Token(value: String)

class TokenService(store: Store) extends Store {
  def get(id: String): Option[String] = {
    store.get(id)
  }

  def refresh(id: String): Unit =
    println(id)
}

type Claims = Map[String, String]
"""

SHELL = """\
#!/usr/bin/env bash
source ./lib/common.sh
. "$DIR/env.sh"

export MAX_RETRIES=3
LOG_DIR=/var/log

refresh_token() {
  local id="$1"
  echo "{ $id" # } comment
}

function cleanup {
  rm -rf "${TMP}"
}

main()
{
  refresh_token "$@"
}
"""

CASES = {
    "python": (
        PYTHON,
        [
            ("constant", "MAX_RETRIES", 9, 9),
            ("type", "T", 10, 10),
            ("class", "TokenStore", 13, 31),
            ("method", "get", 20, 22),
            ("method", "refresh", 24, 31),
            ("function", "inner", 29, 30),
            ("function", "helper", 34, 34),
        ],
        ["os", "a.b", "c", ".", ".views", "..pkg.mod", "..pkg.mod.first", "..pkg.mod.second"],
    ),
    "typescript": (
        TYPESCRIPT,
        [
            ("constant", "TOKEN_TTL", 10, 10),
            ("constant", "MAX_RETRIES", 11, 11),
            ("interface", "TokenStore", 14, 17),
            ("method", "get", 15, 15),
            ("type", "Claims", 19, 19),
            ("enum", "Role", 21, 21),
            ("function", "refreshToken", 23, 26),
            ("function", "verify", 28, 32),
            ("class", "AuthService", 34, 49),
            ("method", "constructor", 36, 38),
            ("method", "refresh", 40, 44),
            ("method", "handle", 46, 48),
        ],
        ["./jwt-utils", "../types", "@scope/pkg", "fs", "./reexport"],
    ),
    "javascript": (
        JAVASCRIPT,
        [
            ("function", "ids", 8, 10),
            ("class", "Store", 12, 18),
            ("method", "create", 13, 15),
            ("method", "size", 16, 16),
            ("method", "#secret", 17, 17),
            ("function", "cb", 20, 20),
            ("function", "twice", 21, 21),
        ],
        ["express", "./lazy"],
    ),
    "go": (
        GO,
        [
            ("constant", "DefaultTTL", 9, 9),
            ("variable", "ErrExpired", 12, 12),
            ("variable", "ErrBad", 13, 13),
            ("interface", "Store", 16, 18),
            ("struct", "TokenService", 20, 22),
            ("type", "ID", 24, 24),
            ("function", "NewService", 26, 28),
            ("method", "Refresh", 30, 35),
        ],
        ["fmt", "context", "github.com/golang-jwt/jwt/v5"],
    ),
    "java": (
        JAVA,
        [
            ("class", "TokenService", 7, 27),
            ("constant", "MAX_RETRIES", 9, 9),
            ("method", "TokenService", 12, 14),
            ("method", "refresh", 16, 22),
            ("interface", "Listener", 24, 26),
            ("method", "onRefresh", 25, 25),
        ],
        ["java.util.Map", "java.util.Objects.requireNonNull", "java.io.*"],
    ),
    "rust": (
        RUST,
        [
            ("constant", "MAX_TTL", 5, 5),
            ("struct", "Session", 7, 10),
            ("enum", "Role", 12, 12),
            ("interface", "Store", 14, 16),
            ("method", "get", 15, 15),
            ("method", "new", 19, 22),
            ("method", "refresh", 24, 29),
            ("function", "helper", 32, 32),
        ],
        [
            "std::collections::HashMap", "crate::auth", "crate::auth::Token",
            "crate::auth::refresh", "crate::auth::jwt", "crate::auth::jwt::sign",
            "crate::auth::jwt::verify", "store",
        ],
    ),
    "c": (
        C,
        [
            ("constant", "MAX_LEN", 4, 4),
            ("function", "SQUARE", 5, 5),
            ("function", "SWAP", 6, 7),
            ("struct", "token", 9, 11),
            ("struct", "session", 13, 16),
            ("function", "refresh_token", 20, 20),
            ("function", "parse_header", 22, 29),
            ("function", "refresh_token", 31, 34),
        ],
        ["stdio.h", "auth.h"],
    ),
    "cpp": (
        CPP,
        [
            ("class", "TokenStore", 6, 17),
            ("method", "TokenStore", 9, 9),
            ("method", "~TokenStore", 10, 10),
            ("method", "refresh", 11, 13),
            ("method", "clear", 14, 14),
            ("method", "~TokenStore", 19, 20),
            ("method", "ids", 22, 24),
            ("enum", "Color", 26, 26),
            ("type", "Id", 28, 28),
        ],
        ["string", "vector"],
    ),
    "csharp": (
        CSHARP,
        [
            ("class", "TokenService", 7, 23),
            ("constant", "MaxRetries", 10, 10),
            ("method", "TokenService", 13, 16),
            ("method", "RefreshAsync", 18, 22),
            ("interface", "IStore", 25, 28),
            ("method", "GetAsync", 27, 27),
            ("enum", "Role", 30, 30),
            ("class", "Token", 32, 32),
        ],
        ["System", "System.Collections.Generic", "System.Math"],
    ),
    "ruby": (
        RUBY,
        [
            ("module", "Auth", 4, 30),
            ("constant", "MAX_RETRIES", 5, 5),
            ("class", "TokenService", 7, 29),
            ("method", "initialize", 10, 12),
            ("method", "refresh", 14, 22),
            ("method", "build", 24, 24),
            ("method", "valid?", 28, 28),
            ("function", "helper", 32, 34),
        ],
        ["json", "lib/auth"],
    ),
    "php": (
        PHP,
        [
            ("constant", "MAX_RETRIES", 8, 8),
            ("interface", "TokenStore", 10, 12),
            ("method", "get", 11, 11),
            ("class", "TokenService", 14, 25),
            ("constant", "TTL", 16, 16),
            ("method", "__construct", 18, 18),
            ("method", "get", 20, 24),
            ("function", "helper", 27, 29),
        ],
        ["App\\Models\\User", "App\\Support", "App\\Support\\Str", "App\\Support\\Arr",
         "/helpers.php"],
    ),
    "kotlin": (
        KOTLIN,
        [
            ("constant", "MAX_RETRIES", 6, 6),
            ("type", "TokenMap", 8, 8),
            ("class", "Token", 10, 10),
            ("interface", "Store", 12, 14),
            ("method", "get", 13, 13),
            ("class", "TokenService", 16, 27),
            ("method", "get", 17, 19),
            ("method", "refresh", 21, 21),
            ("constant", "TTL", 24, 24),
            ("method", "create", 25, 25),
            ("function", "isToken", 29, 31),
            ("class", "Registry", 33, 35),
            ("constant", "ALL", 34, 34),
        ],
        ["kotlinx.coroutines.flow.Flow", "java.util.*"],
    ),
    "swift": (
        SWIFT,
        [
            ("constant", "maxRetries", 4, 4),
            ("interface", "TokenStore", 6, 8),
            ("method", "get", 7, 7),
            ("struct", "Token", 10, 13),
            ("constant", "empty", 12, 12),
            ("class", "TokenService", 15, 27),
            ("method", "init", 18, 20),
            ("method", "get", 22, 24),
            ("method", "shared", 26, 26),
            ("method", "refresh", 30, 30),
            ("enum", "Role", 33, 33),
            ("type", "Claims", 35, 35),
        ],
        ["Foundation", "AuthKit"],
    ),
    "scala": (
        SCALA,
        [
            ("class", "TokenService", 6, 10),
            ("constant", "MaxRetries", 7, 7),
            ("method", "apply", 9, 9),
            ("interface", "Store", 12, 14),
            ("method", "get", 13, 13),
            ("class", "Token", 16, 16),
            ("class", "TokenService", 18, 25),
            ("method", "get", 19, 21),
            ("method", "refresh", 23, 24),
            ("type", "Claims", 27, 27),
        ],
        ["scala.collection.mutable", "akka.actor", "akka.actor.Actor", "akka.actor.Props"],
    ),
    "shell": (
        SHELL,
        [
            ("constant", "MAX_RETRIES", 5, 5),
            ("constant", "LOG_DIR", 6, 6),
            ("function", "refresh_token", 8, 11),
            ("function", "cleanup", 13, 15),
            ("function", "main", 17, 20),
        ],
        ["./lib/common.sh", "$DIR/env.sh"],
    ),
}


@pytest.mark.parametrize("language", sorted(CASES))
def test_definitions_have_exact_names_kinds_and_spans(language):
    """Each language's snippet yields exactly the expected definitions, kinds and line spans."""
    source, expected, _ = CASES[language]
    assert spans(extract_outline(source, language)) == expected


@pytest.mark.parametrize("language", sorted(CASES))
def test_imports_are_recorded_as_written(language):
    """Each language's snippet yields exactly the expected imports, in order, deduplicated."""
    source, _, imports = CASES[language]
    assert list(extract_outline(source, language).imports) == imports


@pytest.mark.parametrize("language", sorted(CASES))
def test_crlf_line_endings_give_the_same_outline(language):
    """Windows line endings change neither names nor line numbers."""
    source = CASES[language][0]
    assert extract_outline(source.replace("\n", "\r\n"), language) == extract_outline(
        source, language)


# --------------------------------------------------------------------------------------------
# Language detection.


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/auth.py", "python"), ("typings/x.pyi", "python"),
        ("a.js", "javascript"), ("a.jsx", "javascript"), ("a.mjs", "javascript"),
        ("a.cjs", "javascript"),
        ("a.ts", "typescript"), ("a.tsx", "typescript"), ("a.mts", "typescript"),
        ("a.cts", "typescript"), ("types/index.d.ts", "typescript"),
        ("main.go", "go"), ("A.java", "java"), ("lib.rs", "rust"),
        ("x.c", "c"), ("x.h", "c"),
        ("x.cc", "cpp"), ("x.cpp", "cpp"), ("x.cxx", "cpp"), ("x.hpp", "cpp"), ("x.hh", "cpp"),
        ("x.hxx", "cpp"),
        ("X.cs", "csharp"), ("x.rb", "ruby"), ("tasks/db.rake", "ruby"), ("x.php", "php"),
        ("X.kt", "kotlin"), ("X.swift", "swift"), ("X.scala", "scala"),
        ("run.sh", "shell"), ("run.bash", "shell"),
        ("README.md", "markdown"), ("docs/index.rst", "rst"), ("ci.yml", "yaml"),
        ("ci.yaml", "yaml"), ("pyproject.toml", "toml"), ("package.json", "json"),
        ("notes.txt", "text"),
        ("Makefile", "make"), ("sub/GNUmakefile", "make"), ("Dockerfile", "dockerfile"),
        ("Dockerfile.dev", "dockerfile"), ("Rakefile", "ruby"), ("Gemfile", "ruby"),
        ("SRC\\AUTH.PY", "python"), ("Main.GO", "go"),
        ("LICENSE", None), ("archive.tar.xz", None), (".gitignore", None), ("", None),
    ],
)
def test_language_for_uses_special_names_then_extensions(path, language):
    """Paths map to languages by special file name first, then by case-insensitive extension."""
    assert language_for(path) == language


def test_language_table_keys_are_lower_case_extensions():
    """Every LANGUAGES key is a lower-case extension with its dot, so lookups are uniform."""
    assert all(ext.startswith(".") and ext == ext.lower() for ext in LANGUAGES)


# --------------------------------------------------------------------------------------------
# Behaviour details.


def test_python_start_line_includes_decorators_and_nesting_sets_kind():
    """Python definitions start at their first decorator; functions in classes are methods."""
    source = "class A:\n    @staticmethod\n    @cache\n    def f():\n        pass\n"
    assert spans(extract_outline(source, "python")) == [
        ("class", "A", 1, 5), ("method", "f", 2, 5)]


def test_annotations_start_definitions_but_annotated_fields_do_not():
    """Annotation lines above a method start it; an annotated field line above it does not."""
    source = (
        "class A {\n"
        "    @Autowired private Clock clock;\n"
        "    @Override\n"
        "    @Deprecated(since = \"2\")\n"
        "    public void run() {\n"
        "    }\n"
        "}\n"
    )
    assert spans(extract_outline(source, "java")) == [("class", "A", 1, 7), ("method", "run", 3, 6)]


def test_python_only_module_level_upper_case_assignments_are_constants():
    """Lower-case and indented assignments are not constants; UPPER_CASE at column 0 are."""
    source = "X = 1\nx = 2\nY: int = 3\nif True:\n    Z = 4\nA == 5\n"
    assert [s.name for s in extract_outline(source, "python").symbols] == ["X", "Y"]


def test_python_multiline_constant_spans_its_brackets():
    """A constant assigned a multi-line literal ends where the literal closes."""
    source = "ROUTES = {\n    'a': 1,\n    'b': 2,\n}\n\ndef f():\n    pass\n"
    assert spans(extract_outline(source, "python"))[0] == ("constant", "ROUTES", 1, 4)


def test_braces_inside_strings_and_comments_do_not_end_definitions():
    """Braces in strings, template literals, chars and comments do not affect spans."""
    source = (
        "function f() {\n"
        "  const a = '}}}';\n"
        "  const b = `${x} }`;\n"
        "  // }\n"
        "  /* } */\n"
        "  return a;\n"
        "}\n"
        "function g() {}\n"
    )
    assert spans(extract_outline(source, "javascript")) == [
        ("function", "f", 1, 7), ("function", "g", 8, 8)]


def test_template_literals_nested_in_a_template_do_not_unbalance_braces():
    """A template inside a template's `${…}` (a list rendered as tags, a quoted name) keeps
    the outer literal whole: its backticks used to end it, and the braces and quotes after it
    then counted as code until the file's end."""
    source = (
        "export function render(xs: string[]): string {\n"
        "  const names = `${xs.map((x) => `\\`${x}\\``).join(', ')} {`;\n"
        "  return `<ul>${xs.map((x) => `<li>${x}</li>`).join('')}</ul> }`;\n"
        "}\n"
        "\n"
        "export function summary(n: number): string {\n"
        "  return `${n} file${n === 1 ? '' : 's'}`;\n"
        "}\n"
        "export class Bar {\n"
        "  error(message: string): void {\n"
        "    this.text = `${message.split('\\n').map((l) => `> ${l}`).join('\\n')}`;\n"
        "  }\n"
        "  stop(): void {}\n"
        "}\n"
    )
    assert spans(extract_outline(source, "typescript")) == [
        ("function", "render", 1, 4), ("function", "summary", 6, 8), ("class", "Bar", 9, 14),
        ("method", "error", 10, 12), ("method", "stop", 13, 13)]


def test_js_regex_literals_do_not_unbalance_braces():
    """Braces and quotes inside JS regex literals are not counted; division is left alone."""
    source = (
        "export class Store {\n"
        "  get(k) {\n"
        "    return /}/.test(k) && k.length / 2 > 1;\n"
        "  }\n"
        "\n"
        "  set(k) {\n"
        "    this.k = k.replace(/'/g, \"\").match(/[{]/);\n"
        "  }\n"
        "}\n"
    )
    assert spans(extract_outline(source, "typescript")) == [
        ("class", "Store", 1, 9), ("method", "get", 2, 4), ("method", "set", 6, 8)]


def test_lost_closing_brace_is_recovered_at_next_top_level_definition():
    """A function left open by `#if` branches ends where the next unindented function starts."""
    source = (
        "int f(int a)\n"
        "{\n"
        "#ifdef X\n"
        "    if (a) {\n"
        "#else\n"
        "    if (!a) {\n"
        "#endif\n"
        "        return 1;\n"
        "    }\n"
        "    return 0;\n"
        "}\n"
        "\n"
        "int g(void)\n"
        "{\n"
        "    return 2;\n"
        "}\n"
    )
    assert spans(extract_outline(source, "c")) == [
        ("function", "f", 1, 11), ("function", "g", 13, 16)]


def test_commented_out_definitions_are_ignored():
    """Definitions inside block comments and strings are not reported."""
    source = "/*\nfunction dead() {}\n*/\nconst s = `\nfunction alsoDead() {}\n`;\n"
    assert extract_outline(source, "javascript").symbols == ()


def test_unbalanced_brace_falls_back_to_a_bounded_end():
    """An unterminated body ends before the next definition, or within the fallback span."""
    source = "function a() {\n  x();\n\nfunction b() {\n  y();\n"
    assert spans(extract_outline(source, "javascript")) == [
        ("function", "a", 1, 2), ("function", "b", 4, 5)]
    long = "function a() {\n" + "  x();\n" * 200
    (sym,) = extract_outline(long, "javascript").symbols
    assert sym.end_line - sym.start_line <= 50


def test_extra_closing_braces_do_not_stop_later_definitions():
    """Stray closing braces are ignored and later definitions are still found."""
    source = "}}}\nfunction a() {\n}\n}\nfunction b() {\n}\n"
    assert spans(extract_outline(source, "javascript")) == [
        ("function", "a", 2, 3), ("function", "b", 5, 6)]


def test_qualified_names_are_recorded_plainly():
    """`Foo::bar`, `self.build` and `String.isToken` are recorded as `bar`, `build`, `isToken`."""
    cpp = extract_outline("void Foo::bar() {\n}\n", "cpp").symbols
    ruby = extract_outline("class A\n  def self.build\n  end\nend\n", "ruby").symbols
    kotlin = extract_outline("fun String.isToken() = true\n", "kotlin").symbols
    assert [s.name for s in cpp + ruby + kotlin] == ["bar", "A", "build", "isToken"]


def test_locals_inside_function_bodies_are_not_definitions():
    """Locals in brace-language function bodies are skipped; JavaScript's function
    declarations are not (a factory or a module closure declares its API inside one, as
    fastify's `function fastify(opts) { … function addHook() … }`), at any depth, as Python's
    nested defs; another language's nested functions are."""
    source = (
        "function outer() {\n"
        "  function inner() {\n"
        "    async function deeper() {}\n"
        "  }\n"
        "  const MAX = 1;\n"
        "  const helper = () => 1;\n"
        "  if (MAX) {\n"
        "    function* gen() {}\n"
        "  }\n"
        "}\n"
        "function after() {}\n"
    )
    assert spans(extract_outline(source, "javascript")) == [
        ("function", "outer", 1, 10), ("function", "inner", 2, 4), ("function", "deeper", 3, 3),
        ("function", "gen", 8, 8), ("function", "after", 11, 11)]
    rust = "fn outer() {\n    fn inner() {}\n    let x = 1;\n}\n"
    assert spans(extract_outline(rust, "rust")) == [("function", "outer", 1, 4)]


def test_an_object_literals_functions_are_definitions():
    """An object literal's functions are its API, at the top (`module.exports = {…}`) or
    returned by a factory (SvelteKit's `create_client` returns `{ goto: (href) => {…} }`);
    calls with callbacks, control blocks, a type literal's function types and arrows without a
    block body are not definitions."""
    source = (
        "module.exports = {\n"
        "  compile: function (src) {\n"
        "    return src\n"
        "  },\n"
        "  async render(tpl, data) {\n"
        "    return tpl\n"
        "  },\n"
        "  get size() {\n"
        "    return 1\n"
        "  }\n"
        "}\n"
        "export function create_client(target) {\n"
        "  describe('x', function () {\n"
        "  })\n"
        "  it('y', async () => {\n"
        "  })\n"
        "  if (target) {\n"
        "  }\n"
        "  const local = (x) => {\n"
        "    return x\n"
        "  }\n"
        "  return {\n"
        "    goto: (href, opts = {}) => {\n"
        "      return href\n"
        "    },\n"
        "    short: (x) => x,\n"
        "  }\n"
        "}\n"
        "type Props = {\n"
        "  onClick: (e: Event) => void\n"
        "  label(): string;\n"
        "}\n"
    )
    assert spans(extract_outline(source, "typescript")) == [
        ("method", "compile", 2, 4), ("method", "render", 5, 7), ("method", "size", 8, 10),
        ("function", "create_client", 12, 28), ("method", "goto", 23, 25),
        ("type", "Props", 29, 32)]


def test_commonjs_assignments_of_functions_are_definitions():
    """CommonJS defines its API by assignment: `Reply.prototype.hijack = function`, express's
    `app.use = function use`, `exports.compile = …`, `module.exports.render = async () =>`.
    `module.exports = function` names nothing; an assigned value that is no function is no
    definition; `module` is no TypeScript namespace there."""
    source = (
        "Reply.prototype.hijack = function () {\n"
        "  this.hijacked = true\n"
        "}\n"
        "app.use = function use (fn) {\n"
        "  return this\n"
        "}\n"
        "exports.compile = (src) => src\n"
        "module.exports.render = async (a) => {\n"
        "  return a\n"
        "}\n"
        "module.exports = function createApp () {\n"
        "  return 1\n"
        "}\n"
        "app.settings = {}\n"
        "declare module 'x' {\n"
        "  export function typed(): void\n"
        "}\n"
    )
    assert spans(extract_outline(source, "typescript")) == [
        ("method", "hijack", 1, 3), ("function", "use", 4, 6), ("function", "compile", 7, 7),
        ("function", "render", 8, 10), ("function", "typed", 16, 16)]


def test_go_generic_and_grouped_type_declarations():
    """Go generics and `type (...)` groups yield their types with their own spans."""
    source = (
        "type (\n"
        "\tPair[K comparable, V any] struct {\n"
        "\t\tKey K\n"
        "\t}\n"
        "\tName string\n"
        ")\n"
        "func Map[T any](xs []T) []T {\n"
        "\treturn xs\n"
        "}\n"
    )
    assert spans(extract_outline(source, "go")) == [
        ("struct", "Pair", 2, 4), ("type", "Name", 5, 5), ("function", "Map", 7, 9)]


def test_ruby_blocks_and_one_line_methods_keep_end_depth():
    """`do` blocks, `while ... do`, modifiers and one-line defs keep Ruby `end` matching right."""
    source = (
        "class A\n"
        "  def a; end\n"
        "  def b\n"
        "    while x do\n"
        "      y\n"
        "    end\n"
        "    return 1 if z\n"
        "    list.map { |q| q }\n"
        "  end\n"
        "end\n"
    )
    assert spans(extract_outline(source, "ruby")) == [
        ("class", "A", 1, 10), ("method", "a", 2, 2), ("method", "b", 3, 9)]


def test_makefile_targets_and_includes():
    """Make targets span their recipe lines; UPPER variables are constants; includes import."""
    source = (
        "include common.mk\nCC := gcc\n\nbuild: deps\n\t$(CC) -o app\n\tstrip app\n\n"
        ".PHONY: build\n"
    )
    outline = extract_outline(source, language_for("Makefile"))
    assert spans(outline) == [("constant", "CC", 2, 2), ("function", "build", 4, 6)]
    assert outline.imports == ("common.mk",)


def test_unknown_language_uses_generic_keywords():
    """Languages without a table (Lua here) and None still find keyword-led definitions."""
    source = "local function helper(x)\n  return x\nend\n\nfunction M.run()\n  helper(1)\nend\n"
    for language in ("lua", None):
        assert spans(extract_outline(source, language)) == [
            ("function", "helper", 1, 3), ("function", "run", 5, 7)]


@pytest.mark.parametrize("language", ["markdown", "yaml", "json", "toml", "text", "rst"])
def test_text_kinds_have_empty_outlines(language):
    """Documentation and data formats produce no symbols and no imports."""
    assert extract_outline("# Title\nfunction x() {}\nimport os\n", language) == Outline()


# --------------------------------------------------------------------------------------------
# Robustness.

ALL_LANGUAGES = sorted(set(LANGUAGES.values()) | {"make", "unknown-lang"}) + [None]


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_empty_text_gives_empty_outline(language):
    """Empty input yields an empty Outline for every language."""
    assert extract_outline("", language) == Outline()


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_binary_and_odd_unicode_never_raise(language):
    """NUL bytes, control characters, surrogates, odd Unicode and random punctuation never raise."""
    rng = random.Random(7)
    alphabet = "{}()[]\"'`/*#\n\\ ab=;:<>@$\x00\x01é\u2028😀"
    noise = "".join(rng.choice(alphabet) for _ in range(20000))
    binary = bytes(range(256)).decode("latin-1") * 20
    for text in (noise, binary, "\ud800 def x(): pass", "\x00" * 1000):
        assert isinstance(extract_outline(text, language), Outline)


def test_non_string_input_does_not_raise():
    """Bytes are decoded and None or other objects give an empty outline instead of an error."""
    assert [s.name for s in extract_outline(b"def f():\n    pass\n", "python").symbols] == ["f"]
    assert extract_outline(None, "python") == Outline()  # type: ignore[arg-type]
    assert extract_outline(42, 42) == Outline()  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["python", "javascript", "c", "ruby", "rust", None])
def test_huge_single_line_finishes_quickly(language):
    """A 10 MB single-line file (minified or data) is handled in well under a second."""
    for text in ("x" * 10_000_000, "{" * 10_000_000, '"\\' * 5_000_000, "/*" * 5_000_000):
        start = time.perf_counter()
        outline = extract_outline(text, language)
        assert time.perf_counter() - start < 2.0
        assert outline.symbols == ()


@pytest.mark.parametrize("language", ["javascript", "java", "c", "go", "ruby", "python"])
def test_deep_nesting_finishes_quickly(language):
    """Fifty thousand nested blocks and definitions are processed in linear time."""
    texts = ["{\n" * 50_000, "function f() {\n" * 20_000, "def f():\n" + "    if x:\n" * 5_000]
    for text in texts:
        start = time.perf_counter()
        assert isinstance(extract_outline(text, language), Outline)
        assert time.perf_counter() - start < 5.0


PAD = " " * 250
PADDED = {
    # gofmt aligns a group's columns; generated files (zerrors_*.go) pad them by tens of spaces
    "go": ("const (\n" + "".join(f"\tERROR_{i}{PAD * 4}Errno = {i}\n" for i in range(1500))
           + ")\n", "constant", "ERROR_"),
    "typescript": ("class Codes {\n" + "".join(f"  private code{i}{PAD}: number;\n"
                                                 for i in range(1500)) + "  run() {}\n}\n",
                   "method", "run"),
    "swift": ("".join(f"public{PAD}func f{i}() {{}}\npublic{PAD}subscript(i: Int) -> T {{}}\n"
                      for i in range(1500)), "function", "f"),
}


@pytest.mark.parametrize("language", sorted(PADDED))
def test_lines_padded_into_columns_finish_quickly(language):
    """Long whitespace runs inside lines cost linear time: no pattern backtracks over them
    (at 1000 spaces the old Go group item took 8 ms a line; at 250, the TypeScript
    member 8 ms and the Swift modifiers 6 ms)."""
    text, kind, prefix = PADDED[language]
    start = time.perf_counter()
    outline = extract_outline(text, language)
    assert time.perf_counter() - start < 2.0
    found = [s.name for s in outline.symbols if s.kind == kind and s.name.startswith(prefix)]
    assert len(found) == (1 if language == "typescript" else 1500)


def test_symbols_and_imports_are_capped():
    """At most 2000 symbols and 500 imports are returned for one file."""
    source = "".join(f"import m{i}\n" for i in range(900)) + "def f():\n    pass\n" * 3000
    outline = extract_outline(source, "python")
    assert len(outline.symbols) == 2000
    assert len(outline.imports) == 500


def test_every_span_is_ordered_and_inside_the_file():
    """Every symbol has 1 <= start <= end <= number of lines, for every snippet."""
    for language, (source, _, _) in CASES.items():
        lines = source.count("\n") + 1
        for s in extract_outline(source, language).symbols:
            assert 1 <= s.start_line <= s.end_line <= lines, (language, s)


def test_typical_file_is_fast():
    """A realistic 300-line file takes a few milliseconds at most (target < 2 ms)."""
    source = (PYTHON * 9)[: PYTHON.count("\n")] + PYTHON * 8
    ts = TYPESCRIPT * 6
    for text, language in ((source, "python"), (ts, "typescript")):
        extract_outline(text, language)
        start = time.perf_counter()
        for _ in range(20):
            extract_outline(text, language)
        assert (time.perf_counter() - start) / 20 < 0.02


def test_go_imports_anywhere_a_line_starts_with_import():
    """Indented, late (invalid Go, as in test data) and one-line blocks count; an `import` in a
    comment or a string does not, and one inside a block is read as an item (`alias "path"`)."""
    src = (
        "package p\n"
        "  import \"a\"\n"
        "// import \"no1\"\n"
        "var s = `\nimport \"no2\"\n`\n"
        "import ( \"b\"; \"c\" )\n"
        "func f() {}\n"
        "import (\n"
        "\t\"d\" // import \"no3\"\n"
        "\t/* \"no4\" */\n"
        "import \"e\"\n"
        ")\n"
        "import \"f\"\n"
        "import (\n"
        "\t\"g\"\n"
    )
    assert extract_outline(src, "go").imports == ("a", "b", "c", "d", "e", "f", "g")


def test_cleaning_keeps_lines_and_blanks_strings_and_comments(monkeypatch):
    """A string becomes "", a comment a space, each line a token spans is kept (marked \\x01
    after its first); with too many tokens the text is scanned as it is."""
    from iterative_retrieval.languages import clean, go

    rx = go.SPEC.cleaner
    src = 'a := "x{" + `raw\n{\n` // c {\n/* b\n{ */ b\'{\'\n'
    assert clean.clean(rx, src) == 'a := "" + ""\n\x01\n\x01  \n \n\x01 b""\n'
    monkeypatch.setattr(clean, "MAX_TOKENS", 4)
    assert clean.clean(rx, src) == src


def test_an_anonymous_javascript_class_is_the_module_s_default():
    """`export default class extends Controller` (Stimulus's controllers, Vue's class
    components) names no class `extends`: it is the module's `default`, and its methods are
    members of it; a named class that extends another keeps its name."""
    source = (
        "export default class extends Controller {\n"
        "  connect() {\n"
        "    this.element.textContent = 'hi'\n"
        "  }\n"
        "}\n"
        "export class Panel extends Base {\n"
        "  open() { return 1 }\n"
        "}\n"
    )
    assert spans(extract_outline(source, "javascript")) == [
        ("class", "default", 1, 5), ("method", "connect", 2, 4), ("class", "Panel", 6, 8),
        ("method", "open", 7, 7)]


def test_an_object_literal_s_one_line_methods_are_definitions():
    """Vue's options (`mounted() {}`), a handler table's `onError(err) { log(err) },` and a
    factory's returned object define functions on one line too; a call with a callback on one
    line (`it('y', () => { z() })`) and `if (x) { y() }` define nothing."""
    source = (
        "const handlers = {\n"
        "  onError(err) { log(err) },\n"
        "  async onEnd() { done() },\n"
        "}\n"
        "function make () {\n"
        "  if (x) { y() }\n"
        "  return {\n"
        "    start(a) { run(a) },\n"
        "  }\n"
        "}\n"
        "describe('x', () => { it('y', () => { z() }) })\n"
    )
    assert spans(extract_outline(source, "javascript")) == [
        ("method", "onError", 2, 2), ("method", "onEnd", 3, 3), ("function", "make", 5, 10),
        ("method", "start", 8, 8)]


def test_an_object_literal_s_one_line_arrow_members_are_definitions():
    """`onData: (c) => { push(c) },` defines a function as its multi-line form does; a type
    literal's member returning an object type (`make: () => { id: string },`), an expression
    body and a call's callback define nothing."""
    source = (
        "const handlers = {\n"
        "  onData: (c) => { push(c) },\n"
        "  onEnd: async () => { await done() },\n"
        "  pick: (a) => { return a ? b : c },\n"
        "  parse: (x) => x.trim(),\n"
        "}\n"
        "interface Opts {\n"
        "  make: () => { id: string },\n"
        "  other: () => { id?: string },\n"
        "}\n"
        "emitter.on('data', (c) => { push(c) })\n"
    )
    assert spans(extract_outline(source, "typescript")) == [
        ("method", "onData", 2, 2), ("method", "onEnd", 3, 3), ("method", "pick", 4, 4),
        ("interface", "Opts", 7, 10)]

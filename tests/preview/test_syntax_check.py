"""The document the page's engine parses a script in, and what its error means."""

from __future__ import annotations

import base64
import re

import pytest

from wiggum.preview.syntax_check import (
    CHECK_MESSAGE,
    looks_like_module,
    parse_document,
    read_check,
    retry_as_module,
    syntax_error,
    with_prefix,
)


def test_the_prefix_goes_on_the_first_line_after_a_hashbang_and_use_strict():
    assert with_prefix("a();\nb();", "P;") == "P;a();\nb();"
    assert with_prefix("#!/usr/bin/env node\nx();", "P;") == "#!/usr/bin/env node\nP;x();"
    assert with_prefix('"use strict";\nx();', "P;") == '"use strict";P;\nx();'
    # A directive without its semicolon gets one, or the prefix would join it.
    assert with_prefix("'use strict'\nx();", "P;") == "'use strict';P;\nx();"
    assert with_prefix("#!only a hashbang", "P;") == "#!only a hashbang"


@pytest.mark.parametrize(
    ("path", "source", "module"),
    [
        ("a.mjs", "x = 1", True),
        ("a.js", "import { x } from './x.js';", True),
        ("a.js", "  export const y = 1;", True),
        ("a.js", "const imported = 1; // import x", False),
        ("a.js", "import('./lazy.js')", False),
    ],
)
def test_what_looks_like_a_module(path, source, module):
    assert looks_like_module(path, source) is module


def scripts(document: str) -> list[tuple[str, str]]:
    found = re.findall(
        r'<(script(?: type=module)?) src="data:text/javascript;base64,([^"]+)"', document
    )
    return [(tag, base64.b64decode(code).decode()) for tag, code in found]


def test_the_document_reports_its_first_error_and_never_runs_the_code():
    classic = parse_document("let x = 1;\nx();", module=False)
    assert f'type: "{CHECK_MESSAGE}"' in classic
    assert scripts(classic) == [("script", 'throw "__wiggum_parsed_ok__";let x = 1;\nx();')]
    module = parse_document("export const é = 1;", module=True)
    assert scripts(module) == [
        ("script type=module", 'import "wiggum-parse-only-never-resolves";export const é = 1;')
    ]


def test_only_a_syntax_error_is_an_answer():
    assert syntax_error("SyntaxError", "Uncaught SyntaxError: Unexpected token '}'", 3) == (
        "SyntaxError: Unexpected token '}' (line 3)"
    )
    assert syntax_error("", "SyntaxError: Unexpected end of input", 0) == (
        "SyntaxError: Unexpected end of input"
    )
    # The sentinel (thrown, or failing to resolve): the code parsed.
    assert syntax_error("", "Uncaught __wiggum_parsed_ok__", 1) is None
    assert syntax_error("TypeError", "Failed to resolve module specifier", 1) is None


def test_a_classic_parse_that_refuses_import_is_tried_as_a_module():
    refused = "SyntaxError: Cannot use import statement outside a module (line 1)"
    assert retry_as_module(refused, module=False)
    assert not retry_as_module(refused, module=True)
    assert not retry_as_module(None, module=False)
    assert not retry_as_module("SyntaxError: Unexpected token (line 2)", module=False)


def test_a_check_message_is_read_only_in_its_shape():
    error = {"name": "SyntaxError", "message": "Unexpected token '}'", "line": 3}
    assert read_check({"type": CHECK_MESSAGE, "error": error}) == "Unexpected token '}' (line 3)"
    assert read_check({"type": CHECK_MESSAGE, "error": {**error, "line": 3.0}}).endswith("(line 3)")
    assert read_check({"type": CHECK_MESSAGE, "error": {**error, "line": "3"}}) == (
        "Unexpected token '}'"
    )
    assert read_check({"type": CHECK_MESSAGE, "error": None}) is None  # it parsed
    assert read_check({"type": CHECK_MESSAGE, "error": {"name": "ReferenceError"}}) is None
    assert read_check(None) is None and read_check({"error": "SyntaxError"}) is None

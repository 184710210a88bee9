#!/usr/bin/env python3
"""Reference renderer for the chat-template test: renders chat templates with Python's jinja2,
configured the way Hugging Face transformers configures it, so the C++ interpreter can be compared
byte for byte.

Usage: render_jinja2.py TEMPLATE_DIR CONVERSATIONS.json OUT.json

Environment: ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with the
loopcontrols extension, a `{% generation %}` tag (transformers renders its body as a call block),
`tojson` = json.dumps(x, ensure_ascii=False, indent=..., separators=..., sort_keys=...), and the
globals raise_exception(message) and strftime_now(format). strftime_now formats a fixed date
(FIXED_NOW) so that both renderers print the same text.

OUT.json: {"jinja2_version": "...", "results": [{"template": FILE, "conversation": ID,
"output": TEXT} or {"template": FILE, "conversation": ID, "error": "Type: message"}, ...]}.
A template that does not compile gives one error per conversation.
"""
import datetime
import json
import os
import sys

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

# Keep in sync with kFixedNow in ChatTemplateConformanceTest.cpp.
FIXED_NOW = datetime.datetime(2025, 3, 14, 9, 26, 53)


class GenerationTag(Extension):
    """{% generation %}...{% endgeneration %}: the body renders as the body of a call block
    (its own scope, like a macro's caller), which is how transformers treats it."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        call = self.call_method("_render_body")
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render_body(self, caller):
        return caller()


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def strftime_now(fmt):
    return FIXED_NOW.strftime(fmt)


def make_environment():
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[GenerationTag, loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def main():
    template_dir, conversations_path, out_path = sys.argv[1:4]
    with open(conversations_path, encoding="utf-8") as f:
        conversations = json.load(f)
    env = make_environment()
    results = []
    for name in sorted(os.listdir(template_dir)):
        if not name.endswith(".jinja"):
            continue
        with open(os.path.join(template_dir, name), encoding="utf-8", newline="") as f:
            source = f.read()
        try:
            template = env.from_string(source)
            compile_error = None
        except Exception as e:  # noqa: BLE001 - any failure is a result to compare
            template = None
            compile_error = f"{type(e).__name__}: {e}"
        for conv in conversations:
            entry = {"template": name, "conversation": conv["id"]}
            if compile_error is not None:
                entry["error"] = compile_error
            else:
                try:
                    entry["output"] = template.render(**conv["context"])
                except Exception as e:  # noqa: BLE001
                    entry["error"] = f"{type(e).__name__}: {e}"
            results.append(entry)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"jinja2_version": jinja2.__version__, "results": results}, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
